"""The client's model: a pure reducer of protocol messages (client/ui/model.py), tested on message
sequences recorded from seeded deals of every variant, without a terminal. The log per table,
the recap and who came and went, on hand-made sequences: tests/test_client_model_log.py."""

from __future__ import annotations

import hashlib

import attrs
import pytest
from client_messages import deal_snapshot, record_deal

from neveryu.client.ui import model
from neveryu.client.ui.texts import Texts

PLAYERS = {"verish": 3, "veryu": 4, "lozh": 4, "hoyle": 4, "hoyle-three": 4, "cheat": 4, "cheat-free": 3}


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_model_follows_the_deal_at_every_step(variant):
    checkpoints: list = []
    msgs, deal = record_deal(variant, PLAYERS[variant], seed=11, seat=1, checkpoints=checkpoints)
    state = model.State()
    done = 0
    for upto, view in checkpoints:
        state = model.reduce_all(msgs[done:upto], state)
        done = upto
        assert state.hand == model.sort_hand(view.hand)
        assert state.hand_counts == view.hand_counts
        assert state.pile == view.pile
        assert state.discard == view.discard
        assert state.stock == view.stock
        assert state.out == view.out
        assert state.over == view.over
        if not view.over:
            assert state.turn == view.turn
            assert state.ranks == view.ranks
        if view.last is not None:
            assert state.last is not None
            assert (state.last["set_no"], state.last["seat"], state.last["rank"], state.last["count"]) == (
                view.last.set_no,
                view.last.seat,
                view.last.rank,
                view.last.count,
            )
        legal = view.legal
        if legal:
            assert state.legal["challenge"] == legal.challenge
            assert state.legal["believe"] == legal.believe
            assert (state.legal["lay"] is None) == (legal.lay is None)
        else:
            assert state.legal is None
    assert state.over and state.result["fair"] is True
    assert state.result["loser"] == deal.loser and state.result["winner"] == deal.winner


def test_reducer_is_pure():
    msgs, _ = record_deal("verish", 3, seed=2)
    before = model.reduce_all(msgs[:10])
    snapshot = (before.hand, before.log, before.last_seq)
    after = model.reduce(before, msgs[10])
    assert (before.hand, before.log, before.last_seq) == snapshot
    assert after is not before and after.last_seq == msgs[10]["seq"]


def test_unknown_message_types_and_fields_are_ignored():
    state = model.reduce_all([{"t": "welcome", "re": 1, "server": {"name": "x"}, "session": "s"}])
    same = model.reduce(state, {"t": "from_the_future", "seq": 7, "ts": 0, "whatever": [1]})
    assert same == model.State(**{**_fields(state), "last_seq": 7})


def _fields(state):
    import attrs

    return {a.name: getattr(state, a.name) for a in attrs.fields(model.State)}


def test_lay_then_challenge_false_claim_layer_takes_pile():
    """docs/RULES.md, `verish` worked example: A lays K♥ 7♣ as two kings, B challenges, A takes all 6."""
    state = model.reduce_all(
        [
            {
                "t": "table_joined",
                "re": 1,
                "seat": 0,
                "table": {
                    "id": 3,
                    "variant": "verish",
                    "seats": [{"seat": 0, "name": "A", "bot": None}, {"seat": 1, "name": "B", "bot": None}],
                },
            },
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 1,
                "deck": "36",
                "hand": ["KH", "7C", "6S"],
                "hand_counts": [3, 3],
                "hidden": 1,
                "set_aside": 0,
                "stock": 0,
                "commitment": "c",
                "deal_no": 1,
            },
            {
                "t": "set_laid",
                "seq": 2,
                "ts": 0,
                "seat": 0,
                "set_no": 1,
                "rank": "K",
                "count": 2,
                "cards": ["KH", "7C"],
                "size": 2,
            },
        ]
    )
    assert state.hand == ("6S",) and state.hand_counts == (1, 3) and state.pile == 2
    assert state.last == {"set_no": 1, "seat": 0, "rank": "K", "count": 2, "size": 2, "none": False}
    state = model.reduce_all(
        [
            {"t": "challenged", "seq": 3, "ts": 0, "seat": 1, "set_no": 1, "tied": []},
            {
                "t": "set_revealed",
                "seq": 4,
                "ts": 0,
                "seat": 0,
                "set_no": 1,
                "rank": "K",
                "count": 2,
                "cards": ["KH", "7C"],
                "claim_true": False,
            },
            {"t": "pile_taken", "seq": 5, "ts": 0, "seat": 0, "count": 2, "cards": ["KH", "7C"]},
        ],
        state,
    )
    assert state.hand == ("6S", "7C", "KH") and state.hand_counts == (3, 3) and state.pile == 0
    assert state.reveal["caller"] == 1 and state.reveal["claim_true"] is False and state.last is None
    t = Texts("en")
    assert [t.log_line(state, x) for x in state.log[-4:]] == [
        "A (you): 2 kings (really K♥ 7♣).",
        "B: «Не верю!»",
        "Revealed: K♥ 7♣ — the claim of 2 kings is false.",
        "A (you) takes the pile (2 cards).",
    ]
    t = Texts("ru")
    assert t.log_line(state, state.log[-1]) == "A (вы) забирает стопку (2 карты)."


