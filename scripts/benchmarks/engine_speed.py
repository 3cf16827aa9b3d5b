"""Engine speed: deals per second of bots-only play for each variant, in one process.

Two figures per variant:

- ``bots``: ``engine.simulate.simulate`` (the engine's ``sharp`` bots at every seat, the referee
  of docs/RULES.md, "Timing rules", without time; invariant checks off), in small batches until the
  time is up: what ``neveryu simulate`` does;
- ``core``: the rules alone: a minimal referee loop here closes every challenge window at once
  and each seat plays ``engine.random_turn_action`` (a random legal set, seeded; a challenge
  where it cannot lay).
"""

from __future__ import annotations

import random
import time

from neveryu import engine

try:
    from neveryu.engine.simulate import simulate
except ImportError:  # an engine without `neveryu simulate`: the core figures only
    simulate = None

BOTS = "sharp"
BATCH = 1  # deals per simulate call: a deal that cannot end costs ACTION_CAP actions, once
# A deal that has not ended after this many actions is counted as stuck (a bug, reported).
MAX_ACTIONS = 20_000


def play_deal(rules: engine.Rules, players: int, rng: random.Random) -> int:
    """The stand-in referee: play one deal of ``rules`` at ``players`` seats to its end with
    ``random_turn_action`` drawn with ``rng``; returns its action count. Raises RuntimeError
    when it has not ended after ``MAX_ACTIONS`` actions."""
    deal, _ = engine.Match(rules, players, rng).start()
    for _ in range(MAX_ACTIONS):
        if deal.over:
            return deal.actions
        if deal.window_open:
            deal.apply(engine.CloseWindow(deal.set_no))
        else:
            deal.apply(engine.random_turn_action(deal.view(deal.turn), rng))
    raise RuntimeError(f"{rules.name}: a deal at {players} seats did not end in {MAX_ACTIONS} actions")


def measure(name: str, players: int, seconds: float, mode: str, seed: int = 1) -> dict:
    """Play seeded deals of variant ``name`` for about ``seconds`` s (whole batches); ``mode``
    "bots" or "core" (see the module docstring). Returns ``{"variant", "players", "mode",
    "deals", "unfinished", "actions", "seconds", "deals_per_s", "actions_per_s"}``."""
    rules = engine.variant(name)
    deals = actions = unfinished = 0
    start = time.perf_counter()
    deadline = start + seconds
    rng = random.Random(seed)
    batch = 0
    while time.perf_counter() < deadline:
        if mode == "bots":
            r = simulate(rules, players, BATCH, seed * 1_000_003 + batch, BOTS, check=False)
            deals += r.completed
            unfinished += r.unfinished
            actions += r.actions
            batch += 1
        else:
            actions += play_deal(rules, players, rng)
            deals += 1
    elapsed = time.perf_counter() - start
    return {
        "variant": name,
        "players": players,
        "mode": mode,
        "deals": deals,
        "unfinished": unfinished,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "deals_per_s": round(deals / elapsed, 1),
        "actions_per_s": round(actions / elapsed),
    }


def run(
    seconds_per_variant: float, players: int = 4, modes: tuple[str, ...] = ("bots", "core")
) -> list[dict]:
    """``measure`` every variant of ``engine.VARIANTS`` at ``players`` seats (clamped to the
    variant's range) in each of ``modes`` ("bots" needs ``engine.simulate``), sharing the
    time. Returns ``[{"variant", "players", "bots": measure(...), "core": measure(...)}]``."""
    if simulate is None:
        modes = tuple(m for m in modes if m != "bots")
    out = []
    for name, rules in engine.VARIANTS.items():
        lo, hi = rules.players
        n = min(max(players, lo), hi)
        row = {"variant": name, "players": n}
        for mode in modes:
            row[mode] = measure(name, n, seconds_per_variant / len(modes), mode)
        out.append(row)
    return out
