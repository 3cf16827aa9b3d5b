"""The server's records: one writer thread, and reads for the network's requests.

A table never waits on the disk (DESIGN.md, server/): when a deal ends, its record goes into a
bounded queue (``Records.keep``, which never blocks) and one writer thread commits it, one deal
per transaction, with its players and their statistics and ratings (``_derive.keep_deal``;
first of all, the writer derives the deals that are not derived yet: ``_derive.catch_up``).
SQLite wants one writer per database; this is it. A record that finds the queue full is
dropped (the disk is too slow: records are lost, never a game).

A broken database (a newer schema, a file that is no database or is damaged, read-only, a full
disk) turns records off: the server says so once in its log, with the reason (``off``), and
goes on serving games. Reads (``list_records``, ``get_record``, the players' statistics and
leaderboards) run in a worker thread on a connection of their own (WAL: they never wait for
the writer), one at a time.
"""

from __future__ import annotations

import logging
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import TypeVar

import trio

from ._derive import catch_up, keep_deal
from ._record import DealRecord
from ._store import StoreError, connect, describe

log = logging.getLogger("neveryu.server")

T = TypeVar("T")
QUEUE = 256  # records waiting for the writer; more are dropped
_STOP = None
_CATCH_UP = "catch up"  # the writer's first job: derive the deals not derived yet (_derive)


class Records:
    """Records of the ended deals of a server named ``server``, kept in the SQLite file ``path``
    (None: no records are kept). ``open()`` (blocking: it touches the disk) makes the file ready
    and starts the writer; ``keep(record)`` hands it a record and never waits; ``close()`` lets
    it write what is queued and stops it. ``on``: records are being kept; ``off``: why not
    (None while they are, or before ``open``)."""

    def __init__(self, path: str | os.PathLike[str] | None, server: str = "neveryu", *, size: int = QUEUE):
        self.path = None if path is None else os.fspath(path)
        self.server = server
        self.on = False
        self.off: str | None = None if path is not None else "records are turned off"
        self.written = 0
        self.dropped = 0
        self._queue: queue.Queue[DealRecord | str | None] = queue.Queue(maxsize=size)
        self._thread: threading.Thread | None = None
        self._reader: sqlite3.Connection | None = None
        self._read_limiter = trio.CapacityLimiter(1)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<records {self.path!r} {'on' if self.on else 'off: ' + str(self.off)}>"

    # -- starting and stopping -----------------------------------------------------------------

    def open(self) -> None:
        """Make the database ready (schema, WAL, a write) and start the writer thread; on
        failure records are off (``off`` says why, and the log says it once)."""
        if self.path is None or self._thread is not None:
            return
        try:
            conn = connect(self.path, write=True, threads=True)
        except StoreError as exc:
            self._turn_off(str(exc))
            return
        self.on, self.off = True, None
        self._queue.put_nowait(_CATCH_UP)
        self._thread = threading.Thread(target=self._write, args=(conn,), name="neveryu-records", daemon=True)
        self._thread.start()
        log.info("records: %s", self.path)

    def close(self, timeout: float = 5.0) -> None:
        """Write what is queued (for at most ``timeout`` s) and stop the writer; blocking."""
        thread, self._thread = self._thread, None
        if thread is not None:
            try:
                self._queue.put(_STOP, timeout=timeout)
            except queue.Full:
                pass
            thread.join(timeout)
        with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
        if self.dropped:
            log.warning("records: %d deals were not recorded", self.dropped)

    def _turn_off(self, why: str) -> None:
        """Records are off from now on; said once in the log."""
        if self.off is None or self.on:
            log.warning("records are off: %s; games go on without them", why)
        self.on, self.off = False, why

    # -- writing -------------------------------------------------------------------------------

    def keep(self, record: DealRecord) -> None:
        """Queue ``record`` for the writer; never waits. Dropped (and counted) when records are
        off or the queue is full."""
        if not self.on:
            self.dropped += 1
            return
        try:
            self._queue.put_nowait(record)
        except queue.Full:
            if not self.dropped:
                log.warning("records: the disk is too slow; deals are not being recorded")
            self.dropped += 1

    def _write(self, conn: sqlite3.Connection) -> None:
        """The writer thread: one transaction per deal, until ``close``."""
        try:
            while True:
                record = self._queue.get()
                try:
                    if record is _STOP:
                        return
                    if isinstance(record, str):  # _CATCH_UP
                        if self.on:
                            catch_up(conn)
                        continue
                    if not self.on:
                        self.dropped += 1
                        continue
                    keep_deal(conn, record)
                    self.written += 1
                except sqlite3.Error as exc:
                    self.dropped += not isinstance(record, str)
                    self._turn_off(describe(exc, self.path or "?"))
                except Exception:  # a bug in one record: that record is lost, not the others
                    self.dropped += not isinstance(record, str)
                    log.exception("records: a deal was not recorded (%r)", record)
                finally:
                    self._queue.task_done()
        finally:
            conn.close()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait (blocking) until every record queued so far is written or dropped, at most
        ``timeout`` s; True if it was. For tests and tools: a table never waits."""
        q = self._queue
        with q.all_tasks_done:
            return q.all_tasks_done.wait_for(lambda: q.unfinished_tasks == 0, timeout)

    # -- reading -------------------------------------------------------------------------------

    async def read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``query(connection)`` in a worker thread on the read connection. Raises
        StoreError when records are off or the database fails (then records go off)."""
        if not self.on:
            raise StoreError(self.off or "records are off")
        return await trio.to_thread.run_sync(self._read, query, limiter=self._read_limiter)

    def _read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                if self._reader is None:
                    assert self.path is not None
                    self._reader = connect(self.path, write=False, threads=True)
                return query(self._reader)
            except sqlite3.Error as exc:
                raise StoreError(describe(exc, self.path or "?")) from exc
