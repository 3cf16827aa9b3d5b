"""The referee: the timing rules of docs/RULES.md ("Timing rules") over one deal.

A real table settles by voice who spoke first; here the referee does, on a clock. It is the one
place where a deal's actions are applied: a seat's action (``act``) and what a deadline does
(``fired``) both return the engine's events, which the table then sends; it keeps every action
the deal accepted, with its time (``applied``), for the deal's record. Its deadlines
(``Timers``, on the clock it is given, so it is tested alone on ``trio.testing.MockClock`` or any
callable):

- ``window``: the challenge window of the last set (`anyone` variants). When it closes the
  referee applies ``CloseWindow(set_no)`` (a set laid early is then applied), unless a challenge
  group is collecting.
- ``tie``: the first valid challenge of the last set opens the tie window; challenges of the
  same set that arrive before it closes join the group; when it closes the engine settles the
  group (``Challenges(seats, set_no)``: the seat nearest the claimant's left wins). While a group
  collects, no set is applied: one that arrives is refused (``CHALLENGE_PENDING``), since the
  challenge came first and will reveal the set it would cover.
- ``quads``: the quads window (docs/RULES.md `verish`, **Decision**): after every take by a seat a
  person plays (``by_bot`` false), whatever he holds, the referee opens it
  (``OpenQuadsWindow``): the next set waits, held, while the taker may discard quads. The
  taker's discard or decline closes it (and a held set is laid); at a timed table (``turn_ms``
  not 0) so does the end of its time, ``quads_window_ms`` (``CloseQuadsWindow``). At an untimed
  table it has no time: nobody loses a right to a clock he was not shown. Its time, or its lack
  of one, is the table's, never the taker's hand's.
- ``turn``: the turn time limit of a seat a person plays; when it runs out the seat's bot (the
  one that plays it while it is away) chooses for it, else a random turn action is made
  (``engine.timeout_for``), and the engine applies ``Timeout(seat, action)``: what is done for
  a player who ran out of time cannot be predicted from his hand. The table marks him away.
- ``think``: the bot chooses that move ahead of the ``turn`` deadline (half ``bot_delay_ms``
  before it, at most half the turn time), so that the move comes exactly when the time runs out
  whatever it is: how long choosing took, which may differ between a true set and a bluff,
  shows in no event's time. When what the seat may do has changed since, the bot
  chooses again at the deadline.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from neveryu import engine

from ._settings import TableError, TableSettings
from ._timers import REFEREE_DEADLINES, Deadline, TimerKey, Timers
from .records.deal_record import Applied

log = logging.getLogger("neveryu.server")


class Referee:
    """The timing rules over ``deal`` with ``settings``' times, its deadlines in ``timers`` (its
    table's, or a ``Timers`` of its own on any clock: ``REFEREE_DEADLINES`` are the referee's).
    A deal restored from the journal (``_restore``) comes with the actions it had ``applied``
    (replayed on ``deal`` already), the last of them ``elapsed_ms`` after the deal's start: its
    times go on from there; ``resume`` then starts its deadlines.

    ``by_bot(seat)`` tells whether a bot plays a seat now (a bot's turn is not timed);
    ``choose(seat)`` is what that seat's bot would do now (None: nothing), asked when the seat's
    turn time runs out; ``rng`` makes the random turn action when the bot's answer will not do.
    """

    def __init__(
        self,
        deal: engine.Deal,
        settings: TableSettings,
        *,
        timers: Timers,
        by_bot: Callable[[int], bool],
        choose: Callable[[int], engine.Action | None],
        rng: random.Random,
        applied: Applied | None = None,
        elapsed_ms: int = 0,
    ) -> None:
        self.deal = deal
        self.settings = settings
        self.rules = deal.rules
        self.timers = timers
        self.by_bot = by_bot
        self.choose = choose
        self.rng = rng
        self.tie: list[int] = []  # the seats of the challenge group collecting, first one first
        self.tie_set: int | None = None  # the set they challenge
        self._window_set: int | None = None  # the set whose challenge window is timed
        # (seat, what it may do, its bot's choice) made by ``think`` for the running turn time
        self.thought: tuple[int, engine.Legal, engine.Action | None] | None = None
        self.started = timers.clock() - elapsed_ms / 1000
        # Every action the deal accepted, with its time in ms from the deal's start, kept packed
        # (``Applied``): the deal's record (``records.deal_record``) replays them exactly.
        self.applied = applied if applied is not None else Applied()

    # -- what the table asks ------------------------------------------------------------------

    def begin(self, opening: list[engine.Event]) -> list[engine.Event]:
        """The deal's ``opening`` events (``Match.start``), with its first turn timed."""
        return self._applied(opening)

    def act(self, action: engine.Action) -> list[engine.Event]:
        """A seat's action, under the timing rules: the events it caused now (none when a
        challenge joined a group that the tie window settles later). Raises the engine's
        ``RuleViolation``, or ``TableError("CHALLENGE_PENDING")`` for a set that arrives while a
        challenge group collects; either way nothing changed."""
        deal = self.deal
        if deal.over:
            raise engine.DealOver(getattr(action, "seat", None), action, "the deal is over")
        if (
            isinstance(action, engine.Challenge)
            and self.rules.challengers == "anyone"
            and self._collect(action)
        ):
            return []
        made = action.action if isinstance(action, engine.Timeout) else action
        if self.tie_set is not None and isinstance(made, (engine.LaySet, engine.DeclareNone)):
            deal.check(action)  # a set the rules refuse anyway gets the rules' answer
            raise TableError(
                "CHALLENGE_PENDING",
                f"set {self.tie_set} was challenged first; it is revealed before any set is laid",
            )
        return self._apply(action)

    def fired(self, kind: Deadline) -> list[engine.Event]:
        """The deadline ``kind`` (one of ``REFEREE_DEADLINES``) has passed: what it does, and its
        events."""
        if self.deal.over:
            return []
        return _FIRES[kind](self)

    def turn_time_ms(self, seat: int) -> int | None:
        """The turn time a ``turn`` of ``seat`` announces: None where turns are untimed or a
        bot plays the seat."""
        if not self.settings.turn_ms or self.by_bot(seat):
            return None
        return self.settings.turn_ms

    def quads_time_ms(self) -> int | None:
        """The time limit of a quads window, in ms, that ``quads_window_opened`` announces: None
        at an untimed table (``turn_ms`` 0), where it lasts until the taker discards or declines
        (docs/RULES.md, `verish`)."""
        return self.settings.quads_window_ms if self.settings.turn_ms else None

    def turn_ms_left(self) -> int | None:
        """What is left of the running turn time, in ms (None: no turn is timed)."""
        at = self.timers.deadline(TimerKey(Deadline.TURN))
        if at is None:
            return None
        return max(0, int((at - self.timers.clock()) * 1000))

    def restart_turn(self) -> None:
        """The seat to act came back from away: its turn time starts afresh."""
        self._time_turn()

    def resume(self) -> None:
        """The deal was restored from the journal (``_restore``): its deadlines start afresh,
        each with its whole time (docs/PROTOCOL.md, "Across a server restart"): the challenge
        window of the last set, the quads window, the turn. A challenge group that was
        collecting is not in the journal (it was no action yet): the set may be challenged
        again."""
        deal = self.deal
        if deal.over:
            return
        if deal.quads_window is not None:
            self._time_quads()
        if deal.window_open and deal.last is not None:
            self._window_set = deal.last.set_no
            self.timers.start(TimerKey(Deadline.WINDOW), self.settings.challenge_window_ms)
        self._time_turn()
        if deal.held is not None and deal.held.seat == deal.turn:
            self.timers.cancel(TimerKey(Deadline.TURN))

    def stop(self) -> None:
        """The deal is over (or the table closes): no deadline of it fires any more."""
        self.timers.clear(_referees)
        self.tie, self.tie_set = [], None

    # -- applying -----------------------------------------------------------------------------

    def _apply(self, action: engine.Action) -> list[engine.Event]:
        return self._applied(self._applied_now(action))

    def _applied_now(self, action: engine.Action) -> list[engine.Event]:
        """``deal.apply(action)``, and the action noted for the deal's record."""
        events = self.deal.apply(action)
        self.applied.append(int((self.timers.clock() - self.started) * 1000), action)
        return events

    def _applied(self, events: list[engine.Event]) -> list[engine.Event]:
        """Bring the deadlines up to date with what ``events`` did to the deal (and open a quads
        window after a take, adding its events)."""
        deal = self.deal
        if deal.over:
            self.stop()
            return events
        taker = deal.quads_offer
        if (
            taker is not None
            and deal.quads_window is None
            and self.settings.quads_window_ms
            and not self.by_bot(taker)
            and any(type(e) is engine.PileTaken for e in events)
        ):
            events = events + self._applied_now(engine.OpenQuadsWindow(taker))
            self._time_quads()
        if deal.quads_window is None:
            self.timers.cancel(TimerKey(Deadline.QUADS))
        if any(type(e) is engine.Turn for e in events):
            self._time_turn()
        if deal.window_open and deal.last is not None:
            if self._window_set != deal.last.set_no:  # a new set: its own window
                self._window_set = deal.last.set_no
                self.timers.start(TimerKey(Deadline.WINDOW), self.settings.challenge_window_ms)
        else:
            self.timers.cancel(TimerKey(Deadline.WINDOW))
            self._window_set = None
        if self.tie_set is not None and (deal.last is None or deal.last.set_no != self.tie_set):
            self.timers.cancel(TimerKey(Deadline.TIE))
            self.tie, self.tie_set = [], None
        if deal.held is not None and deal.held.seat == deal.turn:
            self.timers.cancel(TimerKey(Deadline.TURN))  # the seat has acted; its set waits for the window
            self.timers.cancel(TimerKey(Deadline.THINK))
        return events

    def _time_quads(self) -> None:
        time_ms = self.quads_time_ms()
        if time_ms is not None:
            self.timers.start(TimerKey(Deadline.QUADS), time_ms)

    def _time_turn(self) -> None:
        self.timers.cancel(TimerKey(Deadline.TURN))
        self.timers.cancel(TimerKey(Deadline.THINK))
        self.thought = None
        deal = self.deal
        if not deal.over and self.turn_time_ms(deal.turn) is not None:
            turn_ms = self.settings.turn_ms
            self.timers.start(TimerKey(Deadline.TURN), turn_ms)
            ahead = min(turn_ms, self.settings.bot_delay_ms) // 2
            if ahead:
                self.timers.start(TimerKey(Deadline.THINK), turn_ms - ahead)

    # -- challenges -----------------------------------------------------------------------------

    def _collect(self, action: engine.Challenge) -> bool:
        """docs/RULES.md, "Timing rules": the first valid challenge of the last set opens the tie
        window; later ones within it join the group. True if ``action`` was taken into a group;
        False to apply it now (a premature challenge: void, and its sender is barred). Raises
        the engine's RuleViolation for a challenge the rules refuse."""
        deal = self.deal
        deal.check(action)
        last = deal.last
        if last is None or action.set_no != last.set_no:
            return False
        if self.tie_set == action.set_no:
            if action.seat in self.tie:
                raise engine.IllegalAction(
                    action.seat, action, f"you have already challenged set {action.set_no}"
                )
            self.tie.append(action.seat)
            return True
        self.tie, self.tie_set = [action.seat], action.set_no
        self.timers.start(TimerKey(Deadline.TIE), self.settings.tie_window_ms)
        return True

    def _fire_tie(self) -> list[engine.Event]:
        deal = self.deal
        seats, set_no = self.tie, self.tie_set
        self.tie, self.tie_set = [], None
        if set_no is None or not seats:
            return []
        valid = []
        for seat in seats:
            try:
                deal.check(engine.Challenge(seat, set_no))
            except engine.RuleViolation:
                continue
            valid.append(seat)
        if not valid:  # every challenger went out meanwhile: play goes on as if none came
            if deal.window_open and not self.timers.running(TimerKey(Deadline.WINDOW)):
                return self._fire_window()
            if not self.timers.running(TimerKey(Deadline.TURN)):
                self._time_turn()
            return []
        log.debug("settling challenges of set %d by seats %s", set_no, [s + 1 for s in valid])
        if len(valid) == 1:
            return self._apply(engine.Challenge(valid[0], set_no))
        return self._apply(engine.Challenges(tuple(valid), set_no))

    def _fire_window(self) -> list[engine.Event]:
        deal = self.deal
        if not deal.window_open or deal.last is None or self.tie_set is not None:
            return []  # (a challenge came first: the tie window settles it)
        return self._apply(engine.CloseWindow(deal.last.set_no))

    def _fire_quads(self) -> list[engine.Event]:
        seat = self.deal.quads_window
        if seat is None:
            return []
        return self._apply(engine.CloseQuadsWindow(seat))

    def _fire_think(self) -> list[engine.Event]:
        deal = self.deal
        if deal.held is None and self.tie_set is None:
            seat = deal.turn
            self.thought = (seat, deal.legal_actions(seat), self.choose(seat))
        return []

    def _fire_turn(self) -> list[engine.Event]:
        deal = self.deal
        if deal.held is not None or self.tie_set is not None:
            return []  # the seat's set waits for its window; or a challenge is settled first
        seat = deal.turn
        log.info("seat %d's time ran out", seat + 1)
        thought, self.thought = self.thought, None
        if thought is not None and thought[:2] == (seat, deal.legal_actions(seat)):
            choice = thought[2]
        else:
            choice = self.choose(seat)
        return self._apply(engine.timeout_for(deal, seat, choice, self.rng))


_FIRES: dict[Deadline, Callable[[Referee], list[engine.Event]]] = {
    Deadline.WINDOW: Referee._fire_window,
    Deadline.TIE: Referee._fire_tie,
    Deadline.QUADS: Referee._fire_quads,
    Deadline.TURN: Referee._fire_turn,
    Deadline.THINK: Referee._fire_think,
}
"""What each of the referee's deadlines does when it passes."""


def _referees(key: TimerKey) -> bool:
    return key.kind in REFEREE_DEADLINES
