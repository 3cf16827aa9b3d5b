"""Join a server: the full-screen terminal client.

Without HOST, browse the local network (DNS-SD) and pick a server from a list. Keys: arrows and
h/l move across the hand, Space selects, Enter lays, n «Не верю», y «Верю», d discards a quad,
0 declares none, s ready/start, / chat, ? help, q leaves. Texts in Russian or English (from the
locale, or --lang); --ascii when the terminal cannot show ♠♥♦♣.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from neveryu import protocol


def add_ui_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every full-screen command shares (``join``, ``play``)."""
    parser.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    parser.add_argument(
        "--lang", choices=("ru", "en"), default=None, help="texts language (default: from the locale)"
    )
    parser.add_argument("--ascii", action="store_true", help="cards as QS, 10H instead of Q♠, 10♥")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "server",
        nargs="?",
        metavar="HOST[:PORT]",
        help=f"the server (port {protocol.DEFAULT_PORT} unless given); omitted: look on the local network",
    )
    parser.add_argument("--password", default=None, help="the server's password, if it has one")
    add_ui_arguments(parser)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[v6]:PORT`` → (host, port). Raises ValueError on a bad port."""
    host, port = text, protocol.DEFAULT_PORT
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest.startswith(":"):
            port = int(rest[1:])
    elif text.count(":") == 1:
        host, _, p = text.partition(":")
        port = int(p)
    if not 0 < port < 65536:
        raise ValueError(f"port {port} is out of range")
    return host or "127.0.0.1", port


def player_name(arg: str | None) -> str:
    name = arg or os.environ.get("NEVERYU_NAME") or _login() or "player"
    return name.strip()[: protocol.MAX_NAME_LEN] or "player"


def _login() -> str | None:
    try:
        return getpass.getuser()
    except Exception:  # no login name (containers)
        return None


def need_terminal(command: str) -> bool:
    """True (after saying so) when stdin or stdout is not a terminal: the client is full-screen."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return False
    print(f"neveryu {command}: this is a full-screen program; run it in a terminal", file=sys.stderr)
    return True


def make_texts(args: argparse.Namespace):
    from neveryu.client.ui.texts import Texts, can_encode, choose_lang, needs_ascii

    encoding = getattr(sys.stdout, "encoding", None)
    lang = choose_lang(args.lang)
    if lang == "ru" and not can_encode("Верю", encoding):
        lang = "en"
    return Texts(lang, ascii=args.ascii or needs_ascii(encoding))


def run(args: argparse.Namespace) -> int:
    from neveryu.client.ui.app import run_client

    if need_terminal("join"):
        return 2
    if args.server:
        try:
            host, port = parse_address(args.server)
        except ValueError as exc:
            print(f"neveryu join: {args.server}: {exc}", file=sys.stderr)
            return 2
    else:
        from neveryu.client import server_list

        try:
            found = server_list.browse_and_pick()
        except (OSError, ValueError) as exc:
            print(f"neveryu join: cannot browse the network: {exc}", file=sys.stderr)
            return 1
        if found is None:
            return 1
        host, port = found.address, found.port
    return run_client(host, port, name=player_name(args.name), texts=make_texts(args), password=args.password)
