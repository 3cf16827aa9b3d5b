"""The journal's rows (``_store`` version 2: ``journal_runs``, ``live_tables``, ``live_actions``),
written by the records' writer thread (``_recorder``) and read once, when a server starts.

Every running server that keeps a journal has a row in ``journal_runs`` (its ``run``: random),
which its writer keeps alive (``alive``, at least every ``ALIVE_MS``). A starting server takes
over the live tables of its own name (``server``) whose run is over (``begin_run``): the row is
gone (the run ended), the process is gone (same machine and boot, no such pid), or it has not
been alive for ``STALE_MS`` (another machine, or a reused pid). So two servers of the same name
on one database (two ``neveryu play``) never take each other's tables while both run.

Every function takes an open connection (``_store.connect``) and raises ``sqlite3.Error``.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from ._history import insert_deal
from ._journal import Op
from ._record import action_fields
from ._store import transaction

ALIVE_MS = 10_000  # a running server's writer notes it is alive at least this often
STALE_MS = 60_000  # a run not alive for this long is over (another machine, or a reused pid)


@attrs.frozen
class Journaled:
    """A live table as the journal holds it (JSON text, decoded by ``_restore``): its journal
    ``id``, ``table_no``, times (Unix ms), ``settings``, ``state``, ``match`` and ``deal``
    (None: none), and ``actions``: ``(deal_no, n, ms, action JSON)`` in order."""

    id: int
    table_no: int
    opened_ms: int
    updated_ms: int
    settings: str
    state: str
    match: str | None
    deal: str | None
    actions: tuple[tuple[int, int, int, str], ...]


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
    return False


def begin_run(
    conn: sqlite3.Connection, run: str, server: str, now_ms: int, *, restore: bool, max_age_ms: int
) -> tuple[list[Journaled], int]:
    """Note this run, and take over the live tables of ``server`` whose run is over: those
    journaled within ``max_age_ms`` are returned (``restore``), the others deleted. Returns the
    tables taken over and how many were deleted."""
    here = machine()
    taken: list[Journaled] = []
    deleted = 0
    with transaction(conn):
        conn.execute(
            "INSERT INTO journal_runs (run, server, host, pid, started_ms, alive_ms)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (run, server, here, os.getpid(), now_ms, now_ms),
        )
        runs = {
            r: _over(host, pid, alive, now_ms, here)
            for r, host, pid, alive in conn.execute(
                "SELECT run, host, pid, alive_ms FROM journal_runs WHERE server = ? AND run != ?",
                (server, run),
            )
        }
        rows = conn.execute(
            "SELECT id, run, table_no, opened_ms, updated_ms, settings, state, match, deal FROM live_tables"
            " WHERE server = ? AND run != ? ORDER BY table_no, id",
            (server, run),
        ).fetchall()
        for jid, owner, table_no, opened, updated, settings, state, match, deal in rows:
            if not runs.get(owner, True):
                continue  # its server runs
            if not restore or now_ms - updated > max_age_ms:
                _delete(conn, jid)
                deleted += 1
                continue
            conn.execute("UPDATE live_tables SET run = ? WHERE id = ?", (run, jid))
            actions = conn.execute(
                "SELECT deal_no, n, ms, action FROM live_actions WHERE table_id = ? ORDER BY deal_no, n",
                (jid,),
            ).fetchall()
            row = (jid, table_no, opened, updated, settings, state, match, deal, tuple(actions))
            taken.append(Journaled(*row))
        conn.execute(
            "DELETE FROM journal_runs WHERE server = ? AND run != ? AND run NOT IN"
            " (SELECT run FROM live_tables)",
            (server, run),
        )
    return taken, deleted


def end_run(conn: sqlite3.Connection, run: str) -> None:
    """This run ends: its row goes. Tables it still holds (none, after a shutdown: its tables
    closed first) are then the next server's of its name to take over."""
    with transaction(conn):
        conn.execute("DELETE FROM journal_runs WHERE run = ?", (run,))


def alive(conn: sqlite3.Connection, run: str, now_ms: int) -> None:
    """This run is alive (inside the writer's transaction)."""
    conn.execute("UPDATE journal_runs SET alive_ms = ? WHERE run = ?", (now_ms, run))


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _delete(conn: sqlite3.Connection, jid: int) -> None:
    conn.execute("DELETE FROM live_actions WHERE table_id = ?", (jid,))
    conn.execute("DELETE FROM live_tables WHERE id = ?", (jid,))


def write(
    conn: sqlite3.Connection, run: str, server: str, ops: Iterable[Op], now_ms: int, touched: set[int]
) -> int:
    """Write ``ops`` (inside the writer's transaction); the journal ids written go into
    ``touched``. Returns how many deal records were written."""
    records = 0
    for op in ops:
        kind = op[0]
        if kind == "actions":
            _, jid, deal_no, first, actions = op
            rows = []
            for k, (ms, action) in enumerate(actions, first):
                t, values = action_fields(action)
                rows.append((jid, deal_no, k, ms, _json([t, *values])))
            conn.executemany(
                "INSERT OR REPLACE INTO live_actions (table_id, deal_no, n, ms, action)"
                " VALUES (?, ?, ?, ?, ?)",
                rows,
            )
        elif kind == "record":
            insert_deal(conn, op[1])  # (a savepoint of the writer's transaction)
            records += 1
            continue
        elif kind == "state":
            conn.execute("UPDATE live_tables SET state = ? WHERE id = ?", (_json(op[2]), op[1]))
        elif kind == "match":
            match = None if op[2] is None else _json(op[2])
            conn.execute("UPDATE live_tables SET match = ? WHERE id = ?", (match, op[1]))
        elif kind == "deal":
            deal = None if op[2] is None else _json(op[2])
            conn.execute("UPDATE live_tables SET deal = ? WHERE id = ?", (deal, op[1]))
            conn.execute("DELETE FROM live_actions WHERE table_id = ?", (op[1],))
        elif kind == "open":
            _, jid, table_no, settings, state = op
            conn.execute(
                "INSERT INTO live_tables (id, run, server, table_no, opened_ms, updated_ms, settings, state)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (jid, run, server, table_no, now_ms, now_ms, _json(settings), _json(state)),
            )
        elif kind == "close":
            _delete(conn, op[1])
            touched.discard(op[1])
            continue
        else:
            raise ValueError(f"not a journal entry: {kind!r}")
        touched.add(op[1])
    return records


def touch(conn: sqlite3.Connection, touched: set[int], now_ms: int) -> None:
    """The tables in ``touched`` were journaled at ``now_ms`` (their age: ``updated_ms``)."""
    conn.executemany("UPDATE live_tables SET updated_ms = ? WHERE id = ?", [(now_ms, jid) for jid in touched])


def forget_tables(conn: sqlite3.Connection, jids: Iterable[int]) -> None:
    """Delete the journal's rows of ``jids`` (a table whose entries could not be written)."""
    for jid in jids:
        _delete(conn, jid)


def forget_run(conn: sqlite3.Connection, run: str) -> None:
    """Delete every live table of ``run`` (its journal went off: what it holds is not whole)."""
    mine = "SELECT id FROM live_tables WHERE run = ?"
    conn.execute(f"DELETE FROM live_actions WHERE table_id IN ({mine})", (run,))
    conn.execute("DELETE FROM live_tables WHERE run = ?", (run,))


def table_ids(ops: Iterable[Op]) -> set[int]:
    """The journal ids ``ops`` write to."""
    return {op[1] for op in ops if op[0] != "record"}
