"""The records' writer thread under injected faults, which cost records and never a game: a batch
that fails is said in the log and written again entry by entry, and what the writer keeps in memory
follows only what was committed (a rolled-back transaction leaves no mark); the deals not recorded
are counted exactly while the server's thread and the writer both count them.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from neveryu.server import RecordsWriter
from neveryu.server.records import journal_rows, writer
from neveryu.server.records.journal import DealNoted, StateChanged, TableOpened

STATE = [None, 0, [], []]


def live_tables(path: Any) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM live_tables").fetchone()[0]
    finally:
        conn.close()


def test_a_failed_batch_is_said_and_its_retry_forgets_the_journal(tmp_path, monkeypatch, caplog):
    db = tmp_path / "records.sqlite3"
    records = RecordsWriter(db, server="test", journal=True, batch_s=5.0)
    records.open()
    assert records.journal is not None
    records.put([TableOpened(5, 1, {}, STATE), DealNoted(5, None, None)])
    assert records.flush()
    assert live_tables(db) == 1

    # The journal goes off (the writer fell behind): this run's tables are to be forgotten. The
    # batch that forgets them fails after it did (a fault in the same transaction): the retry
    # must forget them again, since the rollback undid it.
    calls = []
    collect = journal_rows.collect

    def failing_collect(conn: sqlite3.Connection) -> int:
        calls.append(1)
        if len(calls) == 2:  # (the first is forget_run's own)
            raise RuntimeError("injected")
        return collect(conn)

    monkeypatch.setattr(journal_rows, "collect", failing_collect)
    monkeypatch.setattr(writer, "COLLECT_S", 0.0)
    caplog.set_level(logging.INFO, logger="neveryu.server")
    records.journal.off = True
    records.put([StateChanged(5, STATE)])
    assert records.flush()
    assert len(calls) >= 3  # (the batch failed, and was written again)
    assert live_tables(db) == 0
    said = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert said == ["records: a batch of 1 entries failed (RuntimeError('injected')); written one by one"]
    records.close()


def test_every_deal_not_recorded_is_counted_by_either_thread(tmp_path, monkeypatch):
    def failing_keep(conn: sqlite3.Connection, record: Any) -> None:
        raise RuntimeError("injected")  # every record the writer takes is lost

    monkeypatch.setattr(journal_rows, "keep_deal", failing_keep)
    records = RecordsWriter(tmp_path / "records.sqlite3", server="test", size=3, batch_s=0.0)
    records.open()
    for _ in range(400):  # the queue fills now and then: those are refused here
        records.keep(object())  # type: ignore[arg-type]
    assert records.flush(30)
    assert records._refused > 0 and records._lost > 0  # (both threads counted some)
    assert records.dropped == 400
    records.close()
