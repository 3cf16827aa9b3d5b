"""``sharp``: remembers every card it has seen, weighs each call, bluffs with what it least needs.

Every choice is an estimate in cards: how many leave its hand, how many it may have to take,
how likely each outcome is. The estimates use only what its seat sees (RULES.md, "What every
variant shares"): its hand, its own sets, revealed sets, shown quads, the public claims and
counts, and how often each other seat has bluffed (reveals) and called (challenges, believes).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache

from .. import _events as ev
from .._actions import Action, Believe, Challenge, DeclareNone, DiscardQuads
from .._cards import deck_ranks, decks_in
from .._view import View
from ._base import Bot
from ._memory import DISCARD, CardMemory
from ._play import lay, rank_counts

LEAD = 1.5
"""What leading a new round is worth, in cards (it lays the truth with its best rank)."""

SHARE = 0.25
"""What one card taken by another seat is worth to this seat, in cards."""

WIN = 40.0
"""What going out first is worth (``first_wins``), in cards; losing the deal likewise."""

OUT = 6.0
"""What going out is worth in a ``last_loses`` deal with three or more active seats, in cards;
with two, going out is ``WIN``."""

NOISE = 0.25
"""Up to this much (in cards) is added at random to the value of each set considered, so that its
play cannot be read (and two sharp bots cannot fall into a fixed cycle)."""

TRUTH_PRIOR = [[4.0, 6.0], [3.0, 0.1], [2.0, 0.03], [1.0, 0.01]]
"""Before any set of a seat is revealed: how often it claims 1, 2, 3, 4+ cards when the claim is
true, and when it is a bluff (relative weights): bluffs are mostly small."""


@lru_cache(maxsize=65536)
def at_least(pool: int, good: int, drawn: int, need: int) -> float:
    """P(at least ``need`` of ``drawn`` cards taken at random from ``pool`` cards, ``good`` of
    which count, count): the hypergeometric tail."""
    if need <= 0:
        return 1.0
    drawn = min(drawn, pool)
    good = min(good, pool)
    if need > good or need > drawn:
        return 0.0
    total = math.comb(pool, drawn)
    miss = sum(math.comb(good, x) * math.comb(pool - good, drawn - x) for x in range(need))
    return max(0.0, 1.0 - miss / total)


class SharpBot(Bot):
    """The strongest bot (module docstring).

    Choosing: ``p_true`` is 0 for a claim its memory proves false (more of the rank claimed
    than can be outside its hand and the places it knows), and such a claim is challenged as
    soon as the set is laid (off turn too, in `anyone` variants) whenever the pile makes it pay;
    otherwise ``p_true`` estimates the claim (the chance the claimant held the cards, from the unseen cards, times how much likelier
    a claim of that count is when true than when bluffed) and each answer (challenge, believe,
    each set it could lay) is valued in cards. Bluffs are made of the cards it needs least (the
    ranks it holds fewest of and, where the order of ranks is fixed, will not have to claim soon).
    A set that would end an opponent's deal is challenged unless surely true.

    Memory (written only by ``observe``): ``memory`` (``CardMemory``: where the seen cards may be),
    ``sizes`` (each seat's hand size, counted from claims where the variant hides it),
    ``truth[seat][n - 1]`` (revealed sets of ``n`` claimed cards, 4 for 4 or more: [true, false],
    from ``TRUTH_PRIOR``), ``calls[seat][k]`` / ``chances[seat][k]`` (how often the seat called
    when it could: k = 0 on a set, k = 1 on a set that emptied its layer's hand)."""

    strength = "sharp"

    def __init__(self, seat, rules, players) -> None:
        super().__init__(seat, rules, players)
        self._on.update({
            ev.SetLaid: self._on_laid,
            ev.SetRevealed: self._on_revealed,
            ev.PileTaken: self._on_taken,
            ev.PileDiscarded: self._on_discarded,
            ev.QuadsDiscarded: self._on_quads,
            ev.Challenged: self._on_called,
            ev.Believed: self._on_called,
            ev.Turn: self._on_turn,
            ev.StockDrawn: self._on_drawn,
            ev.PlayerOut: self._on_out,
        })
        self._reset(players, 4, [0] * players)

    def _reset(self, players: int, copies: int, sizes: list[int]) -> None:
        self.memory = CardMemory(copies)
        self.sizes = sizes
        self.pile_size = 0
        self.shown: tuple = ()
        lo, hi = self.rules.set_size
        prior = [[1.0, 1.0]] * 4 if lo == hi else TRUTH_PRIOR
        self.truth = [[list(p) for p in prior] for _ in range(players)]
        self.calls = [[1, 1] for _ in range(players)]
        self.chances = [[6, 4] for _ in range(players)]
        self.last_cards = 0  # 1 while the last set emptied its layer's hand
        self.free_turn = self.free_claim = False  # the seat to act / the last set's claimant
        # might claim any rank
        self.out: set[int] = set()
        self.deck_size = 0

    # -- memory ---------------------------------------------------------------------------

    def _on_deal_started(self, e: ev.DealStarted) -> None:
        super()._on_deal_started(e)
        n = len(e.hands)
        self.deck_size = len(self.ranks) * self.copies
        dealt = self.deck_size - e.hidden - e.set_aside - e.stock
        sizes = list(e.hand_counts) if e.hand_counts else [dealt // n] * n
        if e.hands[self.seat] is not None:
            sizes[self.seat] = len(e.hands[self.seat])
        self._reset(n, self.copies, sizes)
        self.deck_size = len(self.ranks) * self.copies

    def _join(self, view: View) -> None:
        """Start a memory from ``view`` alone: a bot that takes a seat in the middle of a deal
        (an away player's stand-in) has not seen ``DealStarted``."""
        self.ranks = deck_ranks(view.deck)
        self.copies = 4 * decks_in(view.deck)
        self._reset(view.players, self.copies, list(view.hand_counts or [len(view.hand)] * view.players))
        self.deck_size = len(self.ranks) * self.copies

    def _on_laid(self, e: ev.SetLaid) -> None:
        self._on_set_laid(e)
        size = e.size if e.size is not None else e.count
        self.sizes[e.seat] -= size
        self.pile_size += size
        self.last_cards = int(self.sizes[e.seat] <= 0)
        self.free_claim = self.free_turn
        if e.seat != self.seat:
            self.memory.laid(e.seat)
        if self.rules.challengers == "anyone":
            for s in range(self.players):
                if s != e.seat and s not in self.out:
                    self.chances[s][self.last_cards] += 1

    def _on_turn(self, e: ev.Turn) -> None:
        self.free_turn = len(e.ranks) > 1
        if e.set_no is not None and self.rules.challengers == "next":
            self.chances[e.seat][self.last_cards] += 1

    def _on_called(self, e) -> None:
        self.calls[e.seat][self.last_cards] += 1
        for s in getattr(e, "tied", ()):
            self.calls[s][self.last_cards] += 1

    def _on_revealed(self, e: ev.SetRevealed) -> None:
        if e.seat != self.seat:
            self.truth[e.seat][min(e.count, 4) - 1][0 if e.claim_true else 1] += 1
        if e.seat != self.seat:
            self.memory.revealed(e.seat, e.cards)
            if sum(1 for s, _, _ in self.pile_sets if s == e.seat) == 1:
                self.memory.unpile(e.seat)
        if e.count == 0:  # a declared none: the cards shown stay in the declarer's hand
            if e.seat != self.seat:
                self.memory.add(frozenset((e.seat,)), e.cards)
            self.shown = ()
        else:
            self.shown = e.cards if e.seat != self.seat else ()

    def _on_taken(self, e: ev.PileTaken) -> None:
        me = self.seat
        self.memory.pile_went(e.seat)
        if e.seat == me:
            self.memory.forget(me)
        else:
            self.memory.add(frozenset((e.seat,)), self.shown)
            self.memory.add(frozenset((e.seat,)), self.my_pile)
        self.sizes[e.seat] += e.count if e.count is not None else self.pile_size
        self.pile_size = 0
        self.shown = ()
        self._on_pile_emptied(e)

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

    # -- estimates ------------------------------------------------------------------------

    def _size(self, view: View, seat: int) -> int:
        return view.hand_counts[seat] if view.hand_counts is not None else max(0, self.sizes[seat])

    def _pile(self, view: View) -> int:
        return view.pile if view.pile is not None else self.pile_size

    def _unseen(self, view: View) -> int:
        """Cards this seat has not seen and does not track."""
        groups = sum(sum(g.values()) for p, g in self.memory.groups.items() if DISCARD not in p)
        return max(0, self.deck_size - len(view.hand) - len(self.my_pile) - view.discard - groups)

    def p_true(self, view: View, counts: Counter) -> float:
        """How likely the last set's claim is true, 0..1 (0: impossible)."""
        last = view.last
        p, rank, count = last.seat, last.rank, last.count
        memory = self.memory
        mine = counts[rank] + sum(1 for c in self.my_pile if c[0] == rank)
        sure, maybe = memory.known_in(p, rank)
        unseen_rank = max(0, self.copies - mine - memory.tracked(rank))
        before = self._size(view, p) + (last.size if last.size is not None else count)
        unknown = max(0, before - sure - maybe)
        if last.none:
            if any(g[rank] for places, g in memory.groups.items() if places == frozenset((p,))):
                return 0.0
            return 1.0 - at_least(self._unseen(view), unseen_rank, self._size(view, p), 1)
        if count > self.copies - mine - memory.excluded(p, rank):
            return 0.0
        if last.size is not None and last.size != count:
            return 0.0
        need = count - sure - maybe // 2
        if need <= 0:
            have = 0.97
        else:
            consumed = 0.0
            for s, r, n in self.pile_sets[:-1]:
                if r == rank and s != self.seat:
                    consumed += 0.6 * n
            good = max(0, unseen_rank - int(consumed + 0.5))
            have = at_least(self._unseen(view), good, unknown, need)
            if self.free_claim:  # the claimant chose the rank: any rank he held enough of
                have = 1 - (1 - have) ** min(len(self.ranks), max(1, unknown))
        # How much more often this seat makes a claim of this count when it is true than when it
        # bluffs, from the sets of it revealed so far (and TRUTH_PRIOR).
        sizes = self.truth[p]
        t, f = sizes[min(count, 4) - 1]
        ratio = (t / sum(x[0] for x in sizes)) / (f / sum(x[1] for x in sizes))
        have = min(0.995, max(0.005, have))
        odds = have / (1 - have) * ratio
        return odds / (1 + odds)

    def _catcher(self, view: View, counts: Counter, unseen: int):
        """A function (rank, count) -> how likely a false set claiming ``count`` × ``rank`` is
        challenged: by a seat that may challenge it and holds enough of the rank to know, or
        at that seat's rate of calls so far."""
        if self.rules.challengers == "next":
            others = [_next_seat(view, self.seat, self.out)]
        else:
            others = [s for s in range(self.players) if s != self.seat and s not in self.out]
        watchers = [self._size(view, s) for s in others]
        quiet = [1.0, 1.0]  # no one calls at its rate: for a set, for a last set
        for s in others:
            for kind in (0, 1):
                quiet[kind] *= 1 - self.calls[s][kind] / self.chances[s][kind]
        copies = self.copies
        memo: dict[tuple[str, int, int], float] = {}
        my_pile = self.my_pile
        tracked = self.memory.tracked

        def caught(rank: str, count: int, last: int) -> float:
            key = (rank, count, last)
            risk = memo.get(key)
            if risk is not None:
                return risk
            escape = quiet[last]
            if count > 1:
                # a seat disproves the claim if it holds more than copies - count of the rank
                mine = counts[rank] + sum(1 for c in my_pile if c[0] == rank)
                unseen_rank = max(0, copies - mine - tracked(rank))
                for held in watchers:
                    escape *= 1 - at_least(unseen, unseen_rank, held, copies - count + 1)
            memo[key] = risk = 1 - escape
            return risk

        return caught

    # -- choosing -------------------------------------------------------------------------

    def decide(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        seat = view.seat
        if legal.discard_quads:
            return DiscardQuads(seat, legal.discard_quads)
        if not self.ranks:
            self._join(view)
        hand = view.hand
        counts = rank_counts(hand)
        last = view.last
        t = self.p_true(view, counts) if legal.challenge is not None or legal.believe is not None else 1.0
        pile = self._pile(view)
        active = view.players - len(view.out)
        first_wins = self.rules.result == "first_wins"
        other_out = WIN if first_wins or active <= 2 else OUT / 2
        claimant_empty = last is not None and (
            last.seat in view.waiting or (view.hand_counts is None and self.sizes[last.seat] <= 0)
        )
        lead_after_call = LEAD if self.rules.leader_after_reveal == "by_outcome" else 0.0
        if legal.challenge is not None:
            ev_call = t * (-pile - (other_out if claimant_empty else 0)) + (1 - t) * (SHARE * pile + lead_after_call)
        sequence = self.rules.leader_after_reveal == "sequence"
        if view.turn != seat or sequence:
            # Off turn (an `anyone` window), or where a challenge does not replace laying
            # (``sequence``): challenge when it pays, by a margin drawn afresh each time so that
            # no two seats fall into a fixed cycle of calls.
            if legal.challenge is not None:
                quiet = -other_out if claimant_empty else 0.0
                if ev_call > quiet + 0.5 + rng.random():
                    return Challenge(seat, legal.challenge)
            if view.turn != seat:
                return None
        best: tuple[float, Action] | None = None
        if legal.challenge is not None and not sequence:
            best = (ev_call, Challenge(seat, legal.challenge))
        if legal.believe is not None:
            gone = other_out if claimant_empty else 0.0
            ev_believe = t * (LEAD - gone) + (1 - t) * (-pile - gone)
            if best is None or ev_believe > best[0]:
                best = (ev_believe, Believe(seat, legal.believe))
        b = legal.lay
        if b is not None:
            penalty = other_out if claimant_empty and self.rules.last_cards != "covered_or_survived" else 0.0
            if claimant_empty and first_wins:
                penalty = WIN
            value, action = self._best_lay(view, counts, pile, rng)
            value -= penalty
            if best is None or value > best[0]:
                best = (value, action)
            if legal.declare_none is not None and counts[legal.declare_none] == 0:
                value = -penalty
                if best is None or value > best[0]:
                    best = (value, DeclareNone(seat))
        return best[1] if best is not None else None

    def _best_lay(self, view: View, counts: Counter, pile: int, rng: random.Random) -> tuple[float, Action]:
        """The set worth most, in cards, and its value: each claimable rank (where any rank may
        be claimed, the three it holds most of) at each size, its own cards of the rank first,
        then the cards it needs least; valued by the cards it sheds against the risk of being
        challenged, and going out."""
        b = view.legal.lay
        hand = view.hand
        left = len(hand)
        first_wins = self.rules.result == "first_wins"
        active = view.players - len(view.out)
        out_value = WIN if first_wins or active <= 2 else OUT
        need = self._needs(view)
        by_rank: dict[str, list[str]] = {}
        for c in hand:
            by_rank.setdefault(c[0], []).append(c)
        # the ranks it holds, the one it needs least first
        spare = sorted(by_rank, key=lambda r: (need.get(r, 0) + len(by_rank[r]), r))
        caught = self._catcher(view, counts, self._unseen(view))
        ranks = b.ranks
        if len(ranks) > 1:  # a free claim: the ranks it holds most of
            ranks = sorted(by_rank, key=lambda r: (-len(by_rank[r]), r))[:3]
        lie_count = b.count_min is not None
        best = None
        for rank in ranks:
            held = len(by_rank.get(rank, ()))
            for k in range(b.min, b.max + 1):
                n_true = min(k, held)
                if k > left:
                    break
                if not lie_count:
                    claim = k
                elif n_true:
                    claim = n_true
                else:
                    claim = 1
                if lie_count and not b.count_min <= claim <= b.count_max:
                    continue
                risk = caught(rank, claim, int(k == left))
                if n_true == k and claim == k:
                    value = k + risk * SHARE * (pile + k)
                    if k == left:
                        value += out_value
                else:
                    value = k - risk * (pile + k)
                    if k == left:
                        value += (1 - risk) * out_value
                value += NOISE * rng.random()
                if best is None or value > best[0]:
                    best = (value, rank, k, n_true, claim)
        value, rank, k, n_true, claim = best
        cards = by_rank.get(rank, [])[:n_true]
        for r in spare:
            if len(cards) == k:
                break
            if r != rank:
                cards += by_rank[r][: k - len(cards)]
        return value, lay(view, cards, rank, claim if lie_count else None)

    def _needs(self, view: View) -> dict[str, float]:
        """How much each rank is worth keeping beyond its count: the ranks this seat will have
        to claim on its next turns where the order is fixed (RULES.md, ``rank_order``)."""
        order = self.rules.rank_order
        if order not in ("ascending", "descending") or not view.ranks:
            return {}
        step = 1 if order == "ascending" else -1
        ranks = self.ranks
        active = max(1, view.players - len(view.out))
        at = ranks.index(view.ranks[0]) if len(view.ranks) == 1 else 0
        return {ranks[(at + step * active * k) % len(ranks)]: 3.0 / k for k in range(1, 4)}


def _next_seat(view: View, seat: int, out: set[int]) -> int:
    """The next active seat after ``seat`` (RULES.md: "next" is the next active seat clockwise)."""
    n = view.players
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s not in out and s not in view.out:
            return s
    return seat
