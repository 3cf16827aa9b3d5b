"""The referee's own actions are recorded whole and replay exactly: a premature challenge (void), a
set laid early and held, challenges within the tie window settled as a group (the held set goes
back), windows closing, turns that time out (the action made for the seat), and the away seats'
bots to the deal's end. In-process on trio's MockClock (tests/test_server_timing.py's harness)."""

from __future__ import annotations

from records_checks import check_database
from test_server_timing import TIE, WINDOW, start_table

from neveryu.server import RecordsWriter
from neveryu.server.records.deal_record import action_json


async def test_the_timing_rules_actions_are_recorded_and_replay(nursery, mock_clock, tmp_path):
    records = RecordsWriter(tmp_path / "records.sqlite3", server="timing")
    records.open()
    h = await start_table(nursery, mock_clock, records=records, turn_ms=2_000, bot_delay_ms=300)
    first = h.deal.turn
    second, third, early = (first + 1) % 4, (first + 2) % 4, (first + 3) % 4
    assert (await h.send(early, "challenge", set_no=1))["t"] == "ok"  # premature: void
    await h.lay_something(first)
    await h.lay_something(second)  # early: held while set 1's window is open
    await h.jump(WINDOW / 4)
    assert (await h.send(third, "challenge", set_no=1))["t"] == "ok"
    await h.jump(TIE / 4)
    assert (await h.send(second, "challenge", set_no=1))["t"] == "ok"  # within the tie window
    await h.jump(TIE)
    assert [e["seat"] for e in h.events(second, "set_returned")] == [second]
    for _ in range(5_000):  # turns time out; the away seats' bots play the deal to its end
        if h.table.deal is None:
            break
        await h.jump(0.5)
    assert h.table.deal is None
    assert records.flush()
    records.close()
    (record,) = check_database(tmp_path / "records.sqlite3")
    kinds = [action_json(ms, a)["t"] for ms, a in record.actions]
    assert kinds[:4] == ["challenge", "lay", "lay", "challenges"]
    assert {"close_window", "timeout"} <= set(kinds)
    assert action_json(*record.actions[3])["seats"] == [third, second]
    times = [ms for ms, _ in record.actions]
    assert times[:4] == [0, 0, 0, int((WINDOW / 4 + TIE / 4 + TIE) * 1000)]  # the mock clock's
    assert times == sorted(times)
    assert [s.name for s in record.seats] == ["p0", "p1", "p2", "p3"]
