"""One deal as a state machine: ``apply(action) -> list[Event]``.

The rules are RULES.md's parameters (``Rules``); every place where variants differ reads a
parameter. An action that breaks a rule raises a ``RuleViolation`` and changes nothing: ``apply``
checks everything before it changes anything.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

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
    TurnAction,
)
from ._cards import (
    Card,
    Rank,
    contains,
    deck_ranks,
    new_deck,
    next_rank,
    quad_ranks,
    remove_cards,
    sorted_cards,
)
from ._dealing import deal_cards
from ._errors import (
    ChallengeBarred,
    DealOver,
    IllegalAction,
    NotYourTurn,
    PrematureChallenge,
    RuleViolation,
    StaleSet,
)
from ._records import builder
from ._rules import Rules
from ._view import NO_ACTION, LastSet, LayBounds, Legal, View

RANK_STEP = {"ascending": 1, "descending": -1}

_is_str = str.__instancecheck__  # isinstance(x, str), for map()


def _ranks_after(order: str, ranks: str, rank: Rank) -> tuple[Rank, ...]:
    """The ranks a set may claim after a claim of ``rank`` this round (RULES.md,
    ``rank_order``): the same rank (``hold``), any (``free``), the next one up or down."""
    if order == "hold":
        return (rank,)
    if order == "free":
        return tuple(ranks)
    return (next_rank(rank, ranks, RANK_STEP[order]),)


def _lay_size(held: int, set_bounds: tuple[int, int]) -> tuple[int, int]:
    """(min, max) cards a seat holding ``held`` cards may lay where a set is ``set_bounds``
    cards: see ``Deal.lay_bounds``."""
    lo, hi = set_bounds
    if held < lo:
        return (held, held)
    return (lo, min(hi, held))


@functools.lru_cache(maxsize=4096)
def _lay_bounds(
    held: int, set_bounds: tuple[int, int], ranks: tuple[Rank, ...], count_may_lie: bool
) -> LayBounds:
    """The LayBounds of a seat holding ``held`` cards, claiming one of ``ranks``; one shared
    object per value (immutable; a deal asks for the same few again and again)."""
    lo, hi = _lay_size(held, set_bounds)
    count_min, count_max = set_bounds if count_may_lie else (None, None)
    return LayBounds(lo, hi, ranks, count_min, count_max)


@functools.cache
def _claim_table(order: str, ranks: str) -> dict[Rank, tuple[Rank, ...]]:
    """``_ranks_after`` for every rank of a deck, once per (rank order, deck ranks)."""
    return {r: _ranks_after(order, ranks, r) for r in ranks}


@attrs.frozen
class LaidSet:
    """A set on the pile: number, who laid it, its cards, the claim (``none``: a declared none)."""

    set_no: int
    seat: int
    cards: tuple[Card, ...]
    rank: Rank
    count: int
    none: bool = False


# The records this module builds on every action, by constructors that take every field by
# keyword and skip attrs' frozen __setattr__ (engine/_records.py).
_LaidSet = builder(LaidSet)
_LastSet = builder(LastSet)
_View = builder(View)
_Legal = builder(Legal)
_SetLaid = builder(ev.SetLaid)
_NoneDeclared = builder(ev.NoneDeclared)
_SetHeld = builder(ev.SetHeld)
_Turn = builder(ev.Turn)
_StockDrawn = builder(ev.StockDrawn)
_Challenged = builder(ev.Challenged)
_Believed = builder(ev.Believed)
_ChallengeVoid = builder(ev.ChallengeVoid)
_WindowClosed = builder(ev.WindowClosed)
_SetRevealed = builder(ev.SetRevealed)
_PileTaken = builder(ev.PileTaken)
_PileDiscarded = builder(ev.PileDiscarded)
_QuadsDiscarded = builder(ev.QuadsDiscarded)


class Deal:
    """One deal of ``rules`` at ``players`` seats (0..players-1, clockwise).

    Build one with ``Deal.new`` (shuffled and dealt) or with the constructor from an explicit
    arrangement (hands, pile, discard, hidden, set-aside and stock cards, dealer, the seat to act
    and the rank held: scenarios and tests); ``opening()`` gives the events that start it. Then
    ``apply`` actions; ``legal_actions(seat)`` answers what a seat may do, ``view(seat)`` what it
    may know.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        deck: str,
        dealer: int,
        hands: Sequence[Iterable[Card]],
        turn: int | None = None,
        pile: Iterable[Card] = (),
        discard: Iterable[Card] = (),
        hidden: Iterable[Card] = (),
        set_aside: Iterable[Card] = (),
        stock: Iterable[Card] = (),
        deck_order: Sequence[Card] | None = None,
        rank: Rank | None = None,
    ) -> None:
        self.rules = rules
        self.deck = deck
        self.players = len(hands)
        lo, hi = rules.players
        if not lo <= self.players <= hi:
            raise ValueError(f"{rules.name} is for {lo}–{hi} players, not {self.players}")
        self.ranks: str = deck_ranks(deck)
        self.set_bounds = rules.set_bounds(deck)
        self.dealer = dealer
        self.hands: list[list[Card]] = [list(h) for h in hands]
        self.pile: list[Card] = list(pile)
        self.discard: list[Card] = list(discard)
        self.hidden: list[Card] = list(hidden)
        self.set_aside: list[Card] = list(set_aside)
        self.stock: list[Card] = list(stock)
        self.deck_order: tuple[Card, ...] | None = tuple(deck_order) if deck_order else None
        if turn is None:
            turn = dealer if rules.first_player == "dealer" else (dealer + 1) % self.players
        self.turn: int = turn
        self.last: LaidSet | None = None  # the last set, while it may still be answered
        self.rank: Rank | None = rank  # the rank of the latest claim of this round
        self.first_set = rank is None and not self.pile  # no set laid yet (``first_rank``)
        self.set_no = 0  # the number of the latest set laid (sets count from 1)
        self.window_open = False
        self.held: LaySet | DeclareNone | None = None  # laid early, waits for the window
        self.barred: set[tuple[int, int]] = set()
        self.waiting: list[int] = []  # empty-handed seats not yet out (last cards)
        self.out: list[int] = []
        # The seat that holds the right to discard quads after taking the pile (after_taking):
        # from its take until the next set laid by anyone or its own next action (RULES.md,
        # `verish`, **Decision**).
        self.quads_offer: int | None = None
        self.quads_window: int | None = None  # the taker whose quads window holds the next set
        self.over = False
        self.loser: int | None = None
        self.winner: int | None = None
        self.actions = 0
        self._cards = self._all_cards()
        # For the hot queries (legal_actions, view): the ranks the next claim may name (kept
        # with ``rank``, see _claim) and the last set as views show it (made by _lay: with its
        # size; and without, where counts are hidden).
        self._any_ranks: tuple[Rank, ...] = tuple(self.ranks)
        self._after = _claim_table(rules.rank_order, self.ranks)
        self._claimable = self._claim(rank)
        self._last_sized: LastSet | None = None
        self._last_unsized: LastSet | None = None
        self._dealt: Counter[Card] | None = None  # Counter(deck_order), made on first check

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
        """Shuffle the deck with ``rng`` and deal it (RULES.md, ``deal``; dealing starts left of
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

    # -- queries -----------------------------------------------------------------------------

    @property
    def active(self) -> list[int]:
        """Seats not out, in seat order."""
        return [s for s in range(self.players) if s not in self.out]

    def next_active(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that is not out."""
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if s not in self.out:
                return s
        raise AssertionError("no active seat")

    def claim_ranks(self) -> tuple[Rank, ...]:
        """The ranks the next set may claim (RULES.md, ``rank_order`` and ``first_rank``)."""
        return self._claimable

    def _claim(self, rank: Rank | None) -> tuple[Rank, ...]:
        """``claim_ranks`` once ``rank`` is the latest claim of the round (None: a new round);
        every change of ``rank`` or ``first_set`` stores it in ``_claimable``."""
        if rank is None:
            return ("A",) if self.first_set and self.rules.first_rank == "ace" else self._any_ranks
        after = self._after.get(rank)
        return after if after is not None else _ranks_after(self.rules.rank_order, self.ranks, rank)

    def lay_bounds(self, seat: int) -> tuple[int, int]:
        """(min, max) cards ``seat`` may lay: the variant's set size, or all it holds when the
        stock cannot make up a set (`hoyle-three`, **Decision**)."""
        return _lay_size(len(self.hands[seat]), self.set_bounds)

    def legal_actions(self, seat: int | None) -> Legal:
        """What ``seat`` may do now (``NO_ACTION`` when nothing; a spectator: None → nothing)."""
        if seat is None or self.over or seat in self.out:
            return NO_ACTION
        rules = self.rules
        last = self.last
        turn = self.turn
        lay = None
        challenge = believe = None
        declare = None
        quads: tuple[Rank, ...] = ()
        decline = False
        hand = self.hands[seat]
        if seat == turn and hand and self.held is None:
            ranks = self._claimable
            lay = _lay_bounds(len(hand), self.set_bounds, ranks, rules.count_may_lie)
            if rules.declare_none and len(ranks) == 1:
                declare = ranks[0]
        if (
            last is not None
            and last.seat != seat
            and not (self.barred and (seat, last.set_no) in self.barred)
        ):
            if seat == turn or rules.challengers == "anyone":
                challenge = last.set_no
            if seat == turn and rules.believe:
                believe = last.set_no
        quads_rule = rules.quads
        if quads_rule == "on_turn" and seat == turn:
            quads = quad_ranks(hand)
        elif quads_rule == "after_taking" and seat == self.quads_offer:
            quads = quad_ranks(hand)
            decline = True
        return _Legal(
            lay=lay,
            challenge=challenge,
            believe=believe,
            declare_none=declare,
            discard_quads=quads,
            decline_quads=decline,
        )

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (None: a spectator). Holds no other seat's cards."""
        public = self.rules.hand_counts_public
        laid = self.last
        last = None
        if laid is not None:
            last = self._last_sized if public or seat == laid.seat else self._last_unsized
        hands = self.hands
        over = self.over
        view = _View(
            variant=self.rules.name,
            seat=seat,
            players=self.players,
            deck=self.deck,
            dealer=self.dealer,
            hand=tuple(hands[seat]) if seat is not None else None,
            hand_counts=tuple(map(len, hands)) if public else None,
            pile=len(self.pile) if public else None,
            discard=len(self.discard),
            stock=len(self.stock),
            hidden=len(self.hidden),
            set_aside=len(self.set_aside),
            last=last,
            ranks=self._claimable,
            turn=None if over else self.turn,
            set_no=self.set_no,
            window_open=self.window_open,
            out=tuple(self.out),
            waiting=tuple(self.waiting) if public else (),
            over=over,
            loser=self.loser,
            winner=self.winner,
            legal=self.legal_actions(seat),
            quads_window=self.quads_window,
        )
        return view

    def _all_cards(self) -> Counter[Card]:
        cards = self.pile + self.discard + self.hidden + self.set_aside + self.stock
        for h in self.hands:
            cards += h
        return Counter(cards)

    def check_invariant(self) -> None:
        """RULES.md card conservation: hands + pile + discard + hidden + set-aside + stock is the
        deck, as a multiset. Raises AssertionError with the difference when it is not."""
        now = self._all_cards()
        if now != self._cards:
            raise AssertionError(f"cards not conserved: gained {now - self._cards}, lost {self._cards - now}")
        if self.deck_order is not None:
            if self._dealt is None:
                self._dealt = Counter(self.deck_order)
            if self._dealt != now:
                raise AssertionError("cards differ from the deck dealt")

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

    # -- checks (raise, change nothing) --------------------------------------------------------

    def _check_seat(self, seat: int, action: Action) -> None:
        if not (type(seat) is int and 0 <= seat < self.players):
            raise IllegalAction(seat, action, f"no seat {seat}")
        if seat in self.out:
            raise IllegalAction(seat, action, "you are out of this deal")

    def _check_lay(self, a: LaySet) -> tuple[Rank, int]:
        seat = a.seat
        if seat != self.turn or type(seat) is not int or seat in self.out:
            self._check_seat(seat, a)
            raise NotYourTurn(seat, a, f"it is seat {self.turn}'s turn")
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
            raise NotYourTurn(seat, action, f"only seat {self.turn} may answer set {set_no}")
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
            raise NotYourTurn(a.seat, a, f"it is seat {self.turn}'s turn")
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
            raise IllegalAction(a.seat, a, f"seat {a.seat} has no open quads window")

    def _check_close(self, a: CloseWindow) -> None:
        if not self.window_open or self.last is None or a.set_no != self.last.set_no:
            raise StaleSet(None, a, f"set {a.set_no} has no open challenge window")

    def _check_timeout(self, a: Timeout) -> TurnAction:
        """The action made for the timed-out seat, checked as the seat's own would be: one of its
        turn actions (a challenge or believe of the last set, not a premature challenge)."""
        self._check_seat(a.seat, a)
        if a.seat != self.turn:
            raise NotYourTurn(a.seat, a, f"it is seat {self.turn}'s turn")
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

    # -- handlers (check first, then change) --------------------------------------------------

    def _do_lay(self, a: LaySet, events: list[ev.Event]) -> None:
        rank, count = self._check_lay(a)
        if self.window_open or self.quads_window is not None:
            self.held = a
            events.append(_SetHeld(seat=a.seat, cards=tuple(a.cards), rank=rank, count=count))
            return
        self._lay(a.seat, tuple(a.cards), rank, count, False, events)

    def _lay(
        self, seat: int, cards: tuple[Card, ...], rank: Rank, count: int, none: bool, events: list[ev.Event]
    ) -> None:
        self.quads_offer = None  # the next set laid by anyone ends the taker's right (`verish`)
        hand = self.hands[seat]
        remove_cards(hand, cards)
        self.pile.extend(cards)
        self.set_no = set_no = self.set_no + 1
        covered = self.last
        self.last = _LaidSet(set_no=set_no, seat=seat, cards=cards, rank=rank, count=count, none=none)
        self._last_sized = _LastSet(
            set_no=set_no, seat=seat, rank=rank, count=count, size=len(cards), none=none
        )
        if not self.rules.hand_counts_public:
            self._last_unsized = _LastSet(
                set_no=set_no, seat=seat, rank=rank, count=count, size=None, none=none
            )
        self.first_set = False
        self.rank = rank
        self._claimable = self._claim(rank)
        if none:
            events.append(_NoneDeclared(seat=seat, set_no=set_no, rank=rank))
        else:
            events.append(
                _SetLaid(seat=seat, set_no=set_no, rank=rank, count=count, cards=cards, size=len(cards))
            )
        # The set before is covered: RULES.md, last cards. Where the first out wins, the deal ends
        # with the winner's last set, and this set, laid only to cover it, goes back to its
        # owner's hand before the chips are counted (RULES.md, `hoyle`, scoring, **Decision**;
        # the same in `cheat`, whose scoring is none: its hand counts stay true).
        if covered is not None and covered.seat in self.waiting and self.rules.last_cards != "final_call":
            self._go_out([covered.seat], seat, events, cover=self.last)
            if self.over:
                return
        if not hand:
            self.waiting.append(seat)
        self.window_open = self.rules.challengers == "anyone"
        nxt = (seat + 1) % self.players
        self._begin_turn(nxt if nxt not in self.out else self.next_active(seat), events)

    def _do_declare(self, a: DeclareNone, events: list[ev.Event]) -> None:
        rank = self._check_declare(a)
        if self.window_open or self.quads_window is not None:
            self.held = a
            events.append(_SetHeld(seat=a.seat, cards=(), rank=rank, count=0))
            return
        self._lay(a.seat, (), rank, 0, True, events)

    def _do_challenge(self, a: Challenge, events: list[ev.Event]) -> None:
        self._check_challenge(a)
        if self._is_premature(a):
            self._end_quads_right(a.seat)
            self.barred.add((a.seat, a.set_no))
            events.append(_ChallengeVoid(seat=a.seat, set_no=a.set_no))
            return
        self._reveal(a.seat, False, (), events)

    def _do_challenges(self, a: Challenges, events: list[ev.Event]) -> None:
        order = self._check_challenges(a)
        self._reveal(order[0], False, tuple(order[1:]), events)

    def _do_believe(self, a: Believe, events: list[ev.Event]) -> None:
        self._check_believe(a)
        self._reveal(a.seat, True, (), events)

    def _reveal(self, caller: int, believe: bool, tied: tuple[int, ...], events: list[ev.Event]) -> None:
        """Turn up the last set and settle it (RULES.md, "What every variant shares")."""
        self._end_quads_right(caller)
        s = self.last
        assert s is not None
        claimant = s.seat
        if s.none:
            shown = tuple(c for c in self.hands[claimant] if c[0] == s.rank)
            true = not shown
        else:
            shown = s.cards
            true = all(c[0] == s.rank for c in s.cards) and len(s.cards) == s.count
        events.append(
            _Believed(seat=caller, set_no=s.set_no)
            if believe
            else _Challenged(seat=caller, set_no=s.set_no, tied=tied)
        )
        events.append(
            _SetRevealed(
                seat=claimant, set_no=s.set_no, rank=s.rank, count=s.count, cards=shown, claim_true=true
            )
        )
        if self.held is not None:
            held, self.held = self.held, None
            events.append(ev.SetReturned(seat=held.seat, cards=tuple(getattr(held, "cards", ()))))
        self.window_open = False
        self.last = None
        # believe: true → the discard, false → the believer; challenge: true → the challenger,
        # false → the claimant (RULES.md, `veryu`, `lozh`, "What every variant shares").
        taker: int | None
        if believe and true:
            taker = None
            events.append(_PileDiscarded(count=len(self.pile)))
            self.discard.extend(self.pile)
        else:
            taker = caller if believe or true else claimant
            # sorted as a hand is: the order says nothing about where the cards lay (issue 27)
            cards = tuple(sorted_cards(self.pile))
            self.hands[taker].extend(cards)
            events.append(_PileTaken(seat=taker, count=len(cards), cards=cards))
            if self.rules.quads == "after_taking":
                self.quads_offer = taker
        self.pile = []
        if taker in self.waiting:
            self.waiting.remove(taker)
        # Empty-handed seats that did not take the pile are out (RULES.md, last cards).
        gone = [s for s in self.waiting if not self.hands[s]]
        if gone:
            self._go_out(gone, caller, events)
            if self.over:
                return
        self._next_leader(caller, claimant, taker, events)

    def _next_leader(self, caller: int, claimant: int, taker: int | None, events: list[ev.Event]) -> None:
        """RULES.md, ``leader_after_reveal``."""
        how = self.rules.leader_after_reveal
        if how == "sequence":
            if self.turn in self.out:
                self._begin_turn(self.next_active(self.turn), events)
            else:
                self._begin_turn(self.turn, events)
            return
        self.rank = None
        self._claimable = self._claim(None)
        if how == "taker":
            assert taker is not None
            leader = taker
        elif taker == caller:
            leader = self.next_active(caller)
        else:
            leader = caller if caller not in self.out else self.next_active(caller)
        self._begin_turn(leader, events)

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
            _QuadsDiscarded(
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
        events.append(_WindowClosed(set_no=a.set_no))
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

    # -- shared steps ---------------------------------------------------------------------------

    def _end_quads_right(self, seat: int) -> None:
        """``seat``'s own action ends its right to discard quads (``after_taking``)."""
        if self.quads_offer == seat:
            self.quads_offer = None

    def _begin_turn(self, seat: int, events: list[ev.Event]) -> None:
        self.turn = seat
        if self.stock:
            hand = self.hands[seat]
            lo = self.set_bounds[0]
            if 0 < len(hand) < lo:
                drawn = self.stock[: lo - len(hand)]
                del self.stock[: len(drawn)]
                hand.extend(drawn)
                events.append(_StockDrawn(seat=seat, count=len(drawn), cards=tuple(drawn)))
        events.append(self.turn_event())

    def turn_event(self) -> ev.Turn:
        """The ``Turn`` event that announces the seat to act now (the last one the deal gave)."""
        last = self.last
        seat = self.turn
        return _Turn(
            seat=seat,
            ranks=self._claimable,
            set_no=last.set_no if last is not None and last.seat != seat else None,
        )

    def _go_out(
        self, seats: list[int], actor: int, events: list[ev.Event], cover: LaidSet | None = None
    ) -> None:
        """Put ``seats`` out in turn order from ``actor`` (RULES.md, "Only one left"). ``cover``:
        the set that covered the last set of the seat going out; it goes back to its owner's
        hand when that seat wins (``first_wins``)."""
        n = self.players
        for seat in sorted(seats, key=lambda s: (s - actor) % n):
            if seat in self.waiting:
                self.waiting.remove(seat)
            self.out.append(seat)
            events.append(ev.PlayerOut(seat=seat, place=len(self.out)))
            if self.rules.result == "first_wins":
                self._end(winner=seat, events=events, cover=cover)
                return
            active = self.active
            if len(active) == 1:
                self._end(loser=active[0], events=events)
                return

    def _end(
        self,
        events: list[ev.Event],
        loser: int | None = None,
        winner: int | None = None,
        cover: LaidSet | None = None,
    ) -> None:
        """End the deal; a held set and the covering set ``cover`` go back to their owners'
        hands first, as ``SetReturned`` (see ``_lay``)."""
        self.over = True
        self.loser, self.winner = loser, winner
        self.window_open = False
        self.quads_window = None
        if self.held is not None:
            held, self.held = self.held, None
            events.append(ev.SetReturned(seat=held.seat, cards=tuple(getattr(held, "cards", ()))))
        if cover is not None:
            if cover.cards:
                del self.pile[-len(cover.cards) :]  # laid last: the top of the pile
            self.hands[cover.seat].extend(cover.cards)
            self.last = None
            events.append(ev.SetReturned(seat=cover.seat, cards=cover.cards))
        counts = tuple(len(h) for h in self.hands)
        events.append(
            ev.DealEnded(
                loser=loser,
                winner=winner,
                out=tuple(self.out),
                scores=score_deal(self.rules.scoring, counts, loser, winner),
                hand_counts=counts,
            )
        )


def score_deal(
    scoring: str, hand_counts: tuple[int, ...], loser: int | None, winner: int | None
) -> tuple[int, ...]:
    """One deal's score change per seat (RULES.md, ``scoring``): ``losses`` +1 to the loser;
    ``chips_per_player``: every other seat pays the winner 1; ``chips_per_card``: every other seat
    pays the winner one chip per card left in its hand; ``none``: zeros."""
    n = len(hand_counts)
    scores = [0] * n
    if scoring == "losses" and loser is not None:
        scores[loser] = 1
    elif scoring in ("chips_per_player", "chips_per_card") and winner is not None:
        for s in range(n):
            if s != winner:
                pay = 1 if scoring == "chips_per_player" else hand_counts[s]
                scores[s] -= pay
                scores[winner] += pay
    return tuple(scores)


# One handler and one check per kind of action; each takes actions of its own key's type only.
_HANDLERS: dict[type, Callable[[Deal, Any, list[ev.Event]], None]] = {
    LaySet: Deal._do_lay,
    Challenge: Deal._do_challenge,
    Challenges: Deal._do_challenges,
    Believe: Deal._do_believe,
    DeclareNone: Deal._do_declare,
    DiscardQuads: Deal._do_quads,
    DeclineQuads: Deal._do_decline,
    CloseWindow: Deal._do_close,
    OpenQuadsWindow: Deal._do_open_quads,
    CloseQuadsWindow: Deal._do_close_quads,
    Timeout: Deal._do_timeout,
}

_CHECKS: dict[type, Callable[[Deal, Any], object]] = {
    LaySet: Deal._check_lay,
    Challenge: Deal._check_challenge,
    Challenges: Deal._check_challenges,
    Believe: Deal._check_believe,
    DeclareNone: Deal._check_declare,
    DiscardQuads: Deal._check_quads,
    DeclineQuads: Deal._check_decline,
    CloseWindow: Deal._check_close,
    OpenQuadsWindow: Deal._check_open_quads,
    CloseQuadsWindow: Deal._check_close_quads,
    Timeout: Deal._check_timeout,
}

__all__ = ["Deal", "LaidSet", "RuleViolation", "score_deal"]
