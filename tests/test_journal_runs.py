"""Whose tables a starting server takes over (docs/RECORDS.md, "When it is read"): those of a run
whose process is gone. A process killed a moment ago may still be there as a zombie (dead, not
yet reaped by its parent: an init that reaps late, a supervisor that never does): it is gone, and
a server started again at once takes over its tables; a process that runs keeps its own. Journal
rows of types the journal never writes (a damaged or hand-edited file) cost their own table or
session, never the server's start.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time

import pytest
from test_journal import crash, open_records, start

from neveryu.server.records.deal_notes import wall_ms
from neveryu.server.records.journal_rows import machine


def left_by(db, pid: int) -> None:
    """The journal's tables as a run of process ``pid`` leaves them when it is killed: its row
    kept, alive a moment ago."""
    conn = sqlite3.connect(db)
    conn.execute(
        "INSERT INTO journal_runs (run, server, host, pid, started_ms, alive_ms)"
        " VALUES ('gone', 'test', ?, ?, ?, ?)",
        (machine(), pid, wall_ms() - 1_000, wall_ms()),
    )
    conn.execute("UPDATE live_tables SET run = 'gone'")
    conn.commit()
    conn.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a zombie is told by Linux's /proc")
@pytest.mark.parametrize("dead", [True, False])
async def test_a_killed_server_not_yet_reaped_leaves_its_tables_to_the_next(
    nursery, mock_clock, tmp_path, dead
):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    await start(nursery, mock_clock, records, "verish")
    crash(records)
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        if dead:
            process.kill()  # and not reaped (no wait): a zombie until the test reaps it
            for _ in range(500):
                with open(f"/proc/{process.pid}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                        break
                time.sleep(0.01)
        left_by(db, process.pid)
        again = open_records(db)
        assert [j.table_no for j in again.journaled] == ([1] if dead else [])
        again.close()
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(
    ("damage", "tables", "sessions"),
    [
        ("UPDATE journal_runs SET alive_ms = 'yesterday', pid = 'x'", [1, 2], 4),  # its run: over
        ("UPDATE live_tables SET updated_ms = x'00' WHERE table_no = 1", [2], 4),
        ("UPDATE live_tables SET table_no = 'one' WHERE table_no = 1", [2], 4),
        ("UPDATE live_sessions SET name = x'ff' WHERE name = 'p1'", [1, 2], 3),
        ("UPDATE live_sessions SET player = x'05' WHERE name = 'p0'", [1, 2], 3),
    ],
)
async def test_journal_rows_that_cannot_be_read_cost_their_table_never_the_start(
    nursery, mock_clock, tmp_path, damage, tables, sessions
):
    """Rows of types the journal never writes (a damaged or hand-edited file): the server starts
    all the same, and such a row costs only its own table or session."""
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    await start(nursery, mock_clock, records, "verish", table_id=1)
    await start(nursery, mock_clock, records, "hoyle", table_id=2)
    crash(records)
    left_by(db, 2**22 + 1)  # (no such process: pids stay below 2**22)
    conn = sqlite3.connect(db)
    conn.executemany(  # sessions in the lobby, as the server notes them
        "INSERT INTO live_sessions (key, run, server, name, player, updated_ms)"
        " VALUES (?, 'gone', 'test', ?, ?, ?)",
        [(f"{k:064x}", f"p{k}", None if k % 2 else f"p:{k:064x}", wall_ms()) for k in range(4)],
    )
    conn.execute(damage)
    conn.commit()
    conn.close()
    again = open_records(db)
    assert [j.table_no for j in again.journaled] == tables
    assert len(again.journaled_sessions) == sessions
    again.close()
