"""Play against bots on this machine: a server on 127.0.0.1 (in its own thread) with bots in the
other seats, and the full-screen client on it, straight at the table.

Turns are untimed unless --turn says otherwise: read the help (?) and the rules (r) at your own
pace. So is the quads window of verish: after you take the pile the game waits until you discard
quads (d) or go on (k); with --turn it waits --quads-window seconds, counted down. Bots come
in four levels: easy (random), normal (honest), hard (sharp, the default) and expert.
Every deal is recorded (--db PATH, --no-record): ``neveryu history`` lists them and ``neveryu
replay ID`` shows one again, every hand. A game cut short (Ctrl-C, the terminal closed, the
process killed) is not lost: the next ``neveryu play`` on the same records offers to go on with
it, at the same table (--new starts another instead); q ends it.
Keys: ←→ (or h/l) move across your hand, ↑↓ or a rank typed jump by rank, Home/End to its ends,
Space selects, Enter lays the selected cards, n «Не верю», y «Верю», d discards quads (k goes on
without), 0 declares none, Tab scores, r rules, / chat, p your deals (after the match: each one
replayed), ? help, q quits and ends the game, Ctrl-C quits and keeps it.
--plain (chosen by itself without a terminal or on TERM=dumb): the line mode, a sentence per
event and typed commands (docs/PLAIN.md).
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from neveryu import engine
from neveryu.engine.bots import ALIASES, LEVELS

from ._ui import BOT_LEVELS_HELP, add_ui_arguments, display_of, plain_mode, plain_texts, player_name, prefs_of
from .serve import add_record_arguments, with_records

if TYPE_CHECKING:
    from neveryu.client.ui.net import Net

DEFAULT_BOT = "hard"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default=engine.DEFAULT_VARIANT,
        choices=list(engine.VARIANTS),
        help=f"the variant (docs/RULES.md; default {engine.DEFAULT_VARIANT})",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help=(
            "seats at the table, you included (default 4, or what the variant allows; with a comma"
            " list of --bots, one seat for each bot and yours)"
        ),
    )
    parser.add_argument(
        "--bots",
        default=None,
        metavar="LIST",
        help=(
            f"bot levels for the other seats: one for all, or a comma list; {', '.join(LEVELS)} (or "
            f"{', '.join(ALIASES)}); default {DEFAULT_BOT}. {BOT_LEVELS_HELP}"
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
    parser.add_argument(
        "--quads-window",
        type=int,
        default=None,
        metavar="SECONDS",
        help=(
            "verish: after you take the pile, how long the next set waits while you may discard quads"
            " (d) or go on (k), with --turn (default 10); without --turn it waits until you decide;"
            " 0: it does not wait"
        ),
    )
    parser.add_argument("--deals", type=int, default=5, help="deals in the match (default 5)")
    parser.add_argument(
        "--bot-delay",
        type=int,
        default=900,
        metavar="MS",
        help="how long a bot waits before it acts, in ms (default 900)",
    )
    parser.add_argument(
        "--window",
        type=int,
        default=None,
        metavar="MS",
        help="the challenge window in ms, where anyone may challenge a set until the next (hoyle,"
        " cheat; default 1500): longer gives time to hear a claim read aloud",
    )
    parser.add_argument("--log", default=None, metavar="FILE", help="write the server's log to FILE")
    add_record_arguments(parser)
    parser.add_argument(
        "--new",
        dest="fresh",
        action="store_true",
        help="start a new match, not the unfinished one the last neveryu play left (as --fresh)",
    )
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


def table_request(args: argparse.Namespace, players: int, bots: list[str]) -> dict[str, Any]:
    """The ``create_table`` request of ``args`` (docs/PROTOCOL.md, create_table): ``players``
    seats, ``bots`` in the others. Untimed turns, unless --turn; the quads window of verish
    waits for the player's decision at an untimed table, else --quads-window seconds (left to
    the server's default when not given)."""
    request: dict[str, Any] = {
        "t": "create_table",
        "variant": args.variant,
        "options": {},
        "seats": players,
        "bots": bots,
        "turn_ms": args.turn * 1000,
    }
    if args.quads_window is not None:
        request["quads_window_ms"] = args.quads_window * 1000
    if args.seed is not None:
        request["seed"] = args.seed
    return request


