"""Named deadlines on a clock, and the task that waits for them: a table's and its referee's.

A ``Timers`` holds at most one deadline per key (``"window"``, ``"bot:2"``, ...), in seconds of
the clock it is given (trio's ``current_time`` on a server, any callable in a test). ``run``
sleeps until the earliest one and fires each as it falls due; starting an earlier deadline
wakes it sooner. Without ``run`` (a test on a clock of its own) ``due`` gives what is due.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import trio

Clock = Callable[[], float]


class Timers:
    """Deadlines by key on ``clock`` (seconds)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._at: dict[str, float] = {}
        self._sleep: trio.CancelScope | None = None  # ``run``'s wait for the next deadline

    def start(self, key: str, delay_ms: int) -> float:
        """(Re)start ``key`` to fire ``delay_ms`` from now; returns its deadline."""
        return self.start_at(key, self.clock() + delay_ms / 1000)

    def start_at(self, key: str, at: float) -> float:
        """(Re)start ``key`` to fire at ``at`` (seconds of the clock; a time past fires at once);
        returns it."""
        self._at[key] = at
        if self._sleep is not None and at < self._sleep.deadline:
            self._sleep.deadline = at
        return at

    def cancel(self, key: str) -> None:
        """Forget ``key`` (nothing happens if it is not running)."""
        self._at.pop(key, None)

    def running(self, key: str) -> bool:
        return key in self._at

    def deadline(self, key: str) -> float | None:
        """When ``key`` fires, or None when it is not running."""
        return self._at.get(key)

    def next(self) -> float:
        """The earliest deadline (``math.inf`` when none runs)."""
        return min(self._at.values(), default=math.inf)

    def due(self, keys: Callable[[str], bool] = lambda key: True) -> str | None:
        """The earliest key (of those ``keys`` holds for) whose deadline has passed, taken off;
        None when none has."""
        mine = [key for key in self._at if keys(key)]
        if not mine:
            return None
        key = min(mine, key=self._at.__getitem__)
        if self._at[key] > self.clock():
            return None
        del self._at[key]
        return key

    def clear(self, keys: Callable[[str], bool] = lambda key: True) -> None:
        """Forget every deadline ``keys`` holds for (all, by default)."""
        self._at = {key: at for key, at in self._at.items() if not keys(key)}

    async def run(self, fire: Callable[[str], None]) -> None:
        """Until cancelled: sleep until the earliest deadline, then ``fire(key)`` for each that is
        due, earliest first. ``fire`` runs in this task and must not wait."""
        while True:
            with trio.CancelScope(deadline=self.next()) as self._sleep:
                await trio.sleep_forever()
            self._sleep = None
            while (key := self.due()) is not None:
                fire(key)
