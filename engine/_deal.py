"""One deal as a state machine: ``apply(action) -> list[Event]``.

The rules are docs/RULES.md's parameters (``Rules``); every place where variants differ reads a
parameter. An action that breaks a rule raises a ``RuleViolation`` and changes nothing: ``apply``
checks everything before it changes anything.

Where the rules are: ``_RULES`` at the end of this module is the one table of them, a row per
kind of action: its check (engine/_checks.py: may it be done now?) and its handler (here: what
it does). The handlers build on the steps of engine/_steps.py (a set laid, a set revealed and
who takes the pile, who leads, going out, the end and its score); the state and the queries
(``legal_actions``, ``view``, the card invariant) are in engine/_state.py.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from . import _events as ev
from ._actions import (
    Action,
    Believe,
    Challenge,
    Challenges,
    CloseQuadsWindow,
    CloseWindow,
    DeclareNone,
    DeclineQuads,
    DiscardQuads,
    LaySet,
    OpenQuadsWindow,
    Timeout,
)
from ._cards import Card, new_deck, remove_cards
from ._checks import DealChecks
from ._dealing import deal_cards
from ._errors import DealOver, IllegalAction, RuleViolation
from ._rules import Rules
from ._state import LaidSet
from ._steps import DealSteps, score_deal


class Deal(DealChecks, DealSteps):
    """One deal of ``rules`` at ``players`` seats (0..players-1, clockwise).

    Build one with ``Deal.new`` (shuffled and dealt) or with the constructor from an explicit
    arrangement (hands, pile, discard, hidden, set-aside and stock cards, dealer, the seat to act
    and the rank held: scenarios and tests); ``opening()`` gives the events that start it. Then
    ``apply`` actions; ``legal_actions(seat)`` answers what a seat may do, ``view(seat)`` what it
    may know.
    """

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        dealer: int,
        rng: random.Random,
        *,
        order: Sequence[Card] | None = None,
    ) -> Deal:
        """Shuffle the deck with ``rng`` and deal it (docs/RULES.md, ``deal``; dealing starts left of
        ``dealer``); ``order`` deals that deck instead, top first (``rng`` is then not used).
        Raises ValueError for a seat count the variant does not allow, or an ``order`` that is
        not a whole deck of the kind the variant uses at that many seats."""
        kind = rules.deck_for(players)
        if order is None:
            order = new_deck(kind)
            rng.shuffle(order)
        elif Counter(order) != Counter(new_deck(kind)):
            raise ValueError(f"the order given is not a whole {kind} deck")
        order = list(order)
        dealt = deal_cards(rules, order, players, dealer)
        return cls(
            rules,
            deck=kind,
            dealer=dealer,
            hands=dealt.hands,
            hidden=dealt.hidden,
            set_aside=dealt.set_aside,
            stock=dealt.stock,
            deck_order=order,
        )

    def opening(self) -> list[ev.Event]:
        """The events that start the deal: ``DealStarted``, then the first ``Turn``."""
        events: list[ev.Event] = [
            ev.DealStarted(
                dealer=self.dealer,
                deck=self.deck,
                hands=tuple(tuple(h) for h in self.hands),
                hand_counts=tuple(len(h) for h in self.hands),
                hidden=len(self.hidden),
                set_aside=len(self.set_aside),
                stock=len(self.stock),
            )
        ]
        self._begin_turn(self.turn, events)
        return events

    # -- applying ---------------------------------------------------------------------------

    def apply(self, action: Action) -> list[ev.Event]:
        """Apply ``action`` and return what happened, in order.

        Raises a RuleViolation (and changes nothing) when the rules forbid the action now:
        NotYourTurn, IllegalAction, StaleSet, PrematureChallenge (``challengers = next``),
        ChallengeBarred, DealOver.
        """
        if self.over:
            raise DealOver(getattr(action, "seat", None), action, "the deal is over")
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(None, action, f"not an action: {type(action).__name__}")
        events: list[ev.Event] = []
        handler(self, action, events)
        self.actions += 1
        return events

    def check(self, action: Action) -> None:
        """Raise the RuleViolation that ``apply(action)`` would raise; change nothing."""
        if self.over:
            raise DealOver(getattr(action, "seat", None), action, "the deal is over")
        checker = _CHECKS.get(type(action))
        if checker is not None:
            checker(self, action)

    # -- handlers (check first, then change) --------------------------------------------------

    def _do_lay(self, a: LaySet, events: list[ev.Event]) -> None:
        rank, count = self._check_lay(a)
        if self.window_open or self.quads_window is not None:
            self.held = a
            events.append(ev.SetHeld(seat=a.seat, cards=tuple(a.cards), rank=rank, count=count))
            return
        self._lay(a.seat, tuple(a.cards), rank, count, False, events)

    def _do_declare(self, a: DeclareNone, events: list[ev.Event]) -> None:
        rank = self._check_declare(a)
        if self.window_open or self.quads_window is not None:
            self.held = a
            events.append(ev.SetHeld(seat=a.seat, cards=(), rank=rank, count=0))
            return
        self._lay(a.seat, (), rank, 0, True, events)

    def _do_challenge(self, a: Challenge, events: list[ev.Event]) -> None:
        self._check_challenge(a)
        if self._is_premature(a):
            self._end_quads_right(a.seat)
            self.barred.add((a.seat, a.set_no))
            events.append(ev.ChallengeVoid(seat=a.seat, set_no=a.set_no))
            return
        self._reveal(a.seat, False, (), events)

    def _do_challenges(self, a: Challenges, events: list[ev.Event]) -> None:
        order = self._check_challenges(a)
        self._reveal(order[0], False, tuple(order[1:]), events)

    def _do_believe(self, a: Believe, events: list[ev.Event]) -> None:
        self._check_believe(a)
        self._reveal(a.seat, True, (), events)

    def _do_quads(self, a: DiscardQuads, events: list[ev.Event]) -> None:
        self._check_quads(a)
        seat = a.seat
        hand = self.hands[seat]
        gone: list[Card] = []
        for r in a.ranks:
            quad = [c for c in hand if c[0] == r][:4]
            remove_cards(hand, quad)
            gone += quad
        self.discard.extend(gone)
        shown = self.rules.quads == "after_taking"
        if shown:
            self.quads_offer = None  # the taker's own action ends his right
        events.append(
            ev.QuadsDiscarded(
                seat=seat, count=len(a.ranks), ranks=tuple(a.ranks), shown=shown, cards=tuple(gone)
            )
        )
        if not hand:
            if seat in self.waiting:
                self.waiting.remove(seat)
            was_turn = seat == self.turn
            self._go_out([seat], seat, events)
            if not self.over and was_turn:
                self._begin_turn(self.next_active(seat), events)
        if not self.over and self.quads_window == seat:
            self._close_quads_window(events)

    def _do_decline(self, a: DeclineQuads, events: list[ev.Event]) -> None:
        self._check_decline(a)
        self.quads_offer = None
        events.append(ev.QuadsDeclined(seat=a.seat))
        self._close_quads_window(events)

    def _do_close(self, a: CloseWindow, events: list[ev.Event]) -> None:
        self._check_close(a)
        self.window_open = False
        events.append(ev.WindowClosed(set_no=a.set_no))
        self._lay_held(events)

    def _do_open_quads(self, a: OpenQuadsWindow, events: list[ev.Event]) -> None:
        self._check_open_quads(a)
        self.quads_window = a.seat
        events.append(ev.QuadsWindowOpened(seat=a.seat))

    def _do_close_quads(self, a: CloseQuadsWindow, events: list[ev.Event]) -> None:
        self._check_close_quads(a)
        self._close_quads_window(events)

    def _close_quads_window(self, events: list[ev.Event]) -> None:
        """The quads window closes (its time was up, or the taker discarded or declined): the
        set held for it is applied now."""
        seat, self.quads_window = self.quads_window, None
        if seat is not None:
            events.append(ev.QuadsWindowClosed(seat=seat))
            self._lay_held(events)

    def _lay_held(self, events: list[ev.Event]) -> None:
        """Apply the set laid early and held for a window that has just closed."""
        if self.held is not None:
            held, self.held = self.held, None
            if isinstance(held, DeclareNone):
                self._lay(held.seat, (), self._check_declare(held), 0, True, events)
            else:
                rank, count = self._check_lay(held)
                self._lay(held.seat, tuple(held.cards), rank, count, False, events)

    def _do_timeout(self, a: Timeout, events: list[ev.Event]) -> None:
        action = self._check_timeout(a)
        events.append(ev.TimedOut(seat=a.seat))
        _HANDLERS[type(action)](self, action, events)


_Check = Callable[[Deal, Any], object]
_Handler = Callable[[Deal, Any, list[ev.Event]], None]

# The rules: one row per kind of action, its check (raises, changes nothing) and its handler
# (changes the deal, appends the events); each takes actions of its own row's type only.
_RULES: dict[type, tuple[_Check, _Handler]] = {
    LaySet: (Deal._check_lay, Deal._do_lay),
    Challenge: (Deal._check_challenge, Deal._do_challenge),
    Challenges: (Deal._check_challenges, Deal._do_challenges),
    Believe: (Deal._check_believe, Deal._do_believe),
    DeclareNone: (Deal._check_declare, Deal._do_declare),
    DiscardQuads: (Deal._check_quads, Deal._do_quads),
    DeclineQuads: (Deal._check_decline, Deal._do_decline),
    CloseWindow: (Deal._check_close, Deal._do_close),
    OpenQuadsWindow: (Deal._check_open_quads, Deal._do_open_quads),
    CloseQuadsWindow: (Deal._check_close_quads, Deal._do_close_quads),
    Timeout: (Deal._check_timeout, Deal._do_timeout),
}
_CHECKS: dict[type, _Check] = {kind: check for kind, (check, _) in _RULES.items()}
_HANDLERS: dict[type, _Handler] = {kind: handler for kind, (_, handler) in _RULES.items()}

__all__ = ["Deal", "LaidSet", "RuleViolation", "score_deal"]
