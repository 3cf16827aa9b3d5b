"""Replay a recorded deal in the terminal client: step through it with the table's layout, seeing
every hand or one seat's view.

Keys: → (l, Space) the next action, ← (h) the one before, ↓ (j) the next reveal, ↑ (k) the one
before, Home and End the deal's start and end, v the next view (every hand, then each seat as
it saw the deal), Tab the scores, r the rules, PgUp/PgDn the log, ? help, q quits.

--check replays every deal of the records (or deal ID) through the engine instead, and says
which do not give the recorded result: exit 1 if any. Exits 1 for an unknown id or a record
that does not replay."""

from __future__ import annotations

import argparse
import sqlite3
import sys

from ._records import Failed, add_db_argument, db_path, fail, load, load_seen, open_db
from ._ui import display_of, need_terminal
from ._words import plural


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("deal", type=int, nargs="?", metavar="ID", help="the deal's id (neveryu history)")
    add_db_argument(parser)
    parser.add_argument(
        "--check", action="store_true", help="replay every deal (or deal ID) and report any that differs"
    )
    parser.add_argument(
        "--seat", type=int, default=None, metavar="N", help="start with seat N's view (1 is the first)"
    )
    parser.add_argument(
        "--lang", choices=("ru", "en"), default=None, help="texts language (default: from the locale)"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="ASCII only: cards as QS, 10H instead of Q♠, 10♥"
    )


def run(args: argparse.Namespace) -> int:
    if args.check:
        return check(args)
    if args.deal is None:
        print(
            "neveryu replay: which deal? Give its ID (neveryu history lists them), or --check",
            file=sys.stderr,
        )
        return 2
    try:
        record, steps, seat = load_seen(args)
    except Failed as exc:
        return fail("replay", exc)
    if need_terminal("replay"):
        return 2
    from neveryu.client.ui.app import run_replay
    from neveryu.client.ui.replay_deal import deal_of
    from neveryu.client.ui.texts import Texts

    deal = deal_of(record, steps)
    display = display_of(args)
    return run_replay(
        deal,
        Texts(display.lang, ascii=display.ascii),
        seat=seat,
        color_depth=display.color_depth,
        notes=display.notes,
    )


def check(args: argparse.Namespace) -> int:
    """``--check``: replay the deals; one line per deal that does not replay, a total."""
    from neveryu.server import deal_ids

    try:
        conn = open_db(args)
    except Failed as exc:
        return fail("replay", exc)
    path = db_path(args)
    bad = checked = 0
    try:
        ids = [args.deal] if args.deal is not None else deal_ids(conn)
        for deal in ids:
            checked += 1
            try:
                load(conn, deal, path)
            except Failed as exc:
                bad += 1
                print(f"neveryu replay: {exc}", file=sys.stderr)
    except sqlite3.Error as exc:
        return fail("replay", Failed(f"{path}: {exc}"))
    finally:
        conn.close()
    if args.deal is not None and bad:
        return 1
    good = checked - bad
    said = f"{good} of {plural(checked, 'deal')} {'replays' if good == 1 else 'replay'} exactly"
    print(said + (f"; {bad} {'does' if bad == 1 else 'do'} not" if bad else ""))
    return 1 if bad else 0
