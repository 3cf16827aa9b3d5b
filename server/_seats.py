"""A seat at a table: a bot's, or a player's (who may be away)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .records.players import tag_of

if TYPE_CHECKING:
    from neveryu.engine import Action, Event, Legal

    from ._bots import Bot
    from ._session import Session


class Seat:
    """One seat. A bot seat has a ``strength`` (its bot's); a player's seat has none, and a
    ``session`` while somebody holds it (None: free). ``away``: a bot plays a player's seat
    until he is back. ``bot``: the bot that plays the seat now, or would (made afresh for every
    deal when first needed, ``Game.bot_for``: a bot seat's, and the one that takes over an away
    player's seat; None until then)."""

    def __init__(self, index: int, strength: str | None = None) -> None:
        self.index = index
        self.strength = strength
        self.name: str | None = f"bot {index + 1}" if strength else None
        self.session: Session | None = None
        self.ready = strength is not None
        self.away = False
        self.bot: Bot | None = None
        self.unseen: list[Event] = []  # the seat's events its bot has not learnt yet (``bot_sees``)
        self.asked: int | None = None  # the deal's action count when the bot last chose
        # While the bot's deadline runs (``Game.fire_bot``): what it may do (``timed``), whether
        # it has chosen and what (None: nothing), and when it acts (``due``, trio's clock).
        self.timed: Legal | None = None
        self.chosen = False
        self.choice: Action | None = None
        self.due = 0.0
        # While its bot searches in a worker thread (``Game.fire_bot``): the search's token, whose
        # answer alone is taken; None when no search of the seat's is awaited.
        self.searching: object | None = None

    @classmethod
    def restored(
        cls,
        index: int,
        *,
        name: str | None,
        strength: str | None,
        session: Session | None,
        ready: bool,
        away: bool,
    ) -> Seat:
        """Seat ``index`` as the journal kept it (``_restore``), held by ``session`` (None: free)."""
        seat = cls(index, strength)
        seat.name, seat.session, seat.ready, seat.away = name, session, ready, away
        return seat

    def bot_sees(self) -> Bot:
        """The seat's bot, told every event of the seat it has not learnt yet (it learns them
        when it is to play; ``Game.bot_for`` makes it)."""
        assert self.bot is not None
        for event in self.unseen:
            self.bot.observe(event)
        self.unseen.clear()
        return self.bot

    @property
    def human(self) -> bool:
        """A player's seat (not a bot seat), taken or not."""
        return self.strength is None

    @property
    def by_bot(self) -> bool:
        """True when a bot makes this seat's moves now."""
        return self.strength is not None or self.away or self.session is None

    def summary(self) -> dict[str, Any]:
        """The seat as the ``table`` summary shows it (docs/PROTOCOL.md, seat summary); a
        person who sent a player key has his ``tag`` (docs/PLAYERS.md)."""
        out = {
            "seat": self.index,
            "name": self.name,
            "bot": self.strength,
            "ready": self.ready,
            "away": self.away,
        }
        if self.session is not None and self.session.player is not None:
            out["tag"] = tag_of(self.session.player)
        return out
