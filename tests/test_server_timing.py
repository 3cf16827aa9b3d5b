"""The referee's timing rules (docs/RULES.md, "Timing rules"), in-process on trio's MockClock.

The clock only moves when a test jumps it, so "within the tie window" and "after it" are exact.
Sessions are real ``Session`` objects whose connection is a list collecting what they were sent.
"""

from __future__ import annotations

import math
from typing import Any

import msgpack
import pytest
import trio
import trio.testing

from neveryu import engine, protocol
from neveryu.server._session import Session
from neveryu.server._settings import TableSettings
from neveryu.server._table import Table

TIE = 0.2  # s
WINDOW = 1.0  # s


class ListLink:
    """A session's connection that keeps what it was sent, decoded."""

    def __init__(self) -> None:
        self.msgs: list[dict[str, Any]] = []

    def send(self, frame: bytes) -> None:
        self.msgs.append(msgpack.unpackb(frame[4:]))

    def note_error(self, code: str, msg: str) -> None:
        pass


class Harness:
    def __init__(self, table: Table, sessions: list[Session], clock: trio.testing.MockClock) -> None:
        self.table, self.sessions, self.clock = table, sessions, clock
        self.next_id = 100

    @property
    def deal(self) -> engine.Deal:
        return self.table.deal

    def msgs(self, seat: int) -> list[dict[str, Any]]:
        return self.sessions[seat].link.msgs

    async def send(self, seat: int, t: str, **fields: Any) -> dict[str, Any]:
        """Submit a request from ``seat`` and return its reply."""
        self.next_id += 1
        rid = self.next_id
        self.table.handle(self.sessions[seat], protocol.parse_request({"t": t, "id": rid, **fields}))
        await trio.testing.wait_all_tasks_blocked()
        return next(m for m in self.msgs(seat) if m.get("re") == rid)

    async def jump(self, seconds: float) -> None:
        self.clock.jump(seconds)
        await trio.testing.wait_all_tasks_blocked()

    def events(self, seat: int, t: str) -> list[dict[str, Any]]:
        return [m for m in self.msgs(seat) if m.get("t") == t and "seq" in m]

    async def lay_something(self, seat: int) -> dict[str, Any]:
        legal = self.deal.legal_actions(seat)
        hand = self.deal.hands[seat]
        cards = hand[: legal.lay.min]
        count = len(cards) if legal.lay.count_min is not None else None
        return await self.send(seat, "lay", cards=cards, rank=legal.lay.ranks[0], count=count)


async def start_table(
    nursery, clock, variant: str = "hoyle", seats: int = 4, records: Any = None, **settings: Any
) -> Harness:
    values = dict(
        variant=variant,
        options={},
        seats=seats,
        turn_ms=60_000,
        challenge_window_ms=int(WINDOW * 1000),
        tie_window_ms=int(TIE * 1000),
        bot_delay_ms=500,
        deal_pause_ms=1_000,
        deals=1,
        seed=7,
    )
    values.update(settings)
    table = Table(1, TableSettings(**values), records=records)
    nursery.start_soon(table.run)
    sessions = []
    for i in range(seats - len(values.get("bots", ()))):
        s = Session(f"p{i}", replay=1000)
        s.attach(ListLink())
        sessions.append(s)
    h = Harness(table, sessions, clock)
    await trio.testing.wait_all_tasks_blocked()
    for i in range(len(sessions)):
        assert (await h.send(i, "join_table", table=1))["seat"] == i
        assert (await h.send(i, "ready", ready=True))["t"] == "ok"
    assert (await h.send(0, "start"))["t"] == "ok"
    assert table.deal is not None
    return h


# -- challenges: first wins, ties by seat order ----------------------------------------------


@pytest.mark.parametrize("order", [(3, 1, 2), (2, 3, 1), (1, 2, 3), (3, 2, 1)])
async def test_three_challenges_within_tie_window_go_to_nearest_left_of_claimant(nursery, mock_clock, order):
    h = await start_table(nursery, mock_clock)
    claimant = h.deal.turn
    assert (await h.lay_something(claimant))["t"] == "ok"
    for _k, offset in enumerate(order):
        reply = await h.send((claimant + offset) % 4, "challenge", set_no=1)
        assert reply["t"] == "ok"
        await h.jump(TIE / 4)  # all three inside the tie window of the first
    await h.jump(TIE)
    challenged = h.events(0, "challenged")
    assert len(challenged) == 1
    assert challenged[0]["seat"] == (claimant + 1) % 4
    assert challenged[0]["tied"] == [(claimant + 2) % 4, (claimant + 3) % 4]
    assert len(h.events(0, "set_revealed")) == 1


