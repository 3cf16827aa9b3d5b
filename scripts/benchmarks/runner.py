"""One function per section of ``scripts/bench``: run it, store its figures, print them.

Every loop is bounded by a count and a time, which ``profiles.Profile`` holds per run length.
The store's sections (records, players, journal) are in ``runner_store``.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator

import trio

from . import engine_speed
from . import floor as floor_server
from .procstat import cpu_seconds
from .profiles import Profile
from .stats import summary_us
from .subproc import ROOT, Helper


def engine(report, prof: Profile, args) -> None:
    report.say(
        f"\n== engine: bots-only deals per second, 4 seats, one process ({prof.engine_s} s per variant)"
    )
    report.say(f"  {'variant':<12} {'bots (sharp)':>26}   {'core (random sets)':>28}")
    rows = engine_speed.run(prof.engine_s, modes=prof.engine_modes)
    for r in rows:
        cells = []
        for mode in ("bots", "core"):
            m = r.get(mode)
            cells.append(
                f"{m['deals_per_s']:>8.1f} deals/s {m['actions_per_s']:>7} act/s"
                + (f" ({m['unfinished']} unfinished)" if m["unfinished"] else "")
                if m
                else f"{'-':>28}"
            )
        report.say(f"  {r['variant']:<12} {cells[0]}   {cells[1]}")
    report.data["engine"] = rows


def floor(report, prof: Profile, args) -> None:
    """The floor's latency (interleaved with neveryu's when both run: see ``latencies``) and
    its ping/pong requests per second."""
    latencies(report, prof, args)


def neveryu(report, prof: Profile, args) -> None:
    """neveryu's latency (measured with the floor's, ``latencies``) and requests per second."""
    if "neveryu" not in report.data:
        latencies(report, prof, args)


@contextlib.contextmanager
def pinned(server_pids: list[int], pin: bool) -> Iterator[dict[str, int] | None]:
    """While inside: the servers ``server_pids`` on one CPU and this process (the measuring
    clients) on another, as when players' machines are not the server's; yields which CPUs
    (``{"servers": n, "clients": m}``), or None when not pinned (``pin`` false, fewer than two
    CPUs, or no ``os.sched_setaffinity``). This process's CPUs are given back on the way out.

    Why: unpinned on two cores, a socket's wake-up hints to Linux that the sender is about to
    sleep, so the woken client is often run on the server's CPU, behind whatever the server
    does after its write. The floor sleeps right after its write; neveryu goes on with the
    ``turn`` and ``legal`` of the batch (docs/BENCHMARKS.md, "Fairness of the floor/neveryu
    comparison")."""
    mine = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else set()
    if not pin or len(mine) < 2:
        yield None
        return
    server_cpu, client_cpu = sorted(mine)[:2]
    try:
        for pid in server_pids:
            os.sched_setaffinity(pid, {server_cpu})
        os.sched_setaffinity(0, {client_cpu})
        yield {"servers": server_cpu, "clients": client_cpu}
    finally:
        os.sched_setaffinity(0, mine)


def latencies(report, prof: Profile, args) -> None:
    """Both fan-out latencies, interleaved: ``prof.rounds`` rounds, each a block of floor
    samples and a block of neveryu samples (a new table each round; the floor's block first in
    even rounds, neveryu's in odd ones), both servers running in their own processes all along.
    Other work on the machine then weighs on both alike, and the ratio of the pooled p50s is
    fair even when the load drifts. Then ping/pong requests per second with
    ``prof.ping_clients`` clients against each. The servers and the measuring clients run on
    CPUs of their own (``pinned``) unless ``--no-pin``."""
    from . import latency as nev

    want = [name for name in ("floor", "neveryu") if name in report.sections]
    pooled: dict[str, list[float]] = {name: [] for name in want}
    cpu = {name: {"server": 0.0, "client": 0.0, "frames": 0} for name in want}
    extra: dict[str, dict] = {"floor": {}, "neveryu": {"errors": {}, "deals": 0}}
    n = max(1, prof.latency_samples // prof.rounds)
    seconds = prof.latency_s / prof.rounds
    me = os.getpid()
    with (
        Helper("scripts.benchmarks.floor") as fl,
        Helper(
            "scripts.benchmarks.neveryu_server", "--clients", str(prof.ping_clients + 16), *args.server_args
        ) as nv,
    ):
        pids = {"floor": fl.pid, "neveryu": nv.pid}
        with pinned(list(pids.values()), not args.no_pin) as report.data["latency_cpus"]:

            def block(name: str, fn, port: int) -> dict:
                s0, c0 = cpu_seconds(pids[name]), cpu_seconds(me)
                r = trio.run(fn, port, n, seconds)
                cpu[name]["server"] += cpu_seconds(pids[name]) - s0
                cpu[name]["client"] += cpu_seconds(me) - c0
                pooled[name].extend(r["samples"])
                cpu[name]["frames"] += r["frames"]
                return r

            for i in range(prof.rounds):
                for name in want if i % 2 == 0 else want[::-1]:  # floor first in even rounds, neveryu in odd
                    if name == "floor":
                        block("floor", floor_server.latency, fl.port)
                        continue
                    r = block("neveryu", nev.latency, nv.port)
                    extra["neveryu"]["deals"] += r["deals"]
                    for code, k in r["errors"].items():
                        extra["neveryu"]["errors"][code] = extra["neveryu"]["errors"].get(code, 0) + k
            tps = {}
            if "floor" in pooled:
                tps["floor"] = trio.run(floor_server.throughput, fl.port, prof.ping_clients, prof.ping_s)
            if "neveryu" in pooled:
                tps["neveryu"] = trio.run(nev.throughput, nv.port, prof.ping_clients, prof.ping_s)
    for name in want:
        k = max(len(pooled[name]), 1)
        per = {
            "server_cpu_us_per_sample": round(cpu[name]["server"] / k * 1e6, 1),
            "client_cpu_us_per_sample": round(cpu[name]["client"] / k * 1e6, 1),
            "frames_per_sample": round(cpu[name]["frames"] / k, 1),
        }
        report.data[name] = {
            "latency": {**summary_us(pooled[name]), **per, **extra[name]},
            "throughput": tps[name],
        }
    say_latencies(report, prof)


def say_latencies(report, prof: Profile) -> None:
    fl, nv = report.data.get("floor"), report.data.get("neveryu")
    if fl:
        lat, tp = fl["latency"], fl["throughput"]
        report.say("\n== floor: bare trio server, same framing, no game logic (server in its own process)")
        report.say(
            f"  send → all 4 decoded: p50 {lat['p50_us']} µs, p99 {lat['p99_us']} µs ({lat['n']} samples)"
        )
        report.say(
            f"  CPU per sample: server {lat['server_cpu_us_per_sample']} µs,"
            f" the 4 clients {lat['client_cpu_us_per_sample']} µs;"
            f" {lat['frames_per_sample']} frames decoded per sample"
        )
        report.say(f"  ping/pong, {tp['clients']} clients: {tp['requests_per_s']} requests/s")
    if nv:
        lat, tp = nv["latency"], nv["throughput"]
        ratio = f" = {lat['p50_us'] / fl['latency']['p50_us']:.2f} × floor" if fl else ""
        report.say(
            f"\n== neveryu: the same through the real server (verish, 4 clients at one table"
            f"{', ' + ' '.join(report.server_args) if report.server_args else ''})"
        )
        report.say(
            f"  set sent → all 4 decoded its event: p50 {lat['p50_us']} µs{ratio}, p99 {lat['p99_us']} µs"
            f" ({lat['n']} samples, {lat['deals']} deals ended, errors {lat['errors'] or 0})"
        )
        report.say(
            f"  CPU per sample: server {lat['server_cpu_us_per_sample']} µs,"
            f" the 4 clients {lat['client_cpu_us_per_sample']} µs;"
            f" {lat['frames_per_sample']} frames decoded per sample"
        )
        report.say(f"  ping/pong, {tp['clients']} clients: {tp['requests_per_s']} requests/s")
    if fl and nv:
        report.say(
            f"  (measured in {prof.rounds} interleaved rounds of a floor block and a neveryu block,"
            " in alternating order)"
        )
    cpus = report.data.get("latency_cpus")
    report.say(
        f"  (servers on CPU {cpus['servers']}, measuring clients on CPU {cpus['clients']})"
        if cpus
        else "  (not pinned: servers and clients wherever the scheduler puts them)"
    )


def dealstart(report, prof: Profile, args) -> None:
    """Fair deal 2's cost at deal start (``dealstart``): a fixed-seed table (no contributions,
    as every deal started before fair deal 2), a table whose clients contribute, and one whose
    clients never do; the server in its own process, pinned as for the latency."""
    from . import dealstart as ds

    report.say(
        "\n== deal start: `start` sent → all 4 clients decoded the first `turn`"
        " (verish, 4 clients, a new table each sample)"
    )
    out: dict[str, dict] = {}
    server = Helper("scripts.benchmarks.neveryu_server", "--clients", "16", *args.server_args)
    with server as nv, pinned([nv.pid], not args.no_pin):
        for mode in ds.MODES:
            n = prof.dealstart_silent if mode == "silent" else prof.dealstart_samples
            r = trio.run(ds.dealstart, nv.port, mode, n, 60.0)
            out[mode] = summary_us(r["samples"])
    said = {
        "seeded": "fixed seed: no contribution asked (as before fair deal 2)",
        "fair": "fair deal 2: every client contributes at once",
        "silent": "fair deal 2, clients that never contribute (the window)",
    }
    for mode, lat in out.items():
        report.say(
            f"  {said[mode]:<58} p50 {lat['p50_us']:>9} µs, p99 {lat['p99_us']:>9} µs ({lat['n']} samples)"
        )
    extra = out["fair"]["p50_us"] - out["seeded"]["p50_us"]
    report.say(f"  fair deal 2 adds {extra:.0f} µs at p50 (one round trip and the server's work)")
    report.data["dealstart"] = out


def botreply(report, prof: Profile, args) -> None:
    """Bots' reply time by the truth of their sets (``botreply``)."""
    from . import botreply as br

    report.say(
        f"\n== bot reply: `turn` → that seat's `set_laid`, beyond the table's delay ({br.BOT_DELAY_MS} ms;"
        f" a timeout: the {br.TURN_MS} ms turn), true sets vs bluffs ({br.TABLES} tables of verish,"
        f" {prof.botreply_s} s a run)"
    )
    out = br.run(prof.botreply_s)
    out["slow_bluff"] = br.run(prof.botreply_s, br.SLOW_BLUFF_MS / 1000)
    for part, said in (
        (out["reply"], "reply"),
        (out["choose"], "the cause: how long a bot's `choose` takes that picks a set, by strength"),
        (
            out["slow_bluff"]["reply"],
            f"reply, every bluff made {br.SLOW_BLUFF_MS} ms slower to choose ({br.SLOW_TABLES} tables)",
        ),
    ):
        report.say(f"  {said}")
        for kind, row in part.items():
            t, b = row["true"], row["bluff"]
            lo, hi = row["p50_diff_ci95_us"]
            report.say(
                f"    {kind:<8} true p50 {t['p50_us']:>8} µs p90 {t['p90_us']:>8} µs ({t['n']:>5})"
                f" | bluff p50 {b['p50_us']:>8} µs p90 {b['p90_us']:>8} µs ({b['n']:>5})"
                f" | bluff − true: p50 {row['p50_diff_us']:>+7} µs (95 %: {lo:+.0f}..{hi:+.0f}),"
                f" p90 {row['p90_diff_us']:>+7} µs"
            )
    report.data["botreply"] = out


def capacity(report, prof: Profile, args) -> None:
    from . import capacity as cap

    ladder = list(prof.ladder)
    if args.max_clients:
        ladder = [n for n in ladder if n <= args.max_clients] or [args.max_clients]
    report.say(
        f"\n== capacity: N clients in another process, verish tables of 4, each acting {cap.DELAY_MS} ms"
        f" after it may act ({prof.capacity_s} s per N, a fresh server each)"
    )
    result = cap.run(ladder, prof.capacity_s, report.say, prof.warmup_s, args.server_args, bisect=prof.bisect)
    report.say(f"  largest N with p99 < {cap.P99_LIMIT_MS:.0f} ms: {result['max_ok']}")
    t = result["target"]
    if t:
        report.say(
            f"  at N={t['clients']}: p99 {t['p99_ms']} ms, {t['actions_per_s']} actions/s,"
            f" server memory {t['kib_per_client']} KiB per client, server CPU {t['server_cpu']:.0%},"
            f" load generator CPU {t['loadgen_cpu']:.0%}"
        )
    report.data["capacity"] = result


def soak(report, prof: Profile, args) -> None:
    from . import soak as soak_run

    minutes = args.soak if args.soak is not None else prof.soak_min
    report.say(f"\n== soak: bots at {soak_run.TABLES} tables for {minutes} min")
    result = soak_run.run(minutes, report.say, args.server_args)
    report.say(
        f"  server RSS {result['rss_start_mib']} → {result['rss_end_mib']} MiB"
        f" (growth {result['growth_mib']} MiB;"
        f" {result['kib_per_client_end']} KiB per client at the end),"
        f" {result['load']['actions_per_s']} actions/s, p99 {result['load']['p99_ms']} ms,"
        f" server CPU {result['server_cpu']:.0%}"
    )
    report.data["soak"] = result


def flood(report, prof: Profile, args) -> None:
    """The flood's figure: the reference table's action latency (the neveryu section's `verish`
    table of 4 clients, paced at about 40 actions a second) without and with ``FLOOD_CONNECTIONS``
    connections flooding the costliest frames the server accepts (``flood.py``), in rounds
    alternating which goes first; the server runs with its default byte budget and the flood in
    a process of its own, pinned with the measuring clients."""
    import json
    import subprocess
    import sys

    import attrs

    from neveryu.server import Limits

    from . import flood as fl
    from . import latency as nev

    defaults = Limits()
    budget = [f"byte_rate={defaults.byte_rate}", f"byte_burst={defaults.byte_burst}"]
    server_args = [*args.server_args, *(a for b in budget for a in ("--limit", b))]
    report.say(
        f"\n== flood: the reference table's action latency without and with {FLOOD_CONNECTIONS} connections"
        f" flooding the costliest frames ({fl.KINDS[0]}: {len(fl.flood_frame(fl.KINDS[0]))} bytes each);"
        f" {prof.flood_rounds} rounds of {prof.flood_s} s blocks, the server's default byte budget"
        f" ({', '.join(budget)})"
    )
    conds = ("without", "with", "with, no budget")
    pooled: dict[str, list[float]] = {cond: [] for cond in conds}
    cpu = dict.fromkeys(conds, 0.0)
    wall = dict.fromkeys(conds, 0.0)
    floods: list[dict] = []

    def block(nv: Helper, cpus: dict | None, cond: str, seed: int) -> None:
        proc = None
        if cond != "without":
            proc = subprocess.Popen(
                [sys.executable, "-m", "scripts.benchmarks.flood", str(nv.port)]
                + ["--connections", str(FLOOD_CONNECTIONS), "--kind", fl.KINDS[0]],
                cwd=ROOT,
                env=Helper.env(),
                stdout=subprocess.PIPE,
                text=True,
            )
            if cpus is not None:
                os.sched_setaffinity(proc.pid, {cpus["clients"]})
            assert proc.stdout.readline().strip() == "READY"
            trio.run(trio.sleep, min(1.0, prof.flood_s))  # at full strength: the budgets ran dry
        c0, t0 = cpu_seconds(nv.pid), time.monotonic()
        r = trio.run(nev.latency, nv.port, 1_000_000, prof.flood_s, FLOOD_QUIET_S, seed)
        cpu[cond] += cpu_seconds(nv.pid) - c0
        wall[cond] += time.monotonic() - t0
        pooled[cond].extend(r["samples"])
        if proc is not None:
            proc.terminate()
            out, _ = proc.communicate(timeout=30)
            if cond == "with":
                seconds = prof.flood_s + min(1.0, prof.flood_s)
                floods.append({**json.loads(out.strip().splitlines()[-1]), "seconds": seconds})

    server = ("scripts.benchmarks.neveryu_server", "--clients", "64")
    with Helper(*server, *server_args) as nv, pinned([nv.pid], not args.no_pin) as cpus:
        for i in range(prof.flood_rounds):
            for cond in conds[:2] if i % 2 == 0 else conds[1::-1]:
                block(nv, cpus, cond, 1 + i)
    # For comparison, once: the same flood against a server without the byte budget (v1.0).
    with Helper(*server, *args.server_args) as nv, pinned([nv.pid], not args.no_pin) as cpus:
        block(nv, cpus, conds[2], 1)
    result = {cond: summary_us(pooled[cond]) for cond in pooled}
    for cond in pooled:
        result[cond]["server_cpu"] = round(cpu[cond] / wall[cond], 3) if wall[cond] else None
    answered = sum(f.get("pong", 0) + f.get("RATE_LIMITED", 0) for f in floods)
    flood_s = sum(f["seconds"] for f in floods)
    result["flood"] = {
        "connections": FLOOD_CONNECTIONS,
        "kind": fl.KINDS[0],
        "frame_bytes": floods[0]["frame_bytes"] if floods else None,
        "frames_decoded_per_s": round(answered / flood_s, 1) if flood_s else None,
        "closed": sum(f.get("closed", 0) for f in floods),
        "runs": floods,
    }
    ratio = result["with"]["p99_us"] / result["without"]["p99_us"] if result["without"]["p99_us"] else None
    result["p99_ratio"] = round(ratio, 2) if ratio else None
    result["budget"] = attrs.asdict(defaults, filter=lambda a, v: a.name.startswith("byte_"))
    for cond in conds:
        lat = result[cond]
        report.say(
            f"  {FLOOD_SAID[cond]:<32} p50 {lat['p50_us']:>8} µs, p99 {lat['p99_us']:>8} µs"
            f" ({lat['n']} samples), server CPU {lat['server_cpu']:.0%}"
        )
    report.say(
        f"  p99 with / without: {result['p99_ratio']} (target ≤ 2); the flood's frames decoded:"
        f" {result['flood']['frames_decoded_per_s']}/s in all,"
        f" connections closed: {result['flood']['closed']}"
    )
    report.data["flood"] = result


FLOOD_CONNECTIONS = 8
FLOOD_SAID = {
    "without": "without the flood",
    "with": "with the flood",
    "with, no budget": "with the flood, no byte budget",
}
FLOOD_QUIET_S = 0.02  # the reference table's pace: ~40 actions a second, far above people's
