"""``sharp``: remembers every card it has seen, weighs each call, bluffs with what it least needs.

Every choice is an estimate in cards: how many leave its hand, how many it may have to take,
how likely each outcome is. The estimates use only what its seat sees (docs/RULES.md, "What every
variant shares"): its hand, its own sets, revealed sets, shown quads, the public claims and
counts, and how often each other seat has bluffed (reveals) and called (challenges, believes).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from .._actions import Action, Believe, Challenge, DeclareNone, DiscardQuads, LaySet
from .._rules import Rules
from .._view import View
from ._odds import at_least, claim_ratios, tails_for
from ._sharp_memory import SharpMemory

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


class SharpBot(SharpMemory):
    """The strongest bot (module docstring).

    Choosing: ``p_true`` is 0 for a claim its memory proves false (more of the rank claimed
    than can be outside its hand and the places it knows), and such a claim is challenged as
    soon as the set is laid (off turn too, in `anyone` variants) whenever the pile makes it pay;
    otherwise ``p_true`` estimates the claim (the chance the claimant held the cards, from the
    unseen cards, times how much likelier a claim of that count is when true than when
    bluffed) and each answer (challenge, believe, each set it could lay) is valued in cards.
    Bluffs are made of the cards it needs least (the ranks it holds fewest of and, where the
    order of ranks is fixed, will not have to claim soon).
    A set that would end an opponent's deal is challenged unless surely true.

    Memory: ``SharpMemory`` (engine/bots/_sharp_memory.py); odds: engine/bots/_odds.py."""

    strength = "sharp"

    def __init__(self, seat: int, rules: Rules, players: int) -> None:
        super().__init__(seat, rules, players)
        self._first_wins = rules.result == "first_wins"
        self._sequence = rules.leader_after_reveal == "sequence"
        self._lead_after_call = LEAD if rules.leader_after_reveal == "by_outcome" else 0.0
        self._covered = rules.last_cards == "covered_or_survived"

    # -- estimates ------------------------------------------------------------------------

    def p_true(self, view: View, counts: Mapping[str, int]) -> float:
        """How likely the last set's claim is true, 0..1 (0: impossible); ``counts``: this
        seat's hand by rank."""
        last = view.last
        assert last is not None  # there is a claim to weigh
        tracked, loose = self.memory.totals()
        return self._p_true(view, counts.get(last.rank, 0), tracked, self._unseen(view, loose))

    def _unseen(self, view: View, loose: int) -> int:
        """Cards this seat has not seen and does not track; ``loose``: ``self.memory.loose()``."""
        unseen = self.deck_size - len(view.hand or ()) - len(self.my_pile) - view.discard - loose
        return unseen if unseen > 0 else 0

    def _p_true(self, view: View, held: int, tracked: dict[str, int], unseen: int) -> float:
        """``p_true`` for a seat holding ``held`` cards of the rank claimed; ``tracked`` and
        ``unseen``: the memory's totals now (``CardMemory.totals``, ``_unseen``)."""
        last = view.last
        assert last is not None  # there is a claim to weigh
        p, rank, count = last.seat, last.rank, last.count
        memory = self.memory
        copies = self.copies
        mine = held + self.my_pile_ranks.get(rank, 0)
        if memory.groups:
            sure, maybe, excluded = memory.census(p, rank)
        else:
            sure = maybe = 0
            excluded = memory.discarded.get(rank, 0)
        unseen_rank = copies - mine - tracked.get(rank, 0)
        if unseen_rank < 0:
            unseen_rank = 0
        counts = view.hand_counts
        if counts is not None:
            size = counts[p]
        else:
            size = self.sizes[p]
            if size < 0:
                size = 0
        if last.none:
            if memory.only_in(p, rank):
                return 0.0
            return 1.0 - at_least(unseen, unseen_rank, size, 1)
        if count > copies - mine - excluded:
            return 0.0
        if last.size is not None and last.size != count:
            return 0.0
        need = count - sure - maybe // 2
        if need <= 0:
            have = 0.97
        else:
            unknown = size + (last.size if last.size is not None else count) - sure - maybe
            if unknown < 0:
                unknown = 0
            consumed = 0.0
            me = self.seat
            for s, r, n in self.pile_sets[:-1]:
                if r == rank and s != me:
                    consumed += 0.6 * n
            good = max(0, unseen_rank - int(consumed + 0.5))
            have = at_least(unseen, good, unknown, need)
            if self.free_claim:  # the claimant chose the rank: any rank he held enough of
                have = 1 - (1 - have) ** min(len(self.ranks), max(1, unknown))
        # How much more often this seat makes a claim of this count when it is true than when it
        # bluffs, from the sets of it revealed so far (and TRUTH_PRIOR).
        ratios = self._ratios[p]
        if ratios is None:
            ratios = self._ratios[p] = claim_ratios(self.truth[p])
        ratio = ratios[(count if count < 4 else 4) - 1]
        if have < 0.005:
            have = 0.005
        elif have > 0.995:
            have = 0.995
        odds = have / (1 - have) * ratio
        return odds / (1 + odds)

    # -- choosing -------------------------------------------------------------------------

    def decide(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        seat, hand_ = view.seat, view.hand
        assert seat is not None and hand_ is not None  # Bot.choose asks only a seat's own view
        if legal.discard_quads:
            return DiscardQuads(seat, legal.discard_quads)
        if not self.ranks:
            self._join(view)
        challenge = legal.challenge
        my_turn = view.turn == seat
        if not my_turn and challenge is None:
            return None
        held = "".join(hand_)[::2]  # the rank of each card held (a card: rank, then suit)
        counts: dict[str, int] = {}  # how many of each rank it holds
        for r in held:
            counts[r] = counts.get(r, 0) + 1
        tracked, loose = self.memory.totals()
        unseen = self._unseen(view, loose)
        last = view.last
        believe = legal.believe
        if last is not None and (challenge is not None or believe is not None):
            t = self._p_true(view, counts.get(last.rank, 0), tracked, unseen)
        else:
            t = 1.0
        pile = view.pile if view.pile is not None else self.pile_size
        first_wins = self._first_wins
        other_out = WIN if first_wins or view.players - len(view.out) <= 2 else OUT / 2
        claimant_empty = last is not None and (
            last.seat in view.waiting or (view.hand_counts is None and self.sizes[last.seat] <= 0)
        )
        if challenge is not None:
            ev_call = t * (-pile - (other_out if claimant_empty else 0)) + (1 - t) * (
                SHARE * pile + self._lead_after_call
            )
        sequence = self._sequence
        if not my_turn or sequence:
            # Off turn (an `anyone` window), or where a challenge does not replace laying
            # (``sequence``): challenge when it pays, by a margin drawn afresh each time so that
            # no two seats fall into a fixed cycle of calls.
            if challenge is not None:
                quiet = -other_out if claimant_empty else 0.0
                if ev_call > quiet + 0.5 + rng.random():
                    return Challenge(seat, challenge)
            if not my_turn:
                return None
        # the best answer so far: its value, and its kind ("": none yet; "lay": ``chosen``)
        best_value = 0.0
        best = ""
        chosen: Action | None = None
        if challenge is not None and not sequence:
            best_value, best = ev_call, "challenge"
        if believe is not None:
            gone = other_out if claimant_empty else 0.0
            ev_believe = t * (LEAD - gone) + (1 - t) * (-pile - gone)
            if not best or ev_believe > best_value:
                best_value, best = ev_believe, "believe"
        b = legal.lay
        if b is not None:
            penalty = other_out if claimant_empty and not self._covered else 0.0
            if claimant_empty and first_wins:
                penalty = WIN
            value, chosen = self._best_lay(view, held, counts, pile, tracked, unseen, rng)
            value -= penalty
            if not best or value > best_value:
                best_value, best = value, "lay"
            if legal.declare_none is not None and legal.declare_none not in held:
                value = -penalty
                if value > best_value:
                    best_value, best = value, "none"
        if best == "challenge" and challenge is not None:
            return Challenge(seat, challenge)
        if best == "believe" and believe is not None:
            return Believe(seat, believe)
        if best == "none":
            return DeclareNone(seat)
        return chosen if best == "lay" else None

    def _best_lay(
        self,
        view: View,
        held_ranks: str,
        counts: Mapping[str, int],
        pile: int,
        tracked: dict[str, int],
        unseen: int,
        rng: random.Random,
    ) -> tuple[float, Action]:
        """The set worth most, in cards, and its value: each claimable rank (where any rank may
        be claimed, the three it holds most of) at each size, its own cards of the rank first,
        then the cards it needs least; valued by the cards it sheds against the risk of being
        challenged (``_catchers``), and going out. ``held_ranks``: the rank of each card held,
        ``counts``: how many of each rank (every rank in it held at least once);
        ``tracked``, ``unseen``: as for ``_p_true``."""
        b = view.legal.lay
        hand_, seat = view.hand, view.seat
        assert b is not None and hand_ is not None and seat is not None  # decide: it may lay
        left = len(hand_)
        out_value = WIN if self._first_wins or view.players - len(view.out) <= 2 else OUT
        quiet, quiet_last, watchers = self._catchers(view)
        ranks: Sequence[str] = b.ranks
        if len(ranks) > 1:  # a free claim: the ranks it holds most of
            # by count, most first, then by rank (a stable sort of the ranks in order)
            ranks = sorted(sorted(counts), key=counts.__getitem__, reverse=True)[:3]
        lie_count = b.count_min is not None
        count_min = b.count_min or 0
        count_max = b.count_max or 0
        copies = self.copies
        random_ = rng.random
        lo = b.min
        hi = b.max if b.max < left else left
        best_value = -math.inf  # every value is finite: the first set considered beats it
        best = None
        for rank in ranks:
            held = counts.get(rank, 0)
            tails = None
            for k in range(lo, hi + 1):
                n_true = k if k < held else held
                if not lie_count:
                    claim = k
                else:
                    claim = n_true if n_true else 1
                    if not count_min <= claim <= count_max:
                        continue
                # how likely a false claim is challenged: by a seat that may challenge and
                # holds enough of the rank to know, or at that seat's rate of calls so far
                escape = quiet_last if k == left else quiet
                if claim > 1:
                    if tails is None:
                        unseen_rank = copies - held - self.my_pile_ranks.get(rank, 0) - tracked.get(rank, 0)
                        if unseen_rank < 0:
                            unseen_rank = 0
                        tails = []
                        for size in watchers:
                            tails.append(tails_for(unseen, unseen_rank, size))
                    need = copies - claim + 1
                    if need < 0:
                        need = 0  # at_least(..., need <= 0) is 1
                    for tail in tails:
                        escape *= 1 - tail[need]
                risk = 1 - escape
                if n_true == k and claim == k:
                    value = k + risk * SHARE * (pile + k)
                    if k == left:
                        value += out_value
                else:
                    value = k - risk * (pile + k)
                    if k == left:
                        value += (1 - risk) * out_value
                value += NOISE * random_()
                if value > best_value:
                    best_value = value
                    best = (rank, k, n_true, claim)
        assert best is not None  # the range of sizes is never empty
        rank, k, n_true, claim = best
        cards = _first_of(hand_, held_ranks, rank, n_true)
        if n_true < k:  # a bluff: its cards of the rank, then the cards it needs least
            # the ranks it holds, the one it needs least first, then by rank (stable sorts)
            spare = sorted(counts)
            need_more = self._needs(view)
            if need_more:
                spare.sort(key=lambda r: need_more.get(r, 0) + counts[r])
            else:
                spare.sort(key=counts.__getitem__)
            for r in spare:
                if len(cards) == k:
                    break
                if r != rank:
                    cards += _first_of(hand_, held_ranks, r, k - len(cards))
        # _play.lay, inline: the claimed count is sent only where counts may lie
        return best_value, LaySet(
            seat=seat, cards=tuple(cards), rank=rank, count=claim if lie_count else None
        )

    def _catchers(self, view: View) -> tuple[float, float, list[int]]:
        """Who may challenge a set of this seat's: the chance none of them calls at its rate of
        calls so far (on a set; on a set that empties this seat's hand), and their hand sizes."""
        me = self.seat
        out = self.out
        counts = view.hand_counts
        if not self._anyone:  # one catcher: the next seat
            s = _next_seat(view, me, out)
            called = self.calls[s]
            could = self.chances[s]
            size = counts[s] if counts is not None else self.sizes[s]
            return 1 - called[0] / could[0], 1 - called[1] / could[1], [size if size > 0 else 0]
        quiet = quiet_last = 1.0
        calls = self.calls
        chances = self.chances
        sizes = self.sizes
        watchers = []
        for s in range(self.players):
            if s == me or s in out:
                continue
            called = calls[s]
            could = chances[s]
            quiet *= 1 - called[0] / could[0]
            quiet_last *= 1 - called[1] / could[1]
            if counts is not None:
                watchers.append(counts[s])
            else:
                size = sizes[s]
                watchers.append(size if size > 0 else 0)
        return quiet, quiet_last, watchers

    def _needs(self, view: View) -> dict[str, float]:
        """How much each rank is worth keeping beyond its count: the ranks this seat will have
        to claim on its next turns where the order is fixed (docs/RULES.md, ``rank_order``)."""
        order = self.rules.rank_order
        if order not in ("ascending", "descending") or not view.ranks:
            return {}
        step = 1 if order == "ascending" else -1
        ranks = self.ranks
        active = max(1, view.players - len(view.out))
        at = ranks.index(view.ranks[0]) if len(view.ranks) == 1 else 0
        return {ranks[(at + step * active * k) % len(ranks)]: 3.0 / k for k in range(1, 4)}


def _first_of(hand: tuple[str, ...], held_ranks: str, rank: str, n: int) -> list[str]:
    """The first ``n`` cards of ``rank`` in ``hand`` (fewer if it holds fewer); ``held_ranks``:
    the rank of each card of ``hand``."""
    cards: list[str] = []
    at = held_ranks.find(rank)
    while at >= 0 and len(cards) < n:
        cards.append(hand[at])
        at = held_ranks.find(rank, at + 1)
    return cards


def _next_seat(view: View, seat: int, out: set[int]) -> int:
    """The next active seat after ``seat`` (docs/RULES.md: "next" is the next active seat clockwise)."""
    n = view.players
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s not in out and s not in view.out:
            return s
    return seat
