"""A bot that plays on a server over the protocol, like any client: tests, load, and empty
seats filled from another machine. Without --table it joins the first waiting table with a free
seat, or makes a table of the server's default variant."""

from __future__ import annotations

import argparse
import logging
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="the server's address (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="the server's port (default: 7420)")
    parser.add_argument("--password", default=None, help="the server's password")
    parser.add_argument("--table", type=int, default=None, help="the table to join")
    parser.add_argument("--table-password", default=None, help="the table's password")
    parser.add_argument("--strength", default="honest", help="the bot's strength (random, honest, sharp)")
    parser.add_argument("--name", default="bot", help="the name it plays under")
    parser.add_argument(
        "--matches", type=int, default=None, help="stop after this many matches (default: never)"
    )
    parser.add_argument("--delay-ms", type=int, default=500, help="wait before each move (default: 500)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's choices")
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))


def run(args: argparse.Namespace) -> int:
    import trio

    from neveryu import protocol
    from neveryu.client.botclient import ConnectionClosed, ServerError, play_bot

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)-7s %(message)s")
    try:
        player = trio.run(
            lambda: play_bot(
                args.host,
                args.port or protocol.DEFAULT_PORT,
                name=args.name,
                strength=args.strength,
                password=args.password,
                table=args.table,
                table_password=args.table_password,
                matches=args.matches,
                delay=args.delay_ms / 1000,
                seed=args.seed,
            )
        )
    except ServerError as exc:
        print(f"neveryu bot: the server refused: {exc}", file=sys.stderr)
        return 1
    except ConnectionClosed as exc:
        print(f"neveryu bot: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"neveryu bot: cannot reach {args.host}: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # an unknown --strength
        print(f"neveryu bot: {exc}", file=sys.stderr)
        return 2
    print(f"neveryu bot: played {player.deals} deals in {player.matches} matches")
    return 0