def test_turn_countdown_is_a_local_deadline():
    state = model.reduce(
        model.State(),
        {"t": "turn", "seq": 1, "ts": 0, "seat": 0, "ranks": ["Q"], "set_no": None, "time_ms": 15000},
        now=100.0,
    )
    assert state.turn_deadline == 115.0 and state.ranks == ("Q",)
    untimed = model.reduce(
        state,
        {"t": "turn", "seq": 2, "ts": 0, "seat": 1, "ranks": ["Q"], "set_no": 1, "time_ms": None},
        now=101.0,
    )
    assert untimed.turn_deadline is None and untimed.answer_set_no == 1


def test_fair_deal_check_recomputes_the_commitment():
    deck = ["AS", "7H", "TD"]
    salt = "0f" * 32
    good = hashlib.sha256((salt + ":" + "AS,7H,TD").encode()).hexdigest()
    assert model.fair_deal_holds(good, salt, deck) is True
    assert model.fair_deal_holds(good, salt, ["7H", "AS", "TD"]) is False
    assert model.fair_deal_holds(None, salt, deck) is None
    ended = model.reduce_all(
        [
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 0,
                "deck": "36",
                "hand": [],
                "hand_counts": None,
                "hidden": 0,
                "set_aside": 0,
                "stock": 0,
                "commitment": good,
                "deal_no": 1,
            },
            {
                "t": "deal_ended",
                "seq": 2,
                "ts": 0,
                "loser": None,
                "winner": 1,
                "out": [1],
                "scores": [-1, 1],
                "hand_counts": [3, 0],
                "salt": salt,
                "deck": list(reversed(deck)),
                "match_scores": [-1, 1],
            },
        ]
    )
    assert ended.result["fair"] is False and ended.match_scores == (-1, 1)
    assert ended.log[-1].key == "fair_bad"


def test_held_set_leaves_the_playable_hand_until_returned():
    state = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 2, "table": {"id": 1, "variant": "hoyle", "seats": []}},
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 0,
                "deck": "52",
                "hand": ["2C", "KD", "KS"],
                "hand_counts": [3, 3, 3],
                "hidden": 0,
                "set_aside": 0,
                "stock": 0,
                "commitment": "x",
                "deal_no": 1,
            },
            {"t": "set_held", "seq": 2, "ts": 0, "seat": 2, "cards": ["KD"], "rank": "K", "count": 1},
        ]
    )
    assert state.playable_hand == ("2C", "KS") and state.hand == ("2C", "KS", "KD")
    state = model.reduce(state, {"t": "set_returned", "seq": 3, "ts": 0, "seat": 2, "cards": ["KD"]})
    assert state.playable_hand == ("2C", "KS", "KD") and state.held is None


