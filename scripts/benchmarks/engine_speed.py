"""Engine speed: deals per second of bots-only play for each variant, in one process.

Uses ``engine.simulate`` when the engine has one; otherwise a minimal referee loop here: the
referee closes every challenge window at once and each seat plays ``Deal.auto_action`` (the
smallest legal set, truthful if possible — RULES.md, "Timing rules", **Decision**).
"""

from __future__ import annotations

import random
import time

import engine

# A deal that has not ended after this many actions is counted as stuck (a bug, reported).
MAX_ACTIONS = 20_000


def play_deal(rules: engine.Rules, players: int, rng: random.Random) -> int:
    """Play one deal of ``rules`` at ``players`` seats to its end; returns its action count.
    Raises RuntimeError when it has not ended after ``MAX_ACTIONS`` actions."""
    deal, _ = engine.Match(rules, players, rng).start()
    for _ in range(MAX_ACTIONS):
        if deal.over:
            return deal.actions
        if deal.window_open:
            deal.apply(engine.CloseWindow(deal.set_no))
        else:
            deal.apply(deal.auto_action(deal.turn))
    raise RuntimeError(f"{rules.name}: a deal at {players} seats did not end in {MAX_ACTIONS} actions")


def measure(name: str, players: int, seconds: float, max_deals: int, seed: int = 1) -> dict:
    """Play seeded deals of variant ``name`` for up to ``seconds`` s or ``max_deals`` deals.
    Returns ``{"variant", "players", "deals", "actions", "seconds", "deals_per_s", "actions_per_s"}``."""
    rules = engine.variant(name)
    rng = random.Random(seed)
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while deals < max_deals and time.perf_counter() < deadline:
        actions += play_deal(rules, players, rng)
        deals += 1
    elapsed = time.perf_counter() - start
    return {
        "variant": name,
        "players": players,
        "deals": deals,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "deals_per_s": round(deals / elapsed, 1),
        "actions_per_s": round(actions / elapsed),
    }


def run(seconds_per_variant: float, players: int = 4) -> list[dict]:
    """``measure`` every variant of ``engine.VARIANTS`` at ``players`` seats (clamped to the
    variant's range)."""
    out = []
    for name, rules in engine.VARIANTS.items():
        lo, hi = rules.players
        out.append(measure(name, min(max(players, lo), hi), seconds_per_variant, max_deals=1_000_000))
    return out
