"""An arena deal (``engine.arena.Played``) as the record a server keeps (server/records/deal_record.py), so
the server's records writer (``server.Records``) stores it and ``neveryu replay`` shows it.

A match of the records is one duplicate group of one variant (its deals are the rotations); the
seats are named ``bot N`` with their strength; times are made up (the arena plays without a
clock): one second per action from the run's start. The fair deal's salt follows from the run
and the group, and its commitment is over the group's deck (seeded decks: no secret to keep).
"""

from __future__ import annotations

import hashlib
import time

from neveryu import engine
from neveryu.engine.arena import Played
from neveryu.server._wire import commitment
from neveryu.server.records.deal_record import DealRecord, Result, SeatRecord

from ._words import plural

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


class RecordSink:
    """Every ended deal handed to ``add`` goes to the records database at ``path`` through the
    server's records writer (``server.Records``); ``close()`` waits for the writer and says what
    was written. A database that cannot be opened turns the records off, and the run goes on."""

    FLUSH_EVERY = 100
    """Deals queued between two waits for the writer (its queue is bounded)."""

    def __init__(self, path: str, run: str) -> None:
        from neveryu.server import Records

        self.path = path
        self.run = run
        self.started_ms = int(time.time() * 1000)
        self.records = Records(path, server="arena")
        self.records.open()
        self.kept = 0

    def add(self, deals: list[Played]) -> None:
        if not self.records.on:
            return
        for d in deals:
            if d.ended:
                self.records.keep(record_of(d, self.run, self.started_ms))
                self.kept += 1
                if self.kept % self.FLUSH_EVERY == 0:
                    self.records.flush()

    def close(self) -> str:
        records = self.records
        if not records.on:
            return f"not written: {records.off}"
        records.close()
        dropped = f", {records.dropped} dropped" if records.dropped else ""
        return f"{plural(records.written, 'deal')} written to {self.path}{dropped}"
