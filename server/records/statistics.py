"""What each seat did in a deal, counted from its record's replay (docs/PLAYERS.md,
"Statistics"): the deal is played again through the engine (``records.replay``), and its events, every
hand whole, say which sets were bluffs and which calls were right.

- ``sets``: sets laid (a declared none is no set); ``bluffs``: those whose claim was false (a
  card of another rank, or, where counts may lie, another count); ``bluffs_caught``: bluffs a
  challenge revealed (the layer took the pile). The others survived: nobody called them, or a
  believe did (the believer took the pile).
- ``challenges``/``believes``: «Не верю»/«Верю» said and settled (a void or tied challenge is not
  one); ``…_right``: the revealed claim was false/true.
- ``cards_taken``: cards of the piles taken.
- ``actions``: the seat's own actions (lay, challenge, believe, declare none, discard or keep
  quads; a challenge among several that it won; not the referee's, nor one made for it when its
  time ran out); ``action_ms``: the time from the deal's previous action to each of them, added
  up; ``timeouts``: turns whose time ran out.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from neveryu import engine

from .deal_record import DealRecord
from .replay import Step

PLAYER_ACTIONS = (
    engine.LaySet,
    engine.Challenge,
    engine.Believe,
    engine.DeclareNone,
    engine.DiscardQuads,
    engine.DeclineQuads,
)
COUNTS = (
    "sets",
    "bluffs",
    "bluffs_caught",
    "challenges",
    "challenges_right",
    "believes",
    "believes_right",
    "cards_taken",
    "actions",
    "action_ms",
    "timeouts",
)


@attrs.define
class SeatStats:
    """One seat's counts in one deal (the module's docstring says what each counts)."""

    sets: int = 0
    bluffs: int = 0
    bluffs_caught: int = 0
    challenges: int = 0
    challenges_right: int = 0
    believes: int = 0
    believes_right: int = 0
    cards_taken: int = 0
    actions: int = 0
    action_ms: int = 0
    timeouts: int = 0

    def values(self) -> tuple[int, ...]:
        """The counts in ``COUNTS``' order."""
        return tuple(getattr(self, name) for name in COUNTS)


def is_bluff(cards: Sequence[str], rank: str, count: int) -> bool:
    """A set of ``cards`` claimed as ``count`` × ``rank`` is a bluff: a card of another rank, or
    another number of cards (docs/RULES.md, "What every variant shares")."""
    return len(cards) != count or any(engine.rank_of(card) != rank for card in cards)


def seat_stats(record: DealRecord, steps: Sequence[Step]) -> list[SeatStats]:
    """Each seat's ``SeatStats`` in the deal ``record``, from ``steps``, its replay
    (``records.replay.replay``: events whole)."""
    stats = [SeatStats() for _ in record.seats]
    bluffs: dict[int, bool] = {}  # set_no -> the set was a bluff
    calls: dict[int, tuple[int, bool]] = {}  # set_no -> (the caller, True: a challenge)
    last_ms = 0
    for step in steps:
        action = step.action
        actor = _actor(step)
        if isinstance(action, engine.Timeout):
            stats[action.seat].timeouts += 1
        elif actor is not None:
            stats[actor].actions += 1
            stats[actor].action_ms += max(0, step.ms - last_ms)
        if action is not None:
            last_ms = step.ms
        for event in step.events:
            _count(event, stats, bluffs, calls)
    return stats


def _actor(step: Step) -> int | None:
    """The seat whose own action ``step`` is: a player's action, or a challenge the referee
    settled among several (``challengers = anyone``: the one who won it); else None."""
    action = step.action
    if isinstance(action, PLAYER_ACTIONS):
        return action.seat
    if isinstance(action, engine.Challenges):
        return next((e.seat for e in step.events if isinstance(e, engine.Challenged)), None)
    return None


def _count(
    event: engine.Event,
    stats: list[SeatStats],
    bluffs: dict[int, bool],
    calls: dict[int, tuple[int, bool]],
) -> None:
    if isinstance(event, engine.SetLaid):
        bluff = is_bluff(event.cards or (), event.rank, event.count)
        bluffs[event.set_no] = bluff
        stats[event.seat].sets += 1
        stats[event.seat].bluffs += bluff
    elif isinstance(event, engine.Challenged):
        stats[event.seat].challenges += 1
        calls[event.set_no] = (event.seat, True)
    elif isinstance(event, engine.Believed):
        stats[event.seat].believes += 1
        calls[event.set_no] = (event.seat, False)
    elif isinstance(event, engine.SetRevealed):
        caller, challenge = calls.get(event.set_no, (None, False))
        if caller is None:
            return
        if challenge:
            stats[caller].challenges_right += not event.claim_true
            if bluffs.get(event.set_no):
                stats[event.seat].bluffs_caught += 1
        else:
            stats[caller].believes_right += event.claim_true
    elif isinstance(event, engine.PileTaken):
        stats[event.seat].cards_taken += len(event.cards) if event.cards is not None else event.count or 0
