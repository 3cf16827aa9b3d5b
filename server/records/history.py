"""The records' rows (``records.database``'s tables): a deal written in one transaction, read back whole,
and listed for a history.

Every function takes an open connection (``records.database.connect``) and raises ``sqlite3.Error`` when
the database does, and ``RecordError`` for a row it cannot read back.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, NamedTuple

import attrs

from .database import transaction
from .deal_record import (
    DealRecord,
    RecordError,
    Result,
    SeatRecord,
    decode_actions,
    encode_actions,
    rules_from_json,
    rules_json,
)

DEFAULT_LIMIT = 20


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def insert_deal(conn: sqlite3.Connection, record: DealRecord) -> int:
    """Write ``record`` (and its match, the first time) in one transaction; returns its id."""
    with transaction(conn):
        return write_deal(conn, record)


def write_deal(conn: sqlite3.Connection, record: DealRecord) -> int:
    """``insert_deal`` inside the caller's transaction."""
    row = conn.execute("SELECT id FROM matches WHERE uid = ?", (record.match,)).fetchone()
    if row is not None:
        match_id = row[0]
    else:
        match_id = conn.execute(
            "INSERT INTO matches (uid, server, table_no, started_ms, variant, options, rules, timing,"
            " deals, seeded, reveal_after_deal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.match,
                record.server,
                record.table,
                record.started_ms,
                record.variant,
                _json(record.options),
                _json(rules_json(record.rules)),
                _json(record.timing),
                record.deals,
                int(record.seeded),
                int(record.reveal_after_deal),
            ),
        ).lastrowid
    r = record.result
    deal_id = conn.execute(
        "INSERT INTO deals (match_id, deal_no, started_ms, ended_ms, variant, players, dealer, draws,"
        " deck, fair, actions, loser, winner, out_order, scores, hand_counts, match_scores)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            match_id,
            record.deal_no,
            record.started_ms,
            record.ended_ms,
            record.variant,
            record.players,
            record.dealer,
            None if record.draws is None else _json(record.draws),
            ",".join(record.deck),
            _json(record.fair),
            encode_actions(record.actions),
            r.loser,
            r.winner,
            _json(r.out),
            _json(r.scores),
            _json(r.hand_counts),
            _json(record.match_scores),
        ),
    ).lastrowid
    assert deal_id is not None
    conn.executemany(
        "INSERT INTO deal_seats (deal_id, seat, name, bot, player_id, session_hash, place, score)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(deal_id, s.seat, s.name, s.bot, s.player, s.session, s.place, s.score) for s in record.seats],
    )
    return deal_id


_DEAL_COLUMNS = (
    "d.id, m.uid, d.deal_no, m.deals, m.server, m.table_no, d.started_ms, d.ended_ms, m.variant,"
    " m.options, m.rules, m.timing, m.seeded, m.reveal_after_deal, d.dealer, d.draws, d.deck, d.fair,"
    " d.actions, d.loser, d.winner, d.out_order, d.scores, d.hand_counts, d.match_scores"
)


def load_deal(conn: sqlite3.Connection, deal_id: int) -> DealRecord | None:
    """The record of deal ``deal_id``, or None when there is none. Raises RecordError for a row
    that cannot be read back."""
    row = conn.execute(
        f"SELECT {_DEAL_COLUMNS} FROM deals d JOIN matches m ON m.id = d.match_id WHERE d.id = ?",
        (deal_id,),
    ).fetchone()
    if row is None:
        return None
    seats = conn.execute(
        "SELECT seat, name, bot, player_id, session_hash, place, score FROM deal_seats"
        " WHERE deal_id = ? ORDER BY seat",
        (deal_id,),
    ).fetchall()
    return _record_of(row, seats)


def _loads(text: str | None, what: str) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RecordError(f"{what}: {exc}") from None


def _ints(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise RecordError(f"{what}: a list of whole numbers expected")
    return tuple(value)


class _DealRow(NamedTuple):
    """A row of the deals table, as ``_record_of`` reads it (the columns in that order)."""

    deal_id: Any
    uid: Any
    deal_no: Any
    deals: Any
    server: Any
    table: Any
    started: Any
    ended: Any
    variant: Any
    options: Any
    rules: Any
    timing: Any
    seeded: Any
    reveal: Any
    dealer: Any
    draws: Any
    deck: Any
    fair: Any
    actions: Any
    loser: Any
    winner: Any
    out: Any
    scores: Any
    counts: Any
    match_scores: Any


def _record_of(row: tuple[Any, ...], seats: list[tuple[Any, ...]]) -> DealRecord:
    r = _DealRow(*row)
    drawn = _loads(r.draws, "draws")
    try:
        return DealRecord(
            id=r.deal_id,
            match=r.uid,
            deal_no=r.deal_no,
            deals=r.deals,
            server=r.server,
            table=r.table,
            started_ms=r.started,
            ended_ms=r.ended,
            variant=r.variant,
            options=_loads(r.options, "options"),
            rules=rules_from_json(_loads(r.rules, "rules")),
            timing=_loads(r.timing, "timing"),
            seeded=bool(r.seeded),
            reveal_after_deal=bool(r.reveal),
            seats=tuple(
                SeatRecord(seat=s, name=n, bot=b, player=p, session=h, place=pl, score=sc)
                for s, n, b, p, h, pl, sc in seats
            ),
            dealer=r.dealer,
            draws=None if drawn is None else tuple(tuple((s, c) for s, c in rnd) for rnd in drawn),
            deck=tuple(r.deck.split(",")) if r.deck else (),
            fair=_loads(r.fair, "fair"),
            actions=decode_actions(r.actions),
            result=Result(
                loser=r.loser,
                winner=r.winner,
                out=_ints(_loads(r.out, "out"), "out"),
                scores=_ints(_loads(r.scores, "scores"), "scores"),
                hand_counts=_ints(_loads(r.counts, "hand_counts"), "hand_counts"),
            ),
            match_scores=_ints(_loads(r.match_scores, "match_scores"), "match_scores"),
        )
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"deal {r.deal_id}: {exc}") from None


