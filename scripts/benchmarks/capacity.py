"""Capacity: the real server in one process, N clients of the load generator in another
(``loadgen``), both on this machine; server CPU and memory read from /proc.

``step(n, ...)`` measures one N on a fresh server; ``run`` climbs a ladder of N (always
measuring ``TARGET_CLIENTS``, a target of docs/BENCHMARKS.md), then bisects between the largest N whose
p99 action latency stays under ``P99_LIMIT_MS`` and the next N tried, and reports that N.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from .loadgen import IO_MODES, WARMUP_S
from .procstat import CpuMeter, rss_bytes
from .subproc import ROOT, Helper

P99_LIMIT_MS = 50.0
GIVE_UP_MS = (
    1_000.0  # after an N whose p99 reaches this (the server is swamped) the ladder skips to TARGET_CLIENTS
)
TARGET_CLIENTS = 1_000
MIN_GAP = 8  # the bisection stops when the N that passed and the N that failed are this close
DELAY_MS = 100
CAPACITY_DEAL_PAUSE_MS = 1_000


def loadgen(
    port: int, clients: int, seconds: float, delay_ms: int, warmup: float = WARMUP_S, io: str = IO_MODES[0]
) -> subprocess.Popen:
    """Start the load generator (its own process); its stdout yields ``SEATED n`` then JSON."""
    cmd = [
        sys.executable,
        "-m",
        "scripts.benchmarks.loadgen",
        str(port),
        str(clients),
        str(seconds),
        str(delay_ms),
        str(warmup),
        io,
    ]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, env=Helper.env())


def step(
    clients: int,
    seconds: float,
    delay_ms: int = DELAY_MS,
    warmup: float = WARMUP_S,
    server_args=(),
    io: str = IO_MODES[0],
    first_path: str = "",
) -> dict:
    """One N on a fresh server. Returns the load generator's figures (``loadgen.run``; its
    ``cpu`` renamed ``loadgen_cpu``, ``cpu_us_per_action`` ``loadgen_cpu_us_per_action``) plus
    ``server_cpu`` (share of one core), ``server_cpu_us_per_action``, ``server_rss_mib`` (with
    every client playing), ``server_idle_rss_mib`` and ``kib_per_client`` (RSS growth from the
    idle server, per seated client) and ``ok`` (every client seated, none dropped, p99 under
    ``P99_LIMIT_MS``). ``first_path``: imports ``neveryu`` from there (``compare``'s trees)."""
    with Helper(
        "scripts.benchmarks.neveryu_server",
        "--clients",
        str(clients),
        "--deal-pause-ms",
        str(CAPACITY_DEAL_PAUSE_MS),
        *server_args,
        first_path=first_path,
    ) as srv:
        idle_rss = rss_bytes(srv.pid)
        gen = loadgen(srv.port, clients, seconds, delay_ms, warmup, io)
        try:
            line = gen.stdout.readline()
            if not line.startswith("SEATED"):
                raise RuntimeError(f"the load generator failed: {line!r}")
            seated = int(line.split()[1])
            time.sleep(warmup)
            meter = CpuMeter(srv.pid, time.perf_counter)
            meter.start()
            line = gen.stdout.readline()
            server_cpu = meter.stop()
            rss = rss_bytes(srv.pid)
            result = json.loads(line)
        finally:
            if gen.poll() is None:
                gen.terminate()
            gen.wait(10)
    result.update(
        server_cpu=round(server_cpu, 3),
        server_rss_mib=round(rss / 2**20, 1),
        server_idle_rss_mib=round(idle_rss / 2**20, 1),
        kib_per_client=round((rss - idle_rss) / 1024 / max(seated, 1), 1),
        loadgen_cpu=result.pop("cpu"),
        loadgen_cpu_us_per_action=result.pop("cpu_us_per_action"),
        server_cpu_us_per_action=round(server_cpu / result["actions_per_s"] * 1e6, 1)
        if result["actions_per_s"]
        else None,
    )
    result["ok"] = healthy(result) and result["p99_ms"] < P99_LIMIT_MS
    return result


def healthy(r: dict) -> bool:
    """Every client of the step was seated and none was dropped."""
    return r["seated"] == r["clients"] and not r["dropped"]


def run(
    ladder: list[int],
    seconds: float,
    say=print,
    warmup: float = WARMUP_S,
    server_args=(),
    bisect: int = 2,
    io: str = IO_MODES[0],
) -> dict:
    """``step`` each N of ``ladder`` in order; after an N whose p99 reaches ``GIVE_UP_MS`` or
    whose clients could not all be seated or were dropped, only ``TARGET_CLIENTS`` is still
    tried (when the ladder has it), and no N above ``TARGET_CLIENTS`` once an N was not ``ok``.
    Then up to ``bisect`` more steps halve the gap between the largest N that was ``ok`` and
    the next N tried, while it is wider than ``MIN_GAP``.

    Returns ``{"steps"`` (in the order run), ``"max_ok"`` (the largest ``ok`` N below the
    smallest N that was not, or None), ``"target"`` (the step at ``TARGET_CLIENTS``, or None),
    ``"p99_limit_ms"``, ``"delay_ms"}``."""
    steps: list[dict] = []

    def measure(n: int) -> dict:
        r = step(n, seconds, warmup=warmup, server_args=server_args, io=io)
        steps.append(r)
        say(
            f"  N={n:>5}: {r['actions_per_s']:>7.1f} actions/s  p50 {r['p50_ms']} ms  p99 {r['p99_ms']} ms"
            f"  server CPU {r['server_cpu']:.0%} ({r['server_cpu_us_per_action']} µs/action)"
            f"  RSS {r['server_rss_mib']} MiB ({r['kib_per_client']} KiB/client)"
            f"  loadgen CPU {r['loadgen_cpu']:.0%}"
            f" ({r['loadgen_cpu_us_per_action']} µs/action, {r['late']} late)"
            f"  errors {r['errors'] or 0}  dropped {r['dropped']}  {'ok' if r['ok'] else 'NOT ok'}"
        )
        return r

    swamped = failed = False
    for n in ladder:
        if failed and n > TARGET_CLIENTS:
            break  # the limit is known to be lower
        if swamped and n != TARGET_CLIENTS:
            continue
        r = measure(n)
        failed = failed or not r["ok"]
        if not healthy(r) or r["p99_ms"] >= GIVE_UP_MS:
            swamped = True
    for _ in range(bisect):
        lo, hi = limits(steps)
        if hi is None or (lo or 0) + MIN_GAP >= hi:
            break
        mid = ((lo or 0) + hi) // 2 // 4 * 4  # tables of 4
        if mid <= (lo or 0) or mid >= hi:
            break
        measure(mid)
    lo, _ = limits(steps)
    target = next((r for r in steps if r["clients"] == TARGET_CLIENTS), None)
    return {
        "steps": steps,
        "max_ok": lo,
        "target": target,
        "p99_limit_ms": P99_LIMIT_MS,
        "delay_ms": DELAY_MS,
    }


def limits(steps: list[dict]) -> tuple[int | None, int | None]:
    """(the largest ``ok`` N below the smallest N that was not, that smallest N): either may
    be None."""
    failed = [r["clients"] for r in steps if not r["ok"]]
    hi = min(failed) if failed else None
    passed = [r["clients"] for r in steps if r["ok"] and (hi is None or r["clients"] < hi)]
    return (max(passed) if passed else None), hi
