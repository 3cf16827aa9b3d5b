"""The lobby and table events of protocol v1 (docs/PROTOCOL.md, Events): the server's own, not
the deal's (those are in ``_game_events``)."""

from __future__ import annotations

from typing import Any

from ._limits import MAX_CHAT_LEN
from ._maps import NAME, SCORES, TABLE
from ._message import Event, event, wire
from ._types import COUNT, SEAT, UINT32, Int, Nullable, Str


@event("heartbeat")
class Heartbeat(Event):
    """The server has sent nothing for heartbeat_ms: it is alive."""


@event("bye")
class Bye(Event):
    """The server closes the connection (shutdown, replaced, idle, frame_timeout, too_slow)."""

    reason: str = wire(Str(64), "why")


@event("table_update")
class TableUpdate(Event):
    """Something on the table changed (seats, ready, away, state, spectators)."""

    table: dict[str, Any] = wire(TABLE, "the table now")


@event("table_closed")
class TableClosed(Event):
    """The table is gone; the session is back in the lobby."""

    table: int = wire(UINT32, "the table id")
    reason: str = wire(Str(200), "why")


@event("chat")
class Chat(Event):
    """Someone at the table said something."""

    seat: int | None = wire(Nullable(SEAT), "the speaker's seat; nil: a spectator")
    name: str = wire(NAME, "the speaker's name")
    text: str = wire(Str(MAX_CHAT_LEN), "what was said")


@event("player_joined")
class PlayerJoined(Event):
    """A player took a seat."""

    seat: int = wire(SEAT, "the seat")
    name: str = wire(NAME, "the player's name")


@event("player_left")
class PlayerLeft(Event):
    """A player left a seat (during a match a bot plays it)."""

    seat: int = wire(SEAT, "the seat")
    name: str = wire(NAME, "the player's name")
    reason: str = wire(Str(64), "left, dropped, or removed (by the table's host)")
    by: int | None = wire(SEAT, "removed: the host's seat", required=False)


@event("seat_changed")
class SeatChanged(Event):
    """The table's host changed a seat; ``table_update`` follows."""

    seat: int = wire(SEAT, "the seat changed")
    by: int = wire(SEAT, "the host's seat")
    action: str = wire(
        Str(32, choices=("bot", "bot_removed", "removed")),
        "bot: a bot took the seat; bot_removed: a bot seat is free again; removed: its player was removed",
    )
    name: str | None = wire(Nullable(NAME), "the player who lost the seat, where one did")
    strength: str | None = wire(Nullable(Str(16, 1)), "bot: the bot's strength")


@event("match_started")
class MatchStarted(Event):
    """The match begins; its first deal follows."""

    table: dict[str, Any] = wire(TABLE, "the table")
    deals: int = wire(Int(1), "deals in the match")


@event("match_ended")
class MatchEnded(Event):
    """The match is over; the table waits for players to be ready again."""

    scores: tuple[int, ...] = wire(
        SCORES, "the match's score per seat (docs/PROTOCOL.md, the rules of each variant: scoring)"
    )
    deals: int = wire(COUNT, "deals played")