def test_connection_lost_and_resumed_is_said():
    state = model.reduce_all(
        [
            {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"},
            {"t": "_connection", "status": "lost", "reason": "reset"},
        ]
    )
    assert state.connection == "lost" and state.server_name == "dorm"
    assert Texts("en").log_line(state, state.log[-1]) == "Connection lost (reset); resuming…"
    state = model.reduce(state, {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"})
    assert state.connection == "connected"


def test_state_snapshot_restores_a_deal():
    snap = deal_snapshot(
        seq=40,
        seat=1,
        players=3,
        dealer=0,
        hand=["QS", "6H"],
        hand_counts=[5, 2, 7],
        pile=4,
        last={"set_no": 3, "seat": 0, "rank": "Q", "count": 2, "size": 2, "none": False},
        loser=None,
        winner=None,
        legal={
            "lay": {"min": 1, "max": 2, "ranks": ["Q"]},
            "challenge": 3,
            "believe": None,
            "declare_none": None,
            "discard_quads": [],
        },
        table={"id": 2, "variant": "verish", "seats": []},
        deal_no=2,
        time_ms=5000,
    )
    state = model.reduce(model.State(), snap, now=10.0)
    assert state.screen == "table" and state.hand == ("6H", "QS") and state.my_turn
    assert state.legal["challenge"] == 3 and state.turn_deadline == 15.0 and state.last_seq == 40


def test_dealer_drawn_is_told_with_the_cards():
    state = model.reduce_all(
        [
            {
                "t": "dealer_drawn",
                "seq": 1,
                "ts": 0,
                "dealer": 2,
                "draws": [[[0, "9S"], [1, "6H"], [2, "6C"]], [[1, "TS"], [2, "7D"]]],
            }
        ]
    )
    assert state.dealer == 2
    assert Texts("en").log_line(state, state.log[-1]) == (
        "Draw for the dealer: Seat 1 9♠, Seat 2 6♥, Seat 3 6♣; again: Seat 2 10♠, Seat 3 7♦. "
        "Seat 3 drew the lowest card and deals."
    )


@pytest.mark.parametrize("variant", ["verish", "veryu", "cheat"])
def test_model_on_a_session_recorded_from_the_real_server(variant):
    """tests/data/client_session_<variant>.json: everything seat 0 got from a real server during
    one deal (tests/record_client_session.py made it). The model follows it to the end: the hand
    it keeps is the one the deal's end counts, the fair deal holds, and every log line reads."""
    import json
    from pathlib import Path

    msgs = json.loads((Path(__file__).parent / "data" / f"client_session_{variant}.json").read_text())
    state = model.reduce_all(msgs)
    assert state.screen == "table" and state.seat == 0 and state.over
    assert len(state.hand) == state.result["hand_counts"][0]
    assert state.result["fair"] is True
    assert state.out == tuple(state.result["out"])
    for lang in ("en", "ru"):
        t = Texts(lang)
        lines = [t.log_line(state, line) for line in state.log]
        assert all(lines) and not any("{" in x for x in lines)
    ended = next(m for m in msgs if m["t"] == "deal_ended")
    assert state.match_scores == tuple(ended["match_scores"])


def test_back_from_away_on_ones_turn_restarts_the_countdown():
    seats = [
        {"seat": 0, "name": "A", "bot": None, "ready": True, "away": True},
        {"seat": 1, "name": "bot 2", "bot": "honest", "ready": True, "away": False},
    ]
    table = {"id": 1, "variant": "verish", "state": "playing", "turn_ms": 20000, "seats": seats}
    state = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 0, "table": table},
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 1,
                "deck": "36",
                "hand": ["6S"],
                "hand_counts": [1, 1],
                "hidden": 1,
                "set_aside": 0,
                "stock": 0,
                "commitment": "c",
                "deal_no": 1,
            },
            {"t": "turn", "seq": 2, "ts": 0, "seat": 0, "ranks": ["6"], "set_no": None, "time_ms": None},
        ]
    )
    assert state.turn_deadline is None
    back = {**table, "seats": [dict(seats[0], away=False), seats[1]]}
    state = model.reduce(state, {"t": "table_update", "seq": 3, "ts": 0, "table": back}, now=50.0)
    assert state.turn_deadline == 70.0


@pytest.mark.parametrize("variant", sorted(PLAYERS))
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_engine_view_of_the_model_is_the_engines_own_view(variant, seed):
    """One reducer for every client: the headless bot reads the same model as the screen, through
    ``engine_view``; after every batch it equals the engine's ``view(seat)`` (the hand in any
    order; at the deal's end the turn is over, and the next claim and the last set moot: a set
    that covered the winner's last set goes back to its owner, who alone is told)."""
    checkpoints: list = []
    msgs, _deal = record_deal(variant, PLAYERS[variant], seed=seed, seat=1, checkpoints=checkpoints)
    state = model.State()
    done = 0
    for upto, view in checkpoints:
        state = model.reduce_all(msgs[done:upto], state)
        done = upto
        mine = model.engine_view(state)
        mine = attrs.evolve(mine, hand=model.sort_hand(mine.hand))
        want = attrs.evolve(view, hand=model.sort_hand(view.hand))
        if view.over:
            want = attrs.evolve(want, turn=None, ranks=mine.ranks, last=mine.last)
        assert mine == want
