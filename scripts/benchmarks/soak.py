"""Soak: the load generator's bots at ``TABLES`` tables for a number of minutes; the server's
memory (RSS) at the start, every ``SAMPLES`` th of the run, and at the end."""

from __future__ import annotations

import json
import time

from .capacity import CAPACITY_DEAL_PAUSE_MS, DELAY_MS, loadgen
from .loadgen import SEATS, WARMUP_S
from .procstat import CpuMeter, rss_bytes
from .subproc import Helper

TABLES = 100
SAMPLES = 10


def run(minutes: float, say=print, server_args=()) -> dict:
    """Returns ``{"minutes", "clients", "rss_start_mib", "rss_end_mib", "growth_mib",
    "rss_samples_mib", "idle_rss_mib", "kib_per_client_end", "server_cpu", "load"}`` (``load``:
    the load generator's figures; ``kib_per_client_end``: RSS at the end over the idle
    server's, per client)."""
    clients = TABLES * SEATS
    seconds = minutes * 60
    with Helper(
        "scripts.benchmarks.neveryu_server",
        "--clients",
        str(clients),
        "--deal-pause-ms",
        str(CAPACITY_DEAL_PAUSE_MS),
        *server_args,
    ) as srv:
        idle_rss = rss_bytes(srv.pid)
        gen = loadgen(srv.port, clients, seconds, DELAY_MS)
        try:
            line = gen.stdout.readline()
            if not line.startswith("SEATED"):
                raise RuntimeError(f"the load generator failed: {line!r}")
            time.sleep(WARMUP_S)
            meter = CpuMeter(srv.pid, time.perf_counter)
            meter.start()
            start = time.perf_counter()
            samples = [rss_bytes(srv.pid)]
            say(f"  start: server RSS {samples[0] / 2**20:.1f} MiB with {line.split()[1]} clients seated")
            for k in range(1, SAMPLES + 1):
                time.sleep(max(0.0, start + seconds * k / SAMPLES - time.perf_counter() - 0.5))
                samples.append(rss_bytes(srv.pid))
                say(
                    f"  {(time.perf_counter() - start) / 60:5.1f} min:"
                    f" server RSS {samples[-1] / 2**20:.1f} MiB"
                )
            load = json.loads(gen.stdout.readline())
            cpu = meter.stop()
        finally:
            if gen.poll() is None:
                gen.terminate()
            gen.wait(10)
    mib = [round(s / 2**20, 1) for s in samples]
    return {
        "minutes": minutes,
        "clients": clients,
        "rss_start_mib": mib[0],
        "rss_end_mib": mib[-1],
        "growth_mib": round(mib[-1] - mib[0], 1),
        "rss_samples_mib": mib,
        "idle_rss_mib": round(idle_rss / 2**20, 1),
        "kib_per_client_end": round((samples[-1] - idle_rss) / 1024 / clients, 1),
        "server_cpu": round(cpu, 3),
        "load": load,
    }
