"""Where the cards a seat has seen can be: the ``sharp`` bot's memory.

Only ranks matter to a claim, so cards are tracked by rank. A *group* is a count of ranks and the
set of places its cards may be: seats' hands, ``PILE`` or ``DISCARD``. Cards start in a group
when the seat sees them (a revealed set, its own cards taken by another seat, a shown quad, the
cards shown by a challenged declared none), and the group widens as the game hides them again:

- a seat that may hold them lays a set → they may be in the pile too;
- the pile is taken by T → the pile becomes T's hand; discarded → the discard.

A group whose places grow to two or more hands is forgotten (its cards count as unseen again),
which keeps every conclusion safe: ``most(seat, rank)`` never says fewer cards than there could be.

A set of places is a bit mask, so that the bots' hot path does integer arithmetic rather than
set algebra: ``PILE`` and ``DISCARD`` are bits, ``hand(seat)`` is seat ``seat``'s bit, and
``hand(2) | PILE`` means "in seat 2's hand or in the pile".
"""

from __future__ import annotations

from collections.abc import Iterable

from .._cards import Card, Rank

PILE = 1
"""The place bit of the pile."""

DISCARD = 2
"""The place bit of the discard."""

_HANDS_SHIFT = 2


def hand(seat: int) -> int:
    """The place bit of ``seat``'s hand."""
    return 1 << (seat + _HANDS_SHIFT)


def places_of(mask: int) -> frozenset[int]:
    """A mask as the set it stands for: seats, and -1 for the pile, -2 for the discard (for
    reading a memory in tests and logs)."""
    out = {-1} if mask & PILE else set()
    if mask & DISCARD:
        out.add(-2)
    hands = mask >> _HANDS_SHIFT
    seat = 0
    while hands:
        if hands & 1:
            out.add(seat)
        hands >>= 1
        seat += 1
    return frozenset(out)


