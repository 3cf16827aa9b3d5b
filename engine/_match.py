"""A match: deals one after another, the dealer's seat, and the scores (RULES.md, ``first_dealer``,
``next_dealer``, ``scoring``)."""

from __future__ import annotations

import random

from . import _events as ev
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

    def start(self) -> tuple[Deal, list[ev.Event]]:
        """Shuffle and deal the next deal; returns it with its opening events (the first deal of
        a ``lowest_draw`` variant starts with ``DealerDrawn``)."""
        events: list[ev.Event] = []
        if self.dealer is None:
            if self.rules.first_dealer == "lowest_draw":
                draws, self.dealer = draw_for_dealer(
                    self.players, self.rules.deck_for(self.players), self.rng
                )
                events.append(ev.DealerDrawn(draws, self.dealer))
            else:
                self.dealer = self.rng.randrange(self.players)
        self.deal = Deal.new(self.rules, self.players, self.dealer, self.rng)
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
