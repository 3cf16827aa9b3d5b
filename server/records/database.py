"""The records database: one SQLite file (the standard library's ``sqlite3``), its schema and its
migrations.

SQLite's own guidance fits a LAN server: an embedded database, WAL mode (readers never wait for
the writer, and a committed transaction survives the process being killed), one writer
(``records.writer``); ``synchronous = FULL``: a commit is on the disk when it returns, a power cut
loses nothing committed either. The schema's version is ``PRAGMA user_version``; ``MIGRATIONS[k]`` brings a
database from version k to k + 1, each in one transaction, so a newer neveryu opens an older
file and upgrades it, and an older neveryu refuses a newer file (``StoreError``) instead of
misreading it.

Tables (version 1; docs/RECORDS.md, "The database"):

- ``meta``: key/value notes (``opened_ms``: when a program last opened the file to write).
- ``matches``: one row per match: ``uid`` (random, made by the server), the server's name, the
  table's id, ``variant``, ``options``, ``rules`` (every parameter of docs/RULES.md, JSON), ``timing``
  (the table's times, JSON), ``deals`` per match, ``seeded``, ``reveal_after_deal``.
- ``deals``: one row per deal that ended: its match and number, start and end (Unix ms), the
  variant (again, for queries), seat count, dealer, the first dealer's draw (JSON, or NULL),
  ``deck`` (the cards as dealt, top first, joined by ","), ``fair`` (the fair deal's fields,
  JSON: ``commitment``, ``salt``, and whatever a later fair deal adds), ``actions`` (every
  accepted action with its time offset: JSON compressed by zlib,
  ``records.deal_record.encode_actions``), the result (``loser``, ``winner``, ``out_order``,
  ``scores``, ``hand_counts``) and the match's scores after it.
- ``deal_seats``: one row per seat of a deal: ``name``, ``bot`` (a bot seat's strength),
  ``player_id`` (the seat's player, ``players``, from version 2; NULL: nobody held it),
  ``session_hash`` (SHA-256 of the session token that held the seat when the deal began: who
  may fetch the seat's view over the network), ``place`` (1 for the first out), ``score``
  (this deal's score change).

Version 2 adds the players (docs/PLAYERS.md; ``records.players``, ``records.derive``):

- ``players``: one row per player: ``key`` (``p:`` and the SHA-256 of his player key, in hex;
  ``bot:`` and a strength; ``guest:`` and a session's hash), ``kind`` (``person``, ``bot``,
  ``guest``), ``name`` (the latest), ``tag`` (a person's: four hex digits of his key's hash),
  ``first_ms``/``last_ms`` (the first and last deal's end).
- ``seat_stats`` and ``ratings``: made from the records alone (``records.derive``), deal by deal in
  the order of their ids, up to the ``meta`` key ``derived_through`` (the last deal done); a
  rebuild makes them again from nothing and gives the same values. ``seat_stats``: one row per
  seat of a deal: its player and variant, its result (place, lost, won, score), its play (NULL
  where the record does not replay), its player's rating after the deal (``mu``, ``sigma``).
  ``ratings``: each player's rating per variant now, with the deals it counts.

Upgrading a version 1 file makes a player of each bot strength and a guest of each session that
held a seat, and fills ``deal_seats.player_id`` with them; the statistics and ratings of those
deals are made by the next program that writes the file (the server, ``neveryu stats``).

Version 3 adds the journal of live tables (``records.journal``; docs/RECORDS.md, "The journal"):

- ``journal_runs``: one row per running server (``run``: random, made at its start) that keeps
  a journal: its ``server`` name, the machine (``host``) and process (``pid``) it runs as, and
  ``alive_ms`` (Unix ms), bumped by its writer at least every ``records.journal_rows.ALIVE_MS``.
- ``live_tables``: one row per live table: ``id`` (random, made by the server), the ``run`` that
  holds it, ``server``, ``table_no``, ``opened_ms`` and ``updated_ms`` (opened, or taken over),
  ``settings``, ``state`` (seats: names, bot strengths, player ids, the SHA-256 of each seat's
  session token, never the token; ready, away; the host), ``match`` (the match so far, NULL
  between matches) and ``deal`` (the current deal's deck and fair-deal material, NULL between
  deals), all JSON, and ``deal_no`` (the current deal's number, NULL between deals).
- ``live_actions``: the accepted actions of each live table's current deal, one row each
  (``deal_no``, ``n`` from 0, ``ms`` from the deal's start, ``action``: msgpack, the array
  ``[t, values...]`` of ``deals.actions``),
  in the order they were written: a batch's rows go to the end of the table, a few pages,
  whatever tables they are of; the rows of deals that ended and of tables that closed are
  deleted every so often (``records.journal_rows.collect``), not one deal at a time.

Version 4 keys the journal's actions by their deal's own key (``live_tables.deal_key``,
``live_actions.deal_key`` instead of ``deal_no``: version 3 mixed a previous match's deal of the
same number into the current one), keeps a table that did not restore (``live_tables.failure``:
why) and adds ``live_sessions``: one row per session of a running server (``key``: its token's
SHA-256, never the token; ``run``, ``server``, ``name``, ``player``, ``updated_ms``), so that a
session in the lobby comes back after a restart too.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

SCHEMA_VERSION = 4
BUSY_MS = 5_000  # how long a statement waits for another connection's lock

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 0 -> 1: the first schema
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            uid TEXT NOT NULL UNIQUE,
            server TEXT NOT NULL,
            table_no INTEGER NOT NULL,
            started_ms INTEGER NOT NULL,
            variant TEXT NOT NULL,
            options TEXT NOT NULL,
            rules TEXT NOT NULL,
            timing TEXT NOT NULL,
            deals INTEGER NOT NULL,
            seeded INTEGER NOT NULL,
            reveal_after_deal INTEGER NOT NULL
        )""",
        """CREATE TABLE deals (
            id INTEGER PRIMARY KEY,
            match_id INTEGER NOT NULL REFERENCES matches (id),
            deal_no INTEGER NOT NULL,
            started_ms INTEGER NOT NULL,
            ended_ms INTEGER NOT NULL,
            variant TEXT NOT NULL,
            players INTEGER NOT NULL,
            dealer INTEGER NOT NULL,
            draws TEXT,
            deck TEXT NOT NULL,
            fair TEXT NOT NULL,
            actions BLOB NOT NULL,
            loser INTEGER,
            winner INTEGER,
            out_order TEXT NOT NULL,
            scores TEXT NOT NULL,
            hand_counts TEXT NOT NULL,
            match_scores TEXT NOT NULL,
            UNIQUE (match_id, deal_no)
        )""",
        "CREATE INDEX deals_variant ON deals (variant, id)",
        """CREATE TABLE deal_seats (
            deal_id INTEGER NOT NULL REFERENCES deals (id),
            seat INTEGER NOT NULL,
            name TEXT,
            bot TEXT,
            player_id INTEGER,
            session_hash TEXT,
            place INTEGER,
            score INTEGER NOT NULL,
            PRIMARY KEY (deal_id, seat)
        ) WITHOUT ROWID""",
        "CREATE INDEX deal_seats_name ON deal_seats (name, deal_id)",
        "CREATE INDEX deal_seats_session ON deal_seats (session_hash, deal_id)"
        " WHERE session_hash IS NOT NULL",
    ),
    (  # 1 -> 2: players, their statistics and ratings (docs/PLAYERS.md)
        """CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            tag TEXT,
            first_ms INTEGER NOT NULL,
            last_ms INTEGER NOT NULL
        )""",
        "CREATE INDEX players_name ON players (name COLLATE NOCASE)",
        "CREATE INDEX deal_seats_player ON deal_seats (player_id, deal_id) WHERE player_id IS NOT NULL",
        """CREATE TABLE seat_stats (
            deal_id INTEGER NOT NULL REFERENCES deals (id),
            seat INTEGER NOT NULL,
            player_id INTEGER REFERENCES players (id),
            variant TEXT NOT NULL,
            place INTEGER,
            lost INTEGER NOT NULL,
            won INTEGER NOT NULL,
            score INTEGER NOT NULL,
            sets INTEGER,
            bluffs INTEGER,
            bluffs_caught INTEGER,
            challenges INTEGER,
            challenges_right INTEGER,
            believes INTEGER,
            believes_right INTEGER,
            cards_taken INTEGER,
            actions INTEGER,
            action_ms INTEGER,
            timeouts INTEGER,
            mu REAL,
            sigma REAL,
            PRIMARY KEY (deal_id, seat)
        ) WITHOUT ROWID""",
        "CREATE INDEX seat_stats_player ON seat_stats (player_id, variant) WHERE player_id IS NOT NULL",
        """CREATE TABLE ratings (
            variant TEXT NOT NULL,
            player_id INTEGER NOT NULL REFERENCES players (id),
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            deals INTEGER NOT NULL,
            last_deal INTEGER NOT NULL,
            PRIMARY KEY (variant, player_id)
        ) WITHOUT ROWID""",
        # The deals recorded before: a bot seat is its strength's player, a person's seat the
        # guest of the session that held it (players had no keys yet).
        """INSERT INTO players (key, kind, name, tag, first_ms, last_ms)
            SELECT 'bot:' || s.bot, 'bot', s.bot, NULL, min(d.ended_ms), max(d.ended_ms)
            FROM deal_seats s JOIN deals d ON d.id = s.deal_id
            WHERE s.bot IS NOT NULL GROUP BY s.bot ORDER BY min(d.id), s.bot""",
        """INSERT INTO players (key, kind, name, tag, first_ms, last_ms)
            SELECT 'guest:' || s.session_hash, 'guest',
                (SELECT coalesce(l.name, '?') FROM deal_seats l WHERE l.session_hash = s.session_hash
                 ORDER BY l.deal_id DESC LIMIT 1),
                NULL, min(d.ended_ms), max(d.ended_ms)
            FROM deal_seats s JOIN deals d ON d.id = s.deal_id
            WHERE s.bot IS NULL AND s.session_hash IS NOT NULL
            GROUP BY s.session_hash ORDER BY min(d.id), s.session_hash""",
        """UPDATE deal_seats SET player_id = (
                SELECT p.id FROM players p WHERE p.key = CASE
                    WHEN deal_seats.bot IS NOT NULL THEN 'bot:' || deal_seats.bot
                    ELSE 'guest:' || deal_seats.session_hash END)
            WHERE bot IS NOT NULL OR session_hash IS NOT NULL""",
    ),
    (  # 2 -> 3: the journal of live tables
        """CREATE TABLE journal_runs (
            run TEXT PRIMARY KEY,
            server TEXT NOT NULL,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started_ms INTEGER NOT NULL,
            alive_ms INTEGER NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE live_tables (
            id INTEGER PRIMARY KEY,
            run TEXT NOT NULL,
            server TEXT NOT NULL,
            table_no INTEGER NOT NULL,
            opened_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL,
            settings TEXT NOT NULL,
            state TEXT NOT NULL,
            match TEXT,
            deal TEXT,
            deal_no INTEGER
        )""",
        "CREATE INDEX live_tables_server ON live_tables (server, run)",
        """CREATE TABLE live_actions (
            table_id INTEGER NOT NULL,
            deal_no INTEGER NOT NULL,
            n INTEGER NOT NULL,
            ms INTEGER NOT NULL,
            action BLOB NOT NULL
        )""",
    ),
    (  # 3 -> 4: the actions keyed by their deal's own key; a failed restore kept for inspection
        "ALTER TABLE live_tables ADD COLUMN deal_key INTEGER",
        "ALTER TABLE live_tables ADD COLUMN failure TEXT",
        # A deal journaled by version 3 takes its table's id, negated: new keys are positive.
        "UPDATE live_tables SET deal_key = -id WHERE deal_no IS NOT NULL",
        """CREATE TABLE live_actions_4 (
            table_id INTEGER NOT NULL,
            deal_key INTEGER NOT NULL,
            n INTEGER NOT NULL,
            ms INTEGER NOT NULL,
            action BLOB NOT NULL
        )""",
        # Version 3 keyed the actions by table and deal number only: the rows of a previous
        # match's deal of the same number may still be there. The current deal's rows are
        # those from the last action 0 of that number on (rows are appended in order).
        """WITH starts AS (
                SELECT table_id, deal_no, max(rowid) AS first FROM live_actions WHERE n = 0
                GROUP BY table_id, deal_no)
            INSERT INTO live_actions_4 (table_id, deal_key, n, ms, action)
            SELECT a.table_id, t.deal_key, a.n, a.ms, a.action FROM live_actions a
            JOIN live_tables t ON t.id = a.table_id AND t.deal_no = a.deal_no
            JOIN starts s ON s.table_id = a.table_id AND s.deal_no = a.deal_no
            WHERE a.rowid >= s.first ORDER BY a.rowid""",
        "DROP TABLE live_actions",
        "ALTER TABLE live_actions_4 RENAME TO live_actions",
        """CREATE TABLE live_sessions (
            key TEXT PRIMARY KEY,
            run TEXT NOT NULL,
            server TEXT NOT NULL,
            name TEXT NOT NULL,
            player TEXT,
            updated_ms INTEGER NOT NULL
        ) WITHOUT ROWID""",
    ),
)
assert len(MIGRATIONS) == SCHEMA_VERSION


