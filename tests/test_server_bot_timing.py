"""A bot's move comes at a time fixed before it chose it, so that its timing tells nothing of its
cards, in-process on trio's MockClock: how long choosing took, which may differ between a true set
and a bluff, shows in no event's time. A bot seat's bot chooses half ``bot_delay_ms`` after it may
act and lays at the end of the delay; the bot that makes a timed-out player's move chooses ahead of
his deadline and lays at it. Choosing "takes" time here by moving the clock inside ``choose``.
"""

from __future__ import annotations

from typing import Any

import pytest
import trio
from test_server_timing import Harness, start_table

from neveryu import engine


class Scripted:
    """Stands in for a seat's bot: it learns what the bot learns, and when asked lays one card
    of its hand claiming the rank it must (or, where any is free, its first card's): a card of
    that rank when ``true``, else one of another rank. Choosing moves the clock ``cost`` s."""

    def __init__(self, bot: Any, clock: trio.testing.MockClock, true: bool, cost: float) -> None:
        self.bot, self.clock, self.true, self.cost = bot, clock, true, cost
        self.observes = bot.observes
        self.budget_s = None  # it does not search (engine.bots.Bot)
        self.asked: list[float] = []  # when it was asked (the clock, before choosing took any)
        self.chosen: list[engine.Action] = []

    def observe(self, event: engine.Event) -> None:
        self.bot.observe(event)

    def choose(self, view: engine.View, rng: Any) -> engine.Action:
        self.asked.append(trio.current_time())
        assert view.hand is not None and view.seat is not None and view.legal.lay is not None
        ranks = view.legal.lay.ranks
        rank = ranks[0] if len(ranks) == 1 else view.hand[0][0]
        card = next(c for c in view.hand if (c[0] == rank) == self.true)
        action = engine.LaySet(view.seat, (card,), rank)
        self.clock.jump(self.cost)  # choosing took this long
        self.chosen.append(action)
        return action


def sets_of(h: Harness, seat: int) -> list[dict[str, Any]]:
    return [e for e in h.events(0, "set_laid") if e["seat"] == seat]


def applied(h: Harness) -> engine.Action:
    """The last action the deal accepted, as made (a timeout's own action)."""
    referee = h.table.game.referee
    action = referee.applied[-1][1]
    return action.action if isinstance(action, engine.Timeout) else action


@pytest.mark.parametrize("true", [True, False], ids=["true", "bluff"])
@pytest.mark.parametrize("cost", [0.0, 0.35])
async def test_a_bots_set_is_chosen_at_half_its_delay_and_laid_at_the_end(nursery, mock_clock, true, cost):
    h = await start_table(
        nursery, mock_clock, variant="verish", seats=2, bots=("honest",), turn_ms=0, bot_delay_ms=800
    )
    assert h.deal.turn == 0  # seed 7: the person leads; he claims a rank the bot holds
    bot = Scripted(h.table.game.bot_for(h.table.seats[1]), mock_clock, true, cost)
    h.table.game.bots[1].make(bot, [])  # it plays the seat from now
    card = h.deal.hands[0][0]
    assert (await h.send(0, "lay", cards=[card], rank=h.deal.hands[1][0][0]))["t"] == "ok"
    turn = trio.current_time()  # the bot's turn begins
    await h.jump(0.399)
    assert bot.asked == []
    await h.jump(0.002)  # half the delay: it chooses, and choosing takes `cost`
    assert bot.asked == [pytest.approx(turn + 0.401)] and sets_of(h, 1) == []
    await h.jump(turn + 0.799 - trio.current_time())
    assert sets_of(h, 1) == []  # chosen, held back until the end of the delay
    await h.jump(0.002)
    (laid,) = sets_of(h, 1)
    assert applied(h) == bot.chosen[0] and (laid["set_no"], laid["rank"]) == (2, bot.chosen[0].rank)
    assert (bot.chosen[0].cards[0][0] == bot.chosen[0].rank) == true