def run(args: argparse.Namespace) -> int:
    """``neveryu play``: the local server started, the client played on it, the server stopped.
    Returns the exit code: the client's (0, or 1 when it could not connect), 1 when the server
    did not start, 2 for arguments out of range, 130 after Ctrl-C."""
    try:
        players, bots, name = _checked(args)
    except ValueError as exc:
        print(f"neveryu play: {exc}", file=sys.stderr)
        return 2
    plain = plain_mode(args)
    _quiet_logging(args.log)

    from neveryu.server import start_in_thread

    slot, config = _kept_game(_server_config(args), name, args.fresh, display_of(args).lang)
    try:
        running = start_in_thread(config)
    except (RuntimeError, TimeoutError) as exc:
        print(f"neveryu play: the local server did not start: {exc}", file=sys.stderr)
        if slot is not None:
            slot.close()
        return 1
    display = display_of(args)
    records = running.records
    notes, key = _notes(display, records, config.record)
    if slot is not None and records.journal is None:  # records are off: no game is kept
        slot.forget()
        slot.close()
        slot = None
    common: dict[str, Any] = {"script": _sit_down(table_request(args, players, bots))}
    common.update(leave_quits=True, prefs=prefs_of(args), notes=notes, player_key=key, slot=slot, name=name)
    common.update(come_back=_come_back(args))
    try:
        code = _play(args, plain, display, running.port or 0, common)
    except KeyboardInterrupt:
        code = 130
    finally:
        # Ctrl-C keeps the game, as a kill would: the seat is kept (its session on disk), so its
        # table stays in the journal, for the next neveryu play; q gave the seat up: it ends.
        kept = slot is not None and slot.path.exists()
        running.stop(keep_tables=kept)
    _say_recorded(records, display.lang, args.db, kept)
    return code


def _checked(args: argparse.Namespace) -> tuple[int, list[str], str]:
    """The seat count, the bots' strengths and the player's name of ``args``. Raises ValueError
    with a message a person can act on."""
    players, bots = seats_and_bots(args.variant, args.players, args.bots)
    name = player_name(args.name)
    if (
        args.turn < 0
        or args.deals < 1
        or args.bot_delay < 0
        or (args.quads_window or 0) < 0
        or (args.window or 0) < 0
    ):
        raise ValueError(
            "--turn, --quads-window, --bot-delay and --window must be 0 or more, --deals 1 or more"
        )
    return players, bots, name


def _server_config(args: argparse.Namespace) -> Any:
    """The local server's config: 127.0.0.1 on a port of its own, ``args``' match and records;
    a deal's hands kept in its record (one player against bots: his records may hold every hand)."""
    from neveryu.server import ServerConfig

    config = ServerConfig(host="127.0.0.1", port=0, name="neveryu play", seed=args.seed).evolve(
        table={
            "deals": args.deals,
            "bot_delay_ms": args.bot_delay,
            "deal_pause_ms": 6000,
            "grace_ms": 600_000,
            "reveal_after_deal": True,  # one player against bots: his records may hold every hand
        }
        | ({} if args.window is None else {"challenge_window_ms": args.window})
    )
    return with_records(config, args)


def _sit_down(request: dict[str, Any]) -> Callable[[Net, dict[str, Any]], None]:
    """The client's script (``run_client``'s ``script``): sit down at once, no lobby: create the
    table (``request``), say ready, start the match (again at the next ``table_joined`` once a
    match has ended)."""
    started: set[str] = set()

    def script(net: Net, msg: dict[str, Any]) -> None:
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

    return script


def _notes(display: Any, records: Any, recording: bool) -> tuple[tuple[str, ...], str | None]:
    """The notes to show first (what the terminal lacks, records that could not be kept, a
    player key that could not be read or made) and the player key (client/player_key.py)."""
    from neveryu.client.player_key import player_key

    notes = (
        display.notes if records.on or not recording else (*display.notes, f"Records are off: {records.off}.")
    )
    problems: list[str] = []
    key = player_key(problem=problems.append)
    return (*notes, *problems), key


