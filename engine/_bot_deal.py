"""One deal played by bots, the referee of RULES.md, "Timing rules", played without time: the
loop that ``engine.simulate`` (whole deals) and the ``expert`` bot (short playouts of sampled
deals) share.

- after each set in an `anyone` variant every other active seat is asked (``choose``) whether it
  challenges; one or more challenges are applied together as ``Challenges(seats, set_no)`` (the
  engine settles ties by seat order), else ``CloseWindow(set_no)`` and the seat to act lays the
  set it chose;
- after a pile is taken with ``quads = after_taking`` the taker is asked at once, before the
  next set is laid (which ends his right, RULES.md `verish`), whether it discards quads, when it
  is not the seat to act (the seat to act is asked on its turn anyway); a taker that keeps them
  lets the right lapse with the next set;
- the seat to act is asked for its action; a bot that answers None or an illegal action is
  played by ``Timeout(seat, action)`` with a random turn action (``random_turn_action``, as a
  server does when the away bot's choice is unusable) and counted in ``bot_errors``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from ._actions import Action, Challenge, Challenges, CloseWindow, DiscardQuads, Timeout
from ._cards import quad_ranks
from ._deal import Deal
from ._errors import RuleViolation
from ._events import PUBLIC, DealEnded, Event, OwnedEvent, PileDiscarded, PileTaken, project
from ._timeout import random_turn_action

if TYPE_CHECKING:
    from .bots._base import Bot


class Violation(Exception):
    """A failed check of a checked ``BotDeal`` (the card invariant, or a deal nobody can play)."""


class BotDeal:
    """``deal`` (its ``opening`` events already made) played by ``bots[seat]``, each fed its
    seat's projected events; ``rng`` is the bots' ``random.Random``. ``check``: after every
    applied action, check the card invariant and that the deal is playable (raises
    ``Violation``)."""

    def __init__(
        self, deal: Deal, opening: list[Event], bots: Sequence[Bot], rng: random.Random, check: bool
    ) -> None:
        self.deal = deal
        self.rules = deal.rules
        self.bots = bots
        self.rng = rng
        self.check = check
        self.bot_errors = 0
        self.end: DealEnded | None = None
        self.rounds = 0  # piles taken or discarded so far
        # event class -> (seat, handler) of each bot that observes it
        self._watchers: dict[type[Event], list[tuple[int, Callable[[Event], None]]]] = {}
        self._feed(opening)

    def _feed(self, events: list[Event]) -> None:
        """Give each bot its seat's copy of each event it observes (``Bot.observes``: observing
        any other event does nothing), projecting once per distinct copy (``Event.projection``)
        and calling each bot's handler directly (``Bot.handler``)."""
        public = self.rules.hand_counts_public
        watchers = self._watchers
        for e in events:
            cls = type(e)
            if cls is PileTaken or cls is PileDiscarded:
                self.rounds += 1
            fed = watchers.get(cls)
            if fed is None:
                fed = watchers[cls] = [
                    (seat, handle)
                    for seat, bot in enumerate(self.bots)
                    if (handle := bot.handler(cls)) is not None
                ]
            if fed:
                projection = cls.projection
                if projection == PUBLIC:  # every seat sees this event whole
                    for _, handle in fed:
                        handle(e)
                elif isinstance(e, OwnedEvent):  # its seat sees it whole, the others one same copy
                    owner = e.seat
                    other = e.for_seat(None, public)  # = project(e, None, public)
                    for seat, handle in fed:
                        if seat == owner:
                            handle(e)
                        elif other is not None:
                            handle(other)
                else:
                    for seat, handle in fed:
                        seen = project(e, seat, public)
                        if seen is not None:
                            handle(seen)
            if cls is DealEnded:
                self.end = e  # type: ignore[assignment]

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` and feed its events to the bots (RuleViolation: nothing changed)."""
        events = self.deal.apply(action)
        self._feed(events)
        if self.check:
            self._check()
        return events

    def _check(self) -> None:
        deal = self.deal
        try:
            deal.check_invariant()
        except AssertionError as e:
            raise Violation(str(e)) from None
        if deal.over:
            if (deal.loser is None) == (deal.winner is None) or self.end is None:
                raise Violation("the deal ended without exactly one loser or winner")
        elif deal.turn in deal.out or not deal.legal_actions(deal.turn):
            raise Violation(f"seat {deal.turn + 1} is to act but may do nothing")

    def play(self, cap: int, rounds: int | None = None) -> bool:
        """Play until the deal ends (True), ``deal.actions`` reaches ``cap`` or ``rounds`` more
        piles have been taken or discarded (False)."""
        deal = self.deal
        anyone = self.rules.challengers == "anyone"
        after_taking = self.rules.quads == "after_taking"
        stop = None if rounds is None else self.rounds + rounds
        while not deal.over:
            if deal.actions >= cap or self.rounds == stop:
                return False
            turn_action: Action | None = None
            if anyone and deal.window_open:
                asked = self._window()
                if asked is False or deal.over:
                    continue
                turn_action = asked
            seat = deal.turn
            if turn_action is None:
                turn_action = self.bots[seat].choose(deal.view(seat), self.rng)
            events = self._act(seat, turn_action)
            if (
                after_taking
                and deal.quads_offer is not None
                and not deal.over
                and any(type(e) is PileTaken for e in events)
            ):
                self._offer_quads(deal.quads_offer)
        return True

    def _act(self, seat: int, action: Action | None) -> list[Event]:
        if action is not None:
            try:
                return self.apply(action)
            except RuleViolation:
                pass
        self.bot_errors += 1
        return self.apply(Timeout(seat=seat, action=random_turn_action(self.deal.view(seat), self.rng)))

    def _window(self) -> Action | Literal[False] | None:
        """Ask every other active seat about the last set. Returns False when a challenge was
        applied, else the action the seat to act chose (None: ask it again)."""
        deal = self.deal
        last = deal.last
        assert last is not None  # a window is open: its set is the last
        turn = deal.turn
        challengers = []
        turn_action = None
        for seat, bot in enumerate(self.bots):
            if seat == last.seat or seat in deal.out:
                continue
            action = bot.choose(deal.view(seat), self.rng)
            if type(action) is Challenge:
                challengers.append(seat)
            elif seat == turn:
                turn_action = action
        if challengers:
            self.apply(Challenges(tuple(challengers), last.set_no))
            return False
        self.apply(CloseWindow(last.set_no))
        return turn_action

    def _offer_quads(self, seat: int) -> None:
        deal = self.deal
        if seat == deal.turn or not quad_ranks(deal.hands[seat]):  # legal.discard_quads, the taker's
            return
        action = self.bots[seat].choose(deal.view(seat), self.rng)
        if type(action) is DiscardQuads:
            try:
                self.apply(action)
            except RuleViolation:
                self.bot_errors += 1
