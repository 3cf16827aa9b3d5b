"""Play many seeded bots-only deals and print figures: deals completed, actions per deal,
invariant violations, results per bot strength (and the chips won less paid where the variant
scores chips), deals per second.

Exits 1 when any deal did not end (ACTION_CAP, engine.simulate), any check failed or any bot
answered illegally; 2 on bad arguments."""

from __future__ import annotations

import argparse
import json
import sys
import time

from neveryu import engine
from neveryu.engine.bots import ALIASES, LEVELS, level_of
from neveryu.engine.simulate import ACTION_CAP, SimulationResult, simulate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default=engine.DEFAULT_VARIANT,
        choices=list(engine.VARIANTS),
        help="the variant (docs/RULES.md); default %(default)s",
    )
    parser.add_argument("--players", type=int, default=4, help="seats per deal; default %(default)s")
    parser.add_argument("--deals", type=int, default=1000, help="deals to play; default %(default)s")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the whole run; default %(default)s")
    parser.add_argument(
        "--bots",
        default="hard",
        help=f"one bot level for every seat, or a comma list with one per seat: {', '.join(LEVELS)} "
        f"(or {', '.join(ALIASES)}); seats rotate between deals; default %(default)s",
    )
    parser.add_argument(
        "--no-check",
        dest="check",
        action="store_false",
        help="do not check the card invariant after every action (faster)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def run(args: argparse.Namespace) -> int:
    if args.deals < 1:
        print("neveryu simulate: --deals must be at least 1", file=sys.stderr)
        return 2
    try:
        result = simulate(
            engine.variant(args.variant),
            args.players,
            args.deals,
            args.seed,
            args.bots,
            check=args.check,
            clock=time.perf_counter,
        )
    except ValueError as e:
        print(f"neveryu simulate: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        print(render(result))
    return 0 if result.ok else 1


LABEL = 21
"""The width of the report's labels (the longest, ``invariant violations``, and a space)."""


def render(r: SimulationResult) -> str:
    """The text report of one simulation: a label column, then the figures; bots by level."""
    checked = str(r.invariant_violations) if r.checked else "not checked (--no-check)"
    lines = [
        f"{r.variant}, {r.players} players, bots {','.join(map(level_of, r.lineup))}, seed {r.seed}",
        "deals completed".ljust(LABEL)
        + f"{r.completed} of {r.deals}"
        + (f" ({r.unfinished} unfinished at {ACTION_CAP} actions or a failed check)" if r.unfinished else ""),
        "actions per deal".ljust(LABEL) + f"{r.actions_per_deal:.1f} (longest {r.longest})",
        "invariant violations".ljust(LABEL) + checked,
    ]
    lines += [f"  {note}" for note in r.violations]
    if r.bot_errors:
        why = "None or illegal answers, played by timeout"
        lines.append("bot errors".ljust(LABEL) + f"{r.bot_errors} ({why})")
    what = "losses" if r.result == "last_loses" else "wins"
    # The score as the variant's scoring counts it (docs/RULES.md, ``scoring``): chips are won and
    # paid, so they carry a sign; ``losses`` counts what the losses column shows; ``none``, nothing.
    chips = r.scoring in ("chips_per_player", "chips_per_card")
    lines.append(f"results per level ({r.result}; scoring {r.scoring}):")
    for name, s in r.strengths.items():
        count = s.losses if r.result == "last_loses" else s.wins
        rate = s.loss_rate if r.result == "last_loses" else s.win_rate
        figures = f"seats {s.seats:>7}  {what} {count:>7}  rate {rate:6.1%}"
        if chips:
            figures += f"  chips {s.score:>+8}"
        lines.append(f"  {level_of(name):<8} {figures}")
    if r.deals_per_s is not None:
        lines.append("deals per second".ljust(LABEL) + f"{r.deals_per_s:.1f} ({r.seconds:.2f} s)")
    return "\n".join(lines)
