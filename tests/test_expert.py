"""The expert's search (engine/bots/_expert.py): the deals it samples agree with everything its
seat sees, hold exactly the deck, and its decisions stay within its budget of samples."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from neveryu import engine
from neveryu.engine._bot_deal import BotDeal
from neveryu.engine._world import world
from neveryu.engine.bots import ExpertBot, make_bot
from neveryu.engine.bots._sample import sample


class _Probe(BotDeal):
    """A bots-only deal that, before each set the expert at seat 0 lays, rebuilds the deal from
    its view and a sample, and keeps both views."""

    def __init__(self, *args, **kwargs):
        self.pairs = []
        super().__init__(*args, **kwargs)

    def apply(self, action):
        deal, bot = self.deal, self.bots[0]
        if deal.turn == 0 and not deal.over and deal.legal_actions(0).lay is not None and bot.ranks:
            view = deal.view(0)
            placed = sample(bot, view, 0.5, random.Random(len(self.pairs)))
            built = world(
                deal.rules, view, placed.hands, placed.pile, placed.last_cards, placed.discard,
                placed.hidden, placed.set_aside, placed.stock,
            )  # fmt: skip
            self.pairs.append((view, built))
        return super().apply(action)


@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_a_sampled_deal_shows_the_seat_what_the_real_one_does(name):
    rules = engine.variant(name)
    deal, opening = engine.Match(rules, 4, random.Random(7)).start()
    bots = [make_bot(s, seat, rules, 4) for seat, s in enumerate(["expert", "sharp", "honest", "sharp"])]
    game = _Probe(deal, opening, bots, random.Random(8), True)
    game.play(3000)
    assert game.pairs
    full = Counter(engine.new_deck(deal.deck))
    for view, built in game.pairs:
        seen = built.view(0)
        assert seen.hand == view.hand and seen.turn == view.turn and seen.out == view.out
        assert seen.legal == view.legal
        if view.last is not None:
            assert (seen.last.seat, seen.last.rank, seen.last.count) == (
                view.last.seat,
                view.last.rank,
                view.last.count,
            )
        if view.hand_counts is not None:
            assert seen.hand_counts == view.hand_counts and seen.pile == view.pile
        assert (seen.stock, seen.hidden, seen.set_aside) == (view.stock, view.hidden, view.set_aside)
        assert built._all_cards() == full  # every card of the deck, once


def test_a_decision_plays_at_most_its_samples_and_stops_at_its_budget(monkeypatch):
    from neveryu.engine.bots import _expert

    rules = engine.variant("verish")
    ticks = iter(range(10**6))
    bot = ExpertBot(0, rules, 4, samples=3, budget_s=1e9, clock=lambda: next(ticks))
    samples = []
    monkeypatch.setattr(_expert, "sample", lambda *a: samples.append(1) or sample(*a))
    deal, opening = engine.Match(rules, 4, random.Random(3)).start()
    bots = [bot] + [make_bot("sharp", s, rules, 4) for s in (1, 2, 3)]
    game = BotDeal(deal, opening, bots, random.Random(4), False)
    searched = budget = 0
    while not deal.over and searched < 5:
        if deal.turn == 0 and deal.legal_actions(0).lay is not None:
            samples.clear()
            bot.budget_s = 1e9 if searched % 2 == 0 else 0  # 0: out of time after the first sample
            bot.decide(deal.view(0), random.Random(5))
            if samples:
                assert len(samples) == (3 if bot.budget_s else 1)
                searched += 1
                budget += not bot.budget_s
        game.play(deal.actions + 1)
    assert searched == 5 and budget == 2


def test_the_arena_expert_is_bounded_by_samples_alone():
    # an arena has no table delay: its expert never looks at a clock, so a run repeats exactly
    from neveryu.engine import arena

    bot = arena._bot("expert", 0, engine.variant("verish"), 4)
    assert isinstance(bot, ExpertBot) and bot.clock is None
    lineup = ("expert", "sharp", "sharp", "sharp")
    assert arena.play_group("hoyle-three", lineup, 3, 0) == arena.play_group("hoyle-three", lineup, 3, 0)


def test_a_calibrated_estimate_moves_by_the_odds_of_what_reveals_showed():
    from neveryu.engine.bots._expert import calibrated

    assert calibrated(0.2, 0, 0, 0.0) == 0.2  # nothing revealed: as estimated
    # 10 sets revealed, 5 true where its estimates summed to 1: odds (6/6) / (2/10) = 5 times
    assert calibrated(0.2, 10, 5, 1.0) == pytest.approx(1.25 / 2.25)
    # fewer true than estimated: odds (2/10) / (6/6)
    assert calibrated(0.5, 10, 1, 5.0) == pytest.approx(1 / 6)


def test_the_expert_learns_how_far_its_estimates_were_off():
    from neveryu.engine.bots._expert import calibrated

    # in hoyle-three claims are true far more often than a random hand would make them: after a
    # deal the expert's estimate of a claim is above sharp's
    rules = engine.variant("hoyle-three")
    deal, opening = engine.Match(rules, 4, random.Random(2)).start()
    bots = [ExpertBot(0, rules, 4, samples=2, clock=None)] + [
        make_bot("sharp", s, rules, 4) for s in (1, 2, 3)
    ]
    game = BotDeal(deal, opening, bots, random.Random(3), False)
    game.play(3000)
    expert = bots[0]
    revealed, true, expected = expert.reveals[0]  # the sets it put below 10 %
    assert revealed > 10 and true > expected
    assert calibrated(0.05, revealed, true, expected) > 0.05
