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
    report.say("\n== neveryu: not built yet (needs server/)")


def capacity(report, args: argparse.Namespace) -> None:
    report.say("\n== capacity: not built yet (needs server/ and bots)")


def soak(report, args: argparse.Namespace) -> None:
    report.say("\n== soak: not built yet (needs server/ and bots)")
