"""A deal's history for a ``state`` snapshot (docs/PROTOCOL.md, "state: a snapshot"): the game
events of the deal so far, as one receiver may see them, so that a client that gets a snapshot
instead of the events (after a server restart, a resume whose events are no longer kept, or
joining during a deal) still shows every claim, challenge and take.

The events are not kept as they are sent: they are made again when asked for, by playing the
deal again from its deck and the actions its referee accepted (``records.replay.deal_events``; after a
restart, the actions restored from the journal), and each receiver gets the engine's
projection of each (``engine.project``), exactly the copy the table sent it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from neveryu import engine, protocol

from . import _wire
from .records.deal_record import Applied
from .records.replay import deal_events


class DealEvents:
    """The events of the deal being played so far, whole (every hand), made again only when the
    deal or the number of its accepted actions changed since they were last made (the players of
    a restored table come back one after another: the deal is played again once)."""

    def __init__(self) -> None:
        self._deal: engine.Deal | None = None
        self._actions = -1
        self._events: list[engine.Event] = []

    def get(
        self, deal: engine.Deal, opening: Sequence[engine.Event], applied: Applied, rules: engine.Rules
    ) -> list[engine.Event]:
        """Every event of ``deal`` (begun with ``opening``, ``applied`` its accepted actions)."""
        if deal is not self._deal or len(applied) != self._actions:
            self._events = deal_events(deal, opening, applied, rules)
            self._deal, self._actions = deal, len(applied)
        return self._events


def history(
    events: Sequence[engine.Event],
    seat: int | None,
    counts_public: bool,
    extra: Callable[[engine.Event], dict[str, Any]],
) -> list[dict[str, Any]]:
    """``events`` as ``seat`` (None: a spectator) was sent them: the wire body of its copy of
    each event of ``protocol.HISTORY_EVENTS`` (``engine.project``; none where it sees nothing of
    one) with the table's own fields (``extra(event)``: the commitment, the disclosure), without
    ``seq`` and ``ts``; oldest first, at most the last ``protocol.HISTORY_MAX``."""
    bodies = []
    for event in events:
        if event.type in protocol.HISTORY_EVENTS:
            seen = engine.project(event, seat, counts_public)
            if seen is not None:
                bodies.append(_wire.event_message(seen, extra(event)))
    return bodies[-protocol.HISTORY_MAX :]
