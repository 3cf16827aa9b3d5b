"""``honest``: tells the truth when it can, challenges the seats it has seen lie."""

from __future__ import annotations

import random
from typing import ClassVar

from .. import _events as ev
from .._actions import Action, Believe, Challenge, DeclareNone, DiscardQuads
from .._rules import Rules
from .._view import View
from ._base import Bot
from ._play import lay, truthful_set

CALL_RATE = 0.15
"""How often ``honest`` challenges (and, separately, believes) when it cannot tell the truth."""

WATCH_RATE = 0.03
"""How often ``honest`` challenges another seat's set when it is not its turn (`anyone`), before
it has seen that seat lie."""

CALL_SHARE = 0.75
"""What share of a claimant's ``suspicion`` ``honest`` challenges with on its turn (off its turn,
half that), where a right call does not hand the bluffer the lead."""

TRUST = 2
"""How many true sets ``honest`` credits each seat with before any of its sets is revealed: a
seat's suspicion is its lies seen / (its sets revealed + ``TRUST``)."""


class HonestBot(Bot):
    """Lays the truth whenever it holds a claimable rank: all it holds of it, up to the largest
    set (where it may claim any rank, the rank of a random card of its hand); declares none
    truthfully where the variant allows.
    When it cannot tell the truth it challenges (``CALL_RATE``), believes (``CALL_RATE``, where
    the variant has «верю») or lays the smallest bluff of random cards. It remembers, for each
    other seat, how many of its revealed sets were true and how many lies (``suspicion``). On its
    turn it challenges a claim its own hand proves false (more cards of the rank claimed than
    exist outside its hand and its own sets), and any claim with ``CALL_SHARE`` of its
    claimant's suspicion as the chance; off its turn (`anyone` variants) with ``WATCH_RATE`` plus
    half that. Where the bluffer leads after a right call (``leader_after_reveal = taker``,
    docs/RULES.md "The parameters": `cheat`, `cheat-free`), a call hands him the turn: there it
    calls a suspect only when it cannot tell the truth itself (with the chance his suspicion
    gives, at least ``CALL_RATE``), and off its turn at ``WATCH_RATE``. Where every set is of
    one size (``set_size``: `hoyle-three`, docs/RULES.md) it does not call by suspicion. It
    discards every quad it may."""

    strength = "honest"
    handlers: ClassVar[dict[type[ev.Event], str]] = {**Bot.handlers, ev.SetRevealed: "_on_revealed"}

    def __init__(self, seat: int, rules: Rules, players: int) -> None:
        super().__init__(seat, rules, players)
        self.revealed = [[0, 0] for _ in range(players)]  # per seat, its sets revealed: [true, lies]
        lo, hi = rules.set_size
        # Every set of one size (`hoyle-three`): a seat lies more often than not because the
        # rule makes it, so its lies seen say nothing of it (and tables of this bot calling by
        # them would call nearly every set: deals without end).
        self._forced_lies = lo == hi

    def _on_deal_started(self, e: ev.DealStarted) -> None:
        super()._on_deal_started(e)
        self.revealed = [[0, 0] for _ in range(self.players)]

    def _on_revealed(self, e: ev.SetRevealed) -> None:
        if e.seat != self.seat:
            self.revealed[e.seat][0 if e.claim_true else 1] += 1

    def suspicion(self, seat: int) -> float:
        """How likely ``seat`` lies, as this bot reckons it, 0..1: its lies seen / (its sets
        revealed + ``TRUST``); 0 before it has been seen lying."""
        true, lies = self.revealed[seat]
        return lies / (true + lies + TRUST)

    def decide(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        seat, hand = view.seat, view.hand
        assert seat is not None and hand is not None  # Bot.choose asks only a seat's own view
        if legal.discard_quads:
            return DiscardQuads(seat, legal.discard_quads)
        last = view.last
        suspicion = self.suspicion(last.seat) if last is not None else 0.0
        taker = self.rules.leader_after_reveal == "taker"
        acted_on = 0.0 if taker or self._forced_lies else CALL_SHARE * suspicion
        if view.turn != seat:
            if legal.challenge is not None and rng.random() < WATCH_RATE + acted_on / 2:
                return Challenge(seat, legal.challenge)
            return None
        if legal.challenge is not None and (self._disproved(view) or rng.random() < acted_on):
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
        if legal.challenge is not None and roll < (max(CALL_RATE, suspicion) if taker else CALL_RATE):
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
