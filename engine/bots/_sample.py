"""Determinization: one guess of the cards a seat cannot see, consistent with what it has seen
(its hand, its own sets in the pile, quads shown in the discard, the cards it knows to be in one
seat's hand, every count), for the ``expert`` bot's search (engine/bots/_expert.py).
"""

from __future__ import annotations

import random

from .._cards import Card, new_deck
from .._view import View
from ._memory import hand as hand_bit
from ._sharp_memory import SharpMemory


class Placement:
    """Where each card is in one guess: the arguments of ``engine._world.world``."""

    def __init__(self, players: int) -> None:
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.pile: list[Card] = []
        self.last_cards: list[Card] = []
        self.discard: list[Card] = []
        self.hidden: list[Card] = []
        self.set_aside: list[Card] = []
        self.stock: list[Card] = []


def _take(pool: list[Card], rank: str, n: int) -> list[Card]:
    """Up to ``n`` cards of ``rank`` moved out of ``pool``."""
    taken: list[Card] = []
    i = 0
    while i < len(pool) and len(taken) < n:
        if pool[i][0] == rank:
            taken.append(pool.pop(i))
        else:
            i += 1
    return taken


def sample(bot: SharpMemory, view: View, p_true: float, rng: random.Random) -> Placement:
    """One guess for ``bot``'s seat (``view`` is its own view). The last set (``view.last``, laid
    by another seat) is made of cards of its rank with probability ``p_true`` (as many as the
    unseen cards hold), else of cards drawn at random. Hand sizes where the variant hides them
    are ``bot.sizes``' counts; where the counts disagree with the unseen cards, the discard takes
    the difference (a card it cannot place) or gives up its share first."""
    me = view.seat
    assert me is not None and view.hand is not None  # a seat's own view
    pool = new_deck(view.deck)
    for c in view.hand:
        pool.remove(c)
    for c in bot.my_pile:
        pool.remove(c)
    rng.shuffle(pool)
    placed = Placement(view.players)
    placed.hands[me] = list(view.hand)
    for rank, n in bot.memory.discarded.items():
        placed.discard += _take(pool, rank, n)
    last = view.last
    mine_under = list(bot.my_pile)
    if last is not None and not last.none:
        size = last.size if last.size is not None else last.count
        if last.seat == me:
            placed.last_cards = mine_under[len(mine_under) - size :]
            del mine_under[len(mine_under) - size :]
        else:
            if rng.random() < p_true:
                placed.last_cards = _take(pool, last.rank, size)
            placed.last_cards += [pool.pop() for _ in range(min(len(pool), size - len(placed.last_cards)))]
    counts = view.hand_counts
    sizes = [
        (counts[s] if counts is not None else max(0, bot.sizes[s])) if s != me and s not in view.out else 0
        for s in range(view.players)
    ]
    for places, group in bot.memory.groups.items():
        for s in range(view.players):
            if places == hand_bit(s) and sizes[s]:
                for rank, n in group.items():
                    got = _take(pool, rank, min(n, sizes[s] - len(placed.hands[s])))
                    placed.hands[s] += got
    for s in range(view.players):
        while len(placed.hands[s]) < sizes[s] and pool:
            placed.hands[s].append(pool.pop())
    pile = view.pile if view.pile is not None else bot.pile_size
    placed.pile = mine_under
    under = max(0, pile - len(placed.last_cards) - len(mine_under))
    placed.pile += [pool.pop() for _ in range(min(under, len(pool)))]
    for where, n in (
        (placed.hidden, view.hidden),
        (placed.set_aside, view.set_aside),
        (placed.stock, view.stock),
    ):
        where += [pool.pop() for _ in range(min(n, len(pool)))]
    placed.discard += pool
    return placed
