"""The journal's rows (``records.database`` version 4: ``journal_runs``, ``live_tables``, ``live_actions``),
written by the records' writer thread (``records.writer``) and read once, when a server starts.

Every running server that keeps a journal has a row in ``journal_runs`` (its ``run``: random),
which its writer keeps alive (``alive``, at least every ``ALIVE_MS``). A starting server takes
over the live tables of its own name (``server``) whose run is over (``begin_run``): the row is
gone (the run ended), the process is gone (same machine and boot: no such pid, or one that died
and waits to be reaped), or it has not been alive for ``STALE_MS`` (another machine, or a reused
pid). So two servers of the same name on one database (two ``neveryu play``) never take each
other's tables while both run. A table whose rows did not restore it is marked (``failure``:
why) and kept ``FAILED_KEEP_MS`` for someone to look at; no server takes it over.

Every function takes an open connection (``records.database.connect``) and raises ``sqlite3.Error``.
"""

from __future__ import annotations

import functools
import json
import os
import socket
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from .database import transaction
from .derive import keep_deal
from .journal import (
    TABLE_ENTRIES,
    ActionsTaken,
    DealNoted,
    MatchNoted,
    Op,
    RecordKept,
    RestoreFailed,
    SessionBegun,
    SessionGone,
    StateChanged,
    TableClosed,
    TableOpened,
)

ALIVE_MS = 10_000  # a running server's writer notes it is alive at least this often
STALE_MS = 60_000  # a run not alive for this long is over (another machine, or a reused pid)
FAILED_KEEP_MS = 7 * 24 * 3600 * 1000  # how long the rows of a table that did not restore are kept


@attrs.frozen
class Journaled:
    """A live table as the journal holds it (JSON text, decoded by ``_restore``): its journal
    ``id``, ``table_no``, times (Unix ms), ``settings``, ``state``, ``match`` and ``deal``
    (None: none), the deal's key (``deal_key``, 0: none), and the deal's ``actions``:
    ``(n, ms, action)`` in the order written (``action``: msgpack of
    ``records.deal_record.packed_action``)."""

    id: int
    table_no: int
    opened_ms: int
    updated_ms: int
    settings: str
    state: str
    match: str | None
    deal: str | None
    deal_key: int
    actions: tuple[tuple[int, int, bytes], ...]


@attrs.frozen
class JournaledSession:
    """A session as the journal holds it (``live_sessions``): its token's ``key`` (SHA-256),
    ``name`` and ``player`` (``players.key``, None: a guest)."""

    key: str
    name: str
    player: str | None


def machine() -> str:
    """This machine as ``journal_runs.host``: its name and, where Linux tells it, its boot id
    (a pid noted before a reboot says nothing after it)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    return f"{socket.gethostname()} {boot}".strip()


def _over(host: str, pid: int, alive_ms: int, now_ms: int, here: str) -> bool:
    """Whether the run noted as ``host``, ``pid``, ``alive_ms`` has ended."""
    if now_ms - alive_ms > STALE_MS:
        return True
    name, _, boot = host.partition(" ")
    here_name, _, here_boot = here.partition(" ")
    if name != here_name:
        return False  # another machine's: alive until it goes stale
    if boot and here_boot and boot != here_boot:
        return True  # this machine has rebooted since
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: alive
        return False
    return _zombie(pid)


def _zombie(pid: int) -> bool:
    """Process ``pid`` has died and waits for its parent to reap it (Linux's /proc says so): a
    server started again at once after a kill finds its last run's pid still there for a while
    (an init that reaps late, a parent that never does). False where /proc does not tell."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat[stat.rfind(")") + 1 :].split()[:1]  # (the name, in parentheses, may hold spaces)
    return state in (["Z"], ["X"])


