"""List the deals the records hold, newest first (by when they ended): when each ended, the
variant, who played, the result. A bot's seat reads as in the terminal client, ``Bot 3 (hard)``,
in the players and in the result alike.

The records are those ``neveryu serve`` and ``neveryu play`` keep (--db: another file). Each
line starts with the deal's id, for ``neveryu replay ID`` and ``neveryu export ID``. Exits 1
when the records cannot be read."""

from __future__ import annotations

import argparse
import datetime
import json
import sqlite3
import sys
from typing import TYPE_CHECKING, Any

from ._records import Failed, add_db_argument, db_path, fail, open_db

if TYPE_CHECKING:
    from neveryu.server import Summary
    from neveryu.server.records.deal_record import SeatRecord

DEFAULT_LIMIT = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_argument(parser)
    parser.add_argument("--player", default=None, metavar="NAME", help="only deals where NAME had a seat")
    parser.add_argument("--variant", default=None, help="only deals of this variant")
    parser.add_argument(
        "--limit", type=int, default=DEFAULT_LIMIT, help="at most this many deals (default %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON array instead of a table")


def run(args: argparse.Namespace) -> int:
    from neveryu.server import list_deals

    if args.limit < 1:
        print("neveryu history: --limit must be at least 1", file=sys.stderr)
        return 2
    try:
        conn = open_db(args)
        try:
            found = list_deals(conn, player=args.player, variant=args.variant, limit=args.limit)
        except sqlite3.Error as exc:
            raise Failed(f"{db_path(args)}: {exc}") from None
        finally:
            conn.close()
    except Failed as exc:
        return fail("history", exc)
    # the records number the deals as they end; the time shown is that end, in the same order
    found.sort(key=lambda s: (s.ended_ms, s.id), reverse=True)
    if args.json:
        print(json.dumps([summary_json(s) for s in found], ensure_ascii=False, indent=1))
        return 0
    if not found:
        print("No deals recorded" + (" that match." if args.player or args.variant else " yet."))
        return 0
    rows = [("id", "ended", "variant", "players", "result")]
    rows += [(str(s.id), _date(s.ended_ms), s.variant, _players(s), result_text(s)) for s in found]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join([r[0].rjust(widths[0]), *(c.ljust(w) for c, w in zip(r[1:4], widths[1:])), r[4]]))
    return 0


def _date(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M")


def _players(s: Summary) -> str:
    return ", ".join(seat_label(x) for x in s.seats)


def seat_label(x: SeatRecord) -> str:
    """A seat as the terminal client names it (client/ui/record_pages.py, in English): the
    player's name, ``Bot 3 (hard)`` for a bot's seat, ``seat 2`` for one nobody held."""
    from neveryu.engine.bots import level_of

    if x.bot:
        return f"Bot {x.seat + 1} ({level_of(x.bot)})"
    return x.name or f"seat {x.seat + 1}"


def result_text(s: Summary) -> str:
    """``lost: bob`` (``last_loses``) or ``won: Bot 2 (hard)`` (``first_wins``)."""
    names = {x.seat: seat_label(x) for x in s.seats}
    if s.loser is not None:
        return f"lost: {names.get(s.loser)}"
    if s.winner is not None:
        return f"won: {names.get(s.winner)}"
    return "-"


def summary_json(s: Summary) -> dict[str, Any]:
    """One deal of ``--json``: times in Unix ms and ISO 8601 (UTC), seats without anything
    that says which session held them."""
    return {
        "id": s.id,
        "started_ms": s.started_ms,
        "ended_ms": s.ended_ms,
        "started": datetime.datetime.fromtimestamp(s.started_ms / 1000, datetime.UTC).isoformat(
            timespec="seconds"
        ),
        "variant": s.variant,
        "server": s.server,
        "table": s.table,
        "deal_no": s.deal_no,
        "deals": s.deals,
        "players": [{"seat": x.seat, "name": x.name, "bot": x.bot, "player": x.player} for x in s.seats],
        "loser": s.loser,
        "winner": s.winner,
        "out": list(s.out),
        "scores": list(s.scores),
    }
