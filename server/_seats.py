"""A seat at a table: a bot's, or a player's (who may be away)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .records.players import tag_of

if TYPE_CHECKING:
    from ._session import Session


class Seat:
    """One seat. A bot seat has a ``strength`` (its bot's); a player's seat has none, and a
    ``session`` while somebody holds it (None: free). ``away``: a bot plays a player's seat
    until he is back (the game's bot of the seat, ``_game_bots.SeatBot``); ``timed_out``: away
    because his turn time ran out, not by a drop (his client's resume does not bring him back).
    ``absent``: the table told that its player's connection is down (``_table_deadlines``),
    until he is back."""

    def __init__(self, index: int, strength: str | None = None) -> None:
        self.index = index
        self.strength = strength
        self.name: str | None = f"bot {index + 1}" if strength else None
        self.session: Session | None = None
        self.ready = strength is not None
        self.away = self.timed_out = self.absent = False

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
        timed_out: bool = False,
    ) -> Seat:
        """Seat ``index`` as the journal kept it (``_restore``), held by ``session`` (None: free)."""
        seat = cls(index, strength)
        seat.name, seat.session, seat.ready = name, session, ready
        seat.set_away(away, timed_out)
        return seat

    def take(self, session: Session) -> None:
        """``session``'s person takes the seat (``join_table``): not ready yet, not away."""
        self.session, self.name = session, session.name
        self.ready = self.away = self.timed_out = self.absent = False

    def free(self, playing: bool) -> None:
        """The seat's person leaves it (or is removed): during a match (``playing``) a bot plays
        it, away, until someone takes it; between matches it is free and nameless."""
        self.session, self.ready, self.absent = None, False, False
        self.set_away(playing)
        if not playing:
            self.name = None

    def to_bot(self, strength: str) -> None:
        """The seat becomes a bot seat of ``strength`` (the host's ``seat_bot``), ready."""
        self.strength, self.name, self.ready = strength, f"bot {self.index + 1}", True
        self.set_away(False)

    def to_person(self) -> None:
        """A bot seat becomes a person's, free (the host's ``seat_free``)."""
        self.strength, self.name, self.ready = None, None, False

    def set_ready(self, ready: bool) -> None:
        """The seat's person says whether he is ready for the next match (``ready``)."""
        self.ready = ready

    def set_away(self, away: bool, timed_out: bool = False) -> None:
        """A bot plays the person's seat (``away``) until he is back, or no more; ``timed_out``:
        because his turn time ran out (docs/PROTOCOL.md, "Resume")."""
        self.away, self.timed_out = away, away and timed_out

    def set_absent(self, absent: bool) -> None:
        """The table told that the person's connection is down (``absent``), or back."""
        self.absent = absent

    def match_ended(self) -> None:
        """The match ended: a person's seat is neither ready nor away; a free one is nameless."""
        if self.human:
            self.ready = False
            self.set_away(False)
            if self.session is None:
                self.name = None

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
            "absent": self.absent,
        }
        if self.session is not None and self.session.player is not None:
            out["tag"] = tag_of(self.session.player)
        return out