def begin_run(
    conn: sqlite3.Connection, run: str, server: str, now_ms: int, *, restore: bool, max_age_ms: int
) -> tuple[list[Journaled], int, list[JournaledSession]]:
    """Note this run, and take over the live tables of ``server`` whose run is over: those whose
    server was alive within ``max_age_ms`` are returned (``restore``), the others deleted (a
    table that failed to restore is left alone, and deleted after ``FAILED_KEEP_MS``); their
    sessions likewise. Returns the tables taken over, how many were deleted, and the sessions
    taken over."""
    here = machine()
    with transaction(conn):
        conn.execute(
            "INSERT INTO journal_runs (run, server, host, pid, started_ms, alive_ms)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (run, server, here, os.getpid(), now_ms, now_ms),
        )
        runs = _runs(conn, run, server, now_ms, here)
        failed = conn.execute(
            "DELETE FROM live_tables WHERE server = ? AND failure IS NOT NULL AND updated_ms < ?",
            (server, now_ms - FAILED_KEEP_MS),
        ).rowcount
        take = _Takeover(conn, run, server, now_ms, runs, restore=restore, max_age_ms=max_age_ms)
        taken, deleted = take.tables()
        sessions = take.sessions()
        conn.execute(
            "DELETE FROM journal_runs WHERE server = ? AND run != ? AND run NOT IN"
            " (SELECT run FROM live_tables WHERE failure IS NULL)",
            (server, run),
        )
        if deleted or failed:
            collect(conn)
    return taken, deleted, sessions


def read_run(
    conn: sqlite3.Connection, server: str, now_ms: int, *, max_age_ms: int
) -> tuple[list[Journaled], list[JournaledSession]]:
    """What ``begin_run`` would take over, read from a database that cannot be written (read-only,
    a full disk): the tables and sessions of ``server`` whose run is over, alive within
    ``max_age_ms``. Nothing is noted or deleted: the tables are restored but no longer journaled,
    and the next server that can write the file finds them as they were."""
    runs = _runs(conn, "", server, now_ms, machine())
    take = _Takeover(conn, "", server, now_ms, runs, restore=True, max_age_ms=max_age_ms, write=False)
    return take.tables()[0], take.sessions()


def _runs(
    conn: sqlite3.Connection, run: str, server: str, now_ms: int, here: str
) -> dict[str, tuple[bool, int]]:
    """Each run of ``server`` but ``run``: whether it is over, and when it was last alive. A row
    that cannot be read (damaged) is left out: its run counts as over."""
    return {
        r: (_over(host, pid, alive, now_ms, here), alive)
        for r, host, pid, alive in conn.execute(
            "SELECT run, host, pid, alive_ms FROM journal_runs WHERE server = ? AND run != ?", (server, run)
        )
        if type(host) is str and type(pid) is int and type(alive) is int
    }