class StoreError(Exception):
    """The records database cannot be used; the message says why, for people (and the log)."""


def describe(exc: sqlite3.Error, path: str | os.PathLike[str]) -> str:
    """What an ``sqlite3`` error means for the records in ``path``, in a few words."""
    code = getattr(exc, "sqlite_errorname", "") or ""
    if code == "SQLITE_NOTADB":
        return f"{path} is not a records database (or it is damaged)"
    if code.startswith("SQLITE_CORRUPT"):
        return f"{path} is damaged ({exc})"
    if code.startswith("SQLITE_READONLY"):
        return f"{path} is read-only"
    if code == "SQLITE_FULL":
        return f"the disk holding {path} is full"
    if code.startswith("SQLITE_CANTOPEN"):
        return f"cannot open {path}"
    if code.startswith("SQLITE_IOERR"):
        return f"the disk failed writing {path} ({exc})"
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return f"{path} is locked by another program"
    return f"{path}: {exc}"


def connect(path: str | os.PathLike[str], *, write: bool, threads: bool = False) -> sqlite3.Connection:
    """A connection to the records database at ``path``, at ``SCHEMA_VERSION``.

    ``write``: make the file (and its folder) if needed, switch it to WAL, upgrade an older
    schema, and prove that it takes writes (a read-only file or a full disk is found here, not
    at the first deal). Without ``write`` the file must exist; an older schema is upgraded
    only if the file can be written. ``threads``: the connection may be used from another thread
    than this one (one at a time). Statements are autocommitted unless wrapped in
    ``transaction``.

    Raises ``StoreError`` (a newer schema, a file that is no database, damaged, read-only or on a
    full disk, ...): the caller turns records off and says why.
    """
    where = Path(path)
    try:
        if write:
            where.parent.mkdir(parents=True, exist_ok=True)
        elif not where.is_file():
            raise StoreError(f"there is no records database at {where}")
        conn = sqlite3.connect(
            str(where), timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=not threads
        )
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(describe(exc, where) if isinstance(exc, sqlite3.Error) else str(exc)) from exc
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{where} was written by a newer neveryu (records schema {version}; this one knows "
                f"up to {SCHEMA_VERSION})"
            )
        if write:
            conn.execute("PRAGMA journal_mode = WAL")
            # FULL: the log is synced at each commit, so a committed transaction survives a
            # power cut too, not only the process dying (NORMAL would lose the last ones).
            conn.execute("PRAGMA synchronous = FULL")
        if version < SCHEMA_VERSION:
            _migrate(conn, version, checkpoint=write)
        if write:  # the proof that it takes writes
            with transaction(conn):
                now = str(time.time_ns() // 1_000_000)
                conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('opened_ms', ?)", (now,))
        conn.execute("PRAGMA foreign_keys = ON")
        return conn
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError(describe(exc, where)) from exc
    except StoreError:
        conn.close()
        raise


def _migrate(conn: sqlite3.Connection, version: int, *, checkpoint: bool) -> None:
    """Bring the schema from ``version`` to ``SCHEMA_VERSION``, one transaction per step; with
    ``checkpoint``, each step's pages go into the file at once: the log never holds more than
    one step (a new file fits a small disk)."""
    for step in range(version, SCHEMA_VERSION):
        with transaction(conn):
            for statement in MIGRATIONS[step]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {step + 1}")
        if checkpoint:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` when the block raises. Inside a
    transaction already (the records' writer commits a batch in one), a savepoint instead: the
    block's writes are undone alone when it raises, and committed with the outer transaction."""
    if conn.in_transaction:
        conn.execute("SAVEPOINT nested")
        try:
            yield conn
        except BaseException:
            try:
                conn.execute("ROLLBACK TO nested")
                conn.execute("RELEASE nested")
            except sqlite3.Error:
                pass  # the first error is the one that matters
            raise
        conn.execute("RELEASE nested")
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the first error is the one that matters
        raise
    conn.execute("COMMIT")
