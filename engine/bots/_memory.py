"""Where the cards a seat has seen can be: the ``sharp`` bot's memory.

Only ranks matter to a claim, so cards are tracked by rank. A *group* is a count of ranks and the
set of places its cards may be: seats' hands, ``PILE`` or ``DISCARD``. Cards start in a group
when the seat sees them (a revealed set, its own cards taken by another seat, a shown quad, the
cards shown by a challenged declared none), and the group widens as the game hides them again:

- a seat that may hold them lays a set → they may be in the pile too;
- the pile is taken by T → the pile becomes T's hand; discarded → the discard.

A group whose places grow to two or more hands is forgotten (its cards count as unseen again),
which keeps every conclusion safe: ``most(seat, rank)`` never says fewer cards than there could be.
"""

from __future__ import annotations

from collections import Counter

from .._cards import Card, Rank

PILE = -1
DISCARD = -2


class CardMemory:
    """The groups of seen cards (see the module docstring) and the ranks known discarded.

    ``groups``: ``{frozenset of places: Counter of ranks}``; ``discarded``: ranks known to be in
    the discard; ``copies``: cards of each rank in the deck.
    """

    __slots__ = ("groups", "discarded", "copies", "_tracked")

    def __init__(self, copies: int) -> None:
        self.groups: dict[frozenset[int], Counter[Rank]] = {}
        self.discarded: Counter[Rank] = Counter()
        self.copies = copies
        self._tracked: Counter[Rank] | None = None

    def discard(self, cards) -> None:
        """Cards (or ranks) seen going to the discard."""
        for c in cards:
            self.discarded[c[0]] += 1
        self._tracked = None

    def add(self, places: frozenset[int], cards: tuple[Card, ...] | list[Card]) -> None:
        """Cards seen now, and where they can be."""
        if not cards:
            return
        self._tracked = None
        group = self.groups.get(places)
        if group is None:
            group = self.groups[places] = Counter()
        for c in cards:
            group[c[0]] += 1

    def revealed(self, seat: int, cards: tuple[Card, ...]) -> None:
        """``seat``'s cards are shown: any group that may hold them stops counting them (they
        are added again where they go), so no card is counted twice."""
        self._tracked = None
        for c in cards:
            r = c[0]
            for places in sorted((p for p, g in self.groups.items() if seat in p and g[r]), key=len):
                self.groups[places][r] -= 1
                break

    def unpile(self, seat: int) -> None:
        """``seat``'s only set in the pile was revealed: what else it may hold is in its hand."""
        key = frozenset((seat, PILE))
        group = self.groups.pop(key, None)
        if group is not None:
            _merge(self.groups, frozenset((seat,)), group)

    def laid(self, seat: int) -> None:
        """``seat`` laid a set: whatever it may hold may now be in the pile."""
        if not any(seat in p and PILE not in p for p in self.groups):
            return
        moved = {}
        for places, group in self.groups.items():
            if seat in places and PILE not in places:
                places = places | {PILE}
            _merge(moved, places, group)
        self.groups = moved

    def pile_went(self, to: int) -> None:
        """The pile was taken by seat ``to`` (or discarded: ``to = DISCARD``)."""
        self._tracked = None
        moved = {}
        for places, group in self.groups.items():
            if PILE in places:
                places = (places - {PILE}) | {to}
                if sum(1 for p in places if p >= 0) > 1:
                    continue  # two hands: forget
            _merge(moved, places, group)
        self.groups = moved

    def forget(self, seat: int) -> None:
        """Drop every group that may be in ``seat``'s hand (the bot's own: it sees its hand)."""
        self.groups = {p: g for p, g in self.groups.items() if seat not in p}
        self._tracked = None

    def quads_shown(self, seat: int, ranks: tuple[Rank, ...]) -> None:
        """``seat`` discarded quads of ``ranks`` face up: those cards left its hand."""
        self._tracked = None
        for r in ranks:
            self.discarded[r] += 4
            left = 4
            for places, group in self.groups.items():
                if seat in places and group[r]:
                    take = min(left, group[r])
                    group[r] -= take
                    left -= take

    def excluded(self, seat: int, rank: Rank) -> int:
        """Cards of ``rank`` seen and certainly not in ``seat``'s hand (nor laid from it)."""
        n = self.discarded[rank]
        for places, group in self.groups.items():
            if seat not in places:
                n += group[rank]
        return n

    def known_in(self, seat: int, rank: Rank) -> tuple[int, int]:
        """Cards of ``rank`` certainly ``seat``'s (in its hand or its sets: ``places ⊆ {seat,
        PILE}``), and those that may be."""
        sure = maybe = 0
        for places, group in self.groups.items():
            if seat in places:
                if places <= {seat, PILE}:
                    sure += group[rank]
                else:
                    maybe += group[rank]
        return sure, maybe

    def tracked(self, rank: Rank) -> int:
        """Cards of ``rank`` seen and tracked anywhere (discard included)."""
        totals = self._tracked
        if totals is None:
            totals = self._tracked = Counter(self.discarded)
            for g in self.groups.values():
                totals.update(g)
        return totals[rank]

    def size(self) -> int:
        """How many cards the groups and the known discard hold."""
        return sum(self.discarded.values()) + sum(sum(g.values()) for g in self.groups.values())


def _merge(into: dict, places: frozenset[int], group: Counter) -> None:
    have = into.get(places)
    if have is None:
        into[places] = group
    else:
        have.update(group)