@attrs.define
class _Takeover:
    """``begin_run``'s taking over, inside its transaction: ``runs`` maps each other run of the
    server to (whether it is over, when it was last alive). ``write``: False only reads (``read_run``)."""

    conn: sqlite3.Connection
    run: str
    server: str
    now_ms: int
    runs: dict[str, tuple[bool, int]]
    restore: bool
    max_age_ms: int
    write: bool = True

    def _keep(self, owner: str, updated: int) -> bool | None:
        """None: its run goes on (left alone); False: too old, or no restore, or a time that
        cannot be read (deleted); True: taken over."""
        if type(updated) is not int:
            return False
        over, alive = self.runs.get(owner, (True, updated))
        if not over:
            return None
        return self.restore and self.now_ms - max(alive, updated) <= self.max_age_ms

    def tables(self) -> tuple[list[Journaled], int]:
        """The tables taken over, each with its current deal's actions; and how many were deleted."""
        conn, deleted = self.conn, 0
        rows = conn.execute(
            "SELECT id, run, table_no, opened_ms, updated_ms, settings, state, match, deal, deal_key"
            " FROM live_tables WHERE server = ? AND run != ? AND failure IS NULL ORDER BY table_no, id",
            (self.server, self.run),
        ).fetchall()
        claimed: dict[int, Journaled] = {}
        for jid, owner, table_no, opened, updated, settings, state, match, deal, deal_key in rows:
            keep = self._keep(owner, updated) if type(table_no) is int else False
            if keep is None:
                continue
            if not keep:
                if self.write:
                    conn.execute("DELETE FROM live_tables WHERE id = ?", (jid,))
                deleted += 1
                continue
            if self.write:
                conn.execute(
                    "UPDATE live_tables SET run = ?, updated_ms = ? WHERE id = ?",
                    (self.run, self.now_ms, jid),
                )
            claimed[jid] = Journaled(
                jid, table_no, opened, updated, settings, state, match, deal, deal_key or 0, ()
            )
        actions: dict[int, list[tuple[int, int, bytes]]] = {jid: [] for jid in claimed}
        if claimed:
            for jid, deal_key, n, ms, action in conn.execute(
                "SELECT table_id, deal_key, n, ms, action FROM live_actions ORDER BY rowid"
            ):
                if jid in actions and deal_key == claimed[jid].deal_key:
                    actions[jid].append((n, ms, action))
        return [attrs.evolve(j, actions=tuple(actions[jid])) for jid, j in claimed.items()], deleted

    def sessions(self) -> list[JournaledSession]:
        """The sessions taken over (the others of runs that are over: deleted)."""
        conn, taken = self.conn, []
        for key, owner, name, player, updated in conn.execute(
            "SELECT key, run, name, player, updated_ms FROM live_sessions WHERE server = ? AND run != ?",
            (self.server, self.run),
        ).fetchall():
            readable = type(key) is type(name) is str and (player is None or type(player) is str)
            keep = self._keep(owner, updated) if readable else False
            if keep is None:
                continue
            if not keep:
                if self.write:
                    conn.execute("DELETE FROM live_sessions WHERE key = ?", (key,))
                continue
            if self.write:
                conn.execute(
                    "UPDATE live_sessions SET run = ?, updated_ms = ? WHERE key = ?",
                    (self.run, self.now_ms, key),
                )
            taken.append(JournaledSession(key, name, player))
        return taken


def end_run(conn: sqlite3.Connection, run: str) -> None:
    """This run ends: its row goes (and the actions nobody needs). Tables and sessions it still
    holds (no table after a shutdown: its tables closed first) are then the next server's of its
    name to take over (a session nobody resumes is forgotten after its grace time)."""
    with transaction(conn):
        conn.execute("DELETE FROM journal_runs WHERE run = ?", (run,))
        collect(conn)


def collect(conn: sqlite3.Connection) -> int:
    """Delete the actions of deals that ended and of tables that closed (inside a transaction);
    returns how many. The writer does it every so often, not at each deal's end: one pass over
    the actions instead of a search per deal (``live_actions`` has no index)."""
    cursor = conn.execute(
        "DELETE FROM live_actions WHERE NOT EXISTS (SELECT 1 FROM live_tables t"
        " WHERE t.id = live_actions.table_id AND t.deal_key = live_actions.deal_key)"
    )
    return cursor.rowcount


def alive(conn: sqlite3.Connection, run: str, now_ms: int) -> None:
    """This run is alive (inside the writer's transaction)."""
    conn.execute("UPDATE journal_runs SET alive_ms = ? WHERE run = ?", (now_ms, run))


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _delete(conn: sqlite3.Connection, jid: int) -> None:
    """Forget table ``jid`` (its actions go at the next ``collect``)."""
    conn.execute("DELETE FROM live_tables WHERE id = ?", (jid,))


