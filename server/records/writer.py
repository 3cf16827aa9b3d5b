"""The server's records and journal: one writer thread, and reads for the network's requests.

A table never waits on the disk (docs/ARCHITECTURE.md, server/): when a deal ends, its record, and as a
table changes, its journal's entries (``records.journal``), go into one queue (``put``, which never
blocks), and one writer thread commits what came in at most every ``BATCH_S``, everything of a
batch in one transaction (SQLite wants one writer per database; this is it). So at 1,000 clients
a commit carries the actions of a hundred tables, and a killed server loses at most the entries
of the last ``BATCH_S`` and of the batch being written; a deal's end is written at once (at most
the record being written is lost, as before the journal). A deal's record is written with its
players and their statistics and ratings (``records.derive.keep_deal``); first of all, the writer
derives the deals that are not derived yet (``records.derive.catch_up``). When the queue holds
``size`` batches the disk is too slow: the journal turns off and records are dropped (lost,
never a game).

A broken database (a newer schema, a file that is no database or is damaged, read-only, a full
disk) turns records off, and the journal with them: the server says so once in its log, with the
reason (``off``), and goes on serving games. Reads (``list_records``, ``get_record``, the
players' statistics and leaderboards) run in a worker thread on a connection of their own (WAL:
they never wait for the writer), one at a time.
"""

from __future__ import annotations

import collections
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import trio

from . import journal_rows as store
from .database import StoreError, connect, describe, transaction
from .deal_notes import wall_ms
from .deal_record import DealRecord
from .derive import catch_up
from .journal import TABLE_ENTRIES, Journal, Op, RecordKept
from .takeover import read_journal, take_over

if TYPE_CHECKING:
    from .._config import ServerConfig

log = logging.getLogger("neveryu.server")

T = TypeVar("T")
QUEUE = 65_536  # batches of entries waiting for the writer; more are dropped
BATCH_S = 0.1  # the writer commits at most this often
COLLECT_S = 60.0  # the actions of ended deals are deleted at most this often
RESTORE_MAX_AGE_MS = 2 * 3600 * 1000  # a table not journaled for this long is not restored