@pytest.mark.parametrize("order", [(3, 2), (2, 3), (3, 1)])
async def test_two_challenges_within_tie_window_nearest_left_wins(nursery, mock_clock, order):
    h = await start_table(nursery, mock_clock, variant="cheat")
    claimant = h.deal.turn
    await h.lay_something(claimant)
    await h.send((claimant + order[0]) % 4, "challenge", set_no=1)
    await h.jump(TIE * 0.9)
    await h.send((claimant + order[1]) % 4, "challenge", set_no=1)
    assert h.events(0, "challenged") == []  # nothing settled inside the tie window
    await h.jump(TIE * 0.2)
    (challenged,) = h.events(0, "challenged")
    assert challenged["seat"] == (claimant + min(order)) % 4
    assert challenged["tied"] == [(claimant + max(order)) % 4]


async def test_first_challenge_wins_outside_tie_window(nursery, mock_clock):
    h = await start_table(nursery, mock_clock)
    claimant = h.deal.turn
    await h.lay_something(claimant)
    far, near = (claimant + 3) % 4, (claimant + 1) % 4
    assert (await h.send(far, "challenge", set_no=1))["t"] == "ok"
    await h.jump(TIE * 1.01)
    late = await h.send(near, "challenge", set_no=1)
    assert late["t"] == "error" and late["code"] == "STALE_SET" and late["fatal"] is False
    (challenged,) = h.events(0, "challenged")
    assert challenged["seat"] == far and challenged["tied"] == []


async def test_stale_challenge_gets_stale_set(nursery, mock_clock):
    h = await start_table(nursery, mock_clock)
    first = h.deal.turn
    await h.lay_something(first)
    await h.jump(WINDOW)  # the window closes unchallenged
    second = h.deal.turn
    await h.lay_something(second)
    reply = await h.send((second + 1) % 4, "challenge", set_no=1)
    assert (reply["code"], reply["fatal"]) == ("STALE_SET", False)


async def test_premature_challenge_is_void_and_bars_its_sender(nursery, mock_clock):
    h = await start_table(nursery, mock_clock)
    first = h.deal.turn
    second = (first + 1) % 4
    early = (first + 3) % 4
    reply = await h.send(early, "challenge", set_no=1)  # set 1 is not laid yet: done, and void
    assert reply["t"] == "ok"
    assert [(e["seat"], e["set_no"]) for e in h.events(0, "challenge_void")] == [(early, 1)]
    await h.lay_something(first)
    barred = await h.send(early, "challenge", set_no=1)
    assert barred["code"] == "CHALLENGE_BARRED"
    assert (await h.send(second, "challenge", set_no=1))["t"] == "ok"  # others still may
    await h.jump(TIE)
    (challenged,) = h.events(0, "challenged")
    assert challenged["seat"] == second


