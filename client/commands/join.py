"""Join a server: the full-screen terminal client.

Without HOST, browse the local network (DNS-SD) and pick a server from a list. The session is
kept on disk (the user's state folder, readable by the user only): if the client stops, the same
command brings you back to your seat. Keys: ←→ and h/l move across the hand, ↑↓ or a rank typed
jump by rank, Home/End to its ends, Space selects, Enter lays, n «Не верю», y «Верю», d discards
quads (k goes on without), 0 declares none, s ready/start, / chat, Tab scores, r rules, p your
deals on this server, ? help, q leaves, Ctrl-C quits (your seat is kept). Texts in Russian or
English (from the locale, or --lang); ASCII where the terminal cannot show ♠♥♦♣. --plain (chosen
by itself without a terminal or on TERM=dumb): the line mode, a sentence per event and typed
commands (docs/PLAIN.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from neveryu import protocol

from ._ui import add_ui_arguments, display_of, plain_mode, plain_texts, player_name, prefs_of

if TYPE_CHECKING:
    from neveryu.client.session_store import Slot


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "server",
        nargs="?",
        metavar="HOST[:PORT]",
        help=f"the server (port {protocol.DEFAULT_PORT} unless given); omitted: look on the local network",
    )
    parser.add_argument(
        "--password", default=None, help="the server's password, if it has one (else asked for when needed)"
    )
    parser.add_argument("--fresh", action="store_true", help="do not resume a kept session: start a new one")
    add_ui_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from neveryu.client.address import parse_address, show_address
    from neveryu.client.player_key import player_key
    from neveryu.client.ui.app import run_client
    from neveryu.client.ui.session_run import PasswordRefused
    from neveryu.client.ui.texts import Texts

    try:
        name = player_name(args.name)
        if args.server:
            host, port = parse_address(args.server)
    except ValueError as exc:
        print(f"neveryu join: {exc}", file=sys.stderr)
        return 2
    plain = plain_mode(args)
    if not args.server:
        from neveryu.client import server_list

        try:
            found = server_list.browse_and_pick()
        except (OSError, ValueError) as exc:
            print(f"neveryu join: cannot browse the network: {exc}", file=sys.stderr)
            return 1
        if found is None:
            return 1
        host, port = found.address, found.port
    display = display_of(args)
    address = show_address(host, port)
    problems: list[str] = []
    slot = _slot(address, name, args.fresh, problems)
    key = player_key(problem=problems.append)
    command = f"neveryu join {address}" + (f" --name {args.name}" if args.name else "")
    password = args.password
    for tries in range(1, PASSWORD_TRIES + 1):
        common = {"name": name, "password": password, "prefs": prefs_of(args), "slot": slot}
        common.update(notes=display.notes + tuple(problems), come_back=command, player_key=key)
        try:
            if plain:
                from neveryu.client.plain.session import run_plain

                return run_plain(host, port, texts=plain_texts(args, display), **common)
            texts = Texts(display.lang, ascii=display.ascii)
            return run_client(host, port, texts=texts, color_depth=display.color_depth, **common)
        except PasswordRefused:
            if tries == PASSWORD_TRIES:
                break
            password = ask_password(address, wrong=password is not None)
            if password is None:
                return 1
        except KeyboardInterrupt:
            print(f"neveryu join: stopped. To come back: {command}", file=sys.stderr)
            return 130
    print(f"neveryu join: the server at {address} refused {PASSWORD_TRIES} passwords.", file=sys.stderr)
    return 1


PASSWORD_TRIES = 3
"""Passwords tried (the one given with --password, then those typed) before giving up."""


def ask_password(address: str, wrong: bool) -> str | None:
    """The password the server at ``address`` needs, typed without echo when the terminal can
    ask (``getpass``); else, or when nothing is typed or Ctrl-C/Ctrl-D pressed, None, with a
    sentence on stderr that says how to give it. ``wrong``: one was given and refused."""
    import getpass

    said = "refused that password" if wrong else "needs a password"
    if not sys.stdin.isatty():
        print(
            f"neveryu join: the server at {address} {said}: give it with --password PASSWORD", file=sys.stderr
        )
        return None
    print(f"The server at {address} {said}.", file=sys.stderr)
    try:
        typed = getpass.getpass("Password (Enter alone: give up): ")
    except (EOFError, KeyboardInterrupt):
        typed = ""
    if not typed:
        print(
            f"neveryu join: no password given; with one: neveryu join {address} --password PASSWORD",
            file=sys.stderr,
        )
        return None
    return typed


def _slot(address: str, name: str, fresh: bool, problems: list[str]) -> Slot | None:
    """Where this client keeps its session (None: nowhere); ``fresh``: resume nothing kept."""
    from neveryu.client.session_store import open_slot

    slot = open_slot(address, name, problem=problems.append)
    if slot is not None and fresh and slot.kept is not None:
        slot.forget()
        slot.kept = None
    return slot
