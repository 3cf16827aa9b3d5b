"""Bots-only deals, many of them, seeded: the simulator behind ``neveryu simulate``.

Pure: no I/O, no clock of its own (pass ``clock`` to measure deals per second). Each deal is
played by one bot per seat (``engine.bots``) that sees only its seat's view and projected events;
the simulator plays the referee of docs/RULES.md, "Timing rules", without time:

- after each set in an `anyone` variant every other active seat is asked (``choose``) whether it
  challenges; one or more challenges are applied together as ``Challenges(seats, set_no)`` (the
  engine settles ties by seat order), else ``CloseWindow(set_no)`` and the seat to act lays the
  set it chose;
- after a pile is taken with ``quads = after_taking`` the taker is asked at once, before the
  next set is laid (which ends his right, docs/RULES.md `verish`), whether it discards quads, when it
  is not the seat to act (the seat to act is asked on its turn anyway); a taker that keeps them
  lets the right lapse with the next set;
- the seat to act is asked for its action; a bot that answers None or an illegal action is
  played by ``Timeout(seat, action)`` with a random turn action (``random_turn_action``, as a
  server does when the away bot's choice is unusable) and counted in ``bot_errors``.

Strengths rotate: the dealer moves as a ``Match`` moves it, and in deal ``i`` (0-based) the seat
``p`` places left of the dealer (``p = (seat - dealer) % players``) is played by
``lineup[(p + i) % players]``, so over any ``players`` deals in a row each strength sits once at
each place from the dealer (who leads, who answers whom), whatever rule moves the dealer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

import attrs

from ._actions import Action, Challenge, Challenges, CloseWindow, DiscardQuads, Timeout
from ._cards import quad_ranks
from ._errors import RuleViolation
from ._events import PUBLIC, DealEnded, Event, OwnedEvent, PileTaken, project
from ._match import Match
from ._rules import Rules
from ._timeout import random_turn_action
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
    (the sum of its seats' score changes, docs/RULES.md ``scoring``)."""

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
    ``strengths``: per strength; ``seconds`` and ``deals_per_s``: None without a clock.
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


class _Violation(Exception):
    pass


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
        except _Violation as e:
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
        strengths=tally.result(),
        seconds=seconds,
        deals_per_s=(completed / seconds if seconds else None) if clock else None,
    )


class _Game:
    """Deal number ``index`` of ``match`` played by bots (``strengths[seat]``, see the module
    docstring); ``play()`` returns its ``DealEnded``, or None at the cap."""

    def __init__(
        self, rules: Rules, match: Match, lineup: Sequence[str], index: int, rng: random.Random, check: bool
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.check = check
        self.deal, opening = match.start()
        n = self.deal.players
        dealer = self.deal.dealer
        self.strengths = [lineup[((seat - dealer) % n + index) % n] for seat in range(n)]
        self.bots = [make_bot(name, seat, rules, n) for seat, name in enumerate(self.strengths)]
        self.bot_errors = 0
        self.end: DealEnded | None = None
        # event class -> (seat, handler) of each bot that observes it
        self._watchers: dict[type[Event], list[tuple[int, Callable[[Event], None]]]] = {}
        self._feed(opening)

    def _feed(self, events: list[Event]) -> None:
        """Give each bot its seat's copy of each event it observes (``Bot.observes``: observing
        any other event does nothing), projecting once per distinct copy (``Event.projection``)
        and calling each bot's handler directly (``Bot.handler``)."""
        public = self.rules.hand_counts_public
        watchers = self._watchers
        for e in events:
            cls = type(e)
            fed = watchers.get(cls)
            if fed is None:
                fed = watchers[cls] = [
                    (seat, handle)
                    for seat, bot in enumerate(self.bots)
                    if (handle := bot.handler(cls)) is not None
                ]
            if fed:
                projection = cls.projection
                if projection == PUBLIC:  # every seat sees this event whole
                    for _, handle in fed:
                        handle(e)
                elif isinstance(e, OwnedEvent):  # its seat sees it whole, the others one same copy
                    owner = e.seat
                    other = e.for_seat(None, public)  # = project(e, None, public)
                    for seat, handle in fed:
                        if seat == owner:
                            handle(e)
                        elif other is not None:
                            handle(other)
                else:
                    for seat, handle in fed:
                        seen = project(e, seat, public)
                        if seen is not None:
                            handle(seen)
            if type(e) is DealEnded:
                self.end = e

    def _apply(self, action: Action) -> list[Event]:
        events = self.deal.apply(action)
        self._feed(events)
        if self.check:
            self._check()
        return events

    def _check(self) -> None:
        deal = self.deal
        try:
            deal.check_invariant()
        except AssertionError as e:
            raise _Violation(str(e)) from None
        if deal.over:
            if (deal.loser is None) == (deal.winner is None) or self.end is None:
                raise _Violation("the deal ended without exactly one loser or winner")
        elif deal.turn in deal.out or not deal.legal_actions(deal.turn):
            raise _Violation(f"seat {deal.turn} is to act but may do nothing")

    def play(self) -> DealEnded | None:
        deal = self.deal
        anyone = self.rules.challengers == "anyone"
        after_taking = self.rules.quads == "after_taking"
        while not deal.over:
            if deal.actions >= ACTION_CAP:
                return None
            turn_action: Action | None = None
            if anyone and deal.window_open:
                asked = self._window()
                if asked is False or deal.over:
                    continue
                turn_action = asked
            seat = deal.turn
            if turn_action is None:
                turn_action = self.bots[seat].choose(deal.view(seat), self.rng)
            events = self._act(seat, turn_action)
            if (
                after_taking
                and deal.quads_offer is not None
                and not deal.over
                and any(type(e) is PileTaken for e in events)
            ):
                self._offer_quads(deal.quads_offer)
        return self.end

    def _act(self, seat: int, action: Action | None) -> list[Event]:
        if action is not None:
            try:
                return self._apply(action)
            except RuleViolation:
                pass
        self.bot_errors += 1
        return self._apply(Timeout(seat=seat, action=random_turn_action(self.deal.view(seat), self.rng)))

    def _window(self) -> Action | Literal[False] | None:
        """Ask every other active seat about the last set. Returns False when a challenge was
        applied, else the action the seat to act chose (None: ask it again)."""
        deal = self.deal
        last = deal.last
        assert last is not None  # a window is open: its set is the last
        turn = deal.turn
        challengers = []
        turn_action = None
        for seat, bot in enumerate(self.bots):
            if seat == last.seat or seat in deal.out:
                continue
            action = bot.choose(deal.view(seat), self.rng)
            if type(action) is Challenge:
                challengers.append(seat)
            elif seat == turn:
                turn_action = action
        if challengers:
            self._apply(Challenges(tuple(challengers), last.set_no))
            return False
        self._apply(CloseWindow(last.set_no))
        return turn_action

    def _offer_quads(self, seat: int) -> None:
        deal = self.deal
        if seat == deal.turn or not quad_ranks(deal.hands[seat]):  # legal.discard_quads, the taker's
            return
        action = self.bots[seat].choose(deal.view(seat), self.rng)
        if type(action) is DiscardQuads:
            try:
                self._apply(action)
            except RuleViolation:
                self.bot_errors += 1
