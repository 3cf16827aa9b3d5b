"""A seat at a table: a bot's, or a player's (who may be away)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._bots import Bot
    from ._session import Session


class Seat:
    """One seat: a bot (``bot`` = its strength) or a player (``session``, None when nobody holds
    it). ``away``: a bot plays it until its player comes back."""

    def __init__(self, index: int, bot: str | None = None) -> None:
        self.index = index
        self.bot = bot
        self.name: str | None = f"bot {index + 1}" if bot else None
        self.session: Session | None = None
        self.ready = bot is not None
        self.away = False
        self.brain: Bot | None = None  # plays a bot seat, and an away player's seat
        self.asked: int | None = None  # the deal's action count when the bot last chose

    @property
    def human(self) -> bool:
        return self.bot is None

    @property
    def by_bot(self) -> bool:
        """True when a bot makes this seat's moves now."""
        return self.bot is not None or self.away or self.session is None

    def summary(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "ready": self.ready,
            "away": self.away,
        }
