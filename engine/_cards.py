"""Cards, ranks and decks.

A card is a two-character string, rank then suit: ranks ``2..9 T J Q K A``, suits ``S H D C``
(``"TS"`` is the ten of spades). A double deck repeats strings. Ranks alone are the first
character. (docs/ARCHITECTURE.md, "Types on the wire".)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

Card = str
Rank = str

RANKS: str = "23456789TJQKA"
SUITS: str = "SHDC"
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}

DECK_KINDS: tuple[str, ...] = ("36", "52", "2x36", "2x52")


def rank_of(card: Card) -> Rank:
    """The rank of ``card`` (its first character)."""
    return card[0]


def is_card(value: object) -> bool:
    """True if ``value`` is a well-formed card string such as ``"QH"``."""
    return isinstance(value, str) and len(value) == 2 and value[0] in RANK_INDEX and value[1] in SUITS


def deck_ranks(kind: str) -> str:
    """The ranks of a deck kind, lowest first: ``"6789TJQKA"`` for 36 cards, all 13 for 52."""
    return RANKS[4:] if kind.endswith("36") else RANKS


def decks_in(kind: str) -> int:
    """How many single decks a deck kind holds: 2 for ``2x36`` and ``2x52``, else 1."""
    return 2 if kind.startswith("2x") else 1


def new_deck(kind: str) -> list[Card]:
    """An unshuffled deck of ``kind`` (one of DECK_KINDS): 36, 52, 72 or 104 cards.

    Raises ValueError for an unknown kind.
    """
    if kind not in DECK_KINDS:
        raise ValueError(f"unknown deck {kind!r}; expected one of {', '.join(DECK_KINDS)}")
    one = [r + s for r in deck_ranks(kind) for s in SUITS]
    return one * decks_in(kind)


def next_rank(rank: Rank, ranks: str, step: int) -> Rank:
    """The rank ``step`` places after ``rank`` in ``ranks``, cyclic (…K A 2… upwards, …2 A K… downwards)."""
    return ranks[(ranks.index(rank) + step) % len(ranks)]


def sort_key(card: Card) -> tuple[int, str]:
    """Sort cards by rank, then suit."""
    return (RANK_INDEX[card[0]], card[1])


_SORT_KEYS: dict[Card, tuple[int, str]] = {r + s: (RANK_INDEX[r], s) for r in RANKS for s in SUITS}
"""``sort_key`` of every card, made once: sorting a taken pile reads it instead of calling it."""


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """``cards`` (well-formed card strings) sorted as a hand is: by ``sort_key``, rank then suit."""
    return sorted(cards, key=_SORT_KEYS.__getitem__)


def contains(hand: Iterable[Card], cards: Iterable[Card]) -> bool:
    """True if the multiset ``cards`` is contained in the multiset ``hand``."""
    rest = list(hand)
    try:
        for c in cards:
            rest.remove(c)
    except ValueError:
        return False
    return True


def remove_cards(hand: list[Card], cards: Iterable[Card]) -> None:
    """Remove each of ``cards`` once from ``hand`` in place (the caller checked ``contains``)."""
    for c in cards:
        hand.remove(c)


def quad_ranks(hand: Iterable[Card]) -> tuple[Rank, ...]:
    """The quads in a hand: each rank once per complete four (twice for eight of a rank, 2×52),
    lowest rank first."""
    hand = hand if isinstance(hand, (list, tuple)) else list(hand)
    joined = "".join(hand)
    if len(joined) == 2 * len(hand):  # two-character cards: the ranks are every other character
        return _quads_in(joined[::2])
    return _quads_in("".join([c[0] for c in hand]))


_FOUR_OF_A_RANK = re.compile(r"(.)\1\1\1")


@functools.lru_cache(maxsize=256)
def _quads_in(ranks: str) -> tuple[Rank, ...]:
    """``quad_ranks`` of a hand given as the string of its cards' ranks (remembered: a seat is
    asked about the same hand several times, e.g. the taker offered its quads)."""
    if len(ranks) - len(set(ranks)) < 3:  # no rank repeats three times
        return ()
    fours = _FOUR_OF_A_RANK.findall("".join(sorted(ranks)))
    return tuple(sorted((r for r in fours if r in RANK_INDEX), key=RANK_INDEX.__getitem__))