def _play(args: argparse.Namespace, plain: bool, display: Any, port: int, common: dict[str, Any]) -> int:
    """The client on the local server at ``port``: the line mode (``plain``) or the full screen."""
    if plain:
        from neveryu.client.plain.session import run_plain

        return run_plain("127.0.0.1", port, texts=plain_texts(args, display), **common)
    from neveryu.client.ui.app import run_client
    from neveryu.client.ui.texts import Texts

    return run_client(
        "127.0.0.1",
        port,  # (start_in_thread returns once it listens: the port is known)
        texts=Texts(display.lang, ascii=display.ascii),
        color_depth=display.color_depth,
        **common,
    )


def _say_recorded(records: Any, lang: str, db: str | None, kept: bool) -> None:
    """On the terminal, in the player's language: how many deals were recorded, where, and the
    commands that show them. The file is named once: with --db (``db``) history and replay need
    it too, and the way back, said just before when the game is ``kept``, names it already."""
    if not records.written:
        return
    from neveryu.client.ui.texts import Texts

    t = Texts(lang)
    key = "exit.recorded" if not db else "exit.recorded_same_db" if kept else "exit.recorded_db"
    print(t(key, deals=t.count(records.written, "deals"), path=records.path, neveryu=commands().neveryu))


def _kept_game(config: Any, name: str, fresh: bool, lang: str) -> tuple[Any, Any]:
    """The slot of ``neveryu play``'s session (``_slot``; None where nothing can be kept) and the
    server's config: a game left unfinished (Ctrl-C, a kill) is offered to the player, and goes
    on where he says so (his session resumed, the server restoring its table from the journal);
    else it is forgotten, as with ``fresh`` (--new). The question is asked in ``lang``."""
    slot = _slot(config, name, fresh) if config.record and config.journal else None
    if slot is None or slot.kept is None:
        return slot, config
    if time.time() - slot.kept.saved <= config.journal_max_age_ms / 1000 and _go_on(slot.kept.saved, lang):
        return slot, config
    slot.forget()  # (too old for its table to be restored, or the player wants a new one)
    slot.kept = None
    return slot, config.evolve(restore=False)


def _go_on(saved: float, lang: str = "en") -> bool:
    """Ask whether to go on with the game kept since ``saved`` (Unix seconds): Enter or y. The
    question is wrapped at words to the terminal's width, and asked on a line of its own."""
    import shutil
    import textwrap

    from neveryu.client.ui.texts import Texts

    t = Texts(lang)
    minutes = max(0, int(time.time() - saved) // 60)
    when = t("resume.just_now") if minutes < 1 else t("resume.minutes_ago", n=minutes)
    width = max(20, shutil.get_terminal_size().columns - 1)
    said = t("resume.unfinished", when=when, command=commands().play)
    print("\n".join(textwrap.wrap(said, width)))
    print(
        t("resume.go_on") + " ", end="", flush=True
    )  # (on the terminal: input() would write its prompt where errors go)
    try:
        answer = input()
    except EOFError:
        return True
    return answer.strip().lower() in ("", "y", "yes", "д", "да")


PLAY_SCRIPT = "NEVERYU_PLAY_SCRIPT"
"""The environment variable scripts/play sets to its own path as the player called it."""


@attrs.frozen
class Commands:
    """How the player calls ``neveryu play`` (``play``) and the other commands (``neveryu``)."""

    play: str = "neveryu play"
    neveryu: str = "neveryu"


def commands(env: Mapping[str, str] = os.environ) -> Commands:
    """The commands as the player can type them: started through scripts/play (``PLAY_SCRIPT``
    set), that script and the project's .venv/bin/neveryu beside it, as paths from where he
    called it; else ``neveryu`` (installed on his PATH)."""
    script = env.get(PLAY_SCRIPT)
    if not script:
        return Commands()
    venv = os.path.normpath(os.path.join(os.path.dirname(script), os.pardir, ".venv", "bin", "neveryu"))
    return Commands(play=shlex.quote(script), neveryu=shlex.quote(venv))


def _come_back(args: argparse.Namespace) -> str:
    """The command that brings the player back to a game he quit with Ctrl-C."""
    return commands().play + (f" --db {shlex.quote(args.db)}" if args.db else "")


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
