"""Capacity: the real server in one process, N clients of the load generator in another
(``loadgen``), both on this machine; server CPU and memory read from /proc.

``step(n, ...)`` measures one N on a fresh server; ``run`` climbs a ladder of N and reports the
largest N whose p99 action latency stays under ``P99_LIMIT_MS``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from .procstat import CpuMeter, rss_bytes
from .subproc import ROOT, Helper
from .loadgen import WARMUP_S

P99_LIMIT_MS = 50.0
GIVE_UP_MS = 1_000.0  # the ladder stops after an N whose p99 reaches this: the server is swamped
DELAY_MS = 100
CAPACITY_DEAL_PAUSE_MS = 1_000


def loadgen(port: int, clients: int, seconds: float, delay_ms: int, warmup: float = WARMUP_S) -> subprocess.Popen:
    """Start the load generator (its own process); its stdout yields ``SEATED n`` then JSON."""
    cmd = [sys.executable, "-m", "scripts.benchmarks.loadgen", str(port), str(clients), str(seconds), str(delay_ms), str(warmup)]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, env=Helper.env())


def step(clients: int, seconds: float, delay_ms: int = DELAY_MS, warmup: float = WARMUP_S, server_args=()) -> dict:
    """One N on a fresh server. Returns the load generator's figures plus ``server_cpu`` (share
    of one core), ``server_rss_mib`` (with every client connected), ``kib_per_client``
    (RSS growth from the idle server, per seated client) and ``loadgen_cpu``."""
    with Helper("scripts.benchmarks.neveryu_server", "--clients", str(clients), "--deal-pause-ms", str(CAPACITY_DEAL_PAUSE_MS), *server_args) as srv:
        idle_rss = rss_bytes(srv.pid)
        gen = loadgen(srv.port, clients, seconds, delay_ms, warmup)
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
    )
    return result


def run(ladder: list[int], seconds: float, say=print, warmup: float = WARMUP_S, server_args=()) -> dict:
    """``step`` each N of ``ladder`` in order, stopping after the first whose p99 reaches
    ``GIVE_UP_MS`` or whose clients could not all be seated or were dropped. Returns
    ``{"steps", "max_ok"}``: ``max_ok`` is the largest N whose p99 stayed under
    ``P99_LIMIT_MS`` with every client seated and none dropped (None if none did)."""
    steps = []
    max_ok = None
    for n in ladder:
        r = step(n, seconds, warmup=warmup, server_args=server_args)
        steps.append(r)
        say(
            f"  N={r['seated']:>5}: {r['actions_per_s']:>7.1f} actions/s  p50 {r['p50_ms']} ms  p99 {r['p99_ms']} ms"
            f"  server CPU {r['server_cpu']:.0%}  RSS {r['server_rss_mib']} MiB ({r['kib_per_client']} KiB/client)"
            f"  loadgen CPU {r['loadgen_cpu']:.0%}  errors {r['errors'] or 0}  dropped {r['dropped']}"
        )
        healthy = r["seated"] == n and not r["dropped"]
        if healthy and r["p99_ms"] < P99_LIMIT_MS:
            max_ok = n
        if not healthy or r["p99_ms"] >= GIVE_UP_MS:
            break
    return {"steps": steps, "max_ok": max_ok, "p99_limit_ms": P99_LIMIT_MS, "delay_ms": DELAY_MS}
