"""The arena's targets (docs/BOTS.md, "Targets"), outside the timed tests:

- ``decisions``: how long the ``expert`` takes per decision (p50, p99, max, in ms, against its
  budget), how many sets it searches per CPU second, and deals per CPU second, in deals of
  each variant against three ``sharp`` (``engine.arena.play_group``: the arena's expert, bounded
  by its samples alone);
- ``memory``: the resident memory of one process playing arena deals and keeping what
  ``neveryu arena`` keeps of them (the running figures of ``_arena_stats.Tally``: a few sums
  per bot and one mean place per bot and duplicate group), measured every ``step`` deals: flat
  means it grows by those few bytes per group only.

``python -m scripts.benchmarks.arena decisions [GROUPS]`` or ``... memory [DEALS] [STEP]``;
prints one JSON object. Deals per second: ``neveryu arena --json`` (its ``deals_per_s``).
"""

from __future__ import annotations

import json
import sys
import time

from neveryu import engine
from neveryu.engine.arena import play_group
from neveryu.engine.bots import ExpertBot

from .procstat import rss_bytes


def decisions(groups: int = 5, seed: int = 1) -> dict[str, object]:
    """Each decision of ``expert`` timed (``time.perf_counter``), per variant; and the CPU time
    of its searches (``time.process_time``: the sets it searched, per CPU second) and of the
    whole deals (deals per CPU second, the three ``sharp`` included)."""
    times: list[float] = []
    searches: list[float] = []
    real, real_search = ExpertBot.decide, ExpertBot._search

    def timed(self, view, rng):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return real(self, view, rng)
        finally:
            times.append(time.perf_counter() - start)

    def search(self, view, candidates, rng):  # type: ignore[no-untyped-def]
        start = time.process_time()
        try:
            return real_search(self, view, candidates, rng)
        finally:
            searches.append(time.process_time() - start)

    ExpertBot.decide = timed  # type: ignore[method-assign]
    ExpertBot._search = search  # type: ignore[method-assign]
    out: dict[str, object] = {"budget_ms": ExpertBot(0, engine.variant("verish"), 4).budget_s * 1000}
    try:
        for variant in engine.VARIANTS:
            times.clear()
            searches.clear()
            cpu = time.process_time()
            for g in range(groups):
                play_group(variant, ("expert", "sharp", "sharp", "sharp"), seed, g, keep=False)
            cpu = time.process_time() - cpu
            ms = sorted(t * 1000 for t in times)
            out[variant] = {
                "decisions": len(ms),
                "p50_ms": round(ms[len(ms) // 2], 2),
                "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2),
                "max_ms": round(ms[-1], 2),
                "searches": len(searches),
                "searches_per_cpu_s": round(len(searches) / sum(searches), 1) if searches else None,
                "deals_per_cpu_s": round(4 * groups / cpu, 2),
            }
    finally:
        ExpertBot.decide = real  # type: ignore[method-assign]
        ExpertBot._search = real_search  # type: ignore[method-assign]
    return out


def memory(deals: int = 20_000, step: int = 2_000, seed: int = 1) -> dict[str, object]:
    """Resident memory (MiB) after every ``step`` deals of verish, four ``sharp``; deals per
    second of wall time and of this process's CPU time (one core)."""
    import os

    from neveryu.client.commands._arena_stats import Tally

    tally = Tally("verish")
    rows = []
    lineup = ("sharp", "sharp", "sharp", "sharp")
    started = time.perf_counter()
    cpu = time.process_time()
    for g in range(deals // len(lineup)):
        for d in play_group("verish", lineup, seed, g, keep=False):
            tally.add(d)
        if tally.deals % step == 0:
            rows.append((tally.deals, round(rss_bytes(os.getpid()) / 2**20, 2)))
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu
    tally.figures(seed)  # the figures are made from what was kept
    return {
        "rss_mib_after_deals": rows,
        "deals_per_s": round(tally.deals / seconds, 1),
        "deals_per_cpu_s": round(tally.deals / cpu, 1),
    }


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "decisions"
    numbers = [int(a) for a in sys.argv[2:]]
    print(json.dumps(decisions(*numbers) if what == "decisions" else memory(*numbers)))
