"""Play against bots on this machine: a server on 127.0.0.1 (in its own thread) with bots in the
other seats, and the full-screen client on it, straight at the table.

Turns are untimed unless --turn says otherwise: read the help (?) and the rules (r) at your own
pace. Bots come in three levels: easy (random), normal (honest) and hard (sharp, the default).
Every deal is recorded (--db PATH, --no-record): ``neveryu history`` lists them and ``neveryu
replay ID`` shows one again, every hand. A game cut short (the terminal closed, the process
killed) is not lost: the next ``neveryu play`` on the same records brings the table back and
sits you at it again (--fresh starts a new one instead).
Keys: ←→ (or h/l) move across your hand, ↑↓ or a rank typed jump by rank, Home/End to its ends,
Space selects, Enter lays the selected cards, n «Не верю», y «Верю», d discards quads (k goes on
without), 0 declares none, Tab scores, r rules, / chat, p your deals (after the match: each one
replayed), ? help, q leaves.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from neveryu import engine
from neveryu.engine.bots import LEVELS

from ._ui import BOT_LEVELS_HELP, add_ui_arguments, display_of, need_terminal, player_name, prefs_of
from .serve import add_record_arguments, with_records

DEFAULT_BOT = "hard"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default=engine.DEFAULT_VARIANT,
        choices=list(engine.VARIANTS),
        help=f"the variant (RULES.md; default {engine.DEFAULT_VARIANT})",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats at the table, you included (default 4, or what the variant allows)",
    )
    parser.add_argument(
        "--bots",
        default=None,
        metavar="LIST",
        help=(
            f"bot levels for the other seats: one for all, or a comma list; {', '.join(LEVELS)} (or "
            f"{', '.join(LEVELS.values())}); default {DEFAULT_BOT}. {BOT_LEVELS_HELP}"
        ),
    )
    parser.add_argument("--seed", type=int, default=None, help="make the deals reproducible")
    parser.add_argument(
        "--turn",
        type=int,
        default=0,
        metavar="SECONDS",
        help="your time per turn; when it runs out a bot plays until you press s (default 0: untimed)",
    )
    parser.add_argument("--deals", type=int, default=5, help="deals in the match (default 5)")
    parser.add_argument(
        "--bot-delay",
        type=int,
        default=900,
        metavar="MS",
        help="how long a bot waits before it acts, in ms (default 900)",
    )
    parser.add_argument("--log", default=None, metavar="FILE", help="write the server's log to FILE")
    add_record_arguments(parser)
    add_ui_arguments(parser)


def seats_and_bots(variant: str, players: int | None, bots: str | None) -> tuple[int, list[str]]:
    """The seat count and one bot strength per other seat. Raises ValueError with a message a
    person can act on."""
    from neveryu.engine.bots import strength_of

    rules = engine.VARIANTS[variant]
    lo, hi = rules.players
    names = [strength_of(b) for b in bots.split(",")] if bots else []
    if players is None:
        players = len(names) + 1 if len(names) > 1 else min(max(4, lo), hi)
    if not lo <= players <= hi:
        raise ValueError(f"{variant} is for {lo}–{hi} players, not {players}")
    if len(names) <= 1:
        names = [names[0] if names else strength_of(DEFAULT_BOT)] * (players - 1)
    if len(names) != players - 1:
        raise ValueError(
            f"--bots names {len(names)} bots, but {players} players leave {players - 1} seats for bots"
        )
    return players, names


def run(args: argparse.Namespace) -> int:
    try:
        players, bots = seats_and_bots(args.variant, args.players, args.bots)
        name = player_name(args.name)
        if args.turn < 0 or args.deals < 1 or args.bot_delay < 0:
            raise ValueError("--turn and --bot-delay must be 0 or more, --deals 1 or more")
    except ValueError as exc:
        print(f"neveryu play: {exc}", file=sys.stderr)
        return 2
    if need_terminal("play"):
        return 2
    _quiet_logging(args.log)

    from neveryu.client.player_key import player_key
    from neveryu.client.ui.app import run_client
    from neveryu.client.ui.net import Net
    from neveryu.client.ui.texts import Texts
    from neveryu.server import ServerConfig, start_in_thread

    config = ServerConfig(host="127.0.0.1", port=0, name="neveryu play", seed=args.seed).evolve(
        table={
            "deals": args.deals,
            "bot_delay_ms": args.bot_delay,
            "deal_pause_ms": 6000,
            "grace_ms": 600_000,
            "reveal_after_deal": True,  # one player against bots: his records may hold every hand
        }
    )
    config = with_records(config, args)
    try:
        running = start_in_thread(config)
    except (RuntimeError, TimeoutError) as exc:
        print(f"neveryu play: the local server did not start: {exc}", file=sys.stderr)
        return 1
    request = {
        "t": "create_table",
        "variant": args.variant,
        "options": {},
        "seats": players,
        "bots": bots,
        "turn_ms": args.turn * 1000,
    }
    if args.seed is not None:
        request["seed"] = args.seed
    started: set[str] = set()

    def script(net: Net, msg: dict[str, Any]) -> None:
        """Sit down at once: create the table, say ready, start the match (no lobby)."""
        t = msg.get("t")
        if t == "welcome" and not msg.get("resumed") and "created" not in started:
            started.add("created")
            net.send(request)
        elif t == "table_joined" and "ready" not in started:
            started.add("ready")
            net.send({"t": "ready", "ready": True})
            net.send({"t": "start"})
        elif t == "match_ended":
            started.discard("ready")

    display = display_of(args)
    records = running.records
    notes = (
        display.notes
        if records.on or not config.record
        else (*display.notes, f"Records are off: {records.off}.")
    )
    problems: list[str] = []
    key = player_key(problem=problems.append)
    notes = (*notes, *problems)
    slot = _slot(config, name, args.fresh) if records.journal is not None else None
    try:
        code = run_client(
            "127.0.0.1",
            running.port or 0,  # (start_in_thread returns once it listens: the port is known)
            name=name,
            texts=Texts(display.lang, ascii=display.ascii),
            script=script,
            leave_quits=True,
            prefs=prefs_of(args),
            notes=notes,
            color_depth=display.color_depth,
            player_key=key,
            slot=slot,
        )
    except KeyboardInterrupt:
        code = 130
    finally:
        running.stop()
    if records.written:
        print(
            f"{records.written} deals recorded in {records.path}: neveryu history lists them,"
            " neveryu replay ID shows one."
        )
    return code


def _slot(config: Any, name: str, fresh: bool) -> Any:
    """Where ``neveryu play`` keeps its session, per records file: a table the journal brought
    back is resumed (None: nowhere); ``fresh``: resume nothing kept."""
    from neveryu.client.session_store import open_slot

    slot = open_slot(f"play {config.db}", name)
    if slot is not None and fresh and slot.kept is not None:
        slot.forget()
        slot.kept = None
    return slot


def _quiet_logging(path: str | None) -> None:
    """The screen is the client's: the server's log goes to ``path`` or nowhere."""
    root = logging.getLogger("neveryu")
    root.propagate = False
    root.handlers.clear()
    if path:
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
    else:
        root.addHandler(logging.NullHandler())
