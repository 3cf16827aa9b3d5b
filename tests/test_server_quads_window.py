"""The quads window of `verish` at a table (docs/RULES.md, `verish`, quads after taking, Decision), on
trio's MockClock: at an untimed table it waits for the taker's decision, however long, and
``quads_window_opened`` says it has no time (``time_ms`` null); at a timed table it closes when
its ``quads_window_ms`` pass; a bot that takes over the taker's seat (he left) goes on for him,
so that a window with no time never holds the deal for ever."""

from __future__ import annotations

from test_server_timing import start_table


async def take(h) -> int:
    """The seat to act lays, the next one challenges: someone (a person) takes the pile. The
    taker's seat."""
    claimant = h.deal.turn
    assert (await h.lay_something(claimant))["t"] == "ok"
    assert (await h.send(h.deal.turn, "challenge", set_no=1))["t"] == "ok"
    (taken,) = h.events(0, "pile_taken")
    return int(taken["seat"])


async def test_at_an_untimed_table_the_window_waits_for_the_taker(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=3, turn_ms=0, quads_window_ms=2_000)
    taker = await take(h)
    for seat in range(3):
        (opened,) = h.events(seat, "quads_window_opened")
        assert opened["seat"] == taker and opened["time_ms"] is None
    leader = h.deal.turn
    assert (await h.lay_something(leader))["t"] == "ok"  # laid early: it waits for the window
    await h.jump(3_600)
    assert h.events(0, "quads_window_closed") == [] and h.deal.quads_window == taker
    assert (await h.send(taker, "decline_quads"))["t"] == "ok"
    assert [m["t"] for m in h.msgs(0) if "seq" in m][-5:] == [
        "quads_declined",
        "quads_window_closed",
        "set_laid",
        "turn",
        "legal",
    ]


async def test_at_a_timed_table_the_window_closes_when_its_time_is_up(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=3, quads_window_ms=10_000)
    taker = await take(h)
    (opened,) = h.events(0, "quads_window_opened")
    assert opened == {**opened, "seat": taker, "time_ms": 10_000}
    await h.jump(9.999)
    assert h.events(0, "quads_window_closed") == []
    await h.jump(0.002)
    assert h.events(0, "quads_window_closed") == [{**h.events(0, "quads_window_closed")[0], "seat": taker}]


async def test_a_bot_that_takes_over_the_takers_seat_goes_on(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=3, turn_ms=0)
    taker = await take(h)
    other = next(s for s in range(3) if s != taker)
    held = h.deal.quads_window
    assert held == taker
    assert (await h.send(taker, "leave"))["t"] == "ok"  # a bot plays his seat from now
    await h.jump(0.501)  # its delay (bot_delay_ms 500)
    closed = h.events(other, "quads_window_closed")
    assert [m["seat"] for m in closed] == [taker] and h.deal.quads_window is None
