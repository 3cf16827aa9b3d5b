"""The ``neveryu`` command. Each subcommand lives in ``client/commands/<name>.py`` with
``add_arguments(parser)`` and ``run(args) -> int``; this module only wires them to argparse."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

# name -> one-line help; the module is client.commands.<name with '-' as '_'>
COMMANDS: dict[str, str] = {
    "play": "play against bots on this machine (a server on 127.0.0.1 and the client, one command)",
    "join": "join a server: the full-screen terminal client (--plain: the line mode, docs/PLAIN.md)",
    "serve": "run a server for the local network",
    "bot": "a bot that plays on a server over the protocol",
    "history": "list the recorded deals: when each ended, variant, players, result",
    "replay": "replay a recorded deal in the terminal client (or --check every record)",
    "export": "write a recorded deal as JSON (the hand-history format of docs/RECORDS.md)",
    "stats": "players' statistics and ratings from the records; --top: the leaderboards",
    "simulate": "play many seeded bots-only deals and print figures",
    "arena": "rank bots over duplicate deals: places, ratings, confidence intervals",
    "scenario": "run scenario files (docs/SCENARIOS.md) and show any mismatch",
    "protocol-info": "print the protocol's JSON Schema and version",
    "servers": "list the servers found on the local network (DNS-SD)",
    "conformance": "check a client or a server against the protocol (docs/CONFORMANCE.md)",
    "verify": "check that recorded deals were dealt fairly (fair deal: commitment, seed, contributions)",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="neveryu",
        description="«Верю — не верю» (Cheat, I Doubt It) over a local network.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"neveryu.client.commands.{name.replace('-', '_')}")
        p = sub.add_parser(name, help=help_text, description=plain_help(module.__doc__ or help_text))
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def plain_help(doc: str) -> str:
    """A module's docstring as ``--help`` prints it: plain text, without the docstring's markup
    (double backquotes around a command, a flag or a setting)."""
    return re.sub(r"``(.+?)``", r"\1", doc, flags=re.S).strip()


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; its exit status (0: done; 130: interrupted; 1: the reader of standard
    output went away, as in ``neveryu protocol-info | head``, which is no error to report)."""
    try:
        args = build_parser().parse_args(argv)
        status = args._run(args) or 0
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
        return int(status)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        quiet_stdout()
        return 1


def quiet_stdout() -> None:
    """Point standard output at the null device, so that Python's own flush at exit does not fail
    on the closed pipe again (the Python docs, signal module, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
