"""A match: deals one after another, the dealer's seat, and the scores (docs/RULES.md, ``first_dealer``,
``next_dealer``, ``scoring``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import _events as ev
from ._cards import Card
from ._deal import Deal, score_deal
from ._dealing import draw_for_dealer
from ._rules import Rules


class Match:
    """Deals of ``rules`` at ``players`` seats. ``rng`` shuffles every deal and draws the first
    dealer; the same seed and the same actions give the same match.

    ``start()`` returns the next deal and its opening events; after the deal ends, ``finish(deal)``
    adds its scores and moves the dealer. ``scores[s]``: ``losses`` counts deals lost, chips
    scorings the net chips won (negative when paid).
    """

    def __init__(self, rules: Rules, players: int, rng: random.Random, dealer: int | None = None) -> None:
        rules.deck_for(players)  # validates the seat count
        self.rules = rules
        self.players = players
        self.rng = rng
        self.scores = [0] * players
        self.deals_played = 0
        self.dealer = dealer
        self.deal: Deal | None = None

    @classmethod
    def resumed(
        cls,
        rules: Rules,
        players: int,
        rng: random.Random,
        *,
        scores: Sequence[int],
        deals_played: int,
        dealer: int | None,
    ) -> Match:
        """A match taken up again after ``deals_played`` deals, with their ``scores`` (one a
        seat), the next deal dealt by ``dealer`` (None: not chosen yet). Raises ValueError for
        scores that are not one a seat, or a dealer who is no seat."""
        if len(scores) != players:
            raise ValueError(f"{len(scores)} scores for {players} seats")
        if dealer is not None and not 0 <= dealer < players:
            raise ValueError(f"no seat {dealer} to deal")
        match = cls(rules, players, rng, dealer)
        match.scores = [int(score) for score in scores]
        match.deals_played = int(deals_played)
        return match

    def choose_dealer(self) -> list[ev.Event]:
        """Fix the next deal's dealer (``self.dealer``) if it is not fixed yet: the first deal's
        by ``first_dealer`` (a ``lowest_draw`` returns its ``DealerDrawn``; ``random`` draws a seat
        with ``rng``), later deals' by ``finish``. Returns the events of a draw, else none."""
        if self.dealer is not None:
            return []
        if self.rules.first_dealer == "lowest_draw":
            draws, self.dealer = draw_for_dealer(self.players, self.rules.deck_for(self.players), self.rng)
            return [ev.DealerDrawn(draws, self.dealer)]
        self.dealer = self.rng.randrange(self.players)
        return []

    def start(self, order: Sequence[Card] | None = None) -> tuple[Deal, list[ev.Event]]:
        """Deal the next deal; returns it with its opening events (the first deal of a
        ``lowest_draw`` variant starts with ``DealerDrawn``, unless ``choose_dealer`` already
        returned it). ``order``: the deck to deal, top first (a fair deal 2's, made outside the
        engine: docs/PROTOCOL.md, section 9); None shuffles a new deck with ``rng``. Raises
        ValueError for an ``order`` that is not a whole deck of the table's kind."""
        events = self.choose_dealer()
        assert self.dealer is not None
        self.deal = Deal.new(self.rules, self.players, self.dealer, self.rng, order=order)
        events.extend(self.deal.opening())
        return self.deal, events

    def finish(self, deal: Deal) -> None:
        """Count an ended deal: add its scores, choose the next dealer (``left`` or ``loser``)."""
        if not deal.over:
            raise ValueError("the deal has not ended")
        counts = tuple(len(h) for h in deal.hands)

        for s, d in enumerate(score_deal(self.rules.scoring, counts, deal.loser, deal.winner)):
            self.scores[s] += d
        self.deals_played += 1
        if self.rules.next_dealer == "loser" and deal.loser is not None:
            self.dealer = deal.loser
        else:
            self.dealer = (deal.dealer + 1) % self.players
