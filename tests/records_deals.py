"""Seeded deals played by the engine and bots, as the records a server keeps of them, with the
events the deal gave while it was played (to compare with a replay's)."""

from __future__ import annotations

import random

from neveryu import engine
from neveryu.engine import simulate
from neveryu.server import DealRecord
from neveryu.server.records.deal_record import Result, SeatRecord


class Played(simulate._Game):
    """The simulator's bots-only deal (its window, quads and timeouts like a referee's),
    keeping every accepted action, at 700 ms intervals, and every event."""

    def __init__(self, *args: object) -> None:
        self.applied: list[tuple[int, engine.Action]] = []
        self.events: list[engine.Event] = []
        super().__init__(*args)  # type: ignore[arg-type]

    def _feed(self, events: list[engine.Event]) -> None:
        self.events.extend(events)
        super()._feed(events)

    def apply(self, action: engine.Action) -> list[engine.Event]:
        events = super().apply(action)
        self.applied.append((len(self.applied) * 700, action))
        return events


def played_deals(
    variant: str, count: int, seed: int, players: int = 4, **options: object
) -> list[tuple[DealRecord, list[engine.Event]]]:
    """``count`` seeded deals of ``variant`` (one match), each as ``(record, events)``: the
    events of the first deal start with its ``dealer_drawn`` where the variant draws."""
    rules = engine.variant(variant, **options)
    match = engine.Match(rules, players, random.Random(seed))
    rng = random.Random(seed + 1)
    lineup = ("random", "honest", "sharp", "sharp")[:players] + ("sharp",) * max(0, players - 4)
    out = []
    for i in range(count):
        game = Played(rules, match, lineup, i, rng, True)
        ended = game.play()
        assert ended is not None
        deal = game.deal
        match.finish(deal)
        result = Result.of(ended)
        drawn = next((e for e in game.events if isinstance(e, engine.DealerDrawn)), None)
        salt = f"{seed:064x}"
        record = DealRecord(
            match=f"{variant}-{seed}",
            deal_no=i + 1,
            deals=count,
            server="tests",
            table=1,
            started_ms=1_700_000_000_000 + i * 600_000,
            ended_ms=1_700_000_000_000 + i * 600_000 + len(game.applied) * 700,
            variant=variant,
            options=dict(options),
            rules=rules,
            timing={"turn_ms": 0, "challenge_window_ms": 1_500, "tie_window_ms": 250},
            seeded=True,
            reveal_after_deal=False,
            seats=tuple(
                SeatRecord(
                    seat=s,
                    name=["ann", "bob", "cyril", "dasha", "egor", "fedya"][s % 6],
                    bot=game.strengths[s] if s else None,
                    session=f"{s:064x}" if s == 0 else None,
                    place=result.out.index(s) + 1 if s in result.out else None,
                    score=result.scores[s],
                )
                for s in range(players)
            ),
            dealer=deal.dealer,
            draws=drawn.draws if isinstance(drawn, engine.DealerDrawn) else None,
            deck=tuple(deal.deck_order or ()),
            fair={"commitment": commitment(salt, deal.deck_order or ()), "salt": salt},
            actions=tuple(game.applied),
            result=result,
            match_scores=tuple(match.scores),
        )
        out.append((record, game.events))
    return out


def commitment(salt: str, deck: tuple[str, ...]) -> str:
    import hashlib

    return hashlib.sha256((salt + ":" + ",".join(deck)).encode()).hexdigest()
