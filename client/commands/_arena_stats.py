"""The figures of an arena run (``neveryu arena``), per variant, from its deals
(``engine.arena.Played``): finishing places, losses or wins, score, the OpenSkill rating
(server/records/ratings.py: Plackett–Luce on the finishing order, one player per bot name, shown
``mu ± 2·sigma``), and for each pair of bots the difference of mean place with a 95 %
percentile-bootstrap interval over duplicate groups (the unit that holds the luck of a deck).
"""

from __future__ import annotations

import math
import random
from array import array
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


class Tally:
    """The running figures of one variant's deals, fed in order of (group, rotation) by ``add``
    (the ratings follow that order, so they do not depend on the order workers finished). It
    keeps no deal: per bot, running sums (seats, places, wins, losses, score) and its rating; per
    duplicate group, each bot's mean place (8 bytes a bot, NaN where it did not play), which is
    all the bootstrap of the pairs needs. Raises ValueError for a deal out of order."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.deals = 0  # fed, ended or not
        self.unfinished = 0
        self.bot_errors = 0
        self._ids: dict[str, int] = {}  # bot -> its number (order of first seat)
        self._rows: list[list[int]] = []  # per bot: seats, place sum, wins, losses, score
        self._ratings: dict[int, _ratings.Rating] = {}
        self._means: list[array[float]] = []  # per bot: its mean place in each group so far
        self._groups = 0  # groups with an ended deal, closed into ``_means``
        self._last: tuple[int, int] = (-1, -1)  # the last deal's (group, rotation)
        self._group: dict[int, list[int]] = {}  # the open group: bot -> [place sum, seats]

    def add(self, deal: Played) -> None:
        key = (deal.group, deal.rotation)
        if key <= self._last:
            raise ValueError(f"deal {key} after {self._last}: feed deals in order of group and rotation")
        if deal.group != self._last[0]:
            self._close()
        self._last = key
        self.deals += 1
        self.bot_errors += deal.bot_errors
        if not deal.ended:
            self.unfinished += 1
            return
        ranks = places(deal)
        for seat, name in enumerate(deal.bots):
            i = self._ids.get(name)
            if i is None:
                i = self._ids[name] = len(self._rows)
                self._rows.append([0, 0, 0, 0, 0])
                self._means.append(array("d", [math.nan] * self._groups))
            row = self._rows[i]
            row[0] += 1
            row[1] += ranks[seat]
            row[2] += deal.winner == seat
            row[3] += deal.loser == seat
            row[4] += deal.scores[seat]
            held = self._group.setdefault(i, [0, 0])
            held[0] += ranks[seat]
            held[1] += 1
        self._ratings.update(_ratings.rate([self._ids[n] for n in deal.bots], self._ratings, ranks))

    def _close(self) -> None:
        """The open group's mean places into ``_means`` (a group with no ended deal adds none)."""
        if not self._group:
            return
        for i, column in enumerate(self._means):
            held = self._group.get(i)
            column.append(held[0] / held[1] if held else math.nan)
        self._groups += 1
        self._group = {}

    def _column(self, i: int) -> list[float]:
        """Bot ``i``'s mean place per group, the open group's last (when it has an ended deal)."""
        held = self._group.get(i)
        tail = [held[0] / held[1] if held else math.nan] if self._group else []
        return [*self._means[i], *tail]

    def figures(self, seed: int) -> VariantFigures:
        """The figures so far (the open group counted as it stands); ``seed`` seeds the bootstrap."""
        bots = []
        for name, i in self._ids.items():
            seats, total, wins, losses, score = self._rows[i]
            mu, sigma = self._ratings.get(i, _ratings.PRIOR)
            place = total / seats if seats else 0.0
            bots.append(BotFigures(name, seats, place, wins, losses, score, mu, sigma))
        bots.sort(key=lambda b: -_ratings.interval((b.mu, b.sigma))[0])
        rng = random.Random(seed)
        means = {name: self._column(i) for name, i in self._ids.items()}
        pairs = tuple(_pair(a.name, b.name, means, rng) for i, a in enumerate(bots) for b in bots[i + 1 :])
        return VariantFigures(
            variant=self.variant,
            deals=self.deals - self.unfinished,
            unfinished=self.unfinished,
            bot_errors=self.bot_errors,
            bots=tuple(bots),
            pairs=pairs,
        )


def figures(variant: str, deals: Sequence[Played], seed: int) -> VariantFigures:
    """The figures of ``deals`` (one variant's, any order: they are sorted by group and rotation
    first, ``Tally``). ``seed`` seeds the bootstrap."""
    tally = Tally(variant)
    for d in sorted(deals, key=lambda d: (d.group, d.rotation)):
        tally.add(d)
    return tally.figures(seed)


def _pair(a: str, b: str, means: dict[str, list[float]], rng: random.Random) -> PairFigures:
    """``a`` against ``b``: the mean over groups of (a's mean place − b's) in each group where
    both played (``means``: each bot's mean place per group, NaN where it did not), and the 2.5
    and 97.5 percentiles of that mean over ``RESAMPLES`` resamples."""
    diffs = [x - y for x, y in zip(means[a], means[b], strict=True) if x == x and y == y]
    if not diffs:
        return PairFigures(a, b, 0.0, 0.0, 0.0, 0)
    n = len(diffs)
    mean = sum(diffs) / n
    resampled = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(RESAMPLES))
    low, high = resampled[int(0.025 * RESAMPLES)], resampled[int(0.975 * RESAMPLES) - 1]
    return PairFigures(a, b, mean, low, high, n)
