"""The variants as docs/RULES.md gives them, one by one: each variant's parameters and deck by seat
count, how the cards are dealt and who deals, and malformed actions, which are rule violations that
change nothing. The seeded sweep of whole deals is tests/test_properties.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_properties import play, snapshot

from neveryu import engine
from neveryu.engine import (
    Believe,
    Challenge,
    Challenges,
    CloseWindow,
    Deal,
    DeclareNone,
    DiscardQuads,
    LaySet,
    RuleViolation,
    Timeout,
)

# -- dealing and dealers (docs/RULES.md, ``deal``, ``first_dealer``, ``next_dealer``) ---------------------


@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_deals_follow_the_variant(name):
    rules = engine.variant(name)
    lo, hi = rules.players
    for players in range(lo, hi + 1):
        rng = random.Random(players)
        dealer = players - 1
        deal = Deal.new(rules, players, dealer, rng)
        sizes = [len(h) for h in deal.hands]
        left = (dealer + 1) % players
        deck = len(engine.new_deck(rules.deck_for(players)))
        assert len(deal.hidden) == int(rules.hidden_card)
        assert sum(sizes) + len(deal.hidden) + len(deal.set_aside) + len(deal.stock) == deck
        assert deal.turn == (dealer if rules.first_player == "dealer" else left)
        if rules.deal in ("equal_set_aside", "equal_with_stock"):
            assert len(set(sizes)) == 1
            rest = deal.set_aside if rules.deal == "equal_set_aside" else deal.stock
            assert len(rest) == deck % players
        else:
            assert max(sizes) - min(sizes) <= 1 and not deal.set_aside and not deal.stock
            # dealing starts left of the dealer: the seats from there get the extra cards first
            order = [(left + k) % players for k in range(players)]
            assert [sizes[s] for s in order] == sorted(sizes, reverse=True)


def test_packets_then_one_by_one():
    """`hoyle`: packets of 3 from the dealer's left while every player can take a whole packet,
    then one at a time."""
    deck = engine.new_deck("52")
    dealt = engine.deal_cards(engine.variant("hoyle"), deck, 4, dealer=3)
    seat0 = deck[0:3] + deck[12:15] + deck[24:27] + deck[36:39] + deck[48:49]
    assert dealt.hands[0] == seat0
    assert dealt.hands[3] == deck[9:12] + deck[21:24] + deck[33:36] + deck[45:48] + deck[51:52]
    two = engine.deal_cards(engine.variant("hoyle", packet_size=2), deck, 5, dealer=0)
    assert two.hands[1][:2] == deck[0:2] and len(two.hands[1]) == 11 and len(two.hands[0]) == 10


def test_hoyle_deck_choice_only_at_five():
    assert engine.variant("hoyle", deck="2x52").deck_for(5) == "2x52"
    assert engine.variant("hoyle").deck_for(5) == "52"
    assert engine.variant("hoyle").deck_for(6) == "2x52"
    for players, deck in ((4, "2x52"), (6, "52")):
        with pytest.raises(ValueError, match="deck"):
            engine.variant("hoyle", deck=deck).deck_for(players)


def test_first_dealer_by_draw_and_next_dealers():
    rules = engine.variant("lozh")
    match = engine.Match(rules, 5, random.Random(3))
    deal, events = match.start()
    drawn = events[0]
    assert isinstance(drawn, engine.DealerDrawn) and drawn.dealer == deal.dealer
    last = drawn.draws[-1]
    low = min(engine.RANKS.index(c[0]) for _, c in last)
    assert [s for s, c in last if engine.RANKS.index(c[0]) == low] == [drawn.dealer]
    for name in engine.VARIANTS:
        rules = engine.variant(name)
        players = rules.players[0] + 1
        match = engine.Match(rules, players, random.Random(9))
        for _ in range(3):
            deal, events = match.start()
            assert not any(isinstance(e, engine.DealerDrawn) for e in events[1:])
            play(deal, random.Random(1))
            match.finish(deal)
            want = deal.loser if rules.next_dealer == "loser" else (deal.dealer + 1) % players
            assert match.dealer == want
        if rules.scoring == "losses":
            assert sum(match.scores) == 3
        elif rules.scoring.startswith("chips"):
            assert sum(match.scores) == 0


MALFORMED = [None, "x", 1.5, -1, 99, True, (), ("XX",), "KH", [None], 2**70]
ACTION_FIELDS = [
    (LaySet, ("seat", "cards", "rank", "count")),
    (Challenge, ("seat", "set_no")),
    (Believe, ("seat", "set_no")),
    (DeclareNone, ("seat",)),
    (DiscardQuads, ("seat", "ranks")),
    (Challenges, ("seats", "set_no")),
    (CloseWindow, ("set_no",)),
    (Timeout, ("seat", "action")),
]


@pytest.mark.parametrize("name", ["verish", "veryu", "hoyle", "cheat"])
def test_malformed_actions_are_rule_violations(name):
    """A field of the wrong type or range is a RuleViolation from check and apply alike, and
    changes nothing (the engine never raises TypeError at the server)."""
    rules = engine.variant(name, declare_none=True) if name == "hoyle" else engine.variant(name)
    deal = Deal.new(rules, 4, 0, random.Random(1))
    deal.opening()
    before = snapshot(deal)
    good = {
        "seat": deal.turn,
        "cards": tuple(deal.hands[deal.turn][:1]),
        "rank": None,
        "count": None,
        "set_no": 1,
        "ranks": ("A",),
        "seats": (1,),
        "action": LaySet(deal.turn, tuple(deal.hands[deal.turn][:1])),
    }
    for cls, fields in ACTION_FIELDS:
        for field in fields:
            for value in MALFORMED:
                action = cls(**{**{k: good[k] for k in fields}, field: value})
                if isinstance(action, LaySet) and field in ("rank", "count") and value is None:
                    continue  # None is a legal rank / count (the only rank; the true count)
                for method in (deal.check, deal.apply):
                    with pytest.raises(RuleViolation):
                        method(action)
                assert snapshot(deal) == before, action


# -- the parameters of each variant, as docs/RULES.md states them -----------------------------------------

RULES_TABLE = {
    # each row: the values of FIELDS below, in that order
    "verish": (
        (2, 6),
        True,
        "one_by_one",
        "random",
        "left",
        "left_of_dealer",
        "hold",
        "any",
        (1, 3),
        False,
        True,
        "next",
        False,
        "after_taking",
        "by_outcome",
        "next_decides",
        "last_loses",
        "losses",
    ),
    "veryu": (
        (2, 12),
        False,
        "one_by_one",
        "random",
        "loser",
        "dealer",
        "hold",
        "any",
        (1, 4),
        False,
        True,
        "next",
        True,
        "on_turn",
        "by_outcome",
        "final_call",
        "last_loses",
        "losses",
    ),
    "lozh": (
        (2, 12),
        False,
        "equal_set_aside",
        "lowest_draw",
        "loser",
        "left_of_dealer",
        "hold",
        "any",
        (1, 4),
        False,
        True,
        "next",
        True,
        "never",
        "by_outcome",
        "next_decides",
        "last_loses",
        "losses",
    ),
    "hoyle": (
        (2, 12),
        False,
        "packets",
        "random",
        "left",
        "left_of_dealer",
        "descending",
        "ace",
        (1, 4),
        False,
        True,
        "anyone",
        False,
        "never",
        "sequence",
        "covered_or_survived",
        "first_wins",
        "chips_per_player",
    ),
    "hoyle-three": (
        (3, 8),
        False,
        "equal_with_stock",
        "random",
        "left",
        "left_of_dealer",
        "descending",
        "any",
        (3, 3),
        False,
        True,
        "anyone",
        False,
        "never",
        "sequence",
        "covered_or_survived",
        "first_wins",
        "chips_per_player",
    ),
    "cheat": (
        (3, 12),
        False,
        "one_by_one",
        "random",
        "left",
        "left_of_dealer",
        "ascending",
        "any",
        (1, 4),
        True,
        False,
        "anyone",
        False,
        "never",
        "taker",
        "covered_or_survived",
        "first_wins",
        "none",
    ),
    "cheat-free": (
        (3, 12),
        False,
        "one_by_one",
        "random",
        "left",
        "left_of_dealer",
        "free",
        "any",
        (1, 4),
        True,
        False,
        "anyone",
        False,
        "never",
        "taker",
        "covered_or_survived",
        "first_wins",
        "none",
    ),
}
FIELDS = (
    "players",
    "hidden_card",
    "deal",
    "first_dealer",
    "next_dealer",
    "first_player",
    "rank_order",
    "first_rank",
    "set_size",
    "count_may_lie",
    "hand_counts_public",
    "challengers",
    "believe",
    "quads",
    "leader_after_reveal",
    "last_cards",
    "result",
    "scoring",
)

DECKS = {  # seats -> deck, "auto" (docs/RULES.md, each variant's deck paragraph)
    "verish": {2: "36", 3: "36", 4: "52", 6: "52"},
    "veryu": {2: "36", 4: "36", 5: "52", 8: "52", 9: "2x52", 12: "2x52"},
    "lozh": {2: "36", 6: "36", 7: "52", 10: "52", 11: "2x52", 12: "2x52"},
    "hoyle": {2: "52", 4: "52", 5: "52", 6: "2x52", 12: "2x52"},
    "hoyle-three": {3: "52", 5: "52", 6: "2x52", 8: "2x52"},
    "cheat": {3: "52", 6: "52", 7: "2x52", 12: "2x52"},
    "cheat-free": {3: "52", 6: "52", 7: "2x52", 12: "2x52"},
}


@pytest.mark.parametrize("name", list(RULES_TABLE))
def test_variant_parameters_are_those_of_rules_md(name):
    rules = engine.variant(name)
    assert {f: getattr(rules, f) for f in FIELDS} == dict(zip(FIELDS, RULES_TABLE[name]))
    assert {n: rules.deck_for(n) for n in DECKS[name]} == DECKS[name]
    assert not rules.declare_none
    if name.startswith("hoyle"):
        assert engine.variant(name, declare_none=True).declare_none
    assert engine.variant("hoyle").set_bounds("2x52") == (1, 8)
    assert engine.variant("cheat").set_bounds("2x52") == (1, 4)  # seed 004: 1–4, one deck or two
    assert engine.variant("hoyle-three").set_bounds("2x52") == (3, 3)


# -- the order of a hand (docs/RULES.md, "How the cards are dealt": its vector) ----------------------------


def test_a_taken_pile_joins_the_hand_sorted_and_a_quad_takes_the_first_four_of_its_rank():
    """The vector of RULES.md: `veryu`, 2×36; seat 0 holds ``before``, seat 1 lays the last card of
    ``pile`` as a true 7 on the rest of it, seat 0 challenges and takes it all, then discards a
    quad of 7 on his turn."""
    text = (Path(__file__).parent.parent / "docs" / "RULES.md").read_text("utf-8")
    block = text.split("```text vector hand order\n", 1)[1].split("```", 1)[0]
    vector = {k.strip(): v.split() for k, v in (line.split("=") for line in block.splitlines())}
    *older, laid = vector["pile"]
    deal = Deal(
        engine.variant("veryu", deck="2x36"),
        deck="2x36",
        dealer=0,
        turn=1,
        hands=[vector["before"], [laid, "8S", "8H"]],
        pile=older,
        rank=laid[0],
    )
    deal.apply(LaySet(1, (laid,), laid[0], None))
    deal.apply(Challenge(0, 1))
    assert deal.hands[0] == vector["after taking"]
    deal.apply(LaySet(1, ("8S",), "8", None))
    (discarded,) = deal.apply(DiscardQuads(0, ("7",)))
    assert isinstance(discarded, engine.QuadsDiscarded)
    assert list(discarded.cards) == vector["quad of 7"]
    assert deal.hands[0] == vector["after discard"]
