"""Reading the players' statistics and the leaderboards (docs/PLAYERS.md), for ``neveryu stats``
and the network's ``player_stats`` and ``leaderboard`` (``records.player_requests``).

What is read was made by ``records.derive`` from the records: a player's statistics per variant are
sums over his seats (``seat_stats``), his rating is his row of ``ratings``. A leaderboard holds
the people and bots rated in a variant (not guests: a guest's id lasts one session), ordered by
the low end of the rating's interval (``records.ratings``), then by ``mu``, then by id. Every function
takes an open connection and raises ``sqlite3.Error`` when the database does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import attrs

from .players import Player
from .ratings import Z
from .statistics import COUNTS

DEFAULT_LIMIT = 20
_LOW = f"(r.mu - {Z} * r.sigma)"
_ORDER = f"{_LOW} DESC, r.mu DESC, r.player_id"
_RATED = "FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.variant = ? AND p.kind != 'guest'"


@attrs.frozen
class Standing:
    """A rating as shown: ``mu`` and ``sigma`` (rating points), the ``deals`` it counts, the
    player's ``rank`` on the variant's leaderboard (None: a guest, who is not on it)."""

    mu: float
    sigma: float
    deals: int
    rank: int | None

    @property
    def low(self) -> float:
        return self.mu - Z * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z * self.sigma

    def as_json(self) -> dict[str, Any]:
        """The protocol's ``rating``: points in hundredths."""
        return {
            "mu": round(self.mu * 100),
            "sigma": round(self.sigma * 100),
            "low": round(self.low * 100),
            "high": round(self.high * 100),
            "deals": self.deals,
            "rank": self.rank,
        }


@attrs.frozen
class VariantStats:
    """A player's statistics in one variant (the protocol's ``variant_stats``; ``counts``: the
    play, ``records.statistics.COUNTS``)."""

    variant: str
    deals: int
    seats: int
    lost: int
    won: int
    places: tuple[int, ...]
    score: int
    counts: dict[str, int]
    rating: Standing | None

    def as_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "deals": self.deals,
            "seats": self.seats,
            "lost": self.lost,
            "won": self.won,
            "places": list(self.places),
            "score": self.score,
            **self.counts,
            "rating": self.rating.as_json() if self.rating is not None else None,
        }


@attrs.frozen
class PlayerStats:
    """A player and his statistics per variant (by name)."""

    player: Player
    variants: tuple[VariantStats, ...]

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player.as_json(), "variants": [v.as_json() for v in self.variants]}


def leaderboard(
    conn: sqlite3.Connection, variant: str, *, limit: int = DEFAULT_LIMIT, offset: int = 0
) -> tuple[int, list[tuple[Player, Standing]]]:
    """``(total, rows)``: how many players are rated in ``variant``, and the ``limit`` best
    after the first ``offset``."""
    (total,) = conn.execute(f"SELECT count(*) {_RATED}", (variant,)).fetchone()
    rows = conn.execute(
        f"SELECT p.id, p.name, p.tag, p.kind, r.mu, r.sigma, r.deals {_RATED}"
        f" ORDER BY {_ORDER} LIMIT ? OFFSET ?",
        (variant, max(0, limit), max(0, offset)),
    ).fetchall()
    return total, [
        (Player(pid, name, tag, kind), Standing(mu, sigma, deals, offset + i + 1))
        for i, (pid, name, tag, kind, mu, sigma, deals) in enumerate(rows)
    ]


def rank_of(conn: sqlite3.Connection, variant: str, player: Player, mu: float, sigma: float) -> int | None:
    """``player``'s place on ``variant``'s leaderboard, where his rating is ``(mu, sigma)``."""
    if player.kind == "guest":
        return None
    low = mu - Z * sigma
    (ahead,) = conn.execute(
        f"SELECT count(*) {_RATED} AND ({_LOW} > ? OR ({_LOW} = ? AND (r.mu > ?"
        " OR (r.mu = ? AND r.player_id < ?))))",
        (variant, low, low, mu, mu, player.id),
    ).fetchone()
    return int(ahead) + 1


def player_stats(
    conn: sqlite3.Connection, players: Sequence[Player], variant: str | None = None
) -> list[PlayerStats]:
    """Each of ``players`` with his statistics per variant he played (only ``variant``, if
    given), variants by name."""
    return [PlayerStats(p, tuple(_variants(conn, p, variant))) for p in players]


def _variants(conn: sqlite3.Connection, player: Player, variant: str | None) -> list[VariantStats]:
    where = "player_id = ?" + (" AND variant = ?" if variant is not None else "")
    args: tuple[object, ...] = (player.id,) if variant is None else (player.id, variant)
    sums = ", ".join(f"coalesce(sum({c}), 0)" for c in ("lost", "won", "score", *COUNTS))
    rows = conn.execute(
        f"SELECT variant, count(DISTINCT deal_id), count(*), {sums} FROM seat_stats WHERE {where}"
        " GROUP BY variant ORDER BY variant",
        args,
    ).fetchall()
    places: dict[str, dict[int, int]] = {}
    for v, place, n in conn.execute(
        f"SELECT variant, place, count(*) FROM seat_stats WHERE {where} AND place IS NOT NULL"
        " GROUP BY variant, place",
        args,
    ):
        places.setdefault(v, {})[place] = n
    ratings: dict[str, Standing] = {}
    for v, mu, sigma, deals in conn.execute(
        f"SELECT variant, mu, sigma, deals FROM ratings WHERE {where}", args
    ).fetchall():
        ratings[v] = Standing(mu, sigma, deals, rank_of(conn, v, player, mu, sigma))
    out = []
    for v, deals, seats, lost, won, score, *counts in rows:
        got = places.get(v, {})
        out.append(
            VariantStats(
                variant=v,
                deals=deals,
                seats=seats,
                lost=lost,
                won=won,
                places=tuple(got.get(k, 0) for k in range(1, max(got, default=0) + 1)),
                score=score,
                counts=dict(zip(COUNTS, counts)),
                rating=ratings.get(v),
            )
        )
    return out
