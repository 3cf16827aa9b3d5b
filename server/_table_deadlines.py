"""What each of a table's own deadlines does when it passes (``_timers.Deadline``; the referee's
are its own, ``_referee``): ``FIRES`` of the table, ``SEAT_FIRES`` of one seat, given the seat.

- ``BOT`` of a seat: a bot (a bot seat, or an away player's) acts after ``bot_delay_ms``
  (``_game_bots.SeatBots.fire_bot``).
- ``GRACE`` of a seat: a dropped player's seat is played by a bot after ``grace_ms`` (between
  matches the seat is given up: ``Table.grace_over``).
- ``NEXT_DEAL``, ``CLOSE``: the pause between deals; a table without a connected person closes.
- ``CONTRIBUTIONS``: fair deal 2 deals the next deal without the contributions that have not come.
"""

from __future__ import annotations

from collections.abc import Callable

from ._game import Game
from ._table_protocol import Table
from ._timers import Deadline


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
    table.grace_over(index)


FIRES: dict[Deadline, Callable[[Table[Game]], None]] = {
    Deadline.CLOSE: _close,
    Deadline.NEXT_DEAL: _next_deal,
    Deadline.CONTRIBUTIONS: _contributions,
}
"""What each of the table's own deadlines does when it passes."""

SEAT_FIRES: dict[Deadline, Callable[[Table[Game], int], None]] = {
    Deadline.BOT: _bot,
    Deadline.GRACE: _grace,
}
"""What each deadline of one seat does when it passes, given the seat."""
