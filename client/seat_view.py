"""What a bot client knows of its seat, and how it says what it does.

- ``SeatTracker``: the seat's view from the events it receives, kept by the terminal client's
  own reducer (client/ui/model.py) and read as an engine ``View``, so an engine bot can choose.
- ``engine_event``: a wire event as the engine's event (what a bot remembers).
- ``action_request``: an engine action as the request that asks the server for it.
- ``make_bot``: the engine bot that chooses for it.
"""

from __future__ import annotations

from typing import Any

import attrs

from neveryu import engine
from neveryu.client.ui import model


class SeatTracker:
    """What one seat knows of the deal, from the events it receives: the client's model
    (client/ui/model.py, the reducer the terminal client draws) seen as an engine ``View`` for a
    bot. ``rules``: the table's rules; ``players``: its seat count."""

    def __init__(self, seat: int | None, rules: engine.Rules, players: int) -> None:
        self.seat = seat
        self.rules = rules
        self.players = players
        self.state = model.State(screen="table", seat=seat, variant=rules.name, players=players)

    def apply(self, msg: dict[str, Any]) -> None:
        """Take one event the seat received."""
        self.state = model.reduce(self.state, msg)

    @property
    def active(self) -> bool:
        """A deal is being played."""
        return self.state.playing

    @property
    def held(self) -> dict[str, Any] | None:
        """Its set laid early, waiting for the challenge window, or None."""
        return self.state.held

    @property
    def legal(self) -> engine.Legal:
        """What the seat may do now (``engine.NO_ACTION``: nothing)."""
        return model.engine_legal(self.state.legal)

    def view(self) -> engine.View:
        """The seat's view now (only meaningful while ``active``)."""
        return model.engine_view(self.state)


def action_request(action: engine.Action) -> tuple[str, dict[str, Any]]:
    """The request (type and fields) that asks the server for ``action``."""
    if isinstance(action, engine.LaySet):
        fields: dict[str, Any] = {"cards": list(action.cards)}
        if action.rank is not None:
            fields["rank"] = action.rank
        if action.count is not None:
            fields["count"] = action.count
        return "lay", fields
    if isinstance(action, engine.Challenge):
        return "challenge", {"set_no": action.set_no}
    if isinstance(action, engine.Believe):
        return "believe", {"set_no": action.set_no}
    if isinstance(action, engine.DeclareNone):
        return "declare_none", {}
    if isinstance(action, engine.DiscardQuads):
        return "discard_quads", {"ranks": list(action.ranks)}
    if isinstance(action, engine.DeclineQuads):
        return "decline_quads", {}
    raise ValueError(f"not a seat's action: {action!r}")


def engine_event(t: str, fields: dict[str, Any], tracker: SeatTracker) -> engine.Event:
    """An engine event from a wire event (for the bot's memory)."""
    cls: Any = engine.EVENT_TYPES[t]  # one of the engine's event classes, by its wire type
    if t == "deal_started":
        hands: list[tuple[str, ...] | None] = [None] * tracker.players
        if tracker.seat is not None:
            hands[tracker.seat] = tuple(fields["hand"] or ())
        event: engine.Event = cls(
            fields["dealer"],
            fields["deck"],
            tuple(hands),
            _tuple(fields["hand_counts"]),
            fields["hidden"],
            fields["set_aside"],
            fields["stock"],
        )
        return event
    names = [a.name for a in attrs.fields(cls)]
    made: engine.Event = cls(**{n: _tuple(fields.get(n)) for n in names if n in fields})
    return made


def _tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value


def make_bot(strength: str, seat: int, rules: engine.Rules, players: int) -> Any:
    """An engine bot (``engine.bots``) of ``strength``. Raises ValueError for an unknown one."""
    from neveryu.engine import bots

    return bots.make_bot(strength, seat, rules, players)
