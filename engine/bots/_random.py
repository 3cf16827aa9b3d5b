"""``random``: any legal action, chosen uniformly by kind, then at random within the kind."""

from __future__ import annotations

import random

from .._actions import Action, Believe, Challenge, DeclareNone, DiscardQuads
from .._view import View
from ._base import Bot
from ._play import lay


class RandomBot(Bot):
    """Picks one of the kinds of action ``view.legal`` allows (lay, challenge, believe, declare
    none, discard quads; and, when the seat is not to act, doing nothing), then a random set:
    a random size within the bounds, random cards, a random claimable rank and, where counts may
    lie, a random claimed count. A baseline that tests legality, not play."""

    strength = "random"

    def decide(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        seat = view.seat
        kinds: list[str | None] = []
        if legal.lay is not None:
            kinds.append("lay")
        if legal.challenge is not None:
            kinds.append("challenge")
        if legal.believe is not None:
            kinds.append("believe")
        if legal.declare_none is not None:
            kinds.append("none")
        if legal.discard_quads:
            kinds.append("quads")
        if view.turn != seat:
            kinds.append(None)
        kind = rng.choice(kinds)
        if kind == "lay":
            b = legal.lay
            cards = rng.sample(view.hand, rng.randint(b.min, b.max))
            count = rng.randint(b.count_min, b.count_max) if b.count_min is not None else None
            return lay(view, cards, rng.choice(b.ranks), count)
        if kind == "challenge":
            return Challenge(seat, legal.challenge)
        if kind == "believe":
            return Believe(seat, legal.believe)
        if kind == "none":
            return DeclareNone(seat)
        if kind == "quads":
            return DiscardQuads(seat, (rng.choice(legal.discard_quads),))
        return None
