"""Wall-clock budgets for the tests that wait on other processes (a benchmark run, a server in a
subprocess, a host of the private LAN). A budget only catches a hang: it is never a measure of
speed, so it is generous and grows with the machine's load, since a test on a busy small machine
(several test workers, other jobs) gets a fraction of a CPU.

``seconds(base)``: ``base`` × the 1-minute load average per CPU (at least 1) × the factor in
``$NEVERYU_TEST_TIME_SCALE`` (default 1; raise it for a slow machine)."""

from __future__ import annotations

import os


def seconds(base: float) -> float:
    """``base`` seconds scaled by the load per CPU now and by ``$NEVERYU_TEST_TIME_SCALE``."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return base * max(1.0, load) * float(os.environ.get("NEVERYU_TEST_TIME_SCALE", "1"))
