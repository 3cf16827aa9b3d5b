"""The floor and the real server with and without the check of its outgoing messages that the
tests turn on (``--check-sent``), all running, measured in turn in each of ROUNDS rounds of
SAMPLES fan-out latency samples (in reverse order every other round), so they share the
machine's load alike.

``PYTHONPATH=. .venv/bin/python -m scripts.benchmarks.compare [ROUNDS [SAMPLES]]`` (default 8
and 400) prints p50, p99, p50 / floor and the server's CPU per sample for each.
"""

from __future__ import annotations

import contextlib
import os
import sys

import trio

from . import floor, latency
from .procstat import cpu_seconds
from .stats import summary_us
from .subproc import Helper

SERVERS = {
    "floor": None,
    "neveryu": [],
    "neveryu --check-sent": ["--check-sent"],
}
BLOCK_S = 10.0  # at most, per block of samples


def main(rounds: int, samples: int) -> None:
    pooled: dict[str, list[float]] = {k: [] for k in SERVERS}
    cpu = dict.fromkeys(SERVERS, 0.0)
    print(f"load average {os.getloadavg()[0]:.2f}")
    with contextlib.ExitStack() as stack:
        helpers = {
            k: stack.enter_context(
                Helper("scripts.benchmarks.floor")
                if v is None
                else Helper("scripts.benchmarks.neveryu_server", *v)
            )
            for k, v in SERVERS.items()
        }
        for r in range(rounds):
            for k, h in list(helpers.items())[:: 1 if r % 2 == 0 else -1]:  # alternate the order
                c0 = cpu_seconds(h.pid)
                measure = floor.latency if SERVERS[k] is None else latency.latency
                pooled[k] += trio.run(measure, h.port, samples, BLOCK_S)["samples"]
                cpu[k] += cpu_seconds(h.pid) - c0
    base = summary_us(pooled["floor"])["p50_us"]
    for k in SERVERS:
        s = summary_us(pooled[k])
        print(
            f"{k:32} p50 {s['p50_us']:8.1f} µs  p99 {s['p99_us']:8.1f} µs"
            f"  p50/floor {s['p50_us'] / base:5.2f}"
            f"  server CPU per sample {cpu[k] / max(len(pooled[k]), 1) * 1e6:7.1f} µs  ({s['n']} samples)"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8, int(sys.argv[2]) if len(sys.argv) > 2 else 400)
