"""``expert``: determinized search over ``sharp``'s choices (Long, Sturtevant, Buro, Furtak,
AAAI-10: Perfect Information Monte Carlo sampling).

When ``sharp`` would lay a set, it lists a few candidate sets (``sharp``'s, the truthful sets
it holds, a small bluff per rank, declaring none), samples the cards it cannot see consistently with what
its seat has seen (engine/bots/_sample.py), and plays each candidate forward in every sample
with ``sharp`` bots at every seat until the round after it ends (the pile taken or discarded),
valuing the outcome in cards as ``sharp`` does. The candidate worth most over the samples wins;
the same samples serve every candidate. Heads-up (two seats left) it plays as ``sharp``: the
sampled seats know less of its hand than the real ones (cards revealed and taken back), and the
search bluffed into cycles of calls. Its calls (challenge, believe) are ``sharp``'s rule (searched
too, they played worse in the arena) on its own estimate of the claim: ``sharp``'s, calibrated
by the sets revealed so far (``calibrated``, docs/BOTS.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from .._actions import Action, DeclareNone, LaySet
from .._bot_deal import BotDeal
from .._errors import RuleViolation
from .._events import DealStarted, SetRevealed
from .._rules import Rules
from .._view import View
from .._world import world
from ._sample import Placement, sample
from ._sharp import NOISE, OUT, SHARE, WIN, SharpBot

BUDGET_S = 0.5
"""How long one decision may search, in seconds (inside a table's default bot delay, 0.9 s)."""

SAMPLES = 16
"""The most samples one decision plays (each candidate once per sample)."""

HORIZON = 60
"""The most actions one playout applies."""

ROUNDS = 2
"""A playout ends when this many piles have been taken or discarded after the candidate."""

PRIOR = 0.5
"""How much ``sharp``'s own choice is worth over the others before the samples speak, in cards."""

BANDS = (0.1, 0.3, 1.0)
"""The bands of estimates of a claim (upper bounds) calibrated apart: how far ``sharp``'s
estimates are off differs along the range (low ones far too low in every variant, high ones
near or above the truth), and the sets revealed are mostly those estimated low."""


class ExpertBot(SharpBot):
    """The strongest bot (module docstring). ``budget_s`` and ``samples`` bound each decision;
    ``clock`` (seconds) times it, or None: ``samples`` alone bounds it (the same choices on any
    machine, as the arena needs)."""

    strength = "expert"

    def __init__(
        self,
        seat: int,
        rules: Rules,
        players: int,
        *,
        budget_s: float = BUDGET_S,
        samples: int = SAMPLES,
        clock: Callable[[], float] | None = time.perf_counter,
    ) -> None:
        super().__init__(seat, rules, players)
        self.budget_s = budget_s
        self.samples = samples
        self.clock = clock
        # calibration of its estimates of claims (``_p_true``): the estimate it made of each
        # set still unrevealed, by set number; per band of estimates (``BANDS``), over the
        # revealed sets it had estimated in that band: how many, how many true, the sum of
        # its estimates
        self._estimates: dict[int, float] = {}
        self.reveals: list[tuple[int, int, float]] = [(0, 0, 0.0)] * len(BANDS)

    # -- calibrated estimates ---------------------------------------------------------------

    def _p_true(self, view: View, held: int, tracked: dict[str, int], unseen: int) -> float:
        """``sharp``'s estimate of the last claim, corrected by how far the estimates of its band
        (``BANDS``) were off over the sets revealed so far in its deals (``calibrated``). A claim
        its memory proves false stays 0."""
        t = super()._p_true(view, held, tracked, unseen)
        last = view.last
        if last is None or t <= 0.0 or t >= 1.0:
            return t
        self._estimates[last.set_no] = t
        return calibrated(t, *self.reveals[_band(t)])

    def _on_revealed(self, e: SetRevealed) -> None:
        super()._on_revealed(e)
        t = self._estimates.pop(e.set_no, None)
        if t is not None and e.seat != self.seat:
            band = _band(t)
            revealed, true, expected = self.reveals[band]
            self.reveals[band] = (revealed + 1, true + e.claim_true, expected + t)

    def _on_deal_started(self, e: DealStarted) -> None:
        super()._on_deal_started(e)
        self._estimates = {}  # set numbers start again; what it learned of its estimates stays

    def quick(self, view: View, rng: random.Random) -> Action | None:
        """``sharp``'s choice, with no search."""
        if view.over or view.seat is None or not view.legal:
            return None
        return super().decide(view, rng)

    def decide(self, view: View, rng: random.Random) -> Action | None:
        choice = super().decide(view, rng)
        if view.turn != view.seat or choice is None or view.legal.discard_quads:
            return choice
        if type(choice) is not LaySet or view.players - len(view.out) <= 2:
            return choice
        candidates = self._candidates(view, choice)
        if len(candidates) < 2:
            return choice
        return self._search(view, candidates, rng)

    def _candidates(self, view: View, choice: Action) -> list[Action]:
        """``choice`` (a set) first, then the other answers worth a look (no two alike)."""
        seat, hand_ = view.seat, view.hand
        assert seat is not None and hand_ is not None
        legal = view.legal
        found: list[Action] = [choice]
        if legal.declare_none is not None:
            found.append(DeclareNone(seat))
        b = legal.lay
        if b is not None:
            counts: dict[str, int] = {}
            for c in hand_:
                counts[c[0]] = counts.get(c[0], 0) + 1
            ranks = b.ranks if len(b.ranks) == 1 else sorted(counts, key=counts.__getitem__)[-3:]
            lie = b.count_min is not None
            for rank in ranks:
                mine = [c for c in hand_ if c[0] == rank][: b.max]
                if len(mine) >= b.min:
                    found.append(LaySet(seat, tuple(mine), rank, len(mine) if lie else None))
                spare = sorted((c for c in hand_ if c[0] != rank), key=lambda c: counts[c[0]])
                need = max(b.min - len(mine), 1) if len(mine) < b.max else 0
                # a small bluff (the fewest cards it may add) and, where sets may be larger, a
                # large one (up to the most cards a set may hold)
                for extra in {need, min(len(spare), b.max - len(mine))} if need else ():
                    if not extra or len(spare) < extra:
                        continue
                    cards = tuple(mine[: b.max - extra] + spare[:extra])
                    if lie:
                        found.append(LaySet(seat, cards, rank, max(b.count_min or 1, len(mine) or 1)))
                    found.append(LaySet(seat, cards, rank, len(cards) if lie else None))
        unique: list[Action] = []
        for a in found:
            if a not in unique:
                unique.append(a)
        return unique

    def _search(self, view: View, candidates: list[Action], rng: random.Random) -> Action:
        """The candidate worth most over samples played forward (module docstring)."""
        clock = self.clock
        start = clock() if clock is not None else 0.0
        budget = self.budget_s if self.budget_s is not None else BUDGET_S
        p_true = self.p_true(view, _counts(view)) if view.last is not None else 1.0
        totals = [0.0] * len(candidates)
        played = 0
        while played < self.samples:
            if played and clock is not None:  # another sample only if it should end within the budget
                spent = clock() - start
                if spent + spent / played > budget:
                    break
            placed = sample(self, view, p_true, rng)
            seed = rng.getrandbits(32)
            for i, action in enumerate(candidates):
                totals[i] += self._playout(view, placed, action, random.Random(seed))
            played += 1
        # sharp's choice (first) keeps a head start; a little noise, as sharp's own, keeps two
        # seats out of a fixed cycle of the same sets and calls
        totals[0] += PRIOR * played
        for i in range(len(totals)):
            totals[i] += NOISE * played * rng.random()
        best = max(range(len(candidates)), key=totals.__getitem__)
        return candidates[best]

    def _playout(self, view: View, placed: Placement, action: Action, rng: random.Random) -> float:
        """``action`` played in the sampled deal ``placed``, then ``sharp`` at every seat for
        ``ROUNDS`` rounds (at most ``HORIZON`` actions): its value in cards to this seat."""
        try:
            deal = world(
                self.rules,
                view,
                placed.hands,
                placed.pile,
                placed.last_cards,
                placed.discard,
                placed.hidden,
                placed.set_aside,
                placed.stock,
            )
        except RuleViolation:
            return 0.0
        n = deal.players
        bots = [self._player(s, deal.view(s)) for s in range(n)]
        game = BotDeal(deal, [], bots, rng, False)
        me = self.seat
        try:
            game.apply(action)
        except RuleViolation:
            return -1000.0
        game.play(HORIZON, ROUNDS)
        return _value(deal, me, self._first_wins)

    def _player(self, seat: int, view: View) -> SharpBot:
        """A ``sharp`` bot for ``seat`` of a sampled deal, starting from ``view`` and from what
        this seat knows of every seat's play (public: how often each bluffed and called)."""
        bot = SharpBot(seat, self.rules, view.players)
        bot._join(view)
        bot.truth = [[pair[:] for pair in rows] for rows in self.truth]
        bot._ratios = list(self._ratios)
        bot.calls = [row[:] for row in self.calls]
        bot.chances = [row[:] for row in self.chances]
        return bot


def _band(t: float) -> int:
    """The band of ``BANDS`` that estimate ``t`` (0 < t < 1) falls in."""
    return next(i for i, top in enumerate(BANDS) if t < top)


def calibrated(t: float, revealed: int, true: int, expected: float) -> float:
    """``t`` (0 < t < 1) with its odds multiplied by the odds of the claims found true over the
    odds its estimates gave them: ``revealed`` sets estimated, ``true`` of them true, ``expected``
    the sum of their estimates (one pseudo-set of each kind on both sides, so no reveal leaves
    ``t`` as it is). The estimates assume a claimant's cards are random; players keep the ranks
    they will claim, so claims are true more often than that (``sharp`` challenged claims it
    put at 2 % that were true 46 % of the time in ``hoyle-three``)."""
    factor = ((true + 1) / (revealed - true + 1)) / ((expected + 1) / (revealed - expected + 1))
    odds = t / (1 - t) * factor
    return odds / (1 + odds)


def _counts(view: View) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in view.hand or ():
        counts[c[0]] = counts.get(c[0], 0) + 1
    return counts


def _value(deal: object, me: int, first_wins: bool) -> float:
    """The deal's state to seat ``me``, in cards (``sharp``'s weights): cards it holds count
    against it, cards others hold ``SHARE`` each for it, going out ``OUT``, the result ``WIN``."""
    from .._deal import Deal

    assert isinstance(deal, Deal)
    if deal.over:
        if deal.winner == me or (deal.loser is not None and deal.loser != me):
            return WIN
        return -WIN
    value = -len(deal.hands[me]) + SHARE * sum(len(h) for s, h in enumerate(deal.hands) if s != me)
    if me in deal.out:
        value += WIN if first_wins else OUT
    return value
