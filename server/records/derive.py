"""Statistics and ratings, made from the records alone (docs/PLAYERS.md).

Each deal is *derived* once, in the order of the deals' ids: its record is replayed
(``records.replay.check``) and counted (``records.statistics``), and its players' ratings in its variant are
updated from its finishing order (``records.ratings``). ``meta.derived_through`` is the id of the last
deal derived; what was derived (``seat_stats``, ``ratings``) depends only on the records up to
it, so ``rebuild``, which derives every deal again from nothing, gives exactly the same values.

The records' writer (``records.writer``) derives each new deal in the transaction that writes it
(``keep_deal``: the table never waits: this runs in the writer's thread). Deals not derived
yet (a file from before version 2, a rebuild under way in another program) are derived first,
in order: ``catch_up`` at the writer's start, then at most ``BATCH`` more with each new deal.

A record that does not replay still counts for ratings (its result is recorded) and for the
results, but not for the play (its counts are NULL); one that cannot be read at all is
skipped. Either is said in the log.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

import attrs

from .database import transaction
from .deal_record import DealRecord, RecordError
from .history import load_deal, write_deal
from .players import with_players
from .ratings import PRIOR, Rating, finishing_ranks, rate
from .replay import ReplayError, check
from .statistics import COUNTS, seat_stats

log = logging.getLogger("neveryu.server")

BATCH = 50  # deals derived at most in the transaction of a new deal, besides it
CATCH_UP = 500  # deals per transaction of a catch-up or rebuild
_STAT_COLUMNS = ", ".join(COUNTS)
SEAT_COLUMNS = f"player_id, variant, place, lost, won, score, {_STAT_COLUMNS}, mu, sigma"


def derived_through(conn: sqlite3.Connection) -> int:
    """The id of the last deal derived (0: none)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'derived_through'").fetchone()
    return int(row[0]) if row else 0


def _set_through(conn: sqlite3.Connection, deal_id: int) -> None:
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('derived_through', ?)", (str(deal_id),))


def pending(conn: sqlite3.Connection) -> int:
    """How many deals are not derived yet."""
    (count,) = conn.execute("SELECT count(*) FROM deals WHERE id > ?", (derived_through(conn),)).fetchone()
    return int(count)


def keep_deal(conn: sqlite3.Connection, record: DealRecord) -> int:
    """The records' writer's transaction for one ended deal: its players (``with_players``),
    its rows (``records.history.write_deal``), and its statistics and ratings (with at most ``BATCH``
    older deals not derived yet, first). Returns the deal's id. Raises ``sqlite3.Error``."""
    with transaction(conn):
        record = with_players(conn, record)
        deal_id = write_deal(conn, record)
        derive_pending(conn, BATCH + 1, attrs.evolve(record, id=deal_id))
    return deal_id


def derive_pending(conn: sqlite3.Connection, limit: int, record: DealRecord | None = None) -> int:
    """Derive the next ``limit`` deals not derived yet, in order, inside the caller's
    transaction (``record``: one of them, already in memory). Returns how many."""
    ids = [
        row[0]
        for row in conn.execute(
            "SELECT id FROM deals WHERE id > ? ORDER BY id LIMIT ?", (derived_through(conn), limit)
        )
    ]
    for deal_id in ids:
        derive_deal(conn, deal_id, record if record is not None and record.id == deal_id else None)
    if ids:
        _set_through(conn, ids[-1])
    return len(ids)


def catch_up(conn: sqlite3.Connection, progress: Callable[[int], None] | None = None) -> int:
    """Derive every deal not derived yet, ``CATCH_UP`` per transaction (another writer may
    write between them); ``progress(done)`` after each. Returns how many."""
    done = 0
    while True:
        with transaction(conn):
            n = derive_pending(conn, CATCH_UP)
        if not n:
            return done
        done += n
        if progress is not None:
            progress(done)


