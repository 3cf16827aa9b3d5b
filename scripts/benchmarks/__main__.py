"""``scripts/bench [--quick] [--json] [--soak [MINUTES]] [--only SECTION,...]``

Runs, in order: engine (deals per second per variant), floor (bare trio server), neveryu (the
same measurement through the real server), dealstart (what fair deal 2 costs a deal's start),
botreply (bots' reply time, true sets against bluffs), capacity (N bot clients in another
process), records (a record's size, ``neveryu history`` over 100,000 deals, recording's CPU per
action), players (the ratings of sharp against honest bots in every variant, the leaderboard
over 100,000 deals), journal (restoring 100 live tables, the journal's CPU per action), flood
(the reference table's action latency without and with 8 connections flooding the costliest
frames), and, when ``--soak`` is given, the soak. Prints a report as it goes (to stderr with
``--json``, which prints one JSON object on stdout; its key ``latency_ratio`` is neveryu p50 /
floor p50).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from . import procstat

SECTIONS = (
    "engine",
    "floor",
    "neveryu",
    "dealstart",
    "botreply",
    "capacity",
    "records",
    "players",
    "journal",
    "flood",
    "soak",
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="scripts/bench", description=__doc__.split("\n\n")[1])
    p.add_argument("--quick", action="store_true", help="short runs of every section: docs/BENCHMARKS.md")
    p.add_argument("--json", action="store_true", help="print one JSON object with every figure")
    p.add_argument(
        "--soak",
        type=float,
        nargs="?",
        const=5.0,
        default=None,
        metavar="MINUTES",
        help="also run the soak: bots at 100 tables for MINUTES (default 5)",
    )
    p.add_argument(
        "--only",
        default=None,
        metavar="SECTION,...",
        help=f"run only these sections, of: {', '.join(SECTIONS)}",
    )
    p.add_argument(
        "--no-pin",
        action="store_true",
        help="latency: leave the servers and the measuring clients wherever the scheduler puts them"
        " (default: the servers on one CPU, the measuring clients on another)",
    )
    p.add_argument("--max-clients", type=int, default=None, help="capacity: the largest N to try")
    p.add_argument(
        "--rating-deals",
        type=int,
        default=None,
        metavar="N",
        help="players: seeded deals per variant (2,000)",
    )
    p.add_argument(
        "--board-deals",
        type=int,
        default=None,
        metavar="N",
        help="players: deals the leaderboard reads (100,000)",
    )
    p.add_argument(
        "--server-limit",
        action="append",
        default=[],
        metavar="NAME=INT",
        help="override one of the server's limits (e.g. replay=64), for experiments",
    )
    p.add_argument("--smoke", action="store_true", help=argparse.SUPPRESS)  # tests/test_bench_smoke.py
    return p


class Report:
    """Collects figures and prints the human report line by line (stderr under ``--json``)."""

    def __init__(self, as_json: bool, sections: set[str], server_args: list[str]) -> None:
        self.out = sys.stderr if as_json else sys.stdout
        self.data: dict = {}
        self.sections = sections
        self.server_args = server_args

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    sections = set(SECTIONS[:-1]) if args.only is None else set(args.only.split(","))
    if args.soak is not None:
        sections.add("soak")
    unknown = sections - set(SECTIONS)
    if unknown:
        print(f"scripts/bench: unknown section(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    args.server_args = [arg for item in args.server_limit for arg in ("--limit", item)]
    report = Report(args.json, sections, args.server_args)
    report.data["machine"] = procstat.machine()
    report.data["profile"] = "smoke" if args.smoke else "quick" if args.quick else "full"
    report.data["server_args"] = args.server_args
    m = report.data["machine"]
    report.say(
        f"machine: {m['nproc']} × {m['cpu']}, Python {m['python']}, Linux {m['kernel']},"
        f" load average {m['loadavg_1min']:.2f}"
    )
    started = time.monotonic()
    from .profiles import PROFILES
    from .runner import botreply, capacity, dealstart, engine, flood, floor, neveryu, soak
    from .runner_store import journal, players, records

    runs = {
        "engine": engine,
        "floor": floor,
        "neveryu": neveryu,
        "dealstart": dealstart,
        "botreply": botreply,
        "capacity": capacity,
        "records": records,
        "players": players,
        "journal": journal,
        "flood": flood,
        "soak": soak,
    }
    profile = PROFILES["smoke" if args.smoke else "quick" if args.quick else "full"]
    for name in SECTIONS:
        if name in sections:
            runs[name](report, profile, args)
    floor_p50 = report.data.get("floor", {}).get("latency", {}).get("p50_us")
    nev_p50 = report.data.get("neveryu", {}).get("latency", {}).get("p50_us")
    report.data["latency_ratio"] = round(nev_p50 / floor_p50, 2) if floor_p50 and nev_p50 else None
    report.data["seconds"] = round(time.monotonic() - started, 1)
    report.data["loadavg_1min_end"] = os.getloadavg()[0]
    report.say(f"latency_ratio (neveryu p50 / floor p50): {report.data['latency_ratio']}")
    report.say(f"total: {report.data['seconds']} s")
    if args.json:
        print(json.dumps(report.data, indent=None, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
