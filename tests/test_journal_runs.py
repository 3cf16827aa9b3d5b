"""Whose tables a starting server takes over (docs/RECORDS.md, "When it is read"): those of a run
whose process is gone. A process killed a moment ago may still be there as a zombie (dead, not
yet reaped by its parent: an init that reaps late, a supervisor that never does): it is gone, and
a server started again at once takes over its tables; a process that runs keeps its own.
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
