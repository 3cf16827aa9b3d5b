"""Play a lineup of bots over duplicate deals of one or every variant and print a leaderboard:
per bot its finishing places, losses or wins, score and OpenSkill rating (mu ± 2·sigma), and per
pair of bots the difference of mean place with a 95 % bootstrap interval over duplicate groups
(docs/BOTS.md, "The arena").

Every deck follows from --seed; each is played once per rotation of the lineup (duplicate
deals), so every bot gets every hand at every seat. The deals run in a pool of --jobs processes;
Ctrl-C stops the run and prints what was played. Exits 1 when a deal did not end or a bot
answered illegally, 130 after Ctrl-C, 2 on bad arguments."""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shlex
import sys
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING

import attrs

from neveryu import engine
from neveryu.engine.arena import Played, play_group
from neveryu.engine.bots import ALIASES, LEVELS, strength_of

from . import _arena_cluster, _arena_outside
from ._arena_progress import Progress

if TYPE_CHECKING:
    from ._arena_records import RecordSink
    from ._arena_stats import Tally

DEFAULT_LINEUP = "expert,sharp,sharp,sharp"
GROUPS_PER_TASK = 4
"""Duplicate groups one worker plays per task (small: Ctrl-C waits for the tasks running)."""
IN_FLIGHT = 4
"""Tasks per worker submitted to the pool ahead of the one the run waits for."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", default=engine.DEFAULT_VARIANT, help="a variant (RULES.md) or 'all'; default %(default)s"
    )
    parser.add_argument(
        "--lineup",
        default=DEFAULT_LINEUP,
        help=(
            f"one bot per seat, a comma list of levels ({', '.join(LEVELS)}; or "
            f"{', '.join(ALIASES)}) and outside bots, 'cmd:COMMAND' with {{host}} {{port}} {{table}} "
            "(docs/BOTS.md); default %(default)s"
        ),
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=400,
        help="deals per variant, rounded up to whole duplicate groups (a deal per seat); default %(default)s",
    )
    parser.add_argument("--seed", type=int, default=1, help="the seed of the whole run; default %(default)s")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes; default: the cores (%(default)s)",
    )
    parser.add_argument("--check", action="store_true", help="check the card invariant after every action")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument(
        "--report", metavar="FILE.md", help="also write a Markdown report with a chart of the ratings"
    )
    parser.add_argument(
        "--db", metavar="FILE", help="write every deal to this records database (neveryu replay)"
    )
    parser.add_argument(
        "--turn-ms",
        type=int,
        default=10_000,
        help="an outside bot's turn time (ms): then the server plays its seat; default %(default)s",
    )
    parser.add_argument(
        "--bot-delay-ms",
        type=int,
        default=None,
        help="the built-in bots' delay at an outside bot's table (ms); default 900 with an expert, else 0",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play on the Dask distributed cluster of this scheduler (tcp://HOST:PORT) instead of --jobs "
        "processes; needs the cluster extra here and on every worker",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _tasks(variants: list[str], groups: int) -> Iterator[tuple[str, int, int]]:
    for v in variants:
        for start in range(0, groups, GROUPS_PER_TASK):
            yield v, start, min(groups, start + GROUPS_PER_TASK)


def play_groups(
    variant: str, lineup: tuple[str, ...], seed: int, start: int, stop: int, check: bool, keep: bool
) -> list[Played]:
    """The deals of groups ``start``..``stop - 1`` (a worker's task); ``keep``: with their decks
    and actions (``engine.arena.play_group``)."""
    return [
        d for g in range(start, stop) for d in play_group(variant, lineup, seed, g, check=check, keep=keep)
    ]


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone answers Ctrl-C


def run(args: argparse.Namespace) -> int:
    variants = list(engine.VARIANTS) if args.variant == "all" else [args.variant]
    try:
        lineup = tuple(_entry(b) for b in args.lineup.split(","))
    except ValueError as exc:
        print(f"neveryu arena: {exc}", file=sys.stderr)
        return 2
    problem = _check(args, variants, lineup)
    if problem:
        print(f"neveryu arena: {problem}", file=sys.stderr)
        return 2
    groups = math.ceil(args.deals / len(lineup))
    if any(e.startswith(_arena_outside.PREFIX) for e in lineup):
        return _run_outside(args, variants, lineup, groups)
    from ._arena_stats import Tally

    keep = args.db is not None
    sink = _records(args.db, args.seed) if keep else None
    tallies = {v: Tally(v) for v in variants}
    progress = Progress(len(variants) * groups * len(lineup), enabled=not args.quiet and sys.stderr.isatty())
    started = time.perf_counter()
    stopped = False
    try:
        for done in _results(list(_tasks(variants, groups)), lineup, args, keep):
            if sink is not None:
                sink.add(done)  # written as they come: the run keeps only their figures
            for d in done:
                tallies[d.variant].add(d)
            progress.add(len(done))
    except KeyboardInterrupt:
        stopped = True
    except _arena_cluster.ClusterError as exc:
        progress.close()
        if sink is not None:
            sink.close()
        print(f"neveryu arena: {exc}", file=sys.stderr)
        return 2
    progress.close()
    seconds = time.perf_counter() - started
    written = sink.close() if sink is not None else None
    return _finish(args, variants, lineup, tallies, seconds, stopped, written)


def _results(
    tasks: list[tuple[str, int, int]], lineup: tuple[str, ...], args: argparse.Namespace, keep: bool
) -> Iterator[list[Played]]:
    """Each task's deals, in the order of ``tasks`` (so the figures can be kept as running
    sums): on the cluster of ``--scheduler`` (``_arena_cluster``), in this process with one job,
    else in a pool with at most ``IN_FLIGHT`` tasks a job submitted and not yet taken (a long
    run holds a few tasks' deals, not the run's)."""
    if args.scheduler is not None:
        calls = ((v, lineup, args.seed, a, b, args.check, keep) for v, a, b in tasks)
        yield from _arena_cluster.results(args.scheduler, play_groups, calls, IN_FLIGHT)
        return
    if args.jobs <= 1:
        for v, a, b in tasks:
            yield play_groups(v, lineup, args.seed, a, b, args.check, keep)
        return
    with ProcessPoolExecutor(args.jobs, initializer=_ignore_sigint) as pool:
        todo = iter(tasks)
        pending: deque[Future[list[Played]]] = deque(
            pool.submit(play_groups, v, lineup, args.seed, a, b, args.check, keep)
            for v, a, b in itertools.islice(todo, args.jobs * IN_FLIGHT)
        )
        try:
            while pending:
                done = pending.popleft().result()
                for v, a, b in itertools.islice(todo, 1):
                    pending.append(pool.submit(play_groups, v, lineup, args.seed, a, b, args.check, keep))
                yield done
        except KeyboardInterrupt:
            for fut in pending:
                fut.cancel()
            raise


def _entry(text: str) -> str:
    """A lineup entry: an outside bot's ``cmd:COMMAND`` as it is, else a level's strength."""
    text = text.strip()
    return text if text.startswith(_arena_outside.PREFIX) else strength_of(text)


def _run_outside(args: argparse.Namespace, variants: list[str], lineup: tuple[str, ...], groups: int) -> int:
    """A lineup with outside bots: each deal at a server of the arena's own (``_arena_outside``),
    one after the other."""
    if args.db is not None:
        print("neveryu arena: --db is for lineups of built-in bots only", file=sys.stderr)
        return 2
    delay = args.bot_delay_ms if args.bot_delay_ms is not None else (900 if "expert" in lineup else 0)
    progress = Progress(len(variants) * groups * len(lineup), enabled=not args.quiet and sys.stderr.isatty())
    started = time.perf_counter()
    played, lost, stopped = _arena_outside.play_all(
        variants, lineup, args.seed, groups, args.turn_ms, delay, progress.add
    )
    progress.close()
    from ._arena_stats import Tally

    tallies = {v: Tally(v) for v in variants}
    for d in played:  # in order of variant, group and rotation
        tallies[d.variant].add(d)
    args.jobs = 1  # (one deal at a time)
    return _finish(args, variants, lineup, tallies, time.perf_counter() - started, stopped, None, lost)


def _check(args: argparse.Namespace, variants: list[str], lineup: tuple[str, ...]) -> str | None:
    if args.deals < 1:
        return "--deals must be at least 1"
    if args.jobs < 1:
        return "--jobs must be at least 1"
    if args.scheduler is not None and any(e.startswith(_arena_outside.PREFIX) for e in lineup):
        return "--scheduler is for lineups of built-in bots only"
    for v in variants:
        if v not in engine.VARIANTS:
            return f"unknown variant {v!r}; known: all, {', '.join(engine.VARIANTS)}"
        lo, hi = engine.VARIANTS[v].players
        if not lo <= len(lineup) <= hi:
            return f"{v} is for {lo}–{hi} players, not {len(lineup)}"
    return None


def _finish(
    args: argparse.Namespace,
    variants: list[str],
    lineup: tuple[str, ...],
    tallies: dict[str, Tally],
    seconds: float,
    stopped: bool,
    written: str | None,
    lost: list[_arena_outside.Lost] | None = None,
) -> int:
    from . import _arena_report

    figures = [tallies[v].figures(args.seed) for v in variants if tallies[v].deals]
    played = sum(t.deals for t in tallies.values())
    command = "neveryu arena " + shlex.join(sys.argv[2:] if sys.argv[1:2] == ["arena"] else sys.argv[1:])
    header = {
        "lineup": ",".join(lineup),
        "seed": str(args.seed),
        "deals played": f"{played}" + (" (stopped by Ctrl-C)" if stopped else ""),
        "seconds": f"{seconds:.1f}",
        "deals per second": f"{played / seconds:.1f}" if seconds else "-",
        "jobs": str(args.jobs) if args.scheduler is None else f"the cluster at {args.scheduler}",
    }
    if written is not None:
        header["records"] = written
    if lost is not None:
        header["seats lost by outside bots"] = str(len(lost))
    if args.json:
        print(
            json.dumps(
                {
                    "lineup": list(lineup),
                    "seed": args.seed,
                    "deals": played,
                    "stopped": stopped,
                    "seconds": round(seconds, 3),
                    "deals_per_s": round(played / seconds, 2) if seconds else None,
                    "jobs": args.jobs,
                    "variants": {f.variant: f.as_dict() for f in figures},
                    "lost": [attrs.asdict(x) for x in lost or []],
                },
                ensure_ascii=False,
            )
        )
    else:
        print("\n\n".join(_arena_report.table(f) for f in figures))
        print(", ".join(f"{k} {v}" for k, v in header.items()))
        for x in lost or []:
            where = f"{x.variant}, group {x.group}, rotation {x.rotation}"
            print(f"{x.name} lost seat {x.seat + 1} ({where}): {x.why}")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as out:
            out.write(_arena_report.markdown(figures, command, header))
    if stopped:
        return 130
    bad = any(f.unfinished or f.bot_errors for f in figures)
    return 1 if bad else 0


def _records(path: str, seed: int) -> RecordSink:
    """The writer of ``--db``: the server's records writer on ``path``."""
    from ._arena_records import RecordSink

    return RecordSink(path, f"arena-{seed}-{int(time.time())}")
