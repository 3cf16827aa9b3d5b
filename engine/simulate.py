"""Bots-only deals, many of them, seeded: the simulator behind ``neveryu simulate``.

Pure: no I/O, no clock of its own (pass ``clock`` to measure deals per second). Each deal is
played by one bot per seat (``engine.bots``) that sees only its seat's view and projected events;
the referee of docs/RULES.md, "Timing rules", is played without time by ``BotDeal``
(engine/_bot_deal.py).

Strengths rotate: the dealer moves as a ``Match`` moves it, and in deal ``i`` (0-based) the seat
``p`` places left of the dealer (``p = (seat - dealer) % players``) is played by
``lineup[(p + i) % players]``, so over any ``players`` deals in a row each strength sits once at
each place from the dealer (who leads, who answers whom), whatever rule moves the dealer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ._bot_deal import BotDeal, Violation
from ._events import DealEnded
from ._match import Match
from ._rules import Rules
from .bots import make_bot, strength_of

ACTION_CAP = 20_000
"""A deal still running after this many applied actions (lays, calls, quads, window closings) is
stopped and counted unfinished. Seeded deals of every variant with every strength end far
sooner (``SimulationResult.longest`` tells by how much), so reaching it means bots caught in a
cycle or a deal that cannot end."""

MAX_VIOLATION_NOTES = 10
"""How many invariant violations ``SimulationResult.violations`` describes in words."""


@attrs.frozen
class StrengthResult:
    """How one strength did: ``seats`` seat-deals played (one per seat per completed deal),
    ``wins`` (``first_wins``: deals it won), ``losses`` (``last_loses``: deals it lost), ``score``
    (the sum of its seats' score changes, docs/RULES.md ``scoring``: deals lost for ``losses``,
    chips won less chips paid for ``chips_per_player`` and ``chips_per_card``, 0 for ``none``)."""

    seats: int = 0
    wins: int = 0
    losses: int = 0
    score: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def loss_rate(self) -> float:
        return self.losses / self.seats if self.seats else 0.0


@attrs.frozen
class SimulationResult:
    """The figures of one simulation.

    ``deals``: deals asked for; ``completed``: deals that ended; ``unfinished``: stopped at
    ``ACTION_CAP`` or by a violation; ``actions``: actions applied in completed deals;
    ``longest``: the most in one of them;
    ``invariant_violations``: failed checks (0 when checks were off); ``violations``: the first
    few in words; ``bot_errors``: bot answers that were None or illegal when the seat had to act;
    ``result`` and ``scoring``: the variant's (docs/RULES.md), what ``wins``, ``losses`` and
    ``score`` mean; ``strengths``: per strength; ``seconds`` and ``deals_per_s``: None without a clock.
    """

    variant: str
    players: int
    deals: int
    seed: int
    lineup: tuple[str, ...]
    checked: bool
    completed: int
    unfinished: int
    actions: int
    longest: int
    invariant_violations: int
    violations: tuple[str, ...]
    bot_errors: int
    result: str
    scoring: str
    strengths: dict[str, StrengthResult]
    seconds: float | None
    deals_per_s: float | None

    @property
    def actions_per_deal(self) -> float:
        return self.actions / self.completed if self.completed else 0.0

    @property
    def ok(self) -> bool:
        """True when every deal ended, no check failed and no bot erred."""
        return self.completed == self.deals and not self.invariant_violations and not self.bot_errors

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``neveryu simulate --json``)."""
        return {
            "variant": self.variant,
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "bots": list(self.lineup),
            "checked": self.checked,
            "completed": self.completed,
            "unfinished": self.unfinished,
            "actions": self.actions,
            "actions_per_deal": round(self.actions_per_deal, 2),
            "longest": self.longest,
            "invariant_violations": self.invariant_violations,
            "violations": list(self.violations),
            "bot_errors": self.bot_errors,
            "result": self.result,
            "scoring": self.scoring,
            "strengths": {
                name: {
                    "seats": r.seats,
                    "wins": r.wins,
                    "losses": r.losses,
                    "win_rate": round(r.win_rate, 4),
                    "loss_rate": round(r.loss_rate, 4),
                    "score": r.score,
                }
                for name, r in self.strengths.items()
            },
            "seconds": None if self.seconds is None else round(self.seconds, 3),
            "deals_per_s": None if self.deals_per_s is None else round(self.deals_per_s, 1),
        }


