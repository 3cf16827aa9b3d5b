"""``honest``: tells the truth when it can, challenges rarely."""

from __future__ import annotations

import random

from .._actions import Action, Believe, Challenge, DeclareNone, DiscardQuads
from .._view import View
from ._base import Bot
from ._play import lay, truthful_set

CALL_RATE = 0.15
"""How often ``honest`` challenges (and, separately, believes) when it cannot tell the truth."""

WATCH_RATE = 0.03
"""How often ``honest`` challenges another seat's set when it is not its turn (`anyone`)."""


class HonestBot(Bot):
    """Lays the truth whenever it holds a claimable rank: all it holds of it, up to the largest
    set (where it may claim any rank, the rank of a random card of its hand); declares none
    truthfully where the variant allows.
    When it cannot tell the truth it challenges (``CALL_RATE``), believes (``CALL_RATE``, where
    the variant has «верю») or lays the smallest bluff of random cards. On its turn it challenges
    a claim its own hand proves false (more cards of the rank claimed than exist outside its hand
    and its own sets); off its turn (`anyone` variants) only rarely (``WATCH_RATE``). It discards
    every quad it may."""

    strength = "honest"

    def decide(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        seat, hand = view.seat, view.hand
        assert seat is not None and hand is not None  # Bot.choose asks only a seat's own view
        if legal.discard_quads:
            return DiscardQuads(seat, legal.discard_quads)
        if view.turn != seat:
            if legal.challenge is not None and rng.random() < WATCH_RATE:
                return Challenge(seat, legal.challenge)
            return None
        if legal.challenge is not None and self._disproved(view):
            return Challenge(seat, legal.challenge)
        b = legal.lay
        if b is not None:
            if len(b.ranks) == 1:
                rank = b.ranks[0]
            else:  # a free claim: the rank of a random card of its hand
                rank = rng.choice(hand)[0]
            cards = truthful_set(hand, rank, b.min, b.max)
            if cards is not None:
                return lay(view, cards, rank)
            if legal.declare_none is not None and not any(c[0] == legal.declare_none for c in hand):
                return DeclareNone(seat)
        roll = rng.random()
        if b is None:  # an empty hand answering the last set (last cards)
            if legal.believe is not None and (legal.challenge is None or roll < 0.5):
                return Believe(seat, legal.believe)
            if legal.challenge is not None:
                return Challenge(seat, legal.challenge)
            return None
        if legal.challenge is not None and roll < CALL_RATE:
            return Challenge(seat, legal.challenge)
        if legal.believe is not None and roll < 2 * CALL_RATE:
            return Believe(seat, legal.believe)
        return lay(view, rng.sample(hand, b.min), rng.choice(b.ranks))

    def _disproved(self, view: View) -> bool:
        """The last set claims more of its rank than exist outside this seat's hand and sets."""
        last = view.last
        if last is None or last.none:
            return False
        rank = last.rank
        mine = "".join(view.hand or ())[::2].count(rank) + self.my_pile_ranks.get(
            rank, 0
        )  # a card: rank, suit
        return last.count + mine > self.copies
