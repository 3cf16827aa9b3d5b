"""The real server in its own process, configured for benchmarks.

Run as ``python -m scripts.benchmarks.neveryu_server [--clients N]``: serves on 127.0.0.1 and a
free port (printed as ``PORT n``), with the connection limits raised for ``N`` clients from one
address (``max_connections``, ``max_per_address``, ``max_tables``, ``max_tables_per_address``:
those of them the server has), no request rate limit and no byte budget (the ping/pong loop
would hit them), untimed turns, no idle drop, a short pause between deals and matches that do
not end (``deals``), so every client keeps playing, no quads window (``quads_window_ms`` 0:
docs/RULES.md `verish` holds the next set for it after a person's take, a wait of the rules that an
action's latency would otherwise include; the load generator's clients are persons to the
server), and no records (``--db PATH``: record every deal there, and keep the journal of live
tables, as ``neveryu serve`` does by default; ``--no-journal``: the records alone). Everything
else is the server's default configuration. ``--stats FILE``: when it stops, it writes there
what its records' writer did (``RecordsWriter``: ``written``, ``actions``, and ``cpu_s``, its thread's
CPU time).
"""

from __future__ import annotations

import argparse
import json
import logging
import signal

import attrs
import trio

from neveryu.server import Limits, Server, ServerConfig, settle_collector


def bench_config(
    clients: int,
    deal_pause_ms: int,
    limits: dict[str, int] | None = None,
    db: str | None = None,
    journal: bool = True,
) -> ServerConfig:
    """The server's default configuration with the changes listed in the module docstring, then
    ``limits`` (experiments: ``--limit replay=64``)."""
    tables = clients // 4 + 64
    raised = {
        "max_connections": clients + 64,
        "max_per_address": clients + 64,
        "max_tables": tables,
        "max_tables_per_address": tables,
        "idle_ms": 3_600_000,
        "rate": 1_000_000,
        "burst": 1_000_000,
        "byte_rate": 1_000_000_000,
        "byte_burst": 1_000_000_000,
    }
    known = {a.name for a in attrs.fields(Limits)}
    config = ServerConfig().evolve(
        host="127.0.0.1",
        port=0,
        db=db,
        journal=journal,
        log_level="warning",
        table={"turn_ms": 0, "quads_window_ms": 0, "deal_pause_ms": deal_pause_ms, "deals": 1_000_000},
        limits={k: v for k, v in raised.items() if k in known},
    )
    return config.evolve(limits=dict(limits)) if limits else config


async def _main(config: ServerConfig, stats: str | None = None) -> None:
    server = Server(config)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run)
        settle_collector()  # as ``neveryu serve`` does
        print("PORT", port, flush=True)
        with trio.open_signal_receiver(signal.SIGTERM) as signals:
            async for _ in signals:
                nursery.cancel_scope.cancel()  # SIGTERM from the bench: stop cleanly
                break
    if stats:
        r = server.records
        with open(stats, "w") as f:
            json.dump({"written": r.written, "actions": r.actions, "cpu_s": r.cpu_s}, f)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--clients", type=int, default=200)
    p.add_argument("--deal-pause-ms", type=int, default=200)
    p.add_argument(
        "--limit", action="append", default=[], metavar="NAME=INT", help="set a server limit (experiments)"
    )
    p.add_argument("--profile", metavar="FILE", help="profile the server's CPU time with cProfile into FILE")
    p.add_argument("--db", metavar="PATH", default=None, help="record every deal in this SQLite file")
    p.add_argument("--no-journal", action="store_true", help="with --db: keep no journal of live tables")
    p.add_argument("--stats", metavar="FILE", default=None, help="write what the records' writer did there")
    args = p.parse_args()
    limits = {k: int(v) for k, v in (item.split("=", 1) for item in args.limit)}
    logging.basicConfig(level=logging.WARNING)
    config = bench_config(args.clients, args.deal_pause_ms, limits, args.db, journal=not args.no_journal)
    if args.profile:
        import cProfile
        import time

        profiler = cProfile.Profile(time.process_time)  # CPU time: waiting for a CPU is not counted
        profiler.runcall(trio.run, _main, config, args.stats)
        profiler.dump_stats(args.profile)
    else:
        trio.run(_main, config, args.stats)
