"""A starting server's taking over of the journal its last run left (docs/RECORDS.md, "When it is
read"), said in the log: ``take_over`` on the database it writes, ``read_journal`` on one it can
only read (read-only, a full disk), whose tables are then restored and not journaled. Journal rows
of types no check foresaw (a damaged or hand-edited file) cost the restore, never the start.
"""

from __future__ import annotations

import logging
import sqlite3

from . import journal_rows as store
from .database import StoreError, connect
from .deal_notes import wall_ms

log = logging.getLogger("neveryu.server")

DAMAGED = (TypeError, ValueError, AttributeError)  # what journal rows of unforeseen types raise
Taken = tuple[list[store.Journaled], list[store.JournaledSession]]


def take_over(conn: sqlite3.Connection, run: str, server: str, *, restore: bool, max_age_ms: int) -> Taken:
    """The tables and sessions of ``server``'s last run, taken over by ``run`` (``store.begin_run``:
    those to restore; none with ``restore`` False). Raises sqlite3.Error."""
    try:
        tables, deleted, sessions = store.begin_run(
            conn, run, server, wall_ms(), restore=restore, max_age_ms=max_age_ms
        )
    except DAMAGED as exc:
        log.warning(
            "journal: its rows cannot be read (%s: %s); no table is restored", type(exc).__name__, exc
        )
        return [], []
    if deleted:
        why = "--fresh" if not restore else f"their server was gone over {max_age_ms // 60_000} min"
        log.info("journal: %d tables of the last run are not restored (%s)", deleted, why)
    return tables, sessions


def read_journal(path: str, server: str, max_age_ms: int) -> Taken:
    """What ``take_over`` would take, read from the file at ``path`` that cannot be written
    (``store.read_run``: nothing noted or deleted); none where it cannot be read either."""
    try:
        conn = connect(path, write=False)
    except StoreError:
        return [], []
    try:
        tables, sessions = store.read_run(conn, server, wall_ms(), max_age_ms=max_age_ms)
    except (sqlite3.Error, *DAMAGED):
        return [], []
    finally:
        conn.close()
    if tables:
        log.warning(
            "journal: %d tables are read from it, to be restored but no longer journaled", len(tables)
        )
    return tables, sessions
