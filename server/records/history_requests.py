"""The records over the network: ``list_records`` and ``get_record`` (docs/PROTOCOL.md,
"Records").

Each is read in a worker thread (``RecordsWriter.read``), never on the server's own thread, and
answered before the connection's next request is looked at (the connection waits for it: its
requests stay answered in order), while every other connection and table goes on.

A player may fetch the deals he played: those at which his session, or his player (the same
player key, docs/PLAYERS.md), held a seat when the deal began. He gets the deal as his seat saw it (its own
sets, every revealed set, the disclosed deck: ``records.hand_history``), or whole where the table's
``reveal_after_deal`` allowed. The lists hold only what every player at the table saw: names,
variant, result.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Sequence
from typing import Any

from neveryu import protocol

from .._session import Session
from .database import StoreError
from .deal_record import RecordError, SeatRecord
from .hand_history import record_json
from .history import DEFAULT_LIMIT, Summary, list_deals, load_deal
from .players import player_by_key
from .replay import ReplayError, check
from .writer import RecordsWriter

log = logging.getLogger("neveryu.server")


class RecordRequests:
    """Answers the records' requests from ``records`` (None: the server keeps none)."""

    def __init__(self, records: RecordsWriter | None) -> None:
        self.records = records

    def handle(
        self, session: Session, req: protocol.ListRecords | protocol.GetRecord
    ) -> Awaitable[None] | None:
        """Answer ``req`` now when records are off; otherwise return what reads and answers it,
        for the connection to await before its next request."""
        records = self.records
        if records is None or not records.on:
            why = records.off if records is not None else None
            session.error(req, "RECORDS_OFF", f"this server keeps no records ({why or 'turned off'})")
            return None
        if isinstance(req, protocol.ListRecords):
            return self._list(records, session, req)
        return self._get(records, session, req)

    async def _list(self, records: RecordsWriter, session: Session, req: protocol.ListRecords) -> None:
        key = session.key

        def query(conn: sqlite3.Connection) -> tuple[list[Summary], int | None]:
            me = _player_id(conn, session)
            found = list_deals(
                conn,
                session=key if req.mine else None,
                player_id=me if req.mine else None,
                before=req.before,
                limit=req.limit or DEFAULT_LIMIT,
            )
            return found, me

        try:
            found, me = await records.read(query)
        except StoreError as exc:
            session.error(req, "RECORDS_OFF", str(exc))
            return
        session.reply(req, protocol.Records.wire_map(records=[summary_message(s, key, me) for s in found]))

    async def _get(self, records: RecordsWriter, session: Session, req: protocol.GetRecord) -> None:
        key = session.key

        def query(conn: sqlite3.Connection) -> dict[str, Any] | str:
            record = load_deal(conn, req.deal)
            me = _player_id(conn, session)
            seat = _seat_of(record.seats, key, me) if record else None
            if record is None or seat is None:
                return f"you played no deal {req.deal} here"
            return record_json(record, check(record), None if record.reveal_after_deal else seat)

        try:
            doc = await records.read(query)
        except StoreError as exc:
            session.error(req, "RECORDS_OFF", str(exc))
            return
        except (ReplayError, RecordError) as exc:
            log.warning("records: deal %d does not replay: %s", req.deal, exc)
            session.error(req, "INTERNAL_ERROR", f"the record of deal {req.deal} does not replay")
            return
        if isinstance(doc, str):
            session.error(req, "NO_SUCH_RECORD", doc)
        else:
            session.reply(req, protocol.RecordReply.wire_map(record=doc))


def _player_id(conn: sqlite3.Connection, session: Session) -> int | None:
    """The id of ``session``'s player (the person of its player key), if he has one yet."""
    player = player_by_key(conn, session.player) if session.player is not None else None
    return player.id if player is not None else None


def _seat_of(seats: Sequence[SeatRecord], key: str, player: int | None) -> int | None:
    """The seat held by the session whose ``token_key`` is ``key``, or by the player ``player``."""
    mine = (s.seat for s in seats if s.session == key or (player is not None and s.player == player))
    return next(mine, None)


def summary_message(s: Summary, key: str, player: int | None = None) -> dict[str, Any]:
    """A deal's ``record_summary`` for the session whose ``token_key`` is ``key`` (of the player
    ``player``): public fields only (no session's hash)."""
    return {
        "id": s.id,
        "ended_ms": s.ended_ms,
        "variant": s.variant,
        "table": s.table,
        "deal_no": s.deal_no,
        "deals": s.deals,
        "seats": [{"seat": x.seat, "name": x.name, "bot": x.bot} for x in s.seats],
        "loser": s.loser,
        "winner": s.winner,
        "out": list(s.out),
        "seat": _seat_of(s.seats, key, player),
    }
