"""A database that can be read but no longer written (a disk the system remounted read-only after
an error, a file made read-only) costs the records, never a game (docs/RECORDS.md, "The journal"):
``neveryu serve`` killed with SIGKILL and started again on such a file says that records are off,
and still brings back the tables its journal holds, from then on not journaled. The player
resumes his seat with his kept token and plays the match to its end.
"""

from __future__ import annotations

import random
import sqlite3

import pytest
import trio
from test_journal_restart import HOST, ann_plays, wait_for_rows, write_config
from test_records_faults import Served, mount_namespaces

from neveryu.client.botclient import BotPlayer, Client


@pytest.mark.skipif(
    not mount_namespaces(), reason="a read-only mount of the test's own needs root and unshare -m"
)
async def test_a_journal_that_cannot_be_written_still_brings_the_tables_back(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    db = folder / "records.sqlite3"
    args = ["--db", str(db), "--config", str(write_config(tmp_path))]
    first = Served(args, log=tmp_path / "first.log")
    again = None
    try:
        with trio.fail_after(60):
            ann, made = await ann_plays(first.port, deals=2)
            await wait_for_rows(db, "SELECT deal FROM live_tables", lambda rows: rows and rows[0][0])
            first.proc.kill()  # SIGKILL: the table stays in the journal
            await trio.to_thread.run_sync(first.proc.wait)
            read_only = f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}"
            again = await trio.to_thread.run_sync(
                lambda: Served(args, log=tmp_path / "again.log", setup=read_only)
            )
            assert again.records == f"Records are off: {db} is read-only."
            back = await Client.connect(HOST, again.port, "x", resume=(ann.token, ann.last_seq), keep=True)
            welcome = back.welcome
            assert (welcome["resumed"], welcome.get("restarted"), welcome["seat"]) == (
                True,
                True,
                made["seat"],
            )
            assert welcome["table"]["id"] == made["table"]["id"]
            player = BotPlayer(back, welcome["table"], welcome["seat"], "honest", rng=random.Random(3))
            await player.play(1)
            assert (player.deals, player.matches) == (2, 1)
    finally:
        first.kill()
        if again is not None:
            again.stop()
    said = [line.split(" ", 3)[3].strip() for line in (tmp_path / "again.log").read_text().splitlines()]
    assert said[:3] == [
        f"records are off: {db} is read-only; games go on without them",
        "journal: 1 tables are read from it, to be restored but no longer journaled",
        "journal: table 1 is restored (playing; players to come back: 1)",
    ]
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)  # as the first server left it
    assert conn.execute("SELECT count(*), count(deal) FROM live_tables").fetchone() == (1, 1)
    conn.close()
