"""A one-line progress bar with the time left, on standard error (long arena runs)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 30
"""Characters of the bar."""


class Progress:
    """``total`` deals to play; ``add(n)`` counts ``n`` more and redraws (at most every
    ``every`` s); ``close()`` ends the line. Draws nothing unless ``enabled``."""

    def __init__(
        self,
        total: int,
        *,
        enabled: bool,
        out: TextIO = sys.stderr,
        clock: Callable[[], float] = time.monotonic,
        every: float = 0.2,
    ) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.out = out
        self.clock = clock
        self.every = every
        self.start = clock()
        self._drawn_at = -every

    def add(self, n: int) -> None:
        self.done += n
        now = self.clock()
        if self.enabled and (now - self._drawn_at >= self.every or self.done >= self.total):
            self._drawn_at = now
            self.out.write("\r" + self.line(now))
            self.out.flush()

    def line(self, now: float) -> str:
        """``[#####-----]  120/400 deals  30 %  2 min 10 s left``."""
        frac = self.done / self.total if self.total else 1.0
        filled = round(frac * WIDTH)
        elapsed = now - self.start
        left = elapsed / self.done * (self.total - self.done) if self.done else None
        eta = "?" if left is None else _duration(left)
        return (
            f"[{'#' * filled}{'-' * (WIDTH - filled)}] {self.done}/{self.total} deals {frac:4.0%}  {eta} left"
        )

    def close(self) -> None:
        if self.enabled:
            self.out.write("\n")
            self.out.flush()


def _duration(seconds: float) -> str:
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"
