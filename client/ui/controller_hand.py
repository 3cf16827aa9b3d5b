"""The hand: the cursor moved card by card (← →), cards chosen and unchosen (Space, Backspace), and
moving across a long hand by rank: to the next or previous rank (↓ ↑), to a rank typed
(2–9, 1 or T for a ten, J Q K A with Shift), to the hand's first or last card (Home, End).
The hand is sorted by rank (``model.card_key``), so a rank's cards sit together."""

from __future__ import annotations

from neveryu import engine

from .controller_base import ControllerBase

TYPED_RANKS = {**{str(n): str(n) for n in range(2, 10)}, "1": "T", **{r: r for r in "TJQKA"}}
"""A key typed at the table to the rank it jumps to (``1`` and ``T``: ten)."""


class HandMoves(ControllerBase):
    """The cursor across the hand and the cards chosen (client/ui/keys.py binds them at the table)."""

    def move(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
        else:
            self.say(self._no_hand())

    def toggle(self) -> None:
        if not self.hand:
            self.say(self._no_hand())
            return
        if self.cursor in self.selected:
            self.selected.remove(self.cursor)
        else:
            self.selected.append(self.cursor)
            self.selected.sort()

    def _no_hand(self) -> str:
        s = self.state
        if s.screen == "connecting":
            return self.t("no.connection")
        if s.screen != "table":
            return self.t("no.lobby")
        if s.seat is None:
            return self.t("no.watching")
        return self.t("no.cards") if s.playing else self.t("no.deal")

    def clear_selection(self) -> None:
        self.selected = []

    def selected_cards(self) -> list[str]:
        return [self.hand[i] for i in self.selected if i < len(self.hand)]

    def hand_end(self, last: bool) -> None:
        """Home (``last`` False) or End: the hand's first or last card."""
        if not self.hand:
            self.say(self.t("no.cards"))
            return
        self.cursor = len(self.hand) - 1 if last else 0

    def jump_rank(self, step: int) -> None:
        """↓ (``step`` 1): the first card of the next rank held, after the last rank the first;
        ↑ (-1): the first card of the rank before the cursor's."""
        hand = self.hand
        if not hand:
            self.say(self.t("no.cards"))
            return
        starts = [
            i for i, card in enumerate(hand) if i == 0 or engine.rank_of(card) != engine.rank_of(hand[i - 1])
        ]
        here = max(i for i in starts if i <= self.cursor)
        k = starts.index(here)
        self.cursor = starts[(k + step) % len(starts)]

    def go_rank(self, key: str) -> None:
        """A rank typed (``TYPED_RANKS``): its first card in the hand, or a word that there is none."""
        rank = TYPED_RANKS[key]
        for i, card in enumerate(self.hand):
            if engine.rank_of(card) == rank:
                self.cursor = i
                return
        self.say(self.t("no.rank_held", rank=self.t.rank_plural(rank)))