class CardMemory:
    """The groups of seen cards (see the module docstring) and the ranks known discarded.

    ``groups``: ``{places mask: {rank: cards}}`` in the order the groups were made (a
    count may be 0); ``discarded``: ``{rank: cards}`` known to be in the discard; ``copies``:
    cards of each rank in the deck. The totals ``tracked`` and ``loose`` are kept up to date by
    every change (``recount`` computes them afresh, for tests).
    """

    __slots__ = ("_loose", "_tracked", "copies", "discarded", "groups")

    def __init__(self, copies: int) -> None:
        self.groups: dict[int, dict[Rank, int]] = {}
        self.discarded: dict[Rank, int] = {}
        self.copies = copies
        self._tracked: dict[Rank, int] = {}  # tracked(rank), by rank
        self._loose = 0  # loose()

    def discard(self, cards: Iterable[str]) -> None:
        """Cards (or ranks) seen going to the discard."""
        discarded = self.discarded
        tracked = self._tracked
        for c in cards:
            r = c[0]
            discarded[r] = discarded.get(r, 0) + 1
            tracked[r] = tracked.get(r, 0) + 1

    def add(self, places: int, cards: tuple[Card, ...] | list[Card]) -> None:
        """Cards seen now, and where they can be (a places mask)."""
        if not cards:
            return
        group = self.groups.get(places)
        if group is None:
            group = self.groups[places] = {}
        tracked = self._tracked
        for c in cards:
            r = c[0]
            group[r] = group.get(r, 0) + 1
            tracked[r] = tracked.get(r, 0) + 1
        if not places & DISCARD:
            self._loose += len(cards)

    def revealed(self, seat: int, cards: tuple[Card, ...]) -> None:
        """``seat``'s cards are shown: any group that may hold them stops counting them (they
        are added again where they go), so no card is counted twice. Each card leaves the
        narrowest such group (fewest places; the oldest of equals)."""
        bit = 4 << seat  # hand(seat)
        holding = []
        for places, group in self.groups.items():
            if places & bit:
                holding.append((places.bit_count(), places, group))
        if not holding:
            return
        if len(holding) > 1:
            holding.sort(key=_first)  # stable: the oldest of equals first
        tracked = self._tracked
        for c in cards:
            r = c[0]
            for _, places, group in holding:
                if group.get(r):
                    group[r] -= 1
                    tracked[r] -= 1
                    if not places & DISCARD:
                        self._loose -= 1
                    break

    def unpile(self, seat: int) -> None:
        """``seat``'s only set in the pile was revealed: what else it may hold is in its hand."""
        bit = 4 << seat  # hand(seat)
        group = self.groups.pop(bit | PILE, None)
        if group is not None:
            _merge(self.groups, bit, group)

    def laid(self, seat: int) -> None:
        """``seat`` laid a set: whatever it may hold may now be in the pile."""
        bit = 4 << seat  # hand(seat)
        for places in self.groups:
            if places & bit and not places & PILE:
                break
        else:
            return
        moved: dict[int, dict[Rank, int]] = {}
        for places, group in self.groups.items():
            if places & bit:
                places |= PILE
            _merge(moved, places, group)
        self.groups = moved

    def pile_went(self, to: int) -> None:
        """The pile was taken by a seat (``to = hand(seat)``) or discarded (``to = DISCARD``)."""
        for places in self.groups:
            if places & PILE:
                break
        else:
            return  # nothing may be in the pile
        moved: dict[int, dict[Rank, int]] = {}
        for places, group in self.groups.items():
            if places & PILE:
                was_loose = not places & DISCARD
                places = (places & ~PILE) | to
                hands = places >> _HANDS_SHIFT
                if hands & (hands - 1):  # two hands: forget
                    self._drop(group, was_loose)
                    continue
                if was_loose and places & DISCARD:
                    self._loose -= sum(group.values())
            _merge(moved, places, group)
        self.groups = moved

    def forget(self, seat: int) -> None:
        """Drop every group that may be in ``seat``'s hand (the bot's own: it sees its hand)."""
        if not self.groups:
            return
        bit = 4 << seat  # hand(seat)
        kept = {}
        for places, group in self.groups.items():
            if places & bit:
                self._drop(group, not places & DISCARD)
            else:
                kept[places] = group
        self.groups = kept

    def quads_shown(self, seat: int, ranks: tuple[Rank, ...]) -> None:
        """``seat`` discarded quads of ``ranks`` face up: those cards left its hand."""
        bit = 4 << seat  # hand(seat)
        discarded = self.discarded
        tracked = self._tracked
        for r in ranks:
            discarded[r] = discarded.get(r, 0) + 4
            tracked[r] = tracked.get(r, 0) + 4
            left = 4
            for places, group in self.groups.items():
                if places & bit:
                    n = group.get(r)
                    if n:
                        take = min(left, n)
                        group[r] = n - take
                        left -= take
                        tracked[r] -= take
                        if not places & DISCARD:
                            self._loose -= take

    def excluded(self, seat: int, rank: Rank) -> int:
        """Cards of ``rank`` seen and certainly not in ``seat``'s hand (nor laid from it)."""
        n = self.discarded.get(rank, 0)
        bit = 4 << seat  # hand(seat)
        for places, group in self.groups.items():
            if not places & bit:
                n += group.get(rank, 0)
        return n

    def known_in(self, seat: int, rank: Rank) -> tuple[int, int]:
        """Cards of ``rank`` certainly ``seat``'s (in its hand or its sets: places within
        ``hand(seat) | PILE``), and those that may be."""
        sure, maybe, _ = self.census(seat, rank)
        return sure, maybe

    def census(self, seat: int, rank: Rank) -> tuple[int, int, int]:
        """``known_in(seat, rank) + (excluded(seat, rank),)`` in one pass over the groups."""
        sure = maybe = 0
        out = self.discarded.get(rank, 0)
        bit = 4 << seat  # hand(seat)
        mine = bit | PILE
        for places, group in self.groups.items():
            if places & bit:
                if places & ~mine:
                    maybe += group.get(rank, 0)
                else:
                    sure += group.get(rank, 0)
            else:
                out += group.get(rank, 0)
        return sure, maybe, out

    def only_in(self, seat: int, rank: Rank) -> int:
        """Cards of ``rank`` seen and surely in ``seat``'s hand alone (not possibly laid)."""
        group = self.groups.get(4 << seat)  # hand(seat)
        return group.get(rank, 0) if group is not None else 0

    def tracked(self, rank: Rank) -> int:
        """Cards of ``rank`` seen and tracked anywhere (discard included)."""
        return self._tracked.get(rank, 0)

    def loose(self) -> int:
        """Cards tracked in groups that cannot be in the discard (in hands or the pile)."""
        return self._loose

    def totals(self) -> tuple[dict[Rank, int], int]:
        """``({rank: tracked(rank)}, loose())``: a rank may be absent (none tracked). Read only."""
        return self._tracked, self._loose

    def recount(self) -> tuple[dict[Rank, int], int]:
        """``totals()`` computed afresh from the groups and the discard (ranks with 0 absent)."""
        totals = dict(self.discarded)
        loose = 0
        for places, group in self.groups.items():
            for r, n in group.items():
                totals[r] = totals.get(r, 0) + n
                if not places & DISCARD:
                    loose += n
        return {r: n for r, n in totals.items() if n}, loose

    def size(self) -> int:
        """How many cards the groups and the known discard hold."""
        return sum(self.discarded.values()) + sum(sum(g.values()) for g in self.groups.values())

    def _drop(self, group: dict[Rank, int], loose: bool) -> None:
        tracked = self._tracked
        cards = 0
        for r, n in group.items():
            tracked[r] -= n
            cards += n
        if loose:
            self._loose -= cards


def _first(item: tuple[int, int, dict[Rank, int]]) -> int:
    return item[0]


def _merge(into: dict[int, dict[Rank, int]], places: int, group: dict[Rank, int]) -> None:
    have = into.get(places)
    if have is None:
        into[places] = group
    else:
        for r, n in group.items():
            have[r] = have.get(r, 0) + n
