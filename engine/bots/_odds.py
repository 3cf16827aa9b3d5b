"""The odds the ``sharp`` bot weighs (engine/bots/_sharp.py): the chance that cards drawn at
random hold enough of a rank (the hypergeometric tail, cached by row), and how much likelier a
seat claims each count when the claim is true than when it bluffs (``TRUTH_PRIOR`` and what
reveals add to it).
"""

from __future__ import annotations

import math
from functools import cache

TRUTH_PRIOR = [[4.0, 6.0], [3.0, 0.1], [2.0, 0.03], [1.0, 0.01]]
"""Before any set of a seat is revealed: how often it claims 1, 2, 3, 4+ cards when the claim is
true, and when it is a bluff (relative weights): bluffs are mostly small."""


def at_least(pool: int, good: int, drawn: int, need: int) -> float:
    """P(at least ``need`` of ``drawn`` cards taken at random from ``pool`` cards, ``good`` of
    which count, count): the hypergeometric tail, read from a cached row (``tails_for``)."""
    if need <= 0:
        return 1.0
    if need < _TAIL_LENGTH:
        return tails_for(pool, good, drawn)[need]
    return _tail_row(pool, good, drawn, need + 1)[need]


_TAIL_LENGTH = 9
"""Cached rows hold needs 0..8: a claim is of at most 8 cards (docs/RULES.md, ``set_size``)."""


@cache
def tails_for(pool: int, good: int, drawn: int) -> tuple[float, ...]:
    """``_tail_row`` for needs 0..8, cached: the arguments are small card counts."""
    return _tail_row(pool, good, drawn, _TAIL_LENGTH)


def _tail_row(pool: int, good: int, drawn: int, length: int) -> tuple[float, ...]:
    """``at_least(pool, good, drawn, need)`` for need = 0 .. length - 1: 1 - P(fewer than
    ``need``), the cards missed summed once for all needs as exact integers (so each value is
    the float a sum for that one need would give)."""
    drawn = min(drawn, pool)
    good = min(good, pool)
    total = math.comb(pool, drawn)
    row = [1.0]
    miss = 0
    for need in range(1, length):
        if need > good or need > drawn:
            row.extend([0.0] * (length - need))
            break
        x = need - 1
        miss += math.comb(good, x) * math.comb(pool - good, drawn - x)
        row.append(max(0.0, 1.0 - miss / total))
    return tuple(row)


def claim_ratios(sizes: list[list[float]]) -> list[float]:
    """For each claimed count (1, 2, 3, 4+): how much likelier a seat with these revealed sets
    (``SharpBot.truth``) claims it when true than when bluffing."""
    a, b, c, d = sizes
    true_sets = a[0] + b[0] + c[0] + d[0]  # the order of sum(): the same float
    false_sets = a[1] + b[1] + c[1] + d[1]
    return [(t / true_sets) / (f / false_sets) for t, f in sizes]


FLAT_PRIOR = [[1.0, 1.0]] * 4
"""The prior where every set is of one size (``set_size`` exactly n): the count says nothing."""
# claim_ratios of each prior, computed once
FLAT_RATIOS = claim_ratios(FLAT_PRIOR)
PRIOR_RATIOS = claim_ratios(TRUTH_PRIOR)
