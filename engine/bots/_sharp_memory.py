"""What the ``sharp`` bot remembers (engine/bots/_sharp.py chooses from it): where the cards it
has seen may be, each seat's hand size, and how often each seat has bluffed and called. Written
only by ``observe``, from its seat's projected events (docs/RULES.md, "What every variant shares").
"""

from __future__ import annotations

from typing import ClassVar

from .. import _events as ev
from .._cards import Card, deck_ranks, decks_in
from .._rules import Rules
from .._view import View
from ._base import Bot
from ._memory import DISCARD, PILE, CardMemory, hand
from ._odds import FLAT_PRIOR, FLAT_RATIOS, PRIOR_RATIOS, TRUTH_PRIOR


class SharpMemory(Bot):
    """The memory of ``SharpBot`` (module docstring): ``memory`` (``CardMemory``: where the seen
    cards may be), ``sizes`` (each seat's hand size, counted from claims where the variant hides
    it), ``truth[seat][n - 1]`` (revealed sets of ``n`` claimed cards, 4 for 4 or more: [true,
    false], from ``TRUTH_PRIOR``), ``calls[seat][k]`` / ``chances[seat][k]`` (how often the seat
    called when it could: k = 0 on a set, k = 1 on a set that emptied its layer's hand)."""

    handlers: ClassVar[dict[type, str]] = {
        ev.DealStarted: "_on_deal_started",
        ev.SetLaid: "_on_laid",
        ev.NoneDeclared: "_on_none_declared",
        ev.SetRevealed: "_on_revealed",
        ev.PileTaken: "_on_taken",
        ev.PileDiscarded: "_on_discarded",
        ev.QuadsDiscarded: "_on_quads",
        ev.Challenged: "_on_challenged",
        ev.Believed: "_on_believed",
        ev.Turn: "_on_turn",
        ev.StockDrawn: "_on_drawn",
        ev.PlayerOut: "_on_out",
    }

    def __init__(self, seat: int, rules: Rules, players: int) -> None:
        super().__init__(seat, rules, players)
        self._anyone = rules.challengers == "anyone"
        self._reset(players, 4, [0] * players)

    def _reset(self, players: int, copies: int, sizes: list[int]) -> None:
        self.memory = CardMemory(copies)
        self.sizes = sizes
        self.pile_size = 0
        self.shown: tuple[Card, ...] = ()
        lo, hi = self.rules.set_size
        prior, ratios = (FLAT_PRIOR, FLAT_RATIOS) if lo == hi else (TRUTH_PRIOR, PRIOR_RATIOS)
        # a seat's row is copied from the prior when a set of it is first revealed
        self.truth = [prior] * players
        self._ratios: list[list[float] | None] = [ratios] * players  # claim_ratios(truth[seat])
        self.calls = [[1, 1] for _ in range(players)]
        self.chances = [[6, 4] for _ in range(players)]
        self.last_cards = 0  # 1 while the last set emptied its layer's hand
        self.free_turn = self.free_claim = False  # the seat to act / the last set's claimant
        # might claim any rank
        self.out: set[int] = set()
        self._watching: list[list[list[int]]] | None = None  # _watch_rows(), until out changes
        self.deck_size = 0

    # -- memory ---------------------------------------------------------------------------

    def _on_deal_started(self, e: ev.DealStarted) -> None:
        super()._on_deal_started(e)
        n = len(e.hands)
        self.deck_size = len(self.ranks) * self.copies
        dealt = self.deck_size - e.hidden - e.set_aside - e.stock
        sizes = list(e.hand_counts) if e.hand_counts else [dealt // n] * n
        mine = e.hands[self.seat]
        if mine is not None:
            sizes[self.seat] = len(mine)
        self._reset(n, self.copies, sizes)
        self.deck_size = len(self.ranks) * self.copies

    def _join(self, view: View) -> None:
        """Start a memory from ``view`` alone: a bot that takes a seat in the middle of a deal
        (an away player's stand-in) has not seen ``DealStarted``."""
        self.ranks = deck_ranks(view.deck)
        self.copies = 4 * decks_in(view.deck)
        self._reset(
            view.players, self.copies, list(view.hand_counts or [len(view.hand or ())] * view.players)
        )
        self.deck_size = len(self.ranks) * self.copies

    def _on_laid(self, e: ev.SetLaid) -> None:
        seat = e.seat
        count = e.count
        self.pile_sets.append((seat, e.rank, count))
        mine = seat == self.seat
        if mine and e.cards:
            self._remember_mine(e.cards)
        size = e.size if e.size is not None else count
        sizes = self.sizes
        sizes[seat] -= size
        self.pile_size += size
        self.last_cards = last = 1 if sizes[seat] <= 0 else 0
        self.free_claim = self.free_turn
        if not mine and self.memory.groups:
            self.memory.laid(seat)
        if self._anyone:  # every other seat still in may challenge it
            watching = self._watching
            if watching is None:
                watching = self._watch_rows()
            for row in watching[seat]:
                row[last] += 1

    def _on_turn(self, e: ev.Turn) -> None:
        self.free_turn = len(e.ranks) > 1
        if e.set_no is not None and not self._anyone:
            self.chances[e.seat][self.last_cards] += 1

    def _on_challenged(self, e: ev.Challenged) -> None:
        calls = self.calls
        last = self.last_cards
        calls[e.seat][last] += 1
        for s in e.tied:
            calls[s][last] += 1

    def _on_believed(self, e: ev.Believed) -> None:
        self.calls[e.seat][self.last_cards] += 1

    def _on_revealed(self, e: ev.SetRevealed) -> None:
        seat = e.seat
        other = seat != self.seat
        if other:
            truth = self.truth[seat]
            if truth is TRUTH_PRIOR or truth is FLAT_PRIOR:
                truth = self.truth[seat] = [list(p) for p in truth]
            count = e.count
            truth[(count if count < 4 else 4) - 1][0 if e.claim_true else 1] += 1
            self._ratios[seat] = None
            memory = self.memory
            if memory.groups:
                memory.revealed(seat, e.cards)
                if (4 << seat | PILE) in memory.groups and sum(
                    1 for s, _, _ in self.pile_sets if s == seat
                ) == 1:
                    memory.unpile(seat)
        if e.count == 0:  # a declared none: the cards shown stay in the declarer's hand
            if other:
                self.memory.add(hand(seat), e.cards)
            self.shown = ()
        else:
            self.shown = e.cards if other else ()

    def _on_taken(self, e: ev.PileTaken) -> None:
        seat = e.seat
        memory = self.memory
        taker = 4 << seat  # hand(seat)
        if memory.groups:
            memory.pile_went(taker)
            if seat == self.seat:
                memory.forget(seat)
        if seat != self.seat:
            if self.shown:
                memory.add(taker, self.shown)
            if self.my_pile:
                memory.add(taker, self.my_pile)
        self.sizes[seat] += e.count if e.count is not None else self.pile_size
        self.pile_size = 0
        self.shown = ()
        self.my_pile = []  # Bot._on_pile_emptied, inline: the hot path
        self.my_pile_ranks = {}
        self.pile_sets = []

    def _on_discarded(self, e: ev.PileDiscarded) -> None:
        self.memory.pile_went(DISCARD)
        self.memory.discard(self.shown)
        self.memory.discard(self.my_pile)
        self.pile_size = 0
        self.shown = ()
        self._on_pile_emptied(e)

    def _on_quads(self, e: ev.QuadsDiscarded) -> None:
        self.sizes[e.seat] -= 4 * e.count
        if e.ranks is not None and (e.shown or e.seat == self.seat):
            if e.seat == self.seat:
                self.memory.discard(e.ranks * 4)
            else:
                self.memory.quads_shown(e.seat, e.ranks)

    def _on_drawn(self, e: ev.StockDrawn) -> None:
        self.sizes[e.seat] += e.count

    def _on_out(self, e: ev.PlayerOut) -> None:
        self.out.add(e.seat)
        self._watching = None

    def _watch_rows(self) -> list[list[list[int]]]:
        """For each seat, the ``chances`` rows of the other seats still in (kept in
        ``_watching`` until a seat goes out)."""
        out = self.out
        chances = self.chances
        seats = range(len(chances))
        self._watching = [[chances[s] for s in seats if s != layer and s not in out] for layer in seats]
        return self._watching
