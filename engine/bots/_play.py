"""Small helpers the strengths share: building legal actions from a view."""

from __future__ import annotations

from collections.abc import Sequence

from .._actions import LaySet
from .._cards import Card, Rank
from .._view import View


def lay(view: View, cards: Sequence[Card], rank: Rank, count: int | None = None) -> LaySet:
    """``view.seat`` lays ``cards`` claiming ``rank``; ``count`` (default: the number of cards) is
    sent only where counts may lie (``view.legal.lay.count_min`` is set), else the claim's count
    is the number of cards laid."""
    seat = view.seat
    assert seat is not None  # a seat's own view
    bounds = view.legal.lay
    if bounds is not None and bounds.count_min is not None:
        return LaySet(seat, tuple(cards), rank, len(cards) if count is None else count)
    return LaySet(seat, tuple(cards), rank, None)


def truthful_set(hand: Sequence[Card], rank: Rank, lo: int, hi: int) -> list[Card] | None:
    """Up to ``hi`` cards of ``rank`` from ``hand`` (all it holds, at most ``hi``), or None when it
    holds fewer than ``lo`` (no truthful set of that rank is possible)."""
    cards = [c for c in hand if c[0] == rank][:hi]
    return cards if len(cards) >= lo else None
