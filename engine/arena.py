"""Duplicate deals for ``neveryu arena``: one deck played once per rotation of the lineup, so
every bot gets every hand and every seat (duplicate bridge's way of cancelling the luck of the
deal). Pure: no I/O, no clock; the same arguments give the same deals.

A run is ``groups`` duplicate groups per variant. Group ``g`` of a variant has its own deck,
shuffled by ``random.Random`` seeded from (the run's seed, the variant, ``g``), and its own bots'
generator; seat 0 deals every deal of the group. In rotation ``r`` (0..players-1) seat ``s`` is
played by ``lineup[(s + r) % players]``. The deals are played by ``BotDeal`` (engine/_bot_deal.py),
the referee ``engine.simulate`` uses.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import attrs

from ._actions import Action
from ._bot_deal import BotDeal, Violation
from ._cards import Card, new_deck
from ._deal import Deal
from ._events import Event
from ._rules import Rules
from ._rules import variant as variant_of
from .bots import Bot, ExpertBot, make_bot
from .simulate import ACTION_CAP


@attrs.frozen
class Played:
    """One deal of a run: ``variant``, ``group`` and ``rotation`` (see the module docstring),
    ``bots`` (each seat's bot), ``deck`` (dealing order, top first), ``dealer``, ``out`` (seats in
    the order they went out), ``loser`` / ``winner``, ``scores`` (each seat's score change),
    ``hand_counts`` (cards left), ``actions`` (the accepted actions, in order), ``bot_errors``;
    ``ended`` False for a deal stopped at ``ACTION_CAP`` or by a failed check (its result fields
    are then empty)."""

    variant: str
    group: int
    rotation: int
    bots: tuple[str, ...]
    deck: tuple[Card, ...]
    dealer: int
    ended: bool
    out: tuple[int, ...]
    loser: int | None
    winner: int | None
    scores: tuple[int, ...]
    hand_counts: tuple[int, ...]
    actions: tuple[Action, ...]
    bot_errors: int


def group_seed(seed: int, variant: str, group: int) -> int:
    """The seed of group ``group`` of ``variant`` in a run seeded by ``seed`` (64 bits of SHA-256:
    groups and variants never share a stream)."""
    digest = hashlib.sha256(f"{seed}:{variant}:{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def group_deck(rules_kind: str, seed: int) -> list[Card]:
    """The deck of a group: ``rules_kind``'s deck shuffled by ``random.Random(seed)``."""
    deck = new_deck(rules_kind)
    random.Random(seed).shuffle(deck)
    return deck


class _Kept(BotDeal):
    """A ``BotDeal`` that keeps every accepted action (for the records)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.applied: list[Action] = []
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def apply(self, action: Action) -> list[Event]:
        events = super().apply(action)
        self.applied.append(action)
        return events


def _bot(strength: str, seat: int, rules: Rules, players: int) -> Bot:
    """A bot of the arena: ``make_bot``'s, but an ``expert`` searches its sample count whatever
    the time (an arena has no table delay to keep), so a run is the same on any machine."""
    if strength == ExpertBot.strength:
        return ExpertBot(seat, rules, players, clock=None)
    return make_bot(strength, seat, rules, players)


def play_group(
    variant: str, lineup: Sequence[str], seed: int, group: int, *, check: bool = False, keep: bool = True
) -> list[Played]:
    """The ``len(lineup)`` deals of one duplicate group (module docstring). ``lineup``: one bot
    strength per seat (``engine.bots.BOTS``). ``keep``: keep each deal's deck and actions (for
    the records; else they are empty, and a long run's memory holds only the results). Raises
    ValueError for an unknown variant or strength, or a seat count the variant does not allow."""
    rules = variant_of(variant)
    players = len(lineup)
    base = group_seed(seed, variant, group)
    deck = group_deck(rules.deck_for(players), base)
    played = []
    for rotation in range(players):
        bots = tuple(lineup[(s + rotation) % players] for s in range(players))
        deal = Deal.new(rules, players, 0, random.Random(base), order=deck)
        opening = deal.opening()
        game = _Kept(
            deal,
            opening,
            [_bot(name, s, rules, players) for s, name in enumerate(bots)],
            random.Random(base + 1 + rotation),
            check,
        )
        try:
            ended = game.play(ACTION_CAP) and game.end is not None
        except Violation:
            ended = False
        end = game.end
        played.append(
            Played(
                variant=variant,
                group=group,
                rotation=rotation,
                bots=bots,
                deck=tuple(deck) if keep else (),
                dealer=0,
                ended=ended,
                out=tuple(end.out) if ended and end else (),
                loser=end.loser if ended and end else None,
                winner=end.winner if ended and end else None,
                scores=tuple(end.scores) if ended and end else (),
                hand_counts=tuple(end.hand_counts) if ended and end else (),
                actions=tuple(game.applied) if keep else (),
                bot_errors=game.bot_errors,
            )
        )
    return played
