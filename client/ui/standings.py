"""Where the match stands: the seats ranked by their scores, and what the scores mean.

A match's ``scores`` follow the variant's ``scoring`` (docs/RULES.md, "The parameters"; PROTOCOL.md,
"Scoring"): ``losses`` counts the deals each seat lost (fewer is better), the chips variants
count chips won and paid (more is better), and ``none`` keeps no score at all (`cheat`): there the
deals won, as this client saw them end, rank the seats instead.
"""

from __future__ import annotations

from typing import Any

import attrs

from .model import Names, State
from .model_state import as_int, as_ints


@attrs.frozen
class Row:
    """One seat: its ``score`` (None where the variant keeps none), the deals it ``won`` and
    ``lost`` of those seen here, and its ``place`` (1 first; equal scores share a place)."""

    seat: int
    score: int | None
    won: int
    lost: int
    place: int


@attrs.frozen
class Standings:
    """``scoring``: the variant's (``losses``, ``chips_per_player``, ``chips_per_card``,
    ``none``); ``rows`` best first; ``deals`` played and ``total`` in the match (None:
    unknown); ``over``: the match has ended; ``names``: the seats' names at that time;
    ``seen``: deals whose end this client saw."""

    scoring: str
    rows: tuple[Row, ...]
    deals: int
    total: int | None
    over: bool
    names: Names
    seen: int

    @property
    def first(self) -> tuple[int, ...]:
        """The seats in first place (several on a tie); () when nothing ranks them yet."""
        if not self.rows or (self.scoring == "none" and not self.seen):
            return ()
        return tuple(r.seat for r in self.rows if r.place == 1)

    @property
    def last(self) -> tuple[int, ...]:
        """The seats in last place, where that means something (more than one place)."""
        if len({r.place for r in self.rows}) < 2:
            return ()
        worst = max(r.place for r in self.rows)
        return tuple(r.seat for r in self.rows if r.place == worst)


def standings(s: State) -> Standings | None:
    """The standings of the match being played, or of the last one if it has ended; None when no
    match has been seen at this table."""
    over = s.match_over
    table = s.table or {}
    results: tuple[dict[str, Any], ...] = over["results"] if over else s.deal_results
    scores = (over or {}).get("scores") if over else s.match_scores
    if scores is None and not over and isinstance(table.get("match_scores"), list):
        scores = as_ints(table["match_scores"])  # (a client that came back between deals saw none end)
    if scores is None and not results:
        if (s.table or {}).get("state") != "playing":
            return None
        scores = (0,) * max(len(s.seats), s.players)  # the first deal of a match: all even
    rules = s.rules
    scoring = rules.scoring if rules is not None else "losses"
    seats = len(scores) if scores is not None else max(len(s.seats), s.players)
    won = [0] * seats
    lost = [0] * seats
    for r in results:
        if isinstance(r.get("winner"), int) and r["winner"] < seats:
            won[r["winner"]] += 1
        if isinstance(r.get("loser"), int) and r["loser"] < seats:
            lost[r["loser"]] += 1
    if scoring == "none" or scores is None:
        key = [(-won[i], lost[i]) for i in range(seats)]
    elif scoring == "losses":
        key = [(scores[i], 0) for i in range(seats)]
    else:
        key = [(-scores[i], 0) for i in range(seats)]
    order = sorted(range(seats), key=lambda i: (key[i], i))
    rows: list[Row] = []
    for n, seat in enumerate(order):
        place = rows[-1].place if rows and key[seat] == key[rows[-1].seat] else n + 1
        score = None if scoring == "none" or scores is None else scores[seat]
        rows.append(Row(seat, score, won[seat], lost[seat], place))
    deals = over.get("deals") if over else s.deal_no or as_int(table.get("deal_no"))
    total = table.get("deals")
    return Standings(
        scoring=scoring,
        rows=tuple(rows),
        deals=int(deals or len(results) or 0),
        total=int(total) if isinstance(total, int) else None,
        over=over is not None,
        names=over["names"] if over else s.names,
        seen=len(results),
    )
