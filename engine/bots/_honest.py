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

FORCED_CALL_RATE = 0.5
"""Where every set is of one size (`hoyle-three`), how often ``honest`` challenges a set on its
turn, and at most off its turn: as often as the easy level. Calling more often (or on its
hand's proof, which a large hand gives for nearly every claim) makes tables of this bot call
nearly every set, and deals that never end; calling less often loses to the easy level."""

FORCED_WATCH = 0.75
"""Where every set is of one size, the chance that the seats off turn at a table of ``honest``
call a set between them: each calls with ``1 - (1 - FORCED_WATCH) ** (1 / seats off turn)``
(at most ``FORCED_CALL_RATE``), so a larger table does not call nearly every set."""

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
    one size (``set_size``: `hoyle-three`, docs/RULES.md) nearly every set is a lie the rule
    forces: there it calls by nothing else than a fixed chance, ``FORCED_CALL_RATE`` on its
    turn and off its turn a share of ``FORCED_WATCH`` that shrinks as the table grows, and
    with one set or less in its hand it calls only a claimant's last cards. It discards every
    quad it may."""

    strength = "honest"
    handlers: ClassVar[dict[type[ev.Event], str]] = {**Bot.handlers, ev.SetRevealed: "_on_revealed"}

    def __init__(self, seat: int, rules: Rules, players: int) -> None:
        super().__init__(seat, rules, players)
        self.revealed = [[0, 0] for _ in range(players)]  # per seat, its sets revealed: [true, lies]
        lo, hi = rules.set_size
        # Every set of one size (`hoyle-three`): a seat lies more often than not because the
        # rule makes it, so its lies seen say nothing of it.
        self._forced_lies = lo == hi
        self._set_size = hi
        off_turn = max(1, players - 2)  # the seats other than the claimant and the next
        self._forced_watch = min(FORCED_CALL_RATE, 1 - (1 - FORCED_WATCH) ** (1 / off_turn))

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
        if self._forced_lies:
            return self._decide_forced(view, seat, len(hand), rng)
        last = view.last
        suspicion = self.suspicion(last.seat) if last is not None else 0.0
        taker = self.rules.leader_after_reveal == "taker"
        acted_on = 0.0 if taker else CALL_SHARE * suspicion
        if view.turn != seat:
            if legal.challenge is not None and rng.random() < WATCH_RATE + acted_on / 2:
                return Challenge(seat, legal.challenge)
            return None
        if legal.challenge is not None and (self._disproved(view) or rng.random() < acted_on):
            return Challenge(seat, legal.challenge)
        truth = self._truth(view, rng)
        if truth is not None:
            return truth
        b = legal.lay
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
        return self._bluff(view, rng)

    def _decide_forced(self, view: View, seat: int, held: int, rng: random.Random) -> Action | None:
        """``decide`` where every set is of one size, for ``seat`` holding ``held`` cards: a call
        by a fixed chance, else (on its turn) the truth it holds or the smallest bluff."""
        legal, mine = view.legal, view.turn == seat
        counts, last = view.hand_counts, view.last
        last_cards = last is not None and counts is not None and counts[last.seat] == 0
        # One set from going out, a wrong call (which takes the pile) would undo that: only a
        # claimant's last cards are worth the risk.
        cautious = held <= self._set_size and not last_cards
        chance = FORCED_CALL_RATE if mine else self._forced_watch
        if legal.challenge is not None and not cautious and rng.random() < chance:
            return Challenge(seat, legal.challenge)
        if not mine:
            return None
        if legal.lay is None:  # an empty hand answering the last set (last cards)
            return None if legal.challenge is None else Challenge(seat, legal.challenge)
        return self._truth(view, rng) or self._bluff(view, rng)

    def _truth(self, view: View, rng: random.Random) -> Action | None:
        """A true set of all it holds of the rank to claim (where any rank may be claimed, the
        rank of a random card of its hand), else a true «none» where the variant allows one,
        else None."""
        b, hand = view.legal.lay, view.hand
        if b is None or not hand:
            return None
        rank = b.ranks[0] if len(b.ranks) == 1 else rng.choice(hand)[0]
        cards = truthful_set(hand, rank, b.min, b.max)
        if cards is not None:
            return lay(view, cards, rank)
        none = view.legal.declare_none
        if none is not None and not any(c[0] == none for c in hand):
            assert view.seat is not None
            return DeclareNone(view.seat)
        return None

    def _bluff(self, view: View, rng: random.Random) -> Action:
        """The smallest set of random cards, claiming a random claimable rank."""
        b, hand = view.legal.lay, view.hand
        assert b is not None and hand is not None
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
