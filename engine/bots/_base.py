"""The bot base: what every strength remembers of the deal from its seat's projected events.

A bot sees what a player at its seat sees and nothing more (docs/ARCHITECTURE.md, engine/): it is fed its
seat's projected events (``observe(event)``, the output of ``engine.project(event, seat,
rules.hand_counts_public)``) and asked for an action (``choose(view, rng)`` with ``view =
deal.view(seat)``). ``choose`` changes nothing but may read the bot's memory; only ``observe``
writes it, so a caller may ask ``choose`` and then not apply the answer (a server's quick
decision for a timed-out or away player, a simulator's poll of every seat in a challenge window).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any, ClassVar, Self

from .. import _events as ev
from .._actions import Action
from .._cards import Card, Rank, deck_ranks, decks_in
from .._rules import Rules
from .._view import View


class Bot:
    """One seat's player, strength ``strength``.

    ``observe(event)`` takes every projected event of the seat, in order (``DealStarted`` starts
    a fresh memory, so one bot may play several deals at the same seat). ``choose(view, rng)``
    returns an action ``view.legal`` allows, or None when the seat has nothing it wants to do now
    (a seat that is not to act and does not challenge; a taker who keeps his quads). A seat that
    is to act and has a legal action always gets one. ``rng`` is the caller's ``random.Random``:
    the same events, views and rng state give the same choice.

    ``observes``: the event classes this strength learns from (``handlers``' keys). ``observe``
    of any other event changes nothing, so a caller feeding many bots may skip it.

    Public memory, kept for every strength (docs/RULES.md, "What every variant shares": claims, reveals
    and counts are public):

    - ``my_pile``: this seat's own cards in the pile (it saw them laid); ``my_pile_ranks``: how
      many of each rank;
    - ``pile_sets``: ``(seat, rank, count)`` of each set in the pile, oldest first;
    - ``copies``: how many cards of each rank the deck holds (4 or 8); ``ranks``: the deck's ranks.
    """

    strength: ClassVar[str] = "base"
    budget_s: float | None = None
    """How long one ``choose`` may search, in seconds: a searching strength's (``expert``); None
    for a strength that decides at once. A caller that cannot wait (a server's event loop) asks a
    searching bot in a worker thread, and ``quick`` when the search is late."""
    handlers: ClassVar[dict[type[ev.Event], str]] = {
        ev.DealStarted: "_on_deal_started",
        ev.SetLaid: "_on_set_laid",
        ev.NoneDeclared: "_on_none_declared",
        ev.PileTaken: "_on_pile_emptied",
        ev.PileDiscarded: "_on_pile_emptied",
    }
    """The method (by name) that learns from each event class a strength observes."""
    observes: ClassVar[frozenset[type[ev.Event]]]
    _dispatch: ClassVar[dict[type[ev.Event], Callable[[Bot, ev.Event], None]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._bind_handlers()

    @classmethod
    def _bind_handlers(cls) -> None:
        cls._dispatch = {kind: getattr(cls, name) for kind, name in cls.handlers.items()}
        cls.observes = frozenset(cls._dispatch)

    def __init__(self, seat: int, rules: Rules, players: int) -> None:
        self.seat = seat
        self.rules = rules
        self.players = players
        self.ranks: str = ""
        self.copies = 4
        self.my_pile: list[Card] = []
        self.my_pile_ranks: dict[Rank, int] = {}
        self.pile_sets: list[tuple[int, Rank, int]] = []

    # -- memory -------------------------------------------------------------------------------

    def observe(self, event: ev.Event | None) -> None:
        """Remember what ``event`` (this seat's projection of it; None is ignored) tells."""
        if event is not None:
            handler = self._dispatch.get(type(event))
            if handler is not None:
                handler(self, event)

    def handler(self, kind: type[ev.Event]) -> Callable[[ev.Event], None] | None:
        """What ``observe`` does with an event of class ``kind``, as a bound method taking the
        event (None when this strength does not observe ``kind``): a caller feeding many events
        may look it up once per class."""
        handler = self._dispatch.get(kind)
        return None if handler is None else handler.__get__(self)

    def _on_deal_started(self, e: ev.DealStarted) -> None:
        self.players = len(e.hands)
        self.ranks = deck_ranks(e.deck)
        self.copies = 4 * decks_in(e.deck)
        self.my_pile = []
        self.my_pile_ranks = {}
        self.pile_sets = []

    def _on_set_laid(self, e: ev.SetLaid) -> None:
        self.pile_sets.append((e.seat, e.rank, e.count))
        if e.seat == self.seat and e.cards:
            self._remember_mine(e.cards)

    def _remember_mine(self, cards: tuple[Card, ...]) -> None:
        self.my_pile.extend(cards)
        mine = self.my_pile_ranks
        for c in cards:
            r = c[0]
            mine[r] = mine.get(r, 0) + 1

    def _on_none_declared(self, e: ev.NoneDeclared) -> None:
        self.pile_sets.append((e.seat, e.rank, 0))

    def _on_pile_emptied(self, e: ev.Event) -> None:
        self.my_pile = []
        self.my_pile_ranks = {}
        self.pile_sets = []

    # -- choosing -----------------------------------------------------------------------------

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The action this seat takes now, or None (see the class docstring): None when the deal
        is over, for a spectator, or when the seat may do nothing; else ``decide``'s answer."""
        if view.over or view.seat is None or not view.legal:
            return None
        return self.decide(view, rng)

    def quick(self, view: View, rng: random.Random) -> Action | None:
        """What the seat does now with no time to search (``choose``'s contract): ``choose`` for
        a strength that does not search."""
        return self.choose(view, rng)

    def with_budget(self, budget_s: float) -> Self:
        """A copy of this bot, its memory too, whose ``choose`` searches at most ``budget_s``
        seconds (a caller that asks it in another thread while the deal goes on, and cannot
        wait long: a server's event loop)."""
        copied = copy.deepcopy(self)
        copied.budget_s = budget_s
        return copied

    def decide(self, view: View, rng: random.Random) -> Action | None:
        """The strength's choice when ``view.legal`` offers something to ``view.seat`` (a seat's
        view: ``view.seat`` and ``view.hand`` are set)."""
        raise NotImplementedError


Bot._bind_handlers()
