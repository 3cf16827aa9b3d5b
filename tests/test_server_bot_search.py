"""A searching bot (``expert``) at a server table searches in a worker thread
(server/_bot_search.py): the event loop, and every other table, goes on while it searches; its
answer is laid at the time fixed before it chose (half ``bot_delay_ms`` after it may act, laid at
the end of the delay); an answer still missing then costs only the search (the seat plays its
bot's quick choice, ``sharp``'s) and a late one changes nothing. In-process on trio's MockClock;
the search is held on a ``threading.Event`` so that it is surely running while the loop is
checked.
"""

from __future__ import annotations

import threading

import pytest
import trio
from test_server_bot_timing import applied, sets_of
from test_server_timing import Harness, start_table

from neveryu.engine.bots import ExpertBot


class Held:
    """Stands in for the expert's search: it says it started, waits until released, and answers
    the last of its candidates."""

    def __init__(self) -> None:
        self.started, self.release, self.finished = threading.Event(), threading.Event(), threading.Event()
        self.answers: list[object] = []

    def __call__(self, view: object, candidates: list, rng: object) -> object:
        self.started.set()
        assert self.release.wait(30)
        self.answers.append(candidates[-1])
        self.finished.set()
        return candidates[-1]


async def until_bots_turn(h: Harness) -> int:
    """The person (seat 0) lays until a bot seat is to lay; that seat."""
    for _ in range(20):
        if h.deal.turn != 0:
            return h.deal.turn
        assert (await h.lay_something(0))["t"] == "ok"
        await h.jump(1.0)
    raise AssertionError("the bots never got a turn")


async def searching(h: Harness, held: Held) -> int:
    seat = await until_bots_turn(h)
    sets = len(sets_of(h, seat))
    await h.jump(0.401)  # half the delay: it asks the expert, whose search starts in a thread
    assert await trio.to_thread.run_sync(held.started.wait, 30)
    assert h.table.game.bots[seat].searching is not None and len(sets_of(h, seat)) == sets
    return seat


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Held:
    held = Held()
    monkeypatch.setattr(ExpertBot, "_search", lambda bot, view, candidates, rng: held(view, candidates, rng))
    return held


async def test_the_loop_goes_on_while_an_expert_searches_and_its_answer_is_laid_on_time(
    nursery, mock_clock, held
):
    h = await start_table(
        nursery, mock_clock, variant="verish", seats=3, bots=("expert", "expert"), turn_ms=0, bot_delay_ms=800
    )
    seat = await searching(h, held)
    # the search holds: a request at the table is answered all the same
    assert (await h.send(0, "chat", text="still here"))["t"] == "ok"
    held.release.set()
    assert await trio.to_thread.run_sync(held.finished.wait, 30)
    for _ in range(10_000):  # the thread's answer comes back to the loop
        if h.table.game.bots[seat].searching is None:
            break
        await trio.sleep(0)
    assert h.table.game.bots[seat].searching is None and h.table.game.bots[seat].choice == held.answers[0]
    before = len(sets_of(h, seat))
    await h.jump(0.398)
    assert len(sets_of(h, seat)) == before  # held back until the end of the delay
    await h.jump(0.002)
    assert len(sets_of(h, seat)) == before + 1 and applied(h) == held.answers[0]


async def test_a_search_late_at_the_end_of_the_delay_costs_only_the_search(nursery, mock_clock, held):
    h = await start_table(
        nursery, mock_clock, variant="verish", seats=3, bots=("expert", "expert"), turn_ms=0, bot_delay_ms=800
    )
    seat = await searching(h, held)
    before, actions = len(sets_of(h, seat)), h.deal.actions
    await h.jump(0.4)  # the end of the delay, the search still running: the seat plays sharp's move
    assert len(sets_of(h, seat)) == before + 1 and h.table.game.bots[seat].searching is None
    late = h.deal.actions
    assert late == actions + 1
    held.release.set()
    assert await trio.to_thread.run_sync(held.finished.wait, 30)
    for _ in range(100):
        await trio.sleep(0)
    await trio.testing.wait_all_tasks_blocked()
    assert h.deal.actions == late and applied(h) != held.answers[0]  # the late answer changed nothing


async def test_a_search_that_fails_costs_only_the_search(nursery, mock_clock, monkeypatch):
    failed = threading.Event()

    def broken(bot: ExpertBot, view: object, candidates: list, rng: object) -> object:
        failed.set()
        raise RuntimeError("a bug in the search")

    monkeypatch.setattr(ExpertBot, "_search", broken)
    h = await start_table(
        nursery, mock_clock, variant="verish", seats=3, bots=("expert", "expert"), turn_ms=0, bot_delay_ms=800
    )
    seat = await until_bots_turn(h)
    before = len(sets_of(h, seat))
    await h.jump(0.401)
    assert await trio.to_thread.run_sync(failed.wait, 30)
    await h.jump(0.4)  # the end of the delay: sharp's move, and the table plays on
    assert len(sets_of(h, seat)) == before + 1 and not h.table.closed