def parse_lineup(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    """One strength per seat from ``bots``: a comma list (or sequence) of ``players`` levels or
    strengths (``bots.strength_of``: ``hard`` or ``sharp``), or one for every seat. Raises
    ValueError for an unknown level or a wrong count."""
    names = [strength_of(b) for b in (bots.split(",") if isinstance(bots, str) else bots)]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} strengths for {players} seats; give one or {players}")
    return tuple(names)


class _Tally:
    def __init__(self, lineup: Sequence[str]) -> None:
        self.by = {name: [0, 0, 0, 0] for name in dict.fromkeys(lineup)}

    def add(self, strengths: Sequence[str], end: DealEnded) -> None:
        for seat, name in enumerate(strengths):
            row = self.by[name]
            row[0] += 1
            row[1] += end.winner == seat
            row[2] += end.loser == seat
            row[3] += end.scores[seat]

    def result(self) -> dict[str, StrengthResult]:
        return {name: StrengthResult(*row) for name, row in self.by.items()}


def simulate(
    rules: Rules,
    players: int,
    deals: int,
    seed: int,
    bots: str | Sequence[str] = "sharp",
    *,
    check: bool = True,
    clock: Callable[[], float] | None = None,
) -> SimulationResult:
    """Play ``deals`` deals of ``rules`` at ``players`` seats, seeded by ``seed``.

    ``bots``: see ``parse_lineup``. ``check``: after every applied action, check the card
    invariant (``Deal.check_invariant``) and that the deal is in a playable state (someone may
    act, or it ended with a loser or winner); a failed check ends that deal, unfinished.
    ``clock``: a seconds counter such as ``time.perf_counter`` to time the run.

    The same arguments give the same result (figures other than time). Raises ValueError for a
    seat count the variant does not allow or a bad ``bots``.
    """
    lineup = parse_lineup(bots, players)
    match = Match(rules, players, random.Random(seed))
    bot_rng = random.Random(seed + 1)
    tally = _Tally(lineup)
    completed = unfinished = actions = longest = bot_errors = violations = 0
    notes: list[str] = []
    start = clock() if clock else None
    for i in range(deals):
        game = _Game(rules, match, lineup, i, bot_rng, check)
        strengths = game.strengths
        try:
            end = game.play()
        except Violation as e:
            violations += 1
            if len(notes) < MAX_VIOLATION_NOTES:
                notes.append(f"deal {i}: {e}")
            end = None
        bot_errors += game.bot_errors
        if end is None:
            unfinished += 1
            match.deal = None
            continue
        match.finish(game.deal)
        completed += 1
        actions += game.deal.actions
        longest = max(longest, game.deal.actions)
        tally.add(strengths, end)
    seconds = clock() - start if clock is not None and start is not None else None
    return SimulationResult(
        variant=rules.name,
        players=players,
        deals=deals,
        seed=seed,
        lineup=lineup,
        checked=check,
        completed=completed,
        unfinished=unfinished,
        actions=actions,
        longest=longest,
        invariant_violations=violations,
        violations=tuple(notes),
        bot_errors=bot_errors,
        result=rules.result,
        scoring=rules.scoring,
        strengths=tally.result(),
        seconds=seconds,
        deals_per_s=(completed / seconds if seconds else None) if clock else None,
    )


class _Game(BotDeal):
    """Deal number ``index`` of ``match`` played by bots (``strengths[seat]``, see the module
    docstring); ``play()`` returns its ``DealEnded``, or None at the cap."""

    def __init__(
        self, rules: Rules, match: Match, lineup: Sequence[str], index: int, rng: random.Random, check: bool
    ) -> None:
        deal, opening = match.start()
        n = deal.players
        self.strengths = [lineup[((seat - deal.dealer) % n + index) % n] for seat in range(n)]
        bots = [make_bot(name, seat, rules, n) for seat, name in enumerate(self.strengths)]
        super().__init__(deal, opening, bots, rng, check)

    def play(self) -> DealEnded | None:  # type: ignore[override]
        return self.end if super().play(ACTION_CAP) else None
