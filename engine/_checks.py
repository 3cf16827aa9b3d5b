"""The checks of the actions: whether the rules allow an action now. Each ``_check_*`` raises the
``RuleViolation`` that says why not (engine/_errors.py) and changes nothing; ``Deal.apply``
(engine/_deal.py) runs an action's check before its handler changes anything, and ``Deal``'s one
table of rules pairs each kind of action with its check and its handler.
"""

from __future__ import annotations

from collections import Counter

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
    TurnAction,
)
from ._cards import Rank, contains, quad_ranks
from ._errors import ChallengeBarred, IllegalAction, NotYourTurn, PrematureChallenge, StaleSet, shown
from ._state import DealState, LaidSet

_is_str = str.__instancecheck__  # isinstance(x, str), for map()


class DealChecks(DealState):
    """The checks of every kind of action (module docstring), on a deal's state."""

    def _check_seat(self, seat: int, action: Action) -> None:
        if not (type(seat) is int and 0 <= seat < self.players):
            raise IllegalAction(seat, action, f"no seat {shown(seat)}")
        if seat in self.out:
            raise IllegalAction(seat, action, "you are out of this deal")

    def _check_lay(self, a: LaySet) -> tuple[Rank, int]:
        seat = a.seat
        if seat != self.turn or type(seat) is not int or seat in self.out:
            self._check_seat(seat, a)
            raise NotYourTurn(seat, a, f"it is seat {self.turn + 1}'s turn")
        hand = self.hands[seat]
        if not hand:
            raise IllegalAction(seat, a, "your hand is empty: answer the last set")
        if self.held is not None:
            raise IllegalAction(seat, a, "your set is already laid and waits for the window")
        cards = a.cards
        if not isinstance(cards, (tuple, list)) or not all(map(_is_str, cards)):
            raise IllegalAction(seat, a, "cards must be a list of cards")
        lo, hi = self.lay_bounds(seat)
        n = len(cards)
        if not lo <= n <= hi:
            raise IllegalAction(
                seat, a, f"lay {lo}–{hi} cards, not {n}" if lo != hi else f"lay {lo} cards, not {n}"
            )
        if not contains(hand, cards):
            raise IllegalAction(seat, a, "those cards are not in your hand")
        ranks = self._claimable
        rank = a.rank
        if rank is None:
            if len(ranks) != 1:
                raise IllegalAction(a.seat, a, "name the rank you claim")
            rank = ranks[0]
        if rank not in ranks:
            shown = ", ".join(ranks) if len(ranks) < len(self.ranks) else "any rank"
            raise IllegalAction(a.seat, a, f"claim {shown}, not {rank!r}")
        count = a.count
        if count is not None and type(count) is not int:
            raise IllegalAction(a.seat, a, f"the claimed count must be a number, not {count!r}")
        if self.rules.count_may_lie:
            clo, chi = self.set_bounds
            if count is None:
                count = n
            if not (isinstance(count, int) and clo <= count <= chi):
                raise IllegalAction(a.seat, a, f"claim {clo}–{chi} cards, not {count}")
        elif count is not None and count != n:
            raise IllegalAction(a.seat, a, "the claimed count must be the number of cards laid")
        return rank, n if count is None else count

    def _check_call(self, seat: int, set_no: int, action: Action) -> LaidSet:
        """Checks common to a challenge and a believe; returns the set answered."""
        self._check_seat(seat, action)
        last = self.last
        if type(set_no) is not int or set_no < 1:
            raise IllegalAction(seat, action, f"no set {set_no}")
        if set_no > self.set_no:
            raise PrematureChallenge(seat, action, f"set {set_no} is not laid yet")
        if last is None or set_no != last.set_no:
            raise StaleSet(seat, action, f"set {set_no} is no longer the last set")
        if last.seat == seat:
            raise IllegalAction(seat, action, "you cannot answer your own set")
        if (seat, set_no) in self.barred:
            raise ChallengeBarred(seat, action, f"you challenged set {set_no} before it was laid")
        if seat != self.turn and (self.rules.challengers == "next" or isinstance(action, Believe)):
            raise NotYourTurn(seat, action, f"only seat {self.turn + 1} may answer set {set_no}")
        return last

    def _check_challenge(self, a: Challenge) -> None:
        if self._is_premature(a):
            if (a.seat, a.set_no) in self.barred:
                raise ChallengeBarred(a.seat, a, f"you already challenged set {a.set_no} early")
            return
        self._check_call(a.seat, a.set_no, a)

    def _is_premature(self, a: Challenge) -> bool:
        """A challenge of the next set, not laid yet, in an `anyone` variant: void, not refused."""
        if self.rules.challengers != "anyone":
            return False
        self._check_seat(a.seat, a)
        if type(a.set_no) is int and a.set_no == self.set_no + 1:
            return True
        if type(a.set_no) is int and a.set_no > self.set_no + 1:
            raise IllegalAction(a.seat, a, f"no set {a.set_no}")
        return False

    def _check_believe(self, a: Believe) -> None:
        if not self.rules.believe:
            raise IllegalAction(a.seat, a, f"{self.rules.name} has no «верю»")
        self._check_call(a.seat, a.set_no, a)

    def _check_challenges(self, a: Challenges) -> list[int]:
        if self.rules.challengers != "anyone":
            raise IllegalAction(None, a, "simultaneous challenges need challengers = anyone")
        if not isinstance(a.seats, (tuple, list)) or not a.seats:
            raise IllegalAction(None, a, "no challengers")
        for s in a.seats:
            last = self._check_call(s, a.set_no, Challenge(s, a.set_no))
        claimant = last.seat
        return sorted(set(a.seats), key=lambda s: (s - claimant) % self.players)

    def _check_declare(self, a: DeclareNone) -> Rank:
        self._check_seat(a.seat, a)
        legal = self.legal_actions(a.seat)
        if not self.rules.declare_none:
            raise IllegalAction(a.seat, a, f"{self.rules.name} has no declaring none here")
        if a.seat != self.turn:
            raise NotYourTurn(a.seat, a, f"it is seat {self.turn + 1}'s turn")
        if self.held is not None:
            raise IllegalAction(a.seat, a, "your set is already laid and waits for the window")
        if legal.declare_none is None:
            raise IllegalAction(a.seat, a, "you cannot declare none now")
        return legal.declare_none

    def _check_quads(self, a: DiscardQuads) -> None:
        self._check_seat(a.seat, a)
        if self.rules.quads == "never":
            raise IllegalAction(a.seat, a, f"{self.rules.name} has no discarding of quads")
        if self.rules.quads == "on_turn" and a.seat != self.turn:
            raise NotYourTurn(a.seat, a, "discard quads during your turn")
        if self.rules.quads == "after_taking" and a.seat != self.quads_offer:
            raise IllegalAction(
                a.seat,
                a,
                "only the player who has just taken the pile may discard quads, before the next set",
            )
        if not isinstance(a.ranks, (tuple, list)) or not a.ranks:
            raise IllegalAction(a.seat, a, "name at least one quad")
        have = Counter(quad_ranks(self.hands[a.seat]))
        if any(have[r] < n for r, n in Counter(a.ranks).items()):
            raise IllegalAction(a.seat, a, "you do not hold those quads")

    def _check_decline(self, a: DeclineQuads) -> None:
        self._check_seat(a.seat, a)
        if self.rules.quads != "after_taking" or a.seat != self.quads_offer:
            raise IllegalAction(a.seat, a, "you hold no right to discard quads now")

    def _check_open_quads(self, a: OpenQuadsWindow) -> None:
        if self.rules.quads != "after_taking" or a.seat != self.quads_offer:
            raise IllegalAction(a.seat, a, "a quads window is for the seat that has just taken the pile")
        if self.quads_window is not None:
            raise IllegalAction(a.seat, a, "a quads window is open already")

    def _check_close_quads(self, a: CloseQuadsWindow) -> None:
        if self.quads_window is None or a.seat != self.quads_window:
            raise IllegalAction(a.seat, a, f"seat {shown(a.seat)} has no open quads window")

    def _check_close(self, a: CloseWindow) -> None:
        if not self.window_open or self.last is None or a.set_no != self.last.set_no:
            raise StaleSet(None, a, f"set {a.set_no} has no open challenge window")

    def _check_timeout(self, a: Timeout) -> TurnAction:
        """The action made for the timed-out seat, checked as the seat's own would be: one of its
        turn actions (a challenge or believe of the last set, not a premature challenge)."""
        self._check_seat(a.seat, a)
        if a.seat != self.turn:
            raise NotYourTurn(a.seat, a, f"it is seat {self.turn + 1}'s turn")
        if self.held is not None:
            raise IllegalAction(a.seat, a, "the seat's set is laid and waits for the window")
        action = a.action
        if not isinstance(action, (LaySet, DeclareNone, Challenge, Believe)):
            raise IllegalAction(a.seat, a, "a timeout makes a set, a declared none, a challenge or a believe")
        if action.seat != a.seat:
            raise IllegalAction(a.seat, a, "a timeout makes an action of the timed-out seat")
        if isinstance(action, LaySet):
            self._check_lay(action)
        elif isinstance(action, DeclareNone):
            self._check_declare(action)
        elif isinstance(action, Challenge):
            self._check_call(action.seat, action.set_no, action)
        else:
            self._check_believe(action)
        return action
