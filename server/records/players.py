"""Players: who held a seat, as a stable id that outlives names, sessions and restarts
(docs/PLAYERS.md).

A client makes a random **player key** once and sends it in every ``hello``
(``hello.player_key``). The server keeps only its hash (``key_hash``: SHA-256, in hex, of the
key after a fixed prefix), never the key, and the player is the row of the ``players`` table
with that hash: his id stays when he changes his name or the server restarts, and a made-up key
is a new player. Names may repeat; a person's **tag**, the first four hex digits of his key's
hash, tells two players of the same name apart (``ann#3f2a``). Bots are players too, one per
strength (``bot:sharp``); a person who sent no key is a **guest**, the player of his session
only (``guest:`` and the session's hash).

Each seat of a record carries its player's ``key`` (``SeatRecord.key``: ``p:`` and the hash, or
None); the records' writer turns it into an id (``with_players``) in the deal's transaction.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence

import attrs

from neveryu.engine.bots import LEVELS, level_of

from .deal_record import DealRecord, SeatRecord

KEY_PREFIX = b"neveryu player key\n"
KINDS = ("person", "bot", "guest")


def key_hash(player_key: str) -> str:
    """What the server keeps of a player key: SHA-256 of ``KEY_PREFIX`` and the key (UTF-8), in
    lowercase hex (64 digits)."""
    return hashlib.sha256(KEY_PREFIX + player_key.encode()).hexdigest()


def person_key(player_key: str) -> str:
    """The ``players.key`` of the person whose player key is ``player_key``: ``p:`` and its hash."""
    return "p:" + key_hash(player_key)


def tag_of(key: str) -> str | None:
    """A person's tag (the first four hex digits of his key's hash) from his ``players.key``;
    None for a bot or a guest."""
    return key[2:6] if key.startswith("p:") else None


def bot_key(strength: str) -> str:
    return "bot:" + strength


def guest_key(session_hash: str) -> str:
    return "guest:" + session_hash


def seat_key(seat: SeatRecord) -> str | None:
    """The ``players.key`` of whoever held ``seat`` as the deal began: a bot seat's strength,
    a person's key, else the guest of the session; None when nobody held it."""
    if seat.bot is not None:
        return bot_key(seat.bot)
    if seat.key is not None:
        return seat.key
    if seat.session is not None:
        return guest_key(seat.session)
    return None


def kind_of(key: str) -> str:
    return "bot" if key.startswith("bot:") else "guest" if key.startswith("guest:") else "person"


@attrs.frozen
class Player:
    """A player as anyone may see him: ``id``, ``name`` (the latest he played under; a bot's
    is its strength), ``tag`` (a person's, else None), ``kind`` (``person``, ``bot``,
    ``guest``)."""

    id: int
    name: str
    tag: str | None
    kind: str

    @property
    def label(self) -> str:
        """``ann#3f2a``, ``hard (bot)`` (a bot by its level, ``engine.bots.LEVELS``),
        ``bob (guest)``."""
        if self.kind == "bot":
            return f"{level_of(self.name)} (bot)"
        if self.kind == "guest":
            return f"{self.name} (guest)"
        return f"{self.name}#{self.tag}"

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "tag": self.tag, "kind": self.kind}


def with_players(conn: sqlite3.Connection, record: DealRecord) -> DealRecord:
    """``record`` with each seat's ``player`` id, making the players it names for the first
    time and noting each one's latest name and deal (call it inside the deal's transaction).
    Raises ``sqlite3.Error``."""
    seats = []
    for seat in record.seats:
        key = seat_key(seat)
        if key is None:
            seats.append(seat)
            continue
        name = seat.bot if seat.bot is not None else seat.name or f"seat {seat.seat + 1}"
        conn.execute(
            "INSERT INTO players (key, kind, name, tag, first_ms, last_ms) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET name = excluded.name, last_ms = excluded.last_ms",
            (key, kind_of(key), name, tag_of(key), record.ended_ms, record.ended_ms),
        )
        (player,) = conn.execute("SELECT id FROM players WHERE key = ?", (key,)).fetchone()
        seats.append(attrs.evolve(seat, player=player))
    return attrs.evolve(record, seats=tuple(seats))


_COLUMNS = "id, name, tag, kind"


def _players(rows: Sequence[tuple[int, str, str | None, str]]) -> list[Player]:
    return [Player(*row) for row in rows]


def player_by_id(conn: sqlite3.Connection, player: int) -> Player | None:
    row = conn.execute(f"SELECT {_COLUMNS} FROM players WHERE id = ?", (player,)).fetchone()
    return Player(*row) if row else None


def player_by_key(conn: sqlite3.Connection, key: str) -> Player | None:
    """The player whose ``players.key`` is ``key`` (``person_key``, ``bot_key``, ``guest_key``)."""
    row = conn.execute(f"SELECT {_COLUMNS} FROM players WHERE key = ?", (key,)).fetchone()
    return Player(*row) if row else None


def players_named(conn: sqlite3.Connection, name: str, limit: int = 16) -> list[Player]:
    """The players called ``name`` now (any case), people first; ``name#tag`` picks one by his
    tag; a bot's level or strength (``hard``, ``sharp``) also finds that bot. When nobody is
    called so now, those who played under that name once."""
    base, _, tag = name.partition("#")
    strength = LEVELS.get(base.strip().lower(), base)
    if tag:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM players WHERE name = ? COLLATE NOCASE AND tag = ? ORDER BY id LIMIT ?",
            (base, tag.lower(), limit),
        ).fetchall()
        return _players(rows)
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM players WHERE name = ? COLLATE NOCASE OR (kind = 'bot' AND name = ?)"
        " ORDER BY kind = 'guest', kind = 'bot', last_ms DESC LIMIT ?",
        (name, strength, limit),
    ).fetchall()
    if not rows:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM players WHERE id IN (SELECT DISTINCT player_id FROM deal_seats"
            " WHERE name = ? AND player_id IS NOT NULL) ORDER BY kind = 'guest', last_ms DESC LIMIT ?",
            (name, limit),
        ).fetchall()
    return _players(rows)
