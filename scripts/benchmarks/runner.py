"""One function per section of ``scripts/bench``: run it, store its figures, print them."""

from __future__ import annotations

import argparse

import trio

from . import engine_speed
from . import floor as floor_server
from .subproc import Helper


def engine(report, args: argparse.Namespace) -> None:
    seconds = 0.5 if args.quick else 3.0
    report.say(f"\n== engine: bots-only deals per second, 4 seats, one process ({seconds} s each)")
    rows = engine_speed.run(seconds)
    for r in rows:
        report.say(
            f"  {r['variant']:<12} {r['deals_per_s']:>8.1f} deals/s  {r['actions_per_s']:>7} actions/s"
            f"  ({r['deals']} deals)"
        )
    report.data["engine"] = rows


def floor(report, args: argparse.Namespace) -> None:
    samples, seconds = (1000, 5.0) if args.quick else (5000, 30.0)
    tp_seconds = 2.0 if args.quick else 10.0
    report.say("\n== floor: bare trio server, same framing, no game logic (server in its own process)")
    with Helper("scripts.benchmarks.floor") as h:
        lat = trio.run(floor_server.latency, h.port, samples, seconds)
        tp = trio.run(floor_server.throughput, h.port, 200, tp_seconds)
    report.say(f"  send → all 4 decoded: p50 {lat['p50_us']} µs, p99 {lat['p99_us']} µs ({lat['n']} samples)")
    report.say(f"  ping/pong, {tp['clients']} clients: {tp['requests_per_s']} requests/s")
    report.data["floor"] = {"latency": lat, "throughput": tp}


def neveryu(report, args: argparse.Namespace) -> None:
    from . import latency as nev  # imports nothing of the server; the server runs in its own process

    samples, seconds = (1000, 5.0) if args.quick else (5000, 30.0)
    tp_seconds = 2.0 if args.quick else 10.0
    report.say("\n== neveryu: the same through the real server (verish, 4 clients at one table)")
    with Helper("scripts.benchmarks.neveryu_server", "--clients", "256") as h:
        lat = trio.run(nev.latency, h.port, samples, seconds)
        tp = trio.run(nev.throughput, h.port, 200, tp_seconds)
    floor_p50 = report.data.get("floor", {}).get("latency", {}).get("p50_us")
    ratio = f" = {lat['p50_us'] / floor_p50:.2f} × floor" if floor_p50 else ""
    report.say(
        f"  set sent → all 4 decoded its event: p50 {lat['p50_us']} µs{ratio}, p99 {lat['p99_us']} µs"
        f" ({lat['n']} samples, {lat['deals']} deals ended, errors {lat['errors'] or 0})"
    )
    report.say(f"  ping/pong, {tp['clients']} clients: {tp['requests_per_s']} requests/s")
    report.data["neveryu"] = {"latency": lat, "throughput": tp}


def capacity(report, args: argparse.Namespace) -> None:
    from . import capacity as cap

    if args.quick:
        ladder, seconds = [100, 200], 4.0
    else:
        ladder, seconds = [250, 500, 750, 1000, 1250, 1500, 2000], 20.0
    if args.max_clients:
        ladder = [n for n in ladder if n <= args.max_clients] or [args.max_clients]
    report.say(
        f"\n== capacity: N clients in another process, verish tables of 4, each acting {cap.DELAY_MS} ms"
        f" after it may act ({seconds} s per N)"
    )
    result = cap.run(ladder, seconds, report.say)
    report.say(f"  largest N with p99 < {cap.P99_LIMIT_MS} ms: {result['max_ok']}")
    report.data["capacity"] = result


def soak(report, args: argparse.Namespace) -> None:
    from . import soak as soak_run

    minutes = args.soak if args.soak is not None else (0.5 if args.quick else 5.0)
    report.say(f"\n== soak: bots at {soak_run.TABLES} tables for {minutes} min")
    result = soak_run.run(minutes, report.say)
    report.say(
        f"  server RSS {result['rss_start_mib']} → {result['rss_end_mib']} MiB (growth {result['growth_mib']} MiB),"
        f" {result['load']['actions_per_s']} actions/s, p99 {result['load']['p99_ms']} ms, server CPU {result['server_cpu']:.0%}"
    )
    report.data["soak"] = result
