"""The capacity load generator: N clients in this process, bots over the protocol at tables of
4 on `verish`, each acting ``delay_ms`` after it may act (a brisk human pace).

Run as ``python -m scripts.benchmarks.loadgen PORT CLIENTS SECONDS [DELAY_MS [WARMUP_S]]``. It
connects and seats every client (tables of 4, made by their first client), prints ``SEATED <n>``
once all are playing, plays for a warm-up (default ``WARMUP_S``) and then ``SECONDS`` s, and
prints one JSON line:
``{"clients", "seated", "seat_failures", "actions", "actions_per_s", "p50_ms", "p99_ms",
"max_ms", "errors", "dropped", "cpu"}``. An action's latency is the time from sending it until its own client has
decoded the event it caused (``set_laid`` or ``challenged``); ``cpu`` is this process's share of
one core over the measured window; ``dropped`` counts connections the server closed.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

import trio

from .client import seat_table
from .player import Player, result_of
from .procstat import cpu_seconds
from .stats import percentile

SEATS = 4
WARMUP_S = 2.0
SEAT_CONCURRENCY = 25
CHALLENGE_RATE = 0.15


class Stats:
    """What the load generator counts, over every table (latencies in seconds)."""

    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.actions = 0
        self.dropped = 0
        self.errors: dict[str, int] = {}
        self.seated = 0  # tables seated and playing
        self.failed: list[str] = []  # tables that could not be seated, why


async def play_table(port: int, t: int, delay: float, stats: Stats, seating: trio.Semaphore) -> None:
    """Seat four clients at a new table and play until cancelled."""
    players = [Player(CHALLENGE_RATE) for _ in range(SEATS)]
    pending: list = [None] * SEATS  # per seat: (predicate, t0) of the action in flight
    acting = [False] * SEATS  # per seat: an action is scheduled
    rng = random.Random(t)
    early: list[list[dict]] = [[] for _ in range(SEATS)]
    try:
        async with seating:
            conns, seats = await seat_table(port, "verish", [f"t{t}s{k}" for k in range(SEATS)], None, lambda k, m: early[k].append(m))
    except (OSError, EOFError, RuntimeError, trio.BrokenResourceError) as exc:
        stats.failed.append(f"{type(exc).__name__}: {exc}")
        return
    stats.seated += 1
    for p, s in zip(players, seats):
        p.seat = s

    async with trio.open_nursery() as nursery:

        async def act(k: int) -> None:
            await trio.sleep(delay)
            request = players[k].request(rng.randrange(1 << 30), rng)
            if request is None:
                return
            pending[k] = (result_of(request, players[k].seat), time.perf_counter())
            try:
                await conns[k].send(request)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        def handle(k: int, msg: dict) -> None:
            p = players[k]
            p.on_message(msg)
            if pending[k] is not None and pending[k][0](msg):
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - pending[k][1])
                    stats.actions += 1
                pending[k] = None
            if msg["t"] == "error":
                stats.errors[msg.get("code")] = stats.errors.get(msg.get("code"), 0) + 1
            if p.legal is not None and pending[k] is None and not acting[k]:
                acting[k] = True
                nursery.start_soon(act_then_clear, k)

        async def act_then_clear(k: int) -> None:
            try:
                await act(k)
            finally:
                acting[k] = False

        async def reader(k: int) -> None:
            for m in early[k]:
                handle(k, m)
            while True:
                try:
                    msg = await conns[k].receive()
                except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
                    stats.dropped += 1
                    return
                handle(k, msg)

        for k in range(SEATS):
            nursery.start_soon(reader, k)


async def run(port: int, clients: int, seconds: float, delay_ms: int, warmup: float = WARMUP_S) -> dict:
    stats = Stats()
    tables = clients // SEATS
    seating = trio.Semaphore(SEAT_CONCURRENCY)
    result: dict = {}
    async with trio.open_nursery() as nursery:
        for t in range(tables):
            nursery.start_soon(play_table, port, t, delay_ms / 1000, stats, seating)
        while stats.seated + len(stats.failed) < tables:
            await trio.sleep(0.05)
        print("SEATED", stats.seated * SEATS, flush=True)
        await trio.sleep(warmup)
        cpu0, t0 = cpu_seconds(os.getpid()), time.perf_counter()
        stats.measuring = True
        await trio.sleep(seconds)
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        cpu = (cpu_seconds(os.getpid()) - cpu0) / elapsed
        lat = stats.latencies
        result = {
            "clients": clients,
            "seated": stats.seated * SEATS,
            "seat_failures": stats.failed[:3],
            "actions": stats.actions,
            "actions_per_s": round(stats.actions / elapsed, 1),
            "p50_ms": round(percentile(lat, 50) * 1000, 2),
            "p99_ms": round(percentile(lat, 99) * 1000, 2),
            "max_ms": round(max(lat) * 1000, 2) if lat else None,
            "errors": stats.errors,
            "dropped": stats.dropped,
            "cpu": round(cpu, 3),
        }
        nursery.cancel_scope.cancel()
    return result


if __name__ == "__main__":
    port, clients, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    delay_ms = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    warmup = float(sys.argv[5]) if len(sys.argv) > 5 else WARMUP_S
    print(json.dumps(trio.run(run, port, clients, seconds, delay_ms, warmup)), flush=True)
