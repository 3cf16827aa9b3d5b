"""Ratings: a skill estimate per player and variant, from each deal's finishing order
(docs/PLAYERS.md, "Ratings").

The model is OpenSkill's Plackett–Luce (the ``openskill`` package; Weng and Lin, "A Bayesian
Approximation Method for Online Ranking", JMLR 12, 2011, algorithm 4): made for games of many
players with a finishing order, it keeps for each player a mean ``mu`` and an uncertainty
``sigma`` (a normal belief about his skill) and updates them after every deal. Its defaults
(``mu`` 25, ``sigma`` 25/3, ``beta`` 25/6), but for ``tau``, the drift of a skill between two
games: OpenSkill's default (25/300) is for one match; a neveryu match is five deals by
default, so each deal gets 25/300/√5, the same drift per match.

The finishing order: the seats in the order they went out (1, 2, ...), then every seat still in
at the end, tied last (``last_loses``: the loser; ``first_wins``: all but the winner).

One player may hold several seats of a deal (three ``honest`` bots are one player). Each seat
is rated as if a separate player of the same rating, and the player's update is the sum of
theirs: the mean moves by the sum of the seats' moves and the variance shrinks by the sum of
their shrinkings (the approximation's gradient and Hessian of a shared skill are the sums over
its seats).

A rating is shown as ``mu ± 2·sigma`` (``interval``), and a leaderboard is ordered by its low
end (a player rises by showing he is good, not by being unknown).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300 / math.sqrt(5)
Z = 2.0  # the interval shown: mu ± Z·sigma

Rating = tuple[float, float]  # (mu, sigma)
PRIOR: Rating = (MU, SIGMA)


@functools.cache
def model() -> Any:
    """The OpenSkill Plackett–Luce model with the parameters above."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def interval(rating: Rating) -> tuple[float, float]:
    """``(mu - Z·sigma, mu + Z·sigma)``."""
    mu, sigma = rating
    return mu - Z * sigma, mu + Z * sigma


def finishing_ranks(out: Sequence[int], seats: int) -> list[int]:
    """Each seat's rank (1 best): its place in ``out``, or ``len(out) + 1`` for the seats still
    in at the end."""
    last = len(out) + 1
    return [out.index(s) + 1 if s in out else last for s in range(seats)]


def rate(
    players: Sequence[int | None], ratings: dict[int, Rating], ranks: Sequence[int]
) -> dict[int, Rating]:
    """The new rating of each player of a deal. ``players``: each seat's player (None: nobody
    held the seat: rated from the prior, and nothing is kept of it); ``ratings``: each player's
    rating before the deal (a player not in it starts from ``PRIOR``); ``ranks``: each seat's
    rank (``finishing_ranks``). Returns player -> (mu, sigma)."""
    m = model()
    before = [ratings.get(p, PRIOR) if p is not None else PRIOR for p in players]
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = m.rate(teams, ranks=[float(r) for r in ranks])
    seats_of: dict[int, list[int]] = {}
    for seat, player in enumerate(players):
        if player is not None:
            seats_of.setdefault(player, []).append(seat)
    out: dict[int, Rating] = {}
    for player, seats in seats_of.items():
        mu, sigma = before[seats[0]]
        if len(seats) == 1:
            new = after[seats[0]][0]
            out[player] = (new.mu, new.sigma)
            continue
        variance = sigma * sigma + TAU * TAU  # as the model widens it before the deal
        moved = sum(after[s][0].mu - mu for s in seats)
        shrunk = sum(1.0 - after[s][0].sigma ** 2 / variance for s in seats)
        out[player] = (mu + moved, math.sqrt(variance * max(1.0 - shrunk, m.kappa)))
    return out
