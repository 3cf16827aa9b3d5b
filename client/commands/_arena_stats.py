"""The figures of an arena run (``neveryu arena``), per variant, from its deals
(``engine.arena.Played``): finishing places, losses or wins, score, the OpenSkill rating
(server/records/ratings.py: Plackett–Luce on the finishing order, one player per bot name, shown
``mu ± 2·sigma``), and for each pair of bots the difference of mean place with a 95 %
percentile-bootstrap interval over duplicate groups (the unit that holds the luck of a deck).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from neveryu.engine.arena import Played
from neveryu.server.records import ratings as _ratings

RESAMPLES = 2000
"""Bootstrap resamples of the duplicate groups."""


@attrs.frozen
class BotFigures:
    """One bot's figures in one variant: ``seats`` (seat-deals), ``place`` (mean finishing
    place, 1 best), ``wins`` and ``losses`` (deals), ``score`` (sum of score changes),
    ``mu`` / ``sigma`` (its rating)."""

    name: str
    seats: int
    place: float
    wins: int
    losses: int
    score: int
    mu: float
    sigma: float

    def as_dict(self) -> dict[str, Any]:
        low, high = _ratings.interval((self.mu, self.sigma))
        return {
            "seats": self.seats,
            "mean_place": round(self.place, 4),
            "wins": self.wins,
            "losses": self.losses,
            "score": self.score,
            "rating": {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "low": round(low, 3),
                       "high": round(high, 3)},
        }  # fmt: skip


@attrs.frozen
class PairFigures:
    """``a``'s mean place minus ``b``'s (negative: ``a`` finished better), with its 95 % interval
    (``low``, ``high``) over ``groups`` duplicate groups. ``apart``: the interval excludes 0."""

    a: str
    b: str
    diff: float
    low: float
    high: float
    groups: int

    @property
    def apart(self) -> bool:
        return self.high < 0 or self.low > 0

    def as_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "diff": round(self.diff, 4), "ci95": [round(self.low, 4),
                round(self.high, 4)], "groups": self.groups, "apart": self.apart}  # fmt: skip


@attrs.frozen
class VariantFigures:
    """The figures of one variant: ``deals`` ended, ``unfinished``, ``bot_errors``, ``result``
    (``last_loses`` or ``first_wins``), ``bots`` (best rating's low end first), ``pairs``."""

    variant: str
    deals: int
    unfinished: int
    bot_errors: int
    bots: tuple[BotFigures, ...]
    pairs: tuple[PairFigures, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "unfinished": self.unfinished,
            "bot_errors": self.bot_errors,
            "bots": {b.name: b.as_dict() for b in self.bots},
            "pairs": [p.as_dict() for p in self.pairs],
        }


def places(deal: Played) -> list[int]:
    """Each seat's finishing place (1 best; the seats still in at the end tie last)."""
    return _ratings.finishing_ranks(deal.out, len(deal.bots))


def figures(variant: str, deals: Sequence[Played], seed: int) -> VariantFigures:
    """The figures of ``deals`` (one variant's, any order: they are sorted by group and rotation
    first, so the ratings do not depend on the order the workers finished). ``seed`` seeds the
    bootstrap."""
    ordered = sorted(deals, key=lambda d: (d.group, d.rotation))
    names = list(dict.fromkeys(name for d in ordered for name in d.bots))
    ids = {name: i for i, name in enumerate(names)}
    rows = {name: [0, 0, 0, 0, 0] for name in names}  # seats, place sum, wins, losses, score
    ratings: dict[int, _ratings.Rating] = {}
    by_group: dict[int, dict[str, list[int]]] = {}
    ended = [d for d in ordered if d.ended]
    for d in ended:
        ranks = places(d)
        for seat, name in enumerate(d.bots):
            row = rows[name]
            row[0] += 1
            row[1] += ranks[seat]
            row[2] += d.winner == seat
            row[3] += d.loser == seat
            row[4] += d.scores[seat]
            by_group.setdefault(d.group, {}).setdefault(name, []).append(ranks[seat])
        ratings.update(_ratings.rate([ids[n] for n in d.bots], ratings, ranks))
    bots = []
    for name in names:
        seats, total, wins, losses, score = rows[name]
        mu, sigma = ratings.get(ids[name], _ratings.PRIOR)
        bots.append(BotFigures(name, seats, total / seats if seats else 0.0, wins, losses, score, mu, sigma))
    bots.sort(key=lambda b: -_ratings.interval((b.mu, b.sigma))[0])
    rng = random.Random(seed)
    pairs = tuple(_pair(a.name, b.name, by_group, rng) for i, a in enumerate(bots) for b in bots[i + 1 :])
    return VariantFigures(
        variant=variant,
        deals=len(ended),
        unfinished=len(ordered) - len(ended),
        bot_errors=sum(d.bot_errors for d in ordered),
        bots=tuple(bots),
        pairs=pairs,
    )


def _pair(a: str, b: str, by_group: dict[int, dict[str, list[int]]], rng: random.Random) -> PairFigures:
    """``a`` against ``b``: the mean over groups of (a's mean place − b's) in each group where
    both played, and the 2.5 and 97.5 percentiles of that mean over ``RESAMPLES`` resamples."""
    diffs = [sum(g[a]) / len(g[a]) - sum(g[b]) / len(g[b]) for g in by_group.values() if a in g and b in g]
    if not diffs:
        return PairFigures(a, b, 0.0, 0.0, 0.0, 0)
    n = len(diffs)
    mean = sum(diffs) / n
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(RESAMPLES))
    return PairFigures(a, b, mean, means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1], n)
