"""Players' statistics and ratings, made from the records (docs/PLAYERS.md).

``neveryu stats`` shows yours (the player of this user's player key), ``neveryu stats NAME``
everyone called NAME (``NAME#TAG``: one of them), per variant: deals, results, sets and bluffs,
challenges and believes, cards taken, time per action, and the rating (mu ± 2 sigma) with its
rank. ``--top``: the leaderboards, ranked by each rating's low end (mu − 2 sigma).
``--rebuild``: make every statistic and rating again from the records alone and say whether
they came out the same. Deals recorded but not yet counted are counted first (the file must be
writable; else what is counted is shown). Exits 1 when the records cannot be read."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from typing import TYPE_CHECKING, Any

from ._records import Failed, add_db_argument, db_path, fail
from ._words import ordinal, plural, times

if TYPE_CHECKING:
    from neveryu.server import Player, PlayerStats, Standing, VariantStats

DEFAULT_LIMIT = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_argument(parser)
    parser.add_argument(
        "name", nargs="?", default=None, metavar="NAME", help="a player's name, or NAME#TAG (default: you)"
    )
    parser.add_argument("--variant", default=None, help="only this variant")
    parser.add_argument("--top", action="store_true", help="the leaderboards (or only --variant's)")
    parser.add_argument(
        "--limit", type=int, default=DEFAULT_LIMIT, help="--top: show at most this many (default %(default)s)"
    )
    parser.add_argument(
        "--rebuild", action="store_true", help="make the statistics and ratings again from the records alone"
    )
    parser.add_argument("--json", action="store_true", help="print JSON (the protocol's shapes), not text")


def run(args: argparse.Namespace) -> int:
    from neveryu import engine

    if args.limit < 1:
        print("neveryu stats: --limit must be at least 1", file=sys.stderr)
        return 2
    if args.variant is not None and args.variant not in engine.VARIANTS:
        print(f"neveryu stats: there is no variant {args.variant!r}", file=sys.stderr)
        return 2
    try:
        conn, behind = _open(args)
        try:
            out = _show(conn, args, behind)
        except sqlite3.Error as exc:
            raise Failed(f"{db_path(args)}: {exc}") from None
        finally:
            conn.close()
    except Failed as exc:
        return fail("stats", exc)
    print(out)
    return 0


def _open(args: argparse.Namespace) -> tuple[sqlite3.Connection, int]:
    """The records, with every deal counted (``--rebuild``: counted again, said on stderr);
    and how many deals are not counted (the file could not be written)."""
    from neveryu.server import StoreError, catch_up, connect_records, pending, rebuild

    path = db_path(args)
    try:
        conn = connect_records(path, write=True)
    except StoreError as write_error:
        if args.rebuild:
            raise Failed(str(write_error)) from None
        try:
            conn = connect_records(path)
        except StoreError as exc:
            raise Failed(str(exc)) from None
        return conn, pending(conn)
    try:
        if args.rebuild:
            done = rebuild(conn, _progress)
            differ = f"{plural(done.differ, 'value')} came out otherwise"
            same = differ if done.differ else "reproduced exactly"
            print(f"neveryu stats: {plural(done.deals, 'deal')} counted again; {same}.", file=sys.stderr)
        elif pending(conn):
            catch_up(conn, _progress)
    except sqlite3.Error as exc:
        conn.close()
        raise Failed(f"{path}: {exc}") from None
    return conn, 0


def _progress(done: int) -> None:
    if done % 5000 == 0:
        print(f"  {plural(done, 'deal')} counted", file=sys.stderr)


def _show(conn: sqlite3.Connection, args: argparse.Namespace, behind: int) -> str:
    from neveryu import engine
    from neveryu.server import leaderboard, person_key, player_by_key, player_stats, players_named

    are = "is" if behind == 1 else "are"
    note = f"({plural(behind, 'deal')} recorded {are} not counted yet: the records cannot be written here)"
    note = note if behind else ""
    if args.top:
        variants = [args.variant] if args.variant else list(engine.VARIANTS)
        boards = [(v, *leaderboard(conn, v, limit=args.limit)) for v in variants]
        if args.json:
            return _dumps([_board_json(v, total, rows) for v, total, rows in boards])
        text = "\n\n".join(_board_text(v, total, rows) for v, total, rows in boards if total or args.variant)
        ranked = any(rows for _, _, rows in boards)
        return "\n".join(t for t in (text or "Nobody is rated yet.", ORDER_NOTE if ranked else "", note) if t)
    if args.name is not None:
        players = players_named(conn, args.name)
        if not players:
            raise Failed(f"nobody called {args.name} has played here" + (f" {note}" if note else ""))
        missing = ""
    else:
        from neveryu.client.player_key import key_path, read_player_key

        key = read_player_key()
        if key is None:
            raise Failed(f"you have no player key ({key_path()}): name a player, neveryu stats NAME")
        mine = player_by_key(conn, person_key(key))
        players = [mine] if mine is not None else []
        missing = "You have played no deal recorded here."
    found = player_stats(conn, players, args.variant)
    if args.json:
        return _dumps({"players": [s.as_json() for s in found]})
    text = "\n\n".join(_player_text(s) for s in found) or missing
    return "\n".join(t for t in (text, note) if t)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def _board_json(variant: str, total: int, rows: list[tuple[Player, Standing]]) -> dict[str, Any]:
    return {
        "variant": variant,
        "total": total,
        "players": [{"player": p.as_json(), "rating": r.as_json()} for p, r in rows],
    }


def rating_text(r: Standing) -> str:
    """``31.20 ± 2.41``: mu and the half-width of the interval shown (2 sigma)."""
    return f"{r.mu:.2f} ± {r.high - r.mu:.2f}"


ORDER_NOTE = (
    "Ranked by the low end (the rating less 2 sigma): what a player has shown at least, so that"
    " a new player's wide range does not rank him high."
)
"""Said under the leaderboards: what their order is (docs/PLAYERS.md, the interval's low end)."""


def _board_text(variant: str, total: int, rows: list[tuple[Player, Standing]]) -> str:
    """A leaderboard: its rank, the figure it is ranked by (the low end), then the rating."""
    lines = [f"{variant}: {plural(total, 'player')} rated" if total else f"{variant}: nobody is rated yet"]
    if rows:
        width = max(len(p.label) for p, _ in rows)
        head = f"  {'#':>3}  {'player'.ljust(width)}  {'low end':>7}  {'rating (± 2 sigma)':>18}  deals"
        lines.append(head)
        for p, r in rows:
            lines.append(
                f"  {r.rank:>3}  {p.label.ljust(width)}  {r.low:>7.1f}  {rating_text(r):>18}  {r.deals}"
            )
    return "\n".join(lines)


def _player_text(s: PlayerStats) -> str:
    head = f"{s.player.label}, id {s.player.id} in these records"  # (not a seat: one player, every table)
    if not s.variants:
        return head + ": no deal counted"
    return "\n".join([head, *(line for v in s.variants for line in _variant_lines(v))])


def _percent(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def _variant_lines(v: VariantStats) -> list[str]:
    from neveryu import engine

    c = v.counts
    rules = engine.variant(v.variant)
    if rules.result == "last_loses":
        result = f"lost {v.lost} ({_percent(v.lost, v.seats)})"
    else:
        result = f"won {v.won} ({_percent(v.won, v.seats)})"
    seats = f" in {plural(v.seats, 'seat')}" if v.seats != v.deals else ""
    out = [f"  {v.variant}: {plural(v.deals, 'deal')}{seats}; {result}"]
    if rules.result == "first_wins" and (v.score or rules.scoring != "none"):
        out[0] += f"; chips {v.score:+d}"  # what he won less what he paid; deals lost are said above
    places = ", ".join(f"{ordinal(i)} {times(n)}" for i, n in enumerate(v.places, 1) if n)
    if places:
        out[0] += f"; went out {places}"
    if v.rating is not None:
        low = f"low end {v.rating.low:.1f}"
        rank = f"{low}, rank {v.rating.rank}" if v.rating.rank is not None else f"{low}; a guest: not ranked"
        out.append(f"    rating {rating_text(v.rating)} ({rank})")
    bluffs = c["bluffs"]
    out.append(
        f"    sets {c['sets']}, bluffs {bluffs} ({_percent(bluffs, c['sets'])}):"
        f" caught {c['bluffs_caught']}, survived {bluffs - c['bluffs_caught']}"
    )
    out.append(
        f"    «не верю» {c['challenges']} (right {_percent(c['challenges_right'], c['challenges'])}),"
        f" «верю» {c['believes']} (right {_percent(c['believes_right'], c['believes'])})"
    )
    per = f", {c['action_ms'] / c['actions'] / 1000:.1f} s each" if c["actions"] else ""
    actions = plural(c["actions"], "action")
    out.append(f"    cards taken {c['cards_taken']}; {actions}{per}; timeouts {c['timeouts']}")
    return out