def write(
    conn: sqlite3.Connection, run: str, server: str, ops: Iterable[Op], now_ms: int, rows: list[Any]
) -> tuple[int, int]:
    """Write ``ops`` (inside the writer's transaction). Actions are not inserted at once: their
    rows go into ``rows``, which ``flush`` inserts in one statement (before any other entry, and
    at the end of the batch). Returns how many deal records were written, and how many deals or
    tables ended (whose actions ``collect`` deletes)."""
    records = ended = 0
    for op in ops:
        if isinstance(op, ActionsTaken):
            n = op.n
            for ms, data in op.actions:  # (packed by ``Applied``)
                rows.append((op.table, op.deal_key, n, ms, data))
                n += 1
            continue
        if rows:
            flush(conn, rows)
        match op:
            case RecordKept(record):
                keep_deal(conn, record)  # its players, statistics, ratings (a savepoint of the batch's)
                records += 1
            case StateChanged(jid, state):
                conn.execute("UPDATE live_tables SET state = ? WHERE id = ?", (_json(state), jid))
            case MatchNoted(jid, match):
                text = None if match is None else _json(match)
                conn.execute("UPDATE live_tables SET match = ? WHERE id = ?", (text, jid))
            case DealNoted(jid, deal_key, state):  # (the actions of the deal before go at ``collect``)
                ended += 1
                deal, deal_no = (None, None) if state is None else (_json(state), state["deal_no"])
                conn.execute(
                    "UPDATE live_tables SET deal = ?, deal_no = ?, deal_key = ? WHERE id = ?",
                    (deal, deal_no, deal_key, jid),
                )
            case TableOpened(jid, table_no, settings, state):
                conn.execute(
                    "INSERT INTO live_tables"
                    " (id, run, server, table_no, opened_ms, updated_ms, settings, state)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (jid, run, server, table_no, now_ms, now_ms, _json(settings), _json(state)),
                )
            case TableClosed(jid):
                _delete(conn, jid)
                ended += 1
            case SessionBegun(key, name, player):
                conn.execute(
                    "INSERT OR REPLACE INTO live_sessions (key, run, server, name, player, updated_ms)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (key, run, server, name, player, now_ms),
                )
            case SessionGone(key):
                conn.execute("DELETE FROM live_sessions WHERE key = ?", (key,))
            case RestoreFailed(jid, why):
                conn.execute(
                    "UPDATE live_tables SET failure = ?, updated_ms = ? WHERE id = ?", (why, now_ms, jid)
                )
            case _:
                raise ValueError(f"not a journal entry: {op!r}")
    return records, ended


FLUSH_ROWS = 100  # rows an INSERT statement carries at most (5 variables each)


@functools.cache
def _insert(rows: int) -> str:
    return "INSERT INTO live_actions (table_id, deal_key, n, ms, action) VALUES " + ",".join(
        ["(?, ?, ?, ?, ?)"] * rows
    )


def flush(conn: sqlite3.Connection, rows: list[Any]) -> None:
    """Insert the actions' rows ``write`` gathered, ``FLUSH_ROWS`` a statement: one step of
    SQLite for many rows (the writer thread takes Python's lock back once per statement, not
    once per row, while the server's own thread wants it too)."""
    for start in range(0, len(rows), FLUSH_ROWS):
        chunk = rows[start : start + FLUSH_ROWS]
        conn.execute(_insert(len(chunk)), [value for row in chunk for value in row])
    rows.clear()


def forget_tables(conn: sqlite3.Connection, jids: Iterable[int]) -> None:
    """Delete the journal's rows of ``jids`` (a table whose entries could not be written)."""
    for jid in jids:
        _delete(conn, jid)


def forget_run(conn: sqlite3.Connection, run: str) -> None:
    """Delete every live table of ``run`` (its journal went off: what it holds is not whole);
    the rows of a table that failed to restore stay."""
    conn.execute("DELETE FROM live_tables WHERE run = ? AND failure IS NULL", (run,))
    conn.execute("DELETE FROM live_sessions WHERE run = ?", (run,))
    collect(conn)


def table_ids(ops: Iterable[Op]) -> set[int]:
    """The journal ids ``ops`` write to."""
    return {op.table for op in ops if isinstance(op, TABLE_ENTRIES)}
