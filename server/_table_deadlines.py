"""What each of a table's own deadlines does when it passes (``_timers.Deadline``; the referee's
are its own, ``_referee``): ``FIRES`` of the table, ``SEAT_FIRES`` of one seat, given the seat.

- ``BOT`` of a seat: a bot (a bot seat, or an away player's) acts after ``bot_delay_ms``
  (``_game_bots.SeatBots.fire_bot``).
- ``GRACE`` of a seat: a dropped player's seat is played by a bot after ``grace_ms`` (between
  matches the seat is given up).
- ``ABSENT`` of a seat: a drop that lasted ``ABSENT_AFTER_MS`` is told to the table.
- ``NEXT_DEAL``, ``CLOSE``: the pause between deals; a table without a connected person closes.
- ``CONTRIBUTIONS``: fair deal 2 deals the next deal without the contributions that have not come.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ._game import Game
from ._table_protocol import Table
from ._timers import Deadline

log = logging.getLogger("neveryu.server")

ABSENT_AFTER_MS = 1_000  # a drop is told once it lasted this long: a quick reconnect is not news


def _close(table: Table[Game]) -> None:
    table.close("its players left")


def _next_deal(table: Table[Game]) -> None:
    if table.game is not None:
        table.game.next_deal()


def _contributions(table: Table[Game]) -> None:
    if table.game is not None:
        table.game.deal_cards()  # fair deal 2: the window closed; who sent nothing gave nothing


def _bot(table: Table[Game], index: int) -> None:
    if table.game is not None:
        table.game.fire_bot(index)


def _grace(table: Table[Game], index: int) -> None:
    """The grace time of seat ``index``'s dropped player ran out: between matches he gives up
    the seat; during one a bot plays it, and the table closes if nobody is back."""
    seat = table.seats[index]
    session = seat.session
    if session is None or session.connected:
        return
    if table.game is None:
        table.remove(session, "dropped")
        return
    log.info("table %d: seat %d (%s) is away: a bot plays it", table.id, index + 1, seat.name)
    seat.set_away(True, timed_out=seat.timed_out)  # (away since a timeout: his request brings him back)
    if not table.people_here():  # the last grace ended and nobody is back: as if they left
        table.close("its players left")
        return
    table.table_update()
    table.game.after_events()


def _absent(table: Table[Game], index: int) -> None:
    """Seat ``index``'s player has been without his connection for ``ABSENT_AFTER_MS``: everyone
    at the table is told (the seat's ``absent``, docs/PROTOCOL.md "Resume")."""
    seat = table.seats[index]
    if seat.session is not None and not seat.session.connected and not seat.absent:
        seat.set_absent(True)
        table.table_update()


FIRES: dict[Deadline, Callable[[Table[Game]], None]] = {
    Deadline.CLOSE: _close,
    Deadline.NEXT_DEAL: _next_deal,
    Deadline.CONTRIBUTIONS: _contributions,
}
"""What each of the table's own deadlines does when it passes."""

SEAT_FIRES: dict[Deadline, Callable[[Table[Game], int], None]] = {
    Deadline.BOT: _bot,
    Deadline.GRACE: _grace,
    Deadline.ABSENT: _absent,
}
"""What each deadline of one seat does when it passes, given the seat."""
