"""Bots for the seats a table gives them and for away players (RULES.md, "Timing rules").

``new_bot(strength, seat, rules, seed)`` is the one place the server makes a bot. A bot sees
what a player at its seat sees (DESIGN.md, engine/): it is fed its seat's projected events
(``observe(event)``) and asked for an action (``choose(view, rng)``, None to do nothing now).
The engine's bots (``engine.bots``) are used when that package exists; until then a simple
legal bot stands in.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Protocol

import engine

STRENGTHS: tuple[str, ...] = ("easy", "normal", "hard")  # the stand-in's, without engine.bots


class Bot(Protocol):
    def observe(self, event: engine.Event) -> None: ...

    def choose(self, view: engine.View, rng: random.Random) -> engine.Action | None: ...


class SimpleBot:
    """A legal bot that needs no memory: it lays every card it holds of a rank it may claim
    (truthful where it can; else the smallest bluff), and on
    its own turn challenges now and then (more often when the claim is unlikely)."""

    def __init__(self, seat: int, challenge_rate: float = 0.2) -> None:
        self.seat = seat
        self.challenge_rate = challenge_rate

    def observe(self, event: engine.Event) -> None:
        pass

    def choose(self, view: engine.View, rng: random.Random) -> engine.Action | None:
        return simple_choice(view, rng, self.challenge_rate)


def simple_choice(view: engine.View, rng: random.Random, challenge_rate: float = 0.2) -> engine.Action | None:
    """The simple bot's action for ``view`` (its own seat's view), or None when it has no move it
    wants to make now. Only ever returns an action ``view.legal`` allows."""
    legal = view.legal
    seat = view.seat
    if seat is None or view.over:
        return None
    if legal.discard_quads:
        return engine.DiscardQuads(seat, tuple(legal.discard_quads))
    on_turn = view.turn == seat
    hand = view.hand or ()
    if legal.challenge is not None and on_turn:
        # With the window open and nothing to lay, its own set is laid early and waits.
        if (legal.lay is None and not view.window_open) or rng.random() < challenge_rate:
            return engine.Challenge(seat, legal.challenge)
    if legal.believe is not None and legal.lay is None:
        return engine.Believe(seat, legal.believe)
    if legal.lay is not None:
        counts = Counter(c[0] for c in hand)
        rank = max(legal.lay.ranks, key=lambda r: counts[r])
        size = max(legal.lay.min, min(legal.lay.max, counts[rank]))
        if not counts[rank]:
            rank = rng.choice(legal.lay.ranks)
        cards = [c for c in hand if c[0] == rank][:size]
        cards += [c for c in hand if c[0] != rank][: size - len(cards)]
        count = None if legal.lay.count_min is None else len(cards)
        return engine.LaySet(seat, tuple(cards), rank, count)
    if legal.declare_none is not None:
        return engine.DeclareNone(seat)
    return None


def _engine_bots():
    try:  # the engine's bots (engine/bots), once that package exists
        from engine import bots
    except ImportError:
        return None
    return bots if hasattr(bots, "make_bot") else None


def strengths() -> tuple[str, ...]:
    """The bot strengths a table may ask for."""
    bots = _engine_bots()
    return tuple(bots.STRENGTHS) if bots is not None else STRENGTHS


def default_strength() -> str:
    """The strength of the bot that plays an away player's seat."""
    names = strengths()
    return "honest" if "honest" in names else names[len(names) // 2]


def new_bot(strength: str, seat: int, rules: engine.Rules, players: int) -> Bot:
    """A bot of ``strength`` (one of ``strengths()``) for ``seat`` of a ``players``-seat table.
    Raises ValueError for an unknown strength."""
    bots = _engine_bots()
    if bots is not None:
        return bots.make_bot(strength, seat, rules, players)
    if strength not in STRENGTHS:
        raise ValueError(f"unknown bot strength {strength!r}; known: {', '.join(STRENGTHS)}")
    return SimpleBot(seat, {"easy": 0.05, "normal": 0.2, "hard": 0.3}[strength])
