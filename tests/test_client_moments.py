"""Why the player may do only this now (client/ui/moments.py), and where the match stands
(client/ui/standings.py): the special moments of each variant, and the match-over page with what
the scores mean. Pure functions of the model's state; no terminal."""

from __future__ import annotations

import pytest

from neveryu.client.ui import model
from neveryu.client.ui.moments import moment
from neveryu.client.ui.standings import standings
from neveryu.client.ui.texts import Texts


def state(variant, legal, *, turn=0, last=None, waiting=(), away=False, **more):
    seats = [
        {"seat": i, "name": n, "bot": None, "ready": True, "away": away and i == 0}
        for i, n in enumerate(["Ann", "Bob", "Cid"])
    ]
    table = {"id": 1, "variant": variant, "options": {}, "state": "playing", "seats": seats}
    base = {"lay": None, "challenge": None, "believe": None, "declare_none": None, "discard_quads": []}
    return model.State(
        screen="table",
        table=table,
        seat=0,
        names=model.names_of(table, 0),
        variant=variant,
        in_deal=True,
        turn=turn,
        legal={**base, **legal},
        last=last,
        waiting=tuple(waiting),
        hand=("6S",),
        **more,
    )


def last_set(seat, set_no=3, rank="K"):
    return {"set_no": set_no, "seat": seat, "rank": rank, "count": 1, "size": 1, "none": False}


LAY = {"min": 1, "max": 3, "ranks": ["K"]}

CASES = [
    # veryu: the turn came back to an empty-handed player: the final call, believe or challenge
    ("veryu", {"challenge": 3, "believe": 3}, {"last": last_set(2), "waiting": [0]}, "why.final_call"),
    # verish: the player before laid his last cards: laying puts him out
    ("verish", {"lay": LAY, "challenge": 3}, {"last": last_set(2), "waiting": [2]}, "why.next_decides"),
    (
        "lozh",
        {"lay": LAY, "challenge": 3, "believe": 3},
        {"last": last_set(2), "waiting": [2]},
        "why.next_decides",
    ),
    # hoyle: covering an empty-handed player's last set lets him win
    ("hoyle", {"lay": LAY, "challenge": 3}, {"last": last_set(2), "waiting": [2]}, "why.cover"),
    # verish: quads just after taking the pile
    ("verish", {"discard_quads": ["9"]}, {}, "why.quads_taken"),
    # veryu: quads on one's turn, face down
    ("veryu", {"lay": LAY, "discard_quads": ["9"]}, {"last": last_set(2)}, "why.quads_turn"),
    # hoyle: the first set of a deal claims aces
    ("hoyle", {"lay": {"min": 1, "max": 4, "ranks": ["A"]}}, {"set_no": 0}, "why.first_aces"),
    # hoyle: the rank goes down; cheat: up
    (
        "hoyle",
        {"lay": {"min": 1, "max": 4, "ranks": ["Q"]}},
        {"last": last_set(2), "set_no": 3},
        "why.order_descending",
    ),
    (
        "cheat",
        {"lay": {"min": 1, "max": 4, "ranks": ["A"], "count_min": 1, "count_max": 4}},
        {"last": last_set(2)},
        "why.order_ascending",
    ),
    (
        "cheat-free",
        {"lay": {"min": 1, "max": 4, "ranks": list("23456789TJQKA"), "count_min": 1, "count_max": 4}},
        {"last": last_set(2)},
        "why.count_lies",
    ),
    # hoyle-three: the stock ran out, a smaller set
    ("hoyle-three", {"lay": {"min": 2, "max": 2, "ranks": ["Q"]}}, {"last": last_set(2)}, "why.short_set"),
    # anyone may challenge, out of turn
    ("hoyle", {"challenge": 3}, {"turn": 1, "last": last_set(2)}, "why.anyone"),
    # a void premature challenge bars its maker from that set
    ("hoyle", {}, {"turn": 1, "last": last_set(2, set_no=4), "barred": 4}, "why.barred"),
    # away: a bot plays
    ("verish", {}, {"turn": 1, "away": True}, "why.away"),
    # a set laid early waits for the window
    ("hoyle", {}, {"turn": 1, "held": {"cards": ("6S",), "rank": "J", "count": 1}}, "why.held"),
    # a lead with any rank
    ("verish", {"lay": {"min": 1, "max": 3, "ranks": list("6789TJQKA")}}, {}, "why.lead"),
]


@pytest.mark.parametrize(("variant", "legal", "more", "key"), CASES, ids=[c[3] + "-" + c[0] for c in CASES])
def test_the_moment_names_why_only_this_is_offered(variant, legal, more, key):
    s = state(variant, legal, **more)
    why = moment(s)
    assert why is not None and why[0] == key
    for lang in ("en", "ru"):
        text = Texts(lang).why(s, *why)
        assert text and "{" not in text and "why." not in text


def test_the_final_call_says_what_each_answer_does():
    s = state("veryu", {"challenge": 3, "believe": 3}, last=last_set(2), waiting=[0])
    assert Texts("en").why(s, *moment(s)) == (
        "Final call: your last cards went round the table unanswered. Believe (y) or challenge (n) "
        "Cid's set: right, you are out; wrong, you take the pile."
    )


def test_the_lead_says_the_counts_the_key_bar_offers():
    s = state("verish", {"lay": {"min": 1, "max": 3, "ranks": list("6789TJQKA")}})
    assert Texts("en").why(s, *moment(s)) == "You lead: lay 1–3 cards and claim any rank."
    assert Texts("ru").why(s, *moment(s)) == "Ваш заход: положите от 1 до 3 карт и заявите любой ранг."


def test_nothing_to_explain_when_it_is_plain():
    s = state("verish", {}, turn=1, last=last_set(2))
    assert moment(s) is None  # another seat plays; the key bar says whom we wait for


def ended(scoring_variant, scores, results, deals=3):
    s = state(scoring_variant, {})
    names = s.names
    return model.State(
        screen="table",
        table={**s.table, "state": "waiting", "deals": deals},
        seat=0,
        names=names,
        variant=scoring_variant,
        match_over={"scores": scores, "deals": deals, "results": results, "names": names},
    )


def result(deal_no, loser=None, winner=None):
    return {"deal_no": deal_no, "loser": loser, "winner": winner, "scores": None}


def test_losses_rank_fewer_first_and_name_the_loser():
    s = ended("verish", (1, 2, 0), (result(1, loser=1), result(2, loser=0), result(3, loser=1)))
    board = standings(s)
    assert [(r.seat, r.score, r.place) for r in board.rows] == [(2, 0, 1), (0, 1, 2), (1, 2, 3)]
    assert board.first == (2,) and board.last == (1,) and board.over


def test_chips_rank_more_first_and_ties_share_a_place():
    s = ended("hoyle", (2, -1, 2), (result(1, winner=0), result(2, winner=2)), deals=2)
    board = standings(s)
    assert [(r.seat, r.place) for r in board.rows] == [(0, 1), (2, 1), (1, 3)] and board.first == (0, 2)


def test_a_variant_without_scoring_ranks_by_deals_won_and_says_so():
    s = ended("cheat", (0, 0, 0), (result(1, winner=1), result(2, winner=1), result(3, winner=0)))
    board = standings(s)
    assert board.scoring == "none" and board.first == (1,)
    assert [(r.seat, r.score, r.won) for r in board.rows] == [(1, None, 2), (0, None, 1), (2, None, 0)]
    assert "keeps no score" in Texts("en")("scoring.none")
