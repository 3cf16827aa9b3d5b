"""The players over the network: ``player_stats`` and ``leaderboard`` (docs/PROTOCOL.md,
"Players, statistics and ratings").

Like the records' requests (``records.history_requests``), each is read in a worker thread
(``RecordsWriter.read``) and answered before the connection's next request is looked at. What they
send is public: names, tags, counts and ratings; never a card, a key or a session's hash.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable
from typing import Any

from neveryu import engine, protocol

from .._session import Session
from .database import StoreError
from .league import DEFAULT_LIMIT, leaderboard, player_stats
from .players import Player, guest_key, player_by_id, player_by_key, players_named
from .writer import RecordsWriter

Request = protocol.PlayerStatsRequest | protocol.LeaderboardRequest


class PlayerRequests:
    """Answers the players' requests from ``records`` (None: the server keeps none)."""

    def __init__(self, records: RecordsWriter | None) -> None:
        self.records = records

    def handle(self, session: Session, req: Request) -> Awaitable[None] | None:
        """Answer ``req`` now when it cannot be read (records off, an unknown variant);
        otherwise return what reads and answers it, for the connection to await."""
        records = self.records
        if records is None or not records.on:
            why = records.off if records is not None else None
            session.error(req, "RECORDS_OFF", f"this server keeps no records ({why or 'turned off'})")
            return None
        if req.variant is not None and req.variant not in engine.VARIANTS:
            session.error(req, "BAD_OPTION", f"there is no variant {req.variant!r}")
            return None
        if isinstance(req, protocol.LeaderboardRequest):
            return self._leaderboard(records, session, req)
        return self._stats(records, session, req)

    async def _leaderboard(
        self, records: RecordsWriter, session: Session, req: protocol.LeaderboardRequest
    ) -> None:
        limit, offset = req.limit or DEFAULT_LIMIT, req.offset or 0

        def query(conn: sqlite3.Connection) -> tuple[int, list[dict[str, Any]]]:
            total, rows = leaderboard(conn, req.variant, limit=limit, offset=offset)
            return total, [{"player": p.as_json(), "rating": r.as_json()} for p, r in rows]

        try:
            total, rows = await records.read(query)
        except StoreError as exc:
            session.error(req, "RECORDS_OFF", str(exc))
            return
        session.reply(req, protocol.Leaderboard.wire_map(variant=req.variant, total=total, players=rows))

    async def _stats(
        self, records: RecordsWriter, session: Session, req: protocol.PlayerStatsRequest
    ) -> None:
        me = session.player or guest_key(session.key)

        def query(conn: sqlite3.Connection) -> list[dict[str, Any]] | None:
            found: list[Player]
            if req.player is not None:
                one = player_by_id(conn, req.player)
                if one is None:
                    return None
                found = [one]
            elif req.name is not None:
                found = players_named(conn, req.name)
            else:
                mine = player_by_key(conn, me)
                found = [mine] if mine is not None else []
            return [s.as_json() for s in player_stats(conn, found, req.variant)]

        try:
            players = await records.read(query)
        except StoreError as exc:
            session.error(req, "RECORDS_OFF", str(exc))
            return
        if players is None:
            session.error(req, "NO_SUCH_PLAYER", f"there is no player {req.player}")
        else:
            session.reply(req, protocol.PlayerStats.wire_map(players=players))
