"""Named deadlines on a clock: what a table and its referee wait for.

A ``Timers`` holds at most one deadline per key (``"window"``, ``"bot:2"``, ...), in seconds of
the clock it is given (trio's ``current_time`` on a server, any callable in a test). It never
sleeps: the table's task sleeps until ``next()`` and then takes what is ``due()``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

Clock = Callable[[], float]


class Timers:
    """Deadlines by key on ``clock`` (seconds)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._at: dict[str, float] = {}

    def start(self, key: str, delay_ms: int) -> float:
        """(Re)start ``key`` to fire ``delay_ms`` from now; returns its deadline."""
        at = self._at[key] = self.clock() + delay_ms / 1000
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

    def due(self) -> str | None:
        """The earliest key whose deadline has passed, taken off; None when none has."""
        if not self._at:
            return None
        key = min(self._at, key=self._at.__getitem__)
        if self._at[key] > self.clock():
            return None
        del self._at[key]
        return key

    def clear(self, keep: Callable[[str], bool] = lambda key: False) -> None:
        """Forget every deadline but those ``keep(key)`` holds for."""
        self._at = {key: at for key, at in self._at.items() if keep(key)}
