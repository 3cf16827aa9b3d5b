"""Who sits where at a table: taking a seat (``join_table``) or a spectator's place
(``spectate``), behind the table's password, and the host's requests (docs/PROTOCOL.md, "Lobby
requests": ``seat_bot``, ``seat_free``): the player who made the table gives an absent player's
seat to a bot, adds or removes bot seats between matches, and removes a player between matches;
everyone is told who did it (``seat_changed``)."""

from __future__ import annotations

import logging

from neveryu import protocol

from ._bots import default_strength, strengths
from ._game import Game
from ._password import password_ok
from ._seats import Seat
from ._session import Session
from ._settings import TableError
from ._table_protocol import Table
from ._timers import Deadline, TimerKey

log = logging.getLogger("neveryu.server")


def join_table(table: Table[Game], session: Session, req: protocol.JoinTable) -> None:
    """``session`` takes the seat ``req`` names, or the first free one; a match being played
    sends it a ``state`` with the deal's public history. Raises ``TableError``."""
    _check_password(table, req.password)
    if session.table is not None:
        raise TableError("BAD_STATE", "leave your table first")
    if req.seat is not None:
        if not (0 <= req.seat < len(table.seats)):
            raise TableError("SEAT_TAKEN", f"there is no seat {req.seat + 1}")
        seat = table.seats[req.seat]
        if not seat.human or seat.session is not None:
            raise TableError("SEAT_TAKEN", f"seat {req.seat + 1} is taken")
    else:
        free = [s for s in table.seats if s.human and s.session is None]
        if not free:
            raise TableError("TABLE_FULL", "no seat is free")
        seat = free[0]
    table.take_seat(session, seat)
    table.timers.cancel(TimerKey(Deadline.GRACE, seat.index))
    table.timers.cancel(TimerKey(Deadline.BOT, seat.index))
    log.info("table %d: %s takes seat %d", table.id, session.name, seat.index + 1)
    table.refresh_summary()
    session.reply(req, protocol.TableJoined.wire_map(table=table.summary, seat=seat.index))
    for other in table.members():
        if other is not session:
            other.event(protocol.PlayerJoined.wire_map(seat=seat.index, name=session.name))
    table.table_update()
    if table.game is not None:
        table.game.send_state(session, history="public")
        table.game.after_events()
    table.check_empty()


def spectate(table: Table[Game], session: Session, req: protocol.Spectate) -> None:
    """``session`` watches the table; a match being played sends it a ``state`` with the
    deal's public history. Raises ``TableError``."""
    _check_password(table, req.password)
    if session.table is not None:
        raise TableError("BAD_STATE", "leave your table first")
    table.add_spectator(session)
    table.refresh_summary()
    session.reply(req, protocol.TableJoined.wire_map(table=table.summary, seat=None))
    table.table_update()
    if table.game is not None:
        table.game.send_state(session, history="public")
    table.check_empty()


def _check_password(table: Table[Game], given: str | None) -> None:
    if not password_ok(given, table.settings.password):
        raise TableError("WRONG_TABLE_PASSWORD", f"table {table.id} needs its password")


def _host_seat(table: Table[Game], session: Session, index: int) -> Seat:
    """The seat the host's request names; raises ``TableError`` for anyone else's request,
    a seat that does not exist, or the host's own seat."""
    if session.table is not table or session is not table.host:
        raise TableError("NOT_HOST", "only the table's host changes its seats")
    if not 0 <= index < len(table.seats) or index == session.seat:
        raise TableError("BAD_OPTION", f"seat {index + 1} cannot be changed")
    return table.seats[index]


def seat_bot(table: Table[Game], session: Session, req: protocol.SeatBot) -> None:
    """The host gives a seat to a bot: a free seat, a bot seat of another strength, or during a
    match an absent or away player's (he is back in the lobby). Raises ``TableError``."""
    seat = _host_seat(table, session, req.seat)
    strength = req.strength or default_strength()
    if strength not in strengths():
        raise TableError("BAD_OPTION", f"no bot strength {strength!r}")
    player = seat.session
    if not seat.human:
        raise TableError("SEAT_TAKEN", f"a bot plays seat {seat.index + 1}")
    if player is not None and (not table.playing or (player.connected and not seat.away)):
        raise TableError("SEAT_TAKEN", f"{player.name} holds seat {seat.index + 1}")
    session.ok(req)
    if player is not None:
        _remove_player(table, seat, player, session)
    seat.to_bot(strength)
    _seat_changed(table, seat, session, "bot", player, strength)


def seat_free(table: Table[Game], session: Session, req: protocol.SeatFree) -> None:
    """Between matches, the host frees a seat: removes its player or its bot. Raises
    ``TableError``."""
    seat = _host_seat(table, session, req.seat)
    if table.playing:
        raise TableError("ALREADY_PLAYING", "seats change between matches")
    player = seat.session
    if seat.human and player is None:
        raise TableError("BAD_OPTION", f"seat {seat.index + 1} is free already")
    session.ok(req)
    if player is not None:
        _remove_player(table, seat, player, session)
        _seat_changed(table, seat, session, "removed", player, None)
    else:
        seat.to_person()
        _seat_changed(table, seat, session, "bot_removed", None, None)


def _remove_player(table: Table[Game], seat: Seat, player: Session, host: Session) -> None:
    """The host takes ``seat`` from ``player``: he is told, and is back in the lobby."""
    log.info("table %d: %s removes %s from seat %d", table.id, host.name, player.name, seat.index + 1)
    player.event(
        protocol.PlayerLeft.wire_map(seat=seat.index, name=player.name, reason="removed", by=host.seat)
    )
    table.timers.cancel(TimerKey(Deadline.GRACE, seat.index))
    seat.free(playing=False)
    player.leave()


def _seat_changed(
    table: Table[Game], seat: Seat, host: Session, action: str, player: Session | None, strength: str | None
) -> None:
    name = player.name if player is not None else None
    table.broadcast(
        protocol.SeatChanged.wire_map(
            seat=seat.index, by=host.seat, action=action, name=name, strength=strength
        )
    )
    table.table_update()
    if table.game is not None:
        table.game.after_events()
    table.check_empty()
