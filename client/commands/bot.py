"""A bot that plays on a server over the protocol, like any client: tests, load, and empty
seats filled from another machine. Without --table it joins the first waiting table with a free
seat, or makes a table of the server's default variant. It keeps its seat: after a dropped
connection or a server restart it takes it back, as neveryu join does.

Bots come in four levels: easy (random: any legal move), normal (honest: tells the truth when
it can), hard (sharp: remembers cards, bluffs, challenges well) and expert (sharp with a search
of its sets)."""

from __future__ import annotations

import argparse
import logging
import sys

from ._words import plural


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from neveryu.engine.bots import ALIASES, LEVELS

    levels = f"{', '.join(LEVELS)} (or {', '.join(ALIASES)})"
    parser.add_argument(
        "server",
        nargs="?",
        metavar="HOST[:PORT]",
        help="the server, as for neveryu join (default: 127.0.0.1, port 7420)",
    )
    parser.add_argument("--host", default=None, help="the server's address (or give HOST[:PORT])")
    parser.add_argument("--port", type=int, default=None, help="the server's port (default: 7420)")
    parser.add_argument("--password", default=None, help="the server's password")
    parser.add_argument("--table", type=int, default=None, help="the table to join")
    parser.add_argument("--table-password", default=None, help="the table's password")
    parser.add_argument(
        "--strength",
        default="hard",
        help=f"the bot's level: {levels}; default hard",
    )
    parser.add_argument("--name", default="bot", help="the name it plays under")
    parser.add_argument(
        "--matches", type=int, default=None, help="stop after this many matches (default: never)"
    )
    parser.add_argument("--delay-ms", type=int, default=500, help="wait before each move (default: 500)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's choices")
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))


def address(args: argparse.Namespace) -> tuple[str, int]:
    """The server from HOST[:PORT], --host and --port (--port wins over a port in HOST:PORT).
    Raises ValueError for a bad one."""
    from neveryu import protocol
    from neveryu.client.address import parse_address

    host, port = parse_address(args.server or args.host or "127.0.0.1", protocol.DEFAULT_PORT)
    if args.server and args.host:
        raise ValueError("give the server either as HOST[:PORT] or with --host, not both")
    if args.port is not None:
        if not 0 < args.port < 65536:
            raise ValueError(f"the port must be between 1 and 65535, not {args.port}")
        port = args.port
    return host, port


def run(args: argparse.Namespace) -> int:
    import trio

    from neveryu.client.address import show_address
    from neveryu.client.botclient import ConnectionClosed, ServerError
    from neveryu.client.botseat import play_bot
    from neveryu.client.handshake import Refused

    try:
        host, port = address(args)
    except ValueError as exc:
        print(f"neveryu bot: {exc}", file=sys.stderr)
        return 2
    where = show_address(host, port)
    from neveryu.engine.bots import strength_of

    try:
        strength = strength_of(args.strength)
    except ValueError as exc:
        print(f"neveryu bot: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)-7s %(message)s")
    try:
        player = trio.run(
            lambda: play_bot(
                host,
                port,
                name=args.name,
                strength=strength,
                password=args.password,
                table=args.table,
                table_password=args.table_password,
                matches=args.matches,
                delay=args.delay_ms / 1000,
                seed=args.seed,
            )
        )
    except KeyboardInterrupt:
        print(f"neveryu bot: stopped (Ctrl-C). To start it again: neveryu bot {where}", file=sys.stderr)
        return 130
    except ServerError as exc:
        print(f"neveryu bot: the server refused: {exc}", file=sys.stderr)
        return 1
    except (ConnectionClosed, Refused) as exc:
        print(f"neveryu bot: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"neveryu bot: cannot reach {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # an unknown --strength
        print(f"neveryu bot: {exc}", file=sys.stderr)
        return 2
    matches = plural(player.matches, "match", "matches")
    print(f"neveryu bot: played {plural(player.deals, 'deal')} in {matches}")
    return 0
