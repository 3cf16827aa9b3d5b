"""An arena deal (``engine.arena.Played``) as the record a server keeps (server/_record.py), so
the server's records writer (``server.Records``) stores it and ``neveryu replay`` shows it.

A match of the records is one duplicate group of one variant (its deals are the rotations); the
seats are named ``bot N`` with their strength; times are made up (the arena plays without a
clock): one second per action from the run's start. The fair deal's salt follows from the run
and the group, and its commitment is over the group's deck (seeded decks: no secret to keep).
"""

from __future__ import annotations

import hashlib

from neveryu import engine
from neveryu.engine.arena import Played
from neveryu.server._record import DealRecord, Result, SeatRecord
from neveryu.server._wire import commitment

ACTION_MS = 1_000
"""The made-up time between two actions of an arena deal, in ms."""


def record_of(deal: Played, run: str, started_ms: int) -> DealRecord:
    """``deal`` as a record; ``run``: the run's name (the match is ``run:variant:group``);
    ``started_ms``: Unix ms of the run's start. Raises ValueError for a deal that did not end."""
    if not deal.ended:
        raise ValueError("an unfinished deal has no record")
    players = len(deal.bots)
    salt = hashlib.sha256(f"{run}:{deal.variant}:{deal.group}".encode()).hexdigest()
    result = Result(
        loser=deal.loser, winner=deal.winner, out=deal.out, scores=deal.scores, hand_counts=deal.hand_counts
    )
    return DealRecord(
        match=f"{run}:{deal.variant}:{deal.group}",
        deal_no=deal.rotation + 1,
        deals=players,
        server="arena",
        table=deal.group + 1,
        started_ms=started_ms,
        ended_ms=started_ms + ACTION_MS * (len(deal.actions) + 1),
        variant=deal.variant,
        options={},
        rules=engine.variant(deal.variant),
        timing={"turn_ms": 0, "challenge_window_ms": 0, "tie_window_ms": 0},
        seeded=True,
        reveal_after_deal=True,
        seats=tuple(
            SeatRecord(
                seat=s,
                name=f"bot {s + 1}",
                bot=name,
                place=deal.out.index(s) + 1 if s in deal.out else None,
                score=deal.scores[s],
            )
            for s, name in enumerate(deal.bots)
        ),
        dealer=deal.dealer,
        draws=None,
        deck=deal.deck,
        fair={"commitment": commitment(salt, deal.deck), "salt": salt},
        actions=tuple((ACTION_MS * (k + 1), a) for k, a in enumerate(deal.actions)),
        result=result,
        match_scores=deal.scores,
    )