async def test_premature_challenge_refused_where_only_next_challenges(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish")
    turn = h.deal.turn
    reply = await h.send((turn + 1) % 4, "challenge", set_no=1)
    assert reply["code"] == "PREMATURE"
    assert h.events(0, "challenge_void") == []


async def test_set_laid_early_waits_for_the_window_then_applies(nursery, mock_clock):
    h = await start_table(nursery, mock_clock)
    first = h.deal.turn
    await h.lay_something(first)
    second = h.deal.turn
    assert (await h.lay_something(second))["t"] == "ok"
    assert [e["seat"] for e in h.events(second, "set_held")] == [second]
    assert h.events(first, "set_held") == []  # only the layer sees it
    assert [e["set_no"] for e in h.events(0, "set_laid")] == [1]
    await h.jump(WINDOW * 0.99)
    assert [e["set_no"] for e in h.events(0, "set_laid")] == [1]
    await h.jump(WINDOW * 0.02)
    assert [e["set_no"] for e in h.events(0, "window_closed")] == [1]
    assert [e["set_no"] for e in h.events(0, "set_laid")] == [1, 2]


async def test_challenge_in_window_returns_the_early_set(nursery, mock_clock):
    h = await start_table(nursery, mock_clock)
    first = h.deal.turn
    await h.lay_something(first)
    second = h.deal.turn
    await h.lay_something(second)
    await h.jump(WINDOW / 2)
    assert (await h.send((first + 2) % 4, "challenge", set_no=1))["t"] == "ok"
    await h.jump(WINDOW / 2)  # the window expires while the tie group collects: no CloseWindow
    assert h.events(0, "window_closed") == []
    await h.jump(TIE)
    assert [e["seat"] for e in h.events(0, "challenged")] == [(first + 2) % 4]
    assert [e["seat"] for e in h.events(second, "set_returned")] == [second]
    assert [e["set_no"] for e in h.events(0, "set_laid")] == [1]


# -- turn timers ----------------------------------------------------------------------------------


async def test_expired_turn_timer_acts_exactly_once_and_marks_away(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", turn_ms=1_000, bot_delay_ms=60_000)
    seat = h.deal.turn
    assert h.events(0, "turn")[-1]["time_ms"] == 1_000
    await h.jump(0.999)
    assert h.events(0, "timed_out") == []
    await h.jump(0.001)
    assert [e["seat"] for e in h.events(0, "timed_out")] == [seat]
    assert h.table.seats[seat].away
    assert [e["seat"] for e in h.events(0, "set_laid")] == [seat]
    await h.jump(0.5)
    assert [e["seat"] for e in h.events(0, "timed_out")] == [seat]
    # the next seat's own timer started with its turn
    await h.jump(0.5)
    assert [e["seat"] for e in h.events(0, "timed_out")] == [seat, h.events(0, "timed_out")[-1]["seat"]]
    assert len(h.events(0, "timed_out")) == 2


async def test_away_seat_played_by_bot_until_its_player_acts(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", turn_ms=1_000, bot_delay_ms=100)
    seat = h.deal.turn
    await h.jump(1.0)
    assert h.table.seats[seat].away
    await h.send(seat, "ready", ready=True)  # any request of his own says he is back
    assert not h.table.seats[seat].away


async def test_a_player_back_on_his_own_turn_is_told_his_new_time(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=2, turn_ms=1_000, bot_delay_ms=60_000)
    seat = h.deal.turn
    other = 1 - seat
    await h.jump(1.0)  # he times out: the server lays for him, he is away
    assert h.table.seats[seat].away and h.deal.turn == other
    assert (await h.lay_something(other))["t"] == "ok"
    assert h.deal.turn == seat and h.events(seat, "turn")[-1]["time_ms"] is None  # a bot's turn now
    states = len(h.events(seat, "state"))
    await h.send(seat, "ready", ready=True)  # back, on his own turn: his timer starts afresh
    assert not h.table.seats[seat].away
    assert h.events(seat, "state")[states:][0]["time_ms"] == 1_000
    await h.jump(0.999)
    assert [e["seat"] for e in h.events(other, "timed_out")] == [seat]
    await h.jump(0.001)
    assert [e["seat"] for e in h.events(other, "timed_out")] == [seat, seat]


async def test_a_resume_on_his_own_away_turn_gets_one_state_after_the_table_update(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=2, grace_ms=1_000, bot_delay_ms=60_000)
    seat = h.deal.turn
    session = h.sessions[seat]
    link = session.link
    session.detach(link, trio.current_time())
    h.table.detached(session)
    await h.jump(1.0)  # his grace time is over: away, on his own turn
    assert h.table.summary["seats"][seat]["away"]
    session.attach(link)
    before = len(link.msgs)
    h.table.attached(session, snapshot=True)
    await trio.testing.wait_all_tasks_blocked()
    after = [m["t"] for m in link.msgs[before:]]
    assert after.count("state") == 1 and after.index("table_update") < after.index("state")
    assert h.events(seat, "state")[-1]["time_ms"] == 60_000  # the whole turn, afresh


async def test_a_seat_away_since_a_timeout_is_back_by_a_request_not_by_a_resume(nursery, mock_clock):
    """A resume is made by the client by itself: it brings back a seat away by a drop, but one
    away since its turn time ran out only by the player's own request (docs/PROTOCOL.md, "Resume")."""
    h = await start_table(nursery, mock_clock, variant="verish", seats=2, turn_ms=1_000, bot_delay_ms=60_000)
    seat = h.deal.turn
    await h.jump(1.0)  # his time ran out: away
    session = h.sessions[seat]
    link = session.link
    session.detach(link, trio.current_time())
    h.table.detached(session)
    session.attach(link)
    h.table.attached(session, snapshot=False)
    await trio.testing.wait_all_tasks_blocked()
    assert h.table.summary["seats"][seat]["away"]
    assert (await h.send(seat, "ready", ready=True))["t"] == "ok"
    assert not h.table.summary["seats"][seat]["away"]
    assert not h.events(1 - seat, "table_update")[-1]["table"]["seats"][seat]["away"]


async def test_no_timer_fires_after_deal_ends(nursery, mock_clock):
    h = await start_table(
        nursery,
        mock_clock,
        variant="cheat",
        seats=3,
        bots=("honest", "honest"),
        turn_ms=2_000,
        bot_delay_ms=0,
        deals=1,
    )
    for _ in range(2000):
        if h.table.deal is None:
            break
        await h.jump(0.5)
    assert h.table.deal is None and not h.table.playing
    ended = h.events(0, "deal_ended")
    assert len(ended) == 1
    assert h.table.game is None and h.table.timers.next() == math.inf  # no deadline is left
    before = len(h.msgs(0))
    await h.jump(3600)
    assert len(h.msgs(0)) == before


async def test_fair_deal_commitment_matches_disclosure(nursery, mock_clock):
    import hashlib

    h = await start_table(
        nursery, mock_clock, variant="verish", seats=2, bots=("honest",), turn_ms=500, bot_delay_ms=0, deals=1
    )
    for _ in range(2000):
        if h.table.deal is None:
            break
        await h.jump(0.5)
    (started,) = h.events(0, "deal_started")
    (ended,) = h.events(0, "deal_ended")
    assert "hands" not in started and sorted(started["hand"]) == sorted(started["hand"])
    digest = hashlib.sha256((ended["salt"] + ":" + ",".join(ended["deck"])).encode()).hexdigest()
    assert started["commitment"] == digest and len(ended["salt"]) == 64


async def test_repeated_challenge_is_refused_then_stale(nursery, mock_clock):
    h = await start_table(nursery, mock_clock)
    claimant = h.deal.turn
    await h.lay_something(claimant)
    seat = (claimant + 2) % 4
    assert (await h.send(seat, "challenge", set_no=1))["t"] == "ok"
    again = await h.send(seat, "challenge", set_no=1)
    assert (again["code"], again["fatal"]) == ("ILLEGAL_ACTION", False)
    await h.jump(TIE)
    assert [(e["seat"], e["tied"]) for e in h.events(0, "challenged")] == [(seat, [])]
    late = await h.send(seat, "challenge", set_no=1)
    assert late["code"] == "STALE_SET"


async def test_a_bot_without_a_move_on_its_turn_does_not_stall_the_deal(nursery, mock_clock):
    class Mute:
        observes = frozenset()  # the event classes it learns from (engine.bots.Bot): none
        budget_s = None  # nor does it search

        def observe(self, event):
            pass

        def choose(self, view, rng):
            return None

    h = await start_table(
        nursery, mock_clock, variant="verish", seats=2, bots=("honest",), turn_ms=0, bot_delay_ms=100
    )
    h.table.game.bots[1].make(Mute(), [])
    if h.deal.turn == 0:
        await h.lay_something(0)
    assert h.deal.turn == 1
    await h.jump(0.1)
    assert [e["seat"] for e in h.events(0, "timed_out")] == [1]
    assert h.deal.turn == 0 or h.deal.over


async def test_dropped_player_is_played_by_a_bot_after_the_grace_time_and_comes_back(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", turn_ms=0, grace_ms=5_000, bot_delay_ms=100)
    seat = h.deal.turn
    session = h.sessions[seat]
    link = session.link
    session.detach(link, trio.current_time())
    h.table.detached(session)
    await trio.testing.wait_all_tasks_blocked()
    await h.jump(4.9)
    assert not h.table.seats[seat].away and h.deal.turn == seat  # his seat waits
    await h.jump(0.11)
    assert h.table.seats[seat].away
    await h.jump(0.1)
    assert h.deal.turn != seat  # the bot played for him
    session.attach(link)
    h.table.attached(session, snapshot=True)
    await trio.testing.wait_all_tasks_blocked()
    assert not h.table.seats[seat].away
    (state,) = h.events(seat, "state")
    assert state["seat"] == seat and sorted(state["hand"]) == sorted(h.deal.hands[seat])


async def test_turn_timer_in_an_anyone_variant_acts_once_after_the_window(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, turn_ms=3_000, bot_delay_ms=60_000)
    first = h.deal.turn
    await h.lay_something(first)
    second = h.deal.turn
    await h.jump(WINDOW)
    assert [e["set_no"] for e in h.events(0, "window_closed")] == [1]
    await h.jump(3.0 - WINDOW - 0.01)
    assert h.events(0, "timed_out") == []
    await h.jump(0.01)
    assert [e["seat"] for e in h.events(0, "timed_out")] == [second]
    assert [e["seat"] for e in h.events(0, "set_laid")] == [first, second]
    await h.jump(WINDOW)  # the next window closes; the third seat's own timer runs on
    assert [e["seat"] for e in h.events(0, "timed_out")] == [second]


async def test_turn_time_running_out_during_a_tie_waits_for_the_challenge_and_restarts_the_turn(
    nursery, mock_clock
):
    h = await start_table(nursery, mock_clock, turn_ms=2_000, bot_delay_ms=60_000)
    first = h.deal.turn
    await h.lay_something(first)
    second = h.deal.turn
    await h.jump(WINDOW)  # window closed; the second seat thinks
    await h.jump(2.0 - WINDOW - TIE / 2)
    assert (await h.send((first + 2) % 4, "challenge", set_no=1))["t"] == "ok"
    await h.jump(TIE / 2)  # the turn time runs out inside the tie window: no set is applied
    assert h.events(0, "challenged") == [] and h.events(0, "timed_out") == []
    await h.jump(TIE / 2)  # the tie window closes: the challenge is settled
    assert [e["seat"] for e in h.events(0, "challenged")] == [(first + 2) % 4]
    assert h.events(0, "timed_out") == []  # the challenge came first; hoyle: the same seat lays next
    assert h.deal.turn == second and h.events(0, "turn")[-1]["seat"] == second
    await h.jump(1.99)
    assert h.events(0, "timed_out") == []
    await h.jump(0.02)
    assert [e["seat"] for e in h.events(0, "timed_out")] == [second]


async def test_a_resume_by_replay_is_told_the_turn_time_left(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=2, turn_ms=10_000, bot_delay_ms=60_000)
    seat = h.deal.turn
    session = h.sessions[seat]
    link = session.link
    session.detach(link, trio.current_time())
    h.table.detached(session)
    await h.jump(3.0)
    session.attach(link)
    h.table.attached(session, snapshot=False)
    await trio.testing.wait_all_tasks_blocked()
    turn = h.events(seat, "turn")[-1]
    assert (turn["seat"], turn["time_ms"]) == (seat, 7_000)
    assert turn["set_no"] is None and turn["ranks"] == h.events(seat, "turn")[0]["ranks"]


async def test_a_deal_ended_says_when_the_next_deal_starts(nursery, mock_clock):
    h = await start_table(
        nursery, mock_clock, variant="cheat", seats=3, bots=("honest", "honest"), turn_ms=0, deals=2
    )
    for _ in range(2000):  # the person at seat 0 lays when he may; the bots play on
        if not h.table.playing:
            break
        deal = h.table.deal
        if deal is not None and not deal.over and deal.turn == 0 and deal.legal_actions(0).lay:
            await h.lay_something(0)
        await h.jump(0.5)
    assert [e["next_deal_ms"] for e in h.events(0, "deal_ended")] == [1_000, None]


async def test_a_drop_is_told_to_the_table_after_a_second_and_the_resume_at_once(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=2, turn_ms=0, bot_delay_ms=60_000)
    seat = h.deal.turn
    session, other = h.sessions[seat], 1 - seat
    link = session.link

    before = len(h.events(other, "table_update"))

    def absent() -> list[bool]:
        return [m["table"]["seats"][seat]["absent"] for m in h.events(other, "table_update")[before:]]

    session.detach(link, trio.current_time())
    h.table.detached(session)
    await h.jump(0.999)
    assert absent() == []  # (a reconnect within the second is not told)
    await h.jump(0.001)
    assert absent() == [True]
    session.attach(link)
    h.table.attached(session, snapshot=False)
    await trio.testing.wait_all_tasks_blocked()
    assert absent() == [True, False]