def derive_deal(conn: sqlite3.Connection, deal_id: int, record: DealRecord | None = None) -> None:
    """Count deal ``deal_id`` (``record``: its record, if in memory) and rate its players."""
    if record is None:
        try:
            record = load_deal(conn, deal_id)
        except RecordError as exc:
            log.warning("players: deal %d is not counted: %s", deal_id, exc)
            return
        if record is None:
            return
    try:
        rows = _rows(conn, record)
    except sqlite3.Error:
        raise
    except Exception:  # a bug: this deal goes uncounted, the others are not held up
        log.exception("players: deal %d is not counted", deal_id)
        return
    conn.executemany(
        f"INSERT INTO seat_stats (deal_id, seat, {SEAT_COLUMNS})"
        f" VALUES ({', '.join('?' * (len(COUNTS) + 10))})",
        [(deal_id, seat, *row) for seat, row in enumerate(rows.seats)],
    )
    conn.executemany(
        "INSERT INTO ratings (variant, player_id, mu, sigma, deals, last_deal) VALUES (?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (variant, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " deals = deals + 1, last_deal = excluded.last_deal",
        [(record.variant, player, mu, sigma, deal_id) for player, (mu, sigma) in rows.ratings.items()],
    )


@attrs.frozen
class _Rows:
    seats: list[tuple[object, ...]]
    ratings: dict[int, Rating]


def _rows(conn: sqlite3.Connection, record: DealRecord) -> _Rows:
    """What deriving ``record`` writes: a ``seat_stats`` row per seat (``SEAT_COLUMNS``) and
    each player's new rating."""
    try:
        counted = seat_stats(record, check(record))
    except ReplayError as exc:
        log.warning("players: deal %s does not replay (its play is not counted): %s", record.id, exc)
        counted = None
    players = [s.player for s in record.seats]
    known = sorted({p for p in players if p is not None})
    before: dict[int, Rating] = {}
    if known:
        for player, mu, sigma in conn.execute(
            "SELECT player_id, mu, sigma FROM ratings WHERE variant = ?"
            f" AND player_id IN ({', '.join('?' * len(known))})",
            (record.variant, *known),
        ):
            before[player] = (mu, sigma)
    after = rate(players, before, finishing_ranks(record.result.out, record.players))
    r = record.result
    seats = []
    for seat in record.seats:
        play = counted[seat.seat].values() if counted is not None else (None,) * len(COUNTS)
        mu, sigma = after.get(seat.player, PRIOR) if seat.player is not None else (None, None)
        seats.append(
            (
                seat.player,
                record.variant,
                seat.place,
                int(r.loser == seat.seat),
                int(r.winner == seat.seat),
                seat.score,
                *play,
                mu,
                sigma,
            )
        )
    return _Rows(seats, after)


@attrs.frozen
class Rebuilt:
    """What ``rebuild`` did: ``deals`` derived again; of the values there were before it (up to
    deal ``compared``), ``differ`` rows of ``seat_stats`` and ``ratings`` that came out other
    than they were (0: reproduced exactly)."""

    deals: int
    compared: int
    differ: int


def rebuild(conn: sqlite3.Connection, progress: Callable[[int], None] | None = None) -> Rebuilt:
    """Make the statistics and ratings again from the records alone and compare them with what
    was there. Raises ``sqlite3.Error``."""
    with transaction(conn):
        through = derived_through(conn)
        conn.execute("DROP TABLE IF EXISTS temp.before_seats")
        conn.execute("DROP TABLE IF EXISTS temp.before_ratings")
        conn.execute("CREATE TEMP TABLE before_seats AS SELECT * FROM seat_stats")
        conn.execute("CREATE TEMP TABLE before_ratings AS SELECT * FROM ratings")
        conn.execute("DELETE FROM seat_stats")
        conn.execute("DELETE FROM ratings")
        _set_through(conn, 0)
    deals = catch_up(conn, progress)
    same = " AND ".join(f"s.{c} IS b.{c}" for c in ("seat", *SEAT_COLUMNS.split(", ")))
    (seats_differ,) = conn.execute(
        "SELECT count(*) FROM temp.before_seats b WHERE b.deal_id <= ? AND NOT EXISTS"
        f" (SELECT 1 FROM seat_stats s WHERE s.deal_id = b.deal_id AND {same})",
        (through,),
    ).fetchone()
    (ratings_differ,) = conn.execute(
        "SELECT count(*) FROM temp.before_ratings b WHERE NOT EXISTS (SELECT 1 FROM ratings r"
        " WHERE r.variant = b.variant AND r.player_id = b.player_id AND (r.last_deal > b.last_deal"
        " OR (r.mu = b.mu AND r.sigma = b.sigma AND r.deals = b.deals AND r.last_deal = b.last_deal)))"
    ).fetchone()
    conn.execute("DROP TABLE temp.before_seats")
    conn.execute("DROP TABLE temp.before_ratings")
    return Rebuilt(deals, through, seats_differ + ratings_differ)
