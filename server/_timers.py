"""Named deadlines on a clock, and the task that waits for them: a table's and its referee's.

A ``Timers`` holds at most one deadline per key (a ``TimerKey``: what it is for, a ``Deadline``,
and the seat it is for, if any: ``TimerKey(Deadline.BOT, 2)``), in seconds of the clock it is
given (trio's ``current_time`` on a server, any callable in a test). ``run`` sleeps until the
earliest one and fires each as it falls due; starting an earlier deadline wakes it sooner.
Without ``run`` (a test on a clock of its own) ``due`` gives what is due.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from typing import NamedTuple

import trio

Clock = Callable[[], float]


class Deadline(enum.Enum):
    """What a deadline is for: the referee's (``_referee``: the timing rules of docs/RULES.md)
    and the table's own (``_table``)."""

    WINDOW = "window"
    TIE = "tie"
    QUADS = "quads"
    TURN = "turn"
    THINK = "think"
    BOT = "bot"
    GRACE = "grace"
    ABSENT = "absent"
    NEXT_DEAL = "next_deal"
    CLOSE = "close"
    CONTRIBUTIONS = "contributions"


REFEREE_DEADLINES = frozenset({Deadline.WINDOW, Deadline.TIE, Deadline.QUADS, Deadline.TURN, Deadline.THINK})
"""The referee's deadlines (none of them is a seat's)."""


class TimerKey(NamedTuple):
    """One deadline of a table: what it is for, and for which seat (``BOT``, ``GRACE``, ``ABSENT``)."""

    kind: Deadline
    seat: int | None = None

    def __str__(self) -> str:
        return self.kind.value if self.seat is None else f"{self.kind.value} of seat {self.seat + 1}"


class Timers:
    """Deadlines by key on ``clock`` (seconds)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._at: dict[TimerKey, float] = {}
        self._sleep: trio.CancelScope | None = None  # ``run``'s wait for the next deadline

    def start(self, key: TimerKey, delay_ms: int) -> float:
        """(Re)start ``key`` to fire ``delay_ms`` from now; returns its deadline."""
        return self.start_at(key, self.clock() + delay_ms / 1000)

    def start_at(self, key: TimerKey, at: float) -> float:
        """(Re)start ``key`` to fire at ``at`` (seconds of the clock; a time past fires at once);
        returns it."""
        self._at[key] = at
        if self._sleep is not None and at < self._sleep.deadline:
            self._sleep.deadline = at
        return at

    def cancel(self, key: TimerKey) -> None:
        """Forget ``key`` (nothing happens if it is not running)."""
        self._at.pop(key, None)

    def running(self, key: TimerKey) -> bool:
        return key in self._at

    def deadline(self, key: TimerKey) -> float | None:
        """When ``key`` fires, or None when it is not running."""
        return self._at.get(key)

    def next(self) -> float:
        """The earliest deadline (``math.inf`` when none runs)."""
        return min(self._at.values(), default=math.inf)

    def due(self) -> TimerKey | None:
        """The earliest key whose deadline has passed, taken off; None when none has."""
        if not self._at:
            return None
        key = min(self._at, key=self._at.__getitem__)
        if self._at[key] > self.clock():
            return None
        del self._at[key]
        return key

    def clear(self, keys: Callable[[TimerKey], bool] = lambda key: True) -> None:
        """Forget every deadline ``keys`` holds for (all, by default)."""
        self._at = {key: at for key, at in self._at.items() if not keys(key)}

    async def run(self, fire: Callable[[TimerKey], None]) -> None:
        """Until cancelled: sleep until the earliest deadline, then ``fire(key)`` for each that is
        due, earliest first. ``fire`` runs in this task and must not wait."""
        while True:
            with trio.CancelScope(deadline=self.next()) as self._sleep:
                await trio.sleep_forever()
            self._sleep = None
            while (key := self.due()) is not None:
                fire(key)