class RecordsWriter:
    """Records of the ended deals of a server named ``server``, kept in the SQLite file ``path``
    (None: no records are kept), and (``journal``) the journal of its live tables in the same
    file. ``open()`` (blocking: it touches the disk) makes the file ready, takes over the
    journal of the last run of the same server (``journaled``: the tables to restore, if
    ``restore``, and its server alive within ``max_age_ms``) and starts the writer; ``keep(record)``
    and ``put(entries)`` hand it work and never wait; ``close()`` lets it write what is queued
    and stops it. ``on``: records are being kept; ``off``: why not (None while they are, or
    before ``open``)."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None,
        server: str = "neveryu",
        *,
        size: int = QUEUE,
        journal: bool = False,
        restore: bool = True,
        max_age_ms: int = RESTORE_MAX_AGE_MS,
        batch_s: float = BATCH_S,
    ):
        self.path = None if path is None else os.fspath(path)
        self.server = server
        self.on = False
        self.off: str | None = None if path is not None else "records are turned off"
        self.written = 0
        self._refused = 0  # records not queued (counted by the trio thread alone)
        self._lost = 0  # records the writer could not write (counted by the writer thread alone)
        self.actions = 0  # actions the journal has written
        self.cpu_s = 0.0  # the writer thread's CPU time (benchmarks)
        self.size = size
        self.batch_s = batch_s
        self.journal: Journal | None = None  # made by open() when asked for and records are on
        self.journaled: list[store.Journaled] = []  # the tables to restore (``open``)
        self.journaled_sessions: list[store.JournaledSession] = []  # and the sessions
        self.run = secrets.token_hex(8)  # this server's run in the journal
        self._want_journal = journal
        self._restore = restore
        self._max_age_ms = max_age_ms
        self._items: collections.deque[list[Op]] = collections.deque()
        self._queued = 0  # batches handed to the writer (the trio thread counts)
        self._done = 0  # batches the writer has written or dropped
        self._done_changed = threading.Condition()
        self._wake = threading.Event()  # something is queued
        self._hurry = threading.Event()  # write it now: a deal's record, a flush, or the end
        self._stopping = False
        self._broken: set[int] = set()  # journal ids whose entries could not be written
        self._forgot = False  # the journal went off: this run's tables were deleted
        self._ended = 0  # deals and tables ended since the actions nobody needs were deleted
        self._collected = time.monotonic()
        self._thread: threading.Thread | None = None
        self._reader: sqlite3.Connection | None = None
        self._read_limiter = trio.CapacityLimiter(1)
        self._lock = threading.Lock()

    @classmethod
    def of(cls, config: ServerConfig) -> RecordsWriter:
        """The records (and journal) of a server with ``config``."""
        return cls(
            config.records_path,
            server=config.name,
            journal=config.journal,
            restore=config.restore,
            max_age_ms=config.journal_max_age_ms,
        )

    def __repr__(self) -> str:
        return f"<records {self.path!r} {'on' if self.on else 'off: ' + str(self.off)}>"

    @property
    def dropped(self) -> int:
        """Deals not recorded: refused (records off, the queue full) or lost by the writer.
        Two counters, each written by one thread only, so that neither loses a count."""
        return self._refused + self._lost

    # -- starting and stopping -----------------------------------------------------------------

    def open(self) -> None:
        """Make the database ready (schema, WAL, a write), take over the journal and start the
        writer thread; on failure records are off (``off`` says why, and the log says it once)."""
        if self.path is None or self._thread is not None:
            return
        try:
            conn = connect(self.path, write=True, threads=True)
        except StoreError as exc:
            self._turn_off(str(exc))
            if self._want_journal and self._restore:  # (a file it can read brings its tables back)
                self.journaled, self.journaled_sessions = read_journal(
                    self.path, self.server, self._max_age_ms
                )
            return
        if self._want_journal:
            try:
                self.journaled, self.journaled_sessions = take_over(
                    conn, self.run, self.server, restore=self._restore, max_age_ms=self._max_age_ms
                )
            except sqlite3.Error as exc:
                conn.close()
                self._turn_off(describe(exc, self.path))
                return
        self.on, self.off = True, None
        if self._want_journal:
            self.journal = Journal(self.put, self.keep)
        self._thread = threading.Thread(target=self._write, args=(conn,), name="neveryu-records", daemon=True)
        self._thread.start()
        log.info("records: %s%s", self.path, " (and the journal of live tables)" if self.journal else "")

    def take_journaled(self) -> tuple[list[store.Journaled], list[store.JournaledSession]]:
        """The tables and the sessions of the last run to restore (``open``), once: the server
        takes them over (``_restore``) and nothing is left here."""
        taken = self.journaled, self.journaled_sessions
        self.journaled, self.journaled_sessions = [], []
        return taken

    def close(self, timeout: float = 5.0) -> None:
        """Write what is queued (for at most ``timeout`` s) and stop the writer; blocking."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stopping = True
            self._hurry.set()
            self._wake.set()
            thread.join(timeout)
        with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
        if self.dropped:
            log.warning("records: %d deals were not recorded", self.dropped)

    def _turn_off(self, why: str) -> None:
        """Records (and the journal) are off from now on; said once in the log."""
        if self.off is None or self.on:
            log.warning("records are off: %s; games go on without them", why)
        self.on, self.off = False, why
        if self.journal is not None:
            self.journal.turn_off()

    # -- writing -------------------------------------------------------------------------------

    def keep(self, record: DealRecord) -> None:
        """Queue ``record`` for the writer; never waits. Dropped (and counted) when records are
        off or the queue is full."""
        if not self.put([RecordKept(record)], now=True):
            self._refused += 1

    def put(self, entries: list[Op], now: bool = False) -> bool:
        """Queue ``entries`` (a deal's record, journal entries), to be committed together
        (``now``: at once, not with the next batch: a deal's end); never waits. False when
        records are off or the queue is full (then the journal is off: a table whose entries
        were lost cannot be restored as it was)."""
        if not self.on:
            return False
        if len(self._items) >= self.size:
            if self.journal is not None and not self.journal.off:
                log.warning("records: the disk is too slow; the journal of live tables is off")
                self.journal.turn_off()
            elif not self.dropped:
                log.warning("records: the disk is too slow; deals are not being recorded")
            return False
        self._items.append(entries)
        self._queued += 1
        if now:
            self._hurry.set()
        if not self._wake.is_set():
            self._wake.set()
        return True

    def _write(self, conn: sqlite3.Connection) -> None:
        """The writer thread: at most every ``batch_s``, what was queued, in one transaction;
        the run noted alive at least every ``ALIVE_MS``; until ``close``."""
        alive_at = 0.0
        try:
            try:
                catch_up(conn)  # the deals not derived yet (records.derive)
            except sqlite3.Error:
                raise
            except Exception:  # a bug: the players' figures wait for the next program
                log.exception("records: the deals not derived yet could not be derived")
            while True:
                self.cpu_s = time.thread_time()
                woke = self._wake.wait(store.ALIVE_MS / 1000)
                if woke:
                    self._hurry.wait(self.batch_s)  # gather what else comes meanwhile
                    self._wake.clear()
                    if not self._stopping:
                        self._hurry.clear()
                stopping = self._stopping
                batch = []
                while self._items:
                    batch.append(self._items.popleft())
                due = self.journal is not None and time.monotonic() - alive_at >= store.ALIVE_MS / 2000
                if (batch or due) and self.on:
                    self._commit(conn, batch, due)
                    if due:
                        alive_at = time.monotonic()
                elif batch:
                    self._lost += sum(1 for entries in batch for op in entries if isinstance(op, RecordKept))
                with self._done_changed:
                    self._done += len(batch)
                    self._done_changed.notify_all()
                if stopping and not self._items:
                    break
            if self.journal is not None and self.on:
                store.end_run(conn, self.run)
        except sqlite3.Error as exc:
            self._turn_off(describe(exc, self.path or "?"))
        finally:
            conn.close()
            self.cpu_s = time.thread_time()

    def _commit(self, conn: sqlite3.Connection, batch: list[list[Op]], alive: bool) -> None:
        """Write ``batch`` in one transaction. When that fails (a bug in one entry, a disk too
        full for the whole batch), it is written again one entry at a time, each in a
        transaction of its own: an entry that raises costs its record and its tables' journal,
        not the rest; the database failing turns records off. ``alive``: note the run alive."""
        now = wall_ms()
        try:
            with transaction(conn):
                done = self._write_entries(conn, batch, now, alive)
            self._written(done)
            return
        except Exception as exc:  # (said once per batch: the retry may well succeed)
            log.warning("records: a batch of %d entries failed (%r); written one by one", len(batch), exc)
        for k, entries in enumerate(batch):
            try:
                with transaction(conn):
                    done = self._write_entries(conn, [entries], now, alive and k == 0)
                self._written(done)
            except sqlite3.Error as exc:
                if not isinstance(exc, sqlite3.IntegrityError):
                    self._lost += sum(1 for e in batch[k:] for op in e if isinstance(op, RecordKept))
                    self._turn_off(describe(exc, self.path or "?"))
                    return
                self._forget(conn, entries, exc)
            except Exception as exc:  # a bug in one entry
                self._forget(conn, entries, exc)

    def _write_entries(
        self, conn: sqlite3.Connection, batch: list[list[Op]], now: int, alive: bool
    ) -> tuple[int, int, int, bool, bool]:
        """Write ``batch`` inside the caller's transaction. Returns what it did, to be counted
        once the transaction is committed (a rolled-back one did nothing): records written,
        actions written, deals and tables ended, whether this run's tables were forgotten (the
        journal went off) and whether the actions nobody needs were collected."""
        journal = self.journal
        rows: list[Any] = []  # the actions' rows, inserted together
        written = ended = actions = 0
        forgot = collected = False
        for entries in batch:
            if journal is None or journal.off:
                entries = [op for op in entries if isinstance(op, RecordKept)]
            elif self._broken:
                entries = [
                    op for op in entries if not isinstance(op, TABLE_ENTRIES) or op.table not in self._broken
                ]
            records, gone = store.write(conn, self.run, self.server, entries, now, rows)
            written, ended = written + records, ended + gone
        if rows:
            actions = len(rows)
            store.flush(conn, rows)
        if journal is not None:
            if journal.off and not self._forgot:  # what it holds of this run's tables is not whole
                store.forget_run(conn, self.run)
                forgot = True
            if alive:
                store.alive(conn, self.run, now)
            if self._ended + ended and time.monotonic() >= self._collected + COLLECT_S:
                store.collect(conn)  # the actions of the deals that ended meanwhile
                collected = True
        return written, actions, ended, forgot, collected

    def _written(self, done: tuple[int, int, int, bool, bool]) -> None:
        """A transaction of ``_write_entries`` was committed: count what it did."""
        written, actions, ended, forgot, collected = done
        self.written += written
        self.actions += actions
        self._forgot = self._forgot or forgot
        self._ended += ended
        if collected:
            self._ended, self._collected = 0, time.monotonic()

    def _forget(self, conn: sqlite3.Connection, entries: list[Op], exc: Exception) -> None:
        """``entries`` could not be written: their record is lost, their tables' journal too."""
        self._lost += sum(1 for op in entries if isinstance(op, RecordKept))
        jids = store.table_ids(entries)
        self._broken |= jids
        log.error("records: entries could not be written (%r); journal %s forgotten", exc, sorted(jids))
        try:
            with transaction(conn):
                store.forget_tables(conn, jids)
        except sqlite3.Error as err:
            self._turn_off(describe(err, self.path or "?"))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait (blocking) until everything queued so far is written or dropped, at most
        ``timeout`` s; True if it was. For tests and tools: a table never waits."""
        target = self._queued
        self._hurry.set()
        self._wake.set()
        with self._done_changed:
            return self._done_changed.wait_for(lambda: self._done >= target, timeout)

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
