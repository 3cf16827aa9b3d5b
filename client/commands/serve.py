"""Run a server for the local network: the lobby, tables, bots and the referee.

Settings come from the defaults, then the TOML file given with --config (at its top the
flags' names with underscores, as ``log_level = "info"``; under ``[table]`` what a new table
gets by default, as README lists; under ``[limits]`` the timeouts and bounds), then the flags. Stop it with
Ctrl-C (SIGINT) or SIGTERM: every player is told; a second signal exits at once.

Every deal that ends is recorded (docs/RECORDS.md) in your data folder, or --db PATH (``db`` in
the config file); --no-record (``record = false``) keeps none. If the records cannot be kept
(a newer or damaged database, a read-only file, a full disk) the server says why and goes on
without them. ``neveryu history`` lists them.

The same file keeps a journal of the live tables (``journal = false``: none): started again
after a crash, a kill or a power cut, the server restores every table it was running (unless it
was gone for over 2 hours, ``journal_max_age_ms``) and its players resume their seats; --fresh
starts without them. A server stopped with Ctrl-C or SIGTERM ends its tables."""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import signal
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the server is imported by the subcommand that runs it (docs/ARCHITECTURE.md, client/)
    from neveryu.server import Server, ServerConfig

LOG_LEVELS = ("debug", "info", "warning", "error")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=None, help="the address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=None, help="the TCP port (default: 7420)")
    parser.add_argument("--name", default=None, help="the server's name, shown to players")
    parser.add_argument("--password", default=None, help="a password every player must give")
    parser.add_argument(
        "--config",
        default=None,
        metavar="FILE",
        help="a TOML file of settings ([table]: turn_ms, grace_ms, deal_pause_ms, ...: README)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="fixed seed for every table (reproducible deals)"
    )
    parser.add_argument(
        "--log-level", default=None, choices=LOG_LEVELS, help="default: info (debug: every frame's type)"
    )
    parser.add_argument(
        "--no-advertise", action="store_true", help="do not announce the server on the LAN (DNS-SD)"
    )
    add_record_arguments(parser)


def add_record_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db`` and ``--no-record`` (``serve`` and ``play``)."""
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="where to record the deals (default: records.sqlite3 in your data folder)",
    )
    parser.add_argument("--no-record", action="store_true", help="keep no record of the deals")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="do not restore the tables a crashed or killed server left in the journal (they are forgotten)",
    )


def with_records(config: ServerConfig, args: argparse.Namespace) -> ServerConfig:
    """``config`` with the records' file of ``args`` (``--db``, else the config's, else the
    default), ``--no-record`` and ``--fresh``."""
    from neveryu.server import default_db_path

    db = args.db or config.db or str(default_db_path())
    restore = config.restore and not getattr(args, "fresh", False)
    return config.evolve(db=db, record=config.record and not args.no_record, restore=restore)


def build_config(args: argparse.Namespace) -> ServerConfig:
    """The ServerConfig for ``args``: defaults, then --config, then the flags. Raises OSError or
    ValueError for a bad file or setting."""
    from neveryu.server import ServerConfig, load_config

    config = load_config(args.config) if args.config else ServerConfig()
    changes = {
        name: getattr(args, name)
        for name in ("host", "port", "name", "password", "seed", "log_level")
        if getattr(args, name, None) is not None
    }
    return with_records(config.evolve(**changes), args)


def run(args: argparse.Namespace) -> int:
    import trio

    try:
        config = build_config(args)
    except (OSError, ValueError, TypeError) as exc:
        print(f"neveryu serve: {exc}", file=sys.stderr)
        return 2
    level = config.log_level.upper()
    if level not in {lv.upper() for lv in LOG_LEVELS}:
        print(f"neveryu serve: log_level must be one of {', '.join(LOG_LEVELS)}", file=sys.stderr)
        return 2
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(message)s", stream=sys.stderr)
    try:
        trio.run(_main, config, not args.no_advertise)
    except OSError as exc:
        print(f"neveryu serve: cannot listen on port {config.port}: {exc}", file=sys.stderr)
        return 1
    return 0


async def _main(config: ServerConfig, advertise: bool = True) -> None:
    import trio

    from neveryu.server import Server, settle_collector

    server = Server(config)
    async with trio.open_nursery() as nursery:

        async def serve_then_stop(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            await server.run(task_status=task_status)
            nursery.cancel_scope.cancel()

        await nursery.start(_watch_signals, server)  # before anyone can see the server listen
        port = await nursery.start(serve_then_stop)
        settle_collector()  # this process serves: its collector set for a server
        try:
            from neveryu.server.addresses import print_reachable

            print_reachable(config.host, port)
        except Exception:  # the printout is a courtesy; never stop the server for it
            print(f"neveryu serve: listening on port {port}", flush=True)
        print(records_line(server), flush=True)
        if advertise:
            nursery.start_soon(_advertise, server)


def records_line(server: Server) -> str:
    """Where the records go, or why they are off, in one line."""
    records = server.records
    if records.on:
        return f"Deals are recorded in {records.path} ({history_command(records.path)} lists them)."
    if records.path is None:  # asked for (--no-record, record = false): no reason to give
        return "Records are turned off: no deal is recorded."
    return f"Records are off: {records.off}."


def history_command(path: str | os.PathLike[str] | None) -> str:
    """The command that lists the records at ``path``: ``neveryu history``, with ``--db PATH``
    where they are not in the file it reads by default."""
    from pathlib import Path

    from neveryu.server import default_db_path

    if path is None or Path(path).resolve() == default_db_path().resolve():
        return "neveryu history"
    return f"neveryu history --db {shlex.quote(str(path))}"


async def _advertise(server: Server) -> None:
    """DNS-SD advertising beside the server (server/advertise.py); a failure is only logged."""
    try:
        from neveryu.server.advertise import advertise_server

        await advertise_server(server)
    except Exception as exc:
        logging.getLogger("neveryu.server").warning("not advertised on the LAN: %s", exc)


async def _watch_signals(server: Server, task_status: Any = None) -> None:
    import trio

    log = logging.getLogger("neveryu.server")
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        if task_status is not None:
            task_status.started()
        seen = 0
        async for signum in signals:
            seen += 1
            if seen == 1:
                log.info(
                    "%s: saying bye to every client (again to exit at once)", signal.Signals(signum).name
                )
                server.shutdown()
            else:
                log.warning("second signal: exiting now")
                logging.shutdown()
                os._exit(130)
