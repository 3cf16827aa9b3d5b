"""What a table does with the requests it is handed (``Table.handle``: a connection's reader
brings them): each is answered at once, never waits, and sends without waiting on any
connection, so one connection's requests are done and answered in order, and each is atomic
(trio runs one task at a time). The table's own requests have a handler each (``HANDLERS``; who
sits where and the host's requests: ``_seating``); the game's requests go to its ``Game``
(``_wire.GAME_ACTIONS``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from neveryu import engine, protocol

from . import _seating
from ._game import Game
from ._seats import Seat
from ._session import Session
from ._settings import TableError
from ._table_protocol import Table
from ._text import shown
from ._wire import GAME_ACTIONS

log = logging.getLogger("neveryu.server")


def handle(table: Table[Game], session: Session, request: protocol.Request) -> None:
    """Handle ``session``'s ``request`` at ``table`` now (never waits): reply and send events. A
    request to a closed table gets ``BAD_STATE``; one the table or the rules refuse, its code
    (and nothing changed); a bug is logged and answered ``INTERNAL_ERROR``."""
    if table.closed:
        session.error(request, "BAD_STATE", f"table {table.id} has closed")
        return
    try:
        action_of = GAME_ACTIONS.get(type(request))
        if action_of is None:
            HANDLERS[type(request)](table, session, request)
        elif session.table is not table or session.seat is None or table.game is None:
            raise TableError("NOT_PLAYING", "no deal is being played at your seat")
        else:
            table.back(table.seats[session.seat])
            table.game.play(session, request, action_of)
    except TableError as exc:
        session.error(request, exc.code, exc.msg)
    except engine.RuleViolation as exc:
        session.error(request, exc.code, exc.reason)
    except Exception:
        log.exception("table %d: failed to handle %s", table.id, request.t)
        session.error(request, "INTERNAL_ERROR", "the server failed to handle this request")


def _seat_of(table: Table[Game], session: Session) -> Seat:
    if session.table is not table:
        raise TableError("BAD_STATE", "you are at no table")
    if session.seat is None:
        raise TableError("NOT_PLAYING", "a spectator holds no seat")
    return table.seats[session.seat]


def leave(table: Table[Game], session: Session, req: protocol.Leave) -> None:
    if session.table is not table:
        raise TableError("BAD_STATE", "you are at no table")
    session.ok(req)
    table.remove(session, "left")


def ready(table: Table[Game], session: Session, req: protocol.Ready) -> None:
    seat = _seat_of(table, session)
    seat.set_ready(req.ready)
    table.back(seat)
    session.ok(req)
    table.table_update()


def start(table: Table[Game], session: Session, req: protocol.Start) -> None:
    _seat_of(table, session)
    if table.playing:
        raise TableError("ALREADY_PLAYING", "the match is being played")
    if not all(s.session is not None and s.ready for s in table.seats if s.human):
        raise TableError("NOT_ALL_READY", "every seat must be taken and every player ready")
    session.ok(req)
    table.start_match()


def contribute(table: Table[Game], session: Session, req: protocol.Contribute) -> None:
    _seat_of(table, session)
    if table.game is None:
        raise TableError("BAD_STATE", "no match is being played")
    table.game.contribute(session, req)  # not a sign that an away player is back: it is automatic


def chat(table: Table[Game], session: Session, req: protocol.ChatRequest) -> None:
    if session.table is not table:
        raise TableError("BAD_STATE", "you are at no table")
    text = shown(req.text)
    if not text.strip():
        raise TableError("BAD_OPTION", "chat is empty")
    if len(text) > table.settings.max_chat:
        raise TableError("BAD_OPTION", f"chat is at most {table.settings.max_chat} characters")
    session.ok(req)
    table.broadcast(protocol.Chat.wire_map(seat=session.seat, name=session.name, text=text))


HANDLERS: dict[type[protocol.Request], Callable[[Table[Game], Session, Any], None]] = {
    protocol.JoinTable: _seating.join_table,
    protocol.Spectate: _seating.spectate,
    protocol.Leave: leave,
    protocol.Ready: ready,
    protocol.Start: start,
    protocol.Contribute: contribute,
    protocol.ChatRequest: chat,
    protocol.SeatBot: _seating.seat_bot,
    protocol.SeatFree: _seating.seat_free,
}
"""The handler of each request the table answers itself (the game's requests go to the
``Game``: ``_wire.GAME_ACTIONS``)."""
