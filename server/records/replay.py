"""A recorded deal played again through the engine that played it (python-chess's game rebuilt
move by move through its board; Pokémon Showdown's input log).

``replay(record)`` deals the recorded deck from the recorded dealer (``engine.deal_cards``, as
``engine.Deal.new`` does) and applies every recorded action; ``check(record)`` also demands the
recorded result and the fair deal's commitment; ``deal_events`` gives the events of a deal being
played so far (``seat_events``: one seat's, for the bot that takes it over). ``replay`` and
``check`` raise ``ReplayError``, whose message says which action failed and why, for a record
that does not replay.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

import attrs

from neveryu import engine

from .. import _wire
from .deal_record import DealRecord, action_fields


class ReplayError(Exception):
    """The record does not replay: the message says where (for people; one line)."""


@attrs.frozen
class Step:
    """One step of a replay: ``action`` (None: the deal being dealt) at ``ms`` from the deal's
    start, and the events it caused (every hand whole: project them for a seat)."""

    action: engine.Action | None
    ms: int
    events: tuple[engine.Event, ...]


def start(record: DealRecord) -> tuple[engine.Deal, list[engine.Event]]:
    """The recorded deal as it was dealt, and its opening events (the first dealer's draw, if
    any, then ``deal_started`` and the first ``turn``). Raises ReplayError for a deck or dealer
    the rules cannot deal."""
    rules, players = record.rules, record.players
    try:
        kind = rules.deck_for(players)
    except ValueError as exc:
        raise ReplayError(f"the rules cannot seat {players}: {exc}") from None
    if Counter(record.deck) != Counter(engine.new_deck(kind)):
        raise ReplayError(f"the recorded deck is not a {kind} deck")
    if not (type(record.dealer) is int and 0 <= record.dealer < players):
        raise ReplayError(f"no seat {record.dealer!r} to deal")
    dealt = engine.deal_cards(rules, list(record.deck), players, record.dealer)
    deal = engine.Deal(
        rules,
        deck=kind,
        dealer=record.dealer,
        hands=dealt.hands,
        hidden=dealt.hidden,
        set_aside=dealt.set_aside,
        stock=dealt.stock,
        deck_order=record.deck,
    )
    opening: list[engine.Event] = []
    if record.draws is not None:
        opening.append(engine.DealerDrawn(record.draws, record.dealer))
    opening.extend(deal.opening())
    return deal, opening


def replay(record: DealRecord) -> list[Step]:
    """Every step of ``record``: the opening, then one per recorded action. Raises ReplayError
    when the engine refuses an action, or the deal does not end with the last one."""
    deal, opening = start(record)
    steps = [Step(None, 0, tuple(opening))]
    for i, (ms, action) in enumerate(record.actions, 1):
        try:
            events = deal.apply(action)
        except engine.RuleViolation as exc:
            why = exc.reason
            raise ReplayError(f"action {i} ({describe(action)} at {ms} ms) is refused: {why}") from None
        except Exception as exc:  # a malformed action (a record from a file)
            raise ReplayError(f"action {i} ({action!r}) cannot be applied: {exc}") from None
        steps.append(Step(action, ms, tuple(events)))
    if not deal.over:
        raise ReplayError(f"the deal has not ended after its {len(record.actions)} actions")
    deal.check_invariant()
    return steps


def check(record: DealRecord) -> list[Step]:
    """``replay``, and the recorded result and fair-deal commitment must be what the replay
    gives. Raises ReplayError."""
    steps = replay(record)
    ended = next((e for e in steps[-1].events if isinstance(e, engine.DealEnded)), None)
    if ended is None:
        raise ReplayError("the last action did not end the deal")
    got = (ended.loser, ended.winner, tuple(ended.out), tuple(ended.scores), tuple(ended.hand_counts))
    r = record.result
    want = (r.loser, r.winner, r.out, r.scores, r.hand_counts)
    if got != want:
        raise ReplayError(f"the replay ends {_result(got)}, the record says {_result(want)}")
    salt, commitment = record.fair.get("salt"), record.fair.get("commitment")
    fair = isinstance(salt, str) and isinstance(commitment, str)
    if fair and _wire.commitment(str(salt), record.deck) != commitment:
        raise ReplayError("the deck does not match the fair deal's commitment")
    return steps


def seat_events(
    deal: engine.Deal,
    opening: Sequence[engine.Event],
    applied: Iterable[tuple[int, engine.Action]],
    seat: int,
    rules: engine.Rules,
) -> list[engine.Event]:
    """Every event of ``deal`` so far as ``seat`` was sent it (``engine.project``): its
    ``opening`` events, then those of each action the referee accepted (``applied``), the deal
    played again from its deck (``deal_events``). What a bot that takes the seat over must learn
    (``Game.bot_for``)."""
    counts = rules.hand_counts_public
    events = deal_events(deal, opening, applied, rules)
    return [seen for e in events if (seen := engine.project(e, seat, counts)) is not None]


def deal_events(
    deal: engine.Deal,
    opening: Sequence[engine.Event],
    applied: Iterable[tuple[int, engine.Action]],
    rules: engine.Rules,
) -> list[engine.Event]:
    """Every event of ``deal`` so far, whole (every hand; project them for a receiver): its
    ``opening`` events, then those of each action the referee accepted (``applied``), the deal
    played again from its deck (the engine is deterministic: these are the events that were
    sent)."""
    assert deal.deck_order is not None
    again = engine.Deal.new(rules, deal.players, deal.dealer, random.Random(), order=deal.deck_order)
    events = list(opening)
    for _ms, action in applied:
        events += again.apply(action)
    return events


def describe(action: engine.Action) -> str:
    """``lay by seat 2`` (seats counted from 1, as people count them), ``close_window``: an
    action in a few words."""
    t, _ = action_fields(action)
    seat = getattr(action, "seat", None)
    return f"{t} by seat {seat + 1}" if seat is not None else t


def _result(r: tuple[object, ...]) -> str:
    loser, winner, out, scores, counts = r
    return f"loser {loser}, winner {winner}, out {out}, scores {scores}, hands {counts}"
