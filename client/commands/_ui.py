"""What the full-screen commands (``join``, ``play``) share: their options, the player's name,
the terminal's abilities (client/terminal.py), and the check that there is a terminal."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import TYPE_CHECKING

from neveryu import protocol

if TYPE_CHECKING:  # imported where used: a command starts without the full-screen client
    from neveryu.client.terminal import Display
    from neveryu.client.ui.controller import Prefs

BOT_LEVELS_HELP = (
    "Bots come in three levels: easy (random: any legal move), normal (honest: tells the truth "
    "when it can) and hard (sharp: remembers cards, bluffs, challenges well)."
)


def add_ui_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every full-screen command shares."""
    parser.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    parser.add_argument(
        "--lang", choices=("ru", "en"), default=None, help="texts language (default: from the locale)"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="ASCII only: cards as QS, 10H instead of Q♠, 10♥"
    )
    parser.add_argument(
        "--bell",
        action="store_true",
        help="ring the terminal's bell when it is your turn or someone names you in chat",
    )
    parser.add_argument(
        "--title", action="store_true", help="show in the terminal's title when it is your turn"
    )
    parser.add_argument(
        "--confirm-calls",
        action="store_true",
        help="«Не верю» (n) and «Верю» (y) need a second press of the same key",
    )
    parser.add_argument(
        "--no-mouse",
        action="store_true",
        help="leave the mouse to the terminal (no wheel scrolling of the log)",
    )


def prefs_of(args: argparse.Namespace) -> Prefs:
    from neveryu.client.ui.controller import Prefs

    return Prefs(bell=args.bell, title=args.title, confirm_calls=args.confirm_calls, mouse=not args.no_mouse)


def display_of(args: argparse.Namespace) -> Display:
    from neveryu.client.terminal import display

    return display(args.lang, args.ascii)


def player_name(arg: str | None) -> str:
    """The name to play under: ``--name``, else ``NEVERYU_NAME``, else the login name. Raises
    ValueError (saying where it came from) for one longer than the protocol allows
    (``protocol.MAX_NAME_LEN`` characters): it is refused, not cut."""
    given = arg or os.environ.get("NEVERYU_NAME")
    name = (given or _login() or "player").strip() or "player"
    if len(name) > protocol.MAX_NAME_LEN:
        where = "--name" if arg else "NEVERYU_NAME" if given else "your login name"
        raise ValueError(
            f"{where} is {len(name)} characters long; a name holds at most {protocol.MAX_NAME_LEN}"
            + ("" if arg else ": give a shorter one with --name")
        )
    return name


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