@pytest.mark.parametrize("true", [True, False], ids=["true", "bluff"])
@pytest.mark.parametrize("cost", [0.0, 0.35])
async def test_a_timed_out_players_set_is_chosen_ahead_and_laid_at_his_deadline(
    nursery, mock_clock, true, cost
):
    h = await start_table(
        nursery, mock_clock, variant="verish", seats=2, bots=("honest",), turn_ms=1_000, bot_delay_ms=800
    )
    assert h.deal.turn == 0  # seed 7: the person leads, his turn time runs from the start
    start = trio.current_time()
    away = Scripted(h.table.game.bot_for(h.table.seats[0]), mock_clock, true, cost)
    h.table.game.bots[0].make(away, [])  # it plays the seat from now
    await h.jump(0.599)
    assert away.asked == []
    await h.jump(0.002)  # half the bot delay before his deadline, the bot chooses his move
    assert away.asked == [pytest.approx(start + 0.601)] and h.events(0, "timed_out") == []
    await h.jump(start + 0.999 - trio.current_time())
    assert h.events(0, "timed_out") == [] and sets_of(h, 0) == []
    await h.jump(0.002)  # his time is up: the move chosen is made
    assert [e["seat"] for e in h.events(0, "timed_out")] == [0] and len(sets_of(h, 0)) == 1
    assert applied(h) == away.chosen[0] and len(away.chosen) == 1
    assert (away.chosen[0].cards[0][0] == away.chosen[0].rank) == true


class Challenger(Scripted):
    """``Scripted``, except that it challenges the deal's first set, and chooses nothing where
    it may not lay (it keeps its right to quads)."""

    def choose(self, view: engine.View, rng: Any) -> engine.Action | None:
        legal = view.legal
        if legal.challenge == 1:
            self.asked.append(trio.current_time())
            self.chosen.append(engine.Challenge(view.seat, legal.challenge))
            return self.chosen[-1]
        if legal.lay is None:
            return None
        return super().choose(view, rng)


async def test_a_bots_delay_starts_afresh_when_what_it_may_do_changes(nursery, mock_clock):
    h = await start_table(
        nursery, mock_clock, variant="verish", seats=2, bots=("honest",), turn_ms=0, bot_delay_ms=800
    )
    assert h.deal.turn == 0  # seed 7
    bot = Challenger(h.table.game.bot_for(h.table.seats[1]), mock_clock, True, 0.0)
    h.table.game.bots[1].make(bot, [])  # it plays the seat from now
    card = h.deal.hands[0][0]
    assert (await h.send(0, "lay", cards=[card], rank=card[0]))["t"] == "ok"  # true
    start = trio.current_time()
    await h.jump(0.801)  # the bot challenges, takes the pile, and may discard quads till a set
    assert [e["seat"] for e in h.events(0, "pile_taken")] == [1] and h.deal.turn == 0
    await h.jump(0.199)
    card = h.deal.hands[0][0]
    assert (await h.send(0, "lay", cards=[card], rank=card[0]))["t"] == "ok"  # at 1.0: its turn now
    await h.jump(start + 1.399 - trio.current_time())
    assert len(bot.asked) == 1  # its challenge only
    await h.jump(0.002)  # half the delay from the change (its quads would have been 1.2)
    assert len(bot.asked) == 2
    await h.jump(start + 1.799 - trio.current_time())  # 0.8 from its take would be 1.6
    assert sets_of(h, 1) == []
    await h.jump(0.002)
    assert len(sets_of(h, 1)) == 1 and applied(h) == bot.chosen[-1]


async def test_a_bot_whose_turn_comes_while_a_challenge_group_collects_waits_for_it(
    nursery, mock_clock, caplog
):
    h = await start_table(
        nursery, mock_clock, variant="hoyle", seats=3, bots=("honest",), turn_ms=0, bot_delay_ms=100, seed=3
    )
    assert h.deal.turn == 0  # seed 3
    assert (await h.lay_something(0))["t"] == "ok"
    assert (await h.lay_something(1))["t"] == "ok"  # held until set 1's challenge window closes
    await h.jump(1.0)  # it closes: set 2 is laid, and the bot (seat 2) is to play
    assert h.deal.turn == 2 and h.deal.held is None
    set_no = h.deal.last.set_no
    assert (await h.send(0, "challenge", set_no=set_no))["t"] == "ok"  # the tie window (0.2 s) opens
    before = h.deal.actions
    await h.jump(0.1)  # the bot's delay ends inside it: no set may be laid before it is settled
    assert h.deal.actions == before and not [r for r in caplog.records if r.levelname == "ERROR"]
    await h.jump(0.2)  # settled; the bot is asked again and plays on
    assert [e["set_no"] for e in h.events(0, "challenged")] == [set_no]
    await h.jump(1.5)
    assert h.deal.actions > before + 1 and not [r for r in caplog.records if r.levelname == "ERROR"]
