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
        seat, hand = view.seat, view.hand
        assert seat is not None and hand is not None  # Bot.choose asks only a seat's own view
        bounds, challenge, believe = legal.lay, legal.challenge, legal.believe
        kinds: list[str | None] = []
        if bounds is not None:
            kinds.append("lay")
        if challenge is not None:
            kinds.append("challenge")
        if believe is not None:
            kinds.append("believe")
        if legal.declare_none is not None:
            kinds.append("none")
        if legal.discard_quads:
            kinds.append("quads")
        if view.turn != seat:
            kinds.append(None)
        kind = rng.choice(kinds)
        if kind == "lay" and bounds is not None:
            cards = rng.sample(hand, rng.randint(bounds.min, bounds.max))
            count = None
            if bounds.count_min is not None and bounds.count_max is not None:
                count = rng.randint(bounds.count_min, bounds.count_max)
            return lay(view, cards, rng.choice(bounds.ranks), count)
        if kind == "challenge" and challenge is not None:
            return Challenge(seat, challenge)
        if kind == "believe" and believe is not None:
            return Believe(seat, believe)
        if kind == "none":
            return DeclareNone(seat)
        if kind == "quads":
            return DiscardQuads(seat, (rng.choice(legal.discard_quads),))
        return None