@attrs.frozen(kw_only=True)
class Summary:
    """One line of a history: a deal's id, times (Unix ms), variant, table and number in its
    match, seats (``SeatRecord`` without actions), result."""

    id: int
    started_ms: int
    ended_ms: int
    variant: str
    table: int
    server: str
    deal_no: int
    deals: int
    seats: tuple[SeatRecord, ...]
    loser: int | None
    winner: int | None
    out: tuple[int, ...]
    scores: tuple[int, ...]


def list_deals(
    conn: sqlite3.Connection,
    *,
    player: str | None = None,
    variant: str | None = None,
    session: str | None = None,
    player_id: int | None = None,
    before: int | None = None,
    limit: int = DEFAULT_LIMIT,
) -> list[Summary]:
    """The deals, newest first: at most ``limit``, with an id below ``before``, of ``variant``,
    where a seat's name is ``player``, and where a seat was held by the session whose
    ``token_key`` is ``session`` or by the player ``player_id`` (either, when both are given)."""
    where, args = _where(player, variant, session, player_id, before)
    rows = conn.execute(
        "SELECT d.id, d.started_ms, d.ended_ms, d.variant, m.table_no, m.server, d.deal_no, m.deals,"
        " d.loser, d.winner, d.out_order, d.scores FROM deals d JOIN matches m ON m.id = d.match_id"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY d.id DESC LIMIT ?",
        (*args, max(0, limit)),
    ).fetchall()
    if not rows:
        return []
    seats = _seats_of(conn, [r[0] for r in rows])
    return [
        Summary(
            id=i,
            started_ms=started,
            ended_ms=ended,
            variant=v,
            table=table,
            server=server,
            deal_no=no,
            deals=deals,
            seats=tuple(seats[i]),
            loser=loser,
            winner=winner,
            out=_ints(_loads(out, "out"), "out"),
            scores=_ints(_loads(scores, "scores"), "scores"),
        )
        for i, started, ended, v, table, server, no, deals, loser, winner, out, scores in rows
    ]


def _where(
    player: str | None, variant: str | None, session: str | None, player_id: int | None, before: int | None
) -> tuple[list[str], list[int | str]]:
    """``list_deals``'s conditions on ``deals d`` and their arguments."""
    where: list[str] = []
    args: list[int | str] = []
    if before is not None:
        where.append("d.id < ?")
        args.append(before)
    if variant is not None:
        where.append("d.variant = ?")
        args.append(variant)
    if player is not None:
        where.append("d.id IN (SELECT deal_id FROM deal_seats WHERE name = ?)")
        args.append(player)
    mine = [(c, v) for c, v in (("session_hash", session), ("player_id", player_id)) if v is not None]
    if mine:
        held = (f"d.id IN (SELECT deal_id FROM deal_seats WHERE {c} = ?)" for c, _ in mine)
        where.append("(" + " OR ".join(held) + ")")
        args.extend(v for _, v in mine)
    return where, args


def _seats_of(conn: sqlite3.Connection, ids: list[int]) -> dict[int, list[SeatRecord]]:
    """The seats of the deals ``ids``, by deal, in seat order."""
    seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
    for deal_id, seat, name, bot, player_id, key, place, score in conn.execute(
        "SELECT deal_id, seat, name, bot, player_id, session_hash, place, score FROM deal_seats"
        f" WHERE deal_id IN ({', '.join('?' * len(ids))}) ORDER BY deal_id, seat",
        ids,
    ):
        seats[deal_id].append(
            SeatRecord(seat=seat, name=name, bot=bot, player=player_id, session=key, place=place, score=score)
        )
    return seats


def deal_ids(conn: sqlite3.Connection) -> list[int]:
    """Every deal's id, oldest first."""
    return [row[0] for row in conn.execute("SELECT id FROM deals ORDER BY id")]
