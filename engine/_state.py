"""What a deal holds, and the queries on it: who is active, what the next claim may name, what a
seat may do now (``legal_actions``) and may know (``view``), and the card invariant.

``DealState`` is the base of ``Deal`` (engine/_deal.py), which applies the actions; the checks
of an action are in engine/_checks.py, the steps that follow one (a set laid, a set revealed, a
turn, the end) in engine/_steps.py.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence

import attrs

from . import _events as ev
from ._actions import DeclareNone, LaySet
from ._cards import Card, Rank, deck_ranks, next_rank, quad_ranks
from ._rules import Rules
from ._view import NO_ACTION, LastSet, LayBounds, Legal, View

RANK_STEP = {"ascending": 1, "descending": -1}


def _ranks_after(order: str, ranks: str, rank: Rank) -> tuple[Rank, ...]:
    """The ranks a set may claim after a claim of ``rank`` this round (docs/RULES.md,
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


class DealState:
    """The cards and counters of one deal of ``rules`` at ``len(hands)`` seats (0..players-1,
    clockwise), and the queries on them; ``Deal`` (engine/_deal.py) adds the actions. The
    arguments: see ``Deal``. Raises ValueError for a seat count the variant does not allow."""

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
        # from its take until the next set laid by anyone or its own next action (docs/RULES.md,
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
        """The ranks the next set may claim (docs/RULES.md, ``rank_order`` and ``first_rank``)."""
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
        return Legal(
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
        view = View(
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
        """docs/RULES.md card conservation: hands + pile + discard + hidden + set-aside + stock is the
        deck, as a multiset. Raises AssertionError with the difference when it is not."""
        now = self._all_cards()
        if now != self._cards:
            raise AssertionError(f"cards not conserved: gained {now - self._cards}, lost {self._cards - now}")
        if self.deck_order is not None:
            if self._dealt is None:
                self._dealt = Counter(self.deck_order)
            if self._dealt != now:
                raise AssertionError("cards differ from the deck dealt")

    def turn_event(self) -> ev.Turn:
        """The ``Turn`` event that announces the seat to act now (the last one the deal gave)."""
        last = self.last
        seat = self.turn
        return ev.Turn(
            seat=seat,
            ranks=self._claimable,
            set_no=last.set_no if last is not None and last.seat != seat else None,
        )
