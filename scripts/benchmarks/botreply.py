"""Bots' reply time by the truth of their sets: how long after the ``turn``
that names a seat its set arrives, when the set is true and when it is a bluff. The two must not
differ: a bot that takes longer to bluff tells the table when it bluffs.

The real server (``serve``, in this process, on 127.0.0.1) plays `verish` at ``TABLES`` tables of
four seats: an ``honest`` bot, a ``sharp`` bot, a player who has dropped (``away``: the server's
bot plays his seat) and a measuring client, which never acts: each of its turns runs out of time
and the server makes its move (``timeout``), after which it says it is back (``ready``). The
client stamps every frame when it decodes it (``time.perf_counter``); a sample is the time from
the ``turn`` naming a seat to that seat's ``set_laid``, less the delay the table sets for it
(``bot_delay_ms``; ``turn_ms`` for a timeout). Whether a set was true is read on the server's
side (the engine's own ``SetLaid``, whose cards the server knows), which no client can see.

Like is compared with like: only answers to a set count (a lead is nearly always true, and
comes after a reveal, whose own work differs). Beside the replies, the cause: how long a bot's
``choose`` takes, by strength and by the truth of the set it chose (measured around the call,
in the same run). A server that applies a bot's set as soon as it is chosen adds that difference
to its reply time; it is small beside the reply's own noise (a timer wakes up to a millisecond
late), so a second run makes every bluff ``SLOW_BLUFF_MS`` slower to choose, as a slower bot
would be: there a server that waits for the choice shows it plainly, and one that fixes the time
of the set before choosing does not.
"""

from __future__ import annotations

import collections
import math
import random
import statistics
import time

import trio

from .client import call, hello
from .stats import percentile

BOT_DELAY_MS = 20
TURN_MS = 40
TABLES = 8  # the server's most tables from one address
SLOW_BLUFF_MS = 2
SLOW_TABLES = 2
KINDS = ("honest", "sharp", "away", "timeout")

Samples = dict[str, dict[bool, list[float]]]


def _samples(kinds: tuple[str, ...]) -> Samples:
    return {k: {True: [], False: []} for k in kinds}


def watch_server(truths: dict[int, list[bool]], costs: Samples, slow_bluff: float = 0.0):
    """Note, on the server's side, whether each set laid at a table is true (``truths[table]``,
    in the order laid: ``SetLaid`` carries the cards there), and how long each bot's ``choose``
    took that chose a set (``costs[strength][truth]``, s); a ``choose`` that picks a bluff is
    made ``slow_bluff`` s slower (busy, as computing is). Returns a function that undoes it."""
    from neveryu import engine
    from neveryu.engine import bots
    from neveryu.server import _game

    publish, choose = _game.Game.publish, bots.Bot.choose

    def publishing(self, events):
        for e in events:
            if type(e) is engine.SetLaid:
                true = len(e.cards) == e.count and all(c[0] == e.rank for c in e.cards)
                truths[self.table.id].append(true)
        return publish(self, events)

    def choosing(self, view, rng):
        start = time.perf_counter()
        action = choose(self, view, rng)
        if isinstance(action, engine.LaySet) and self.strength in costs:
            rank = action.rank or view.legal.lay.ranks[0]
            true = all(c[0] == rank for c in action.cards)
            while not true and time.perf_counter() - start < slow_bluff:
                pass
            costs[self.strength][true].append(time.perf_counter() - start)
        return action

    _game.Game.publish, bots.Bot.choose = publishing, choosing

    def undo() -> None:
        _game.Game.publish, bots.Bot.choose = publish, choose

    return undo


async def play_table(port: int, k: int, truths: dict[int, list[bool]], samples: Samples) -> None:
    """Make table ``k``'s four seats, start its match and measure until cancelled."""
    me = await hello(port, f"measure{k}")
    gone = await hello(port, f"gone{k}")
    req = {"t": "create_table", "id": 2, "variant": "verish", "options": {}, "seats": 4}
    made = await call(me, {**req, "bots": ["honest", "sharp"], "seed": k + 1})
    table = made["table"]
    joined = await call(gone, {"t": "join_table", "id": 2, "table": table["id"]})
    kinds = {s["seat"]: s["bot"] for s in table["seats"] if s["bot"]}
    kinds[made["seat"]], kinds[joined["seat"]] = "timeout", "away"
    await call(gone, {"t": "ready", "id": 3, "ready": True})
    await call(me, {"t": "ready", "id": 3, "ready": True})
    await call(me, {"t": "start", "id": 4})
    await gone.stream.aclose()  # dropped: after grace_ms the server's bot plays his seat
    laid = truths[table["id"]]
    delay = {kind: (TURN_MS if kind == "timeout" else BOT_DELAY_MS) / 1000 for kind in KINDS}
    turn_at: dict[int, float] = {}
    timed_out = False  # the measuring client's time ran out: its next set is the server's
    count = 0  # the sets laid so far
    ids = 10
    while True:
        m = await me.receive()
        now = time.perf_counter()
        t, seat = m.get("t"), m.get("seat")
        if t == "turn":
            timed_out = False
            if m["set_no"] is not None:  # an answer to a set (module docstring)
                turn_at[seat] = now
            else:
                turn_at.pop(seat, None)
        elif t == "set_laid":
            count += 1
            kind = kinds[seat]
            if seat in turn_at and (kind != "timeout" or timed_out):
                samples[kind][laid[count - 1]].append(now - turn_at.pop(seat) - delay[kind])
            timed_out = False
        elif t == "timed_out" and seat == made["seat"]:
            timed_out = True
            ids += 1
            await me.send({"t": "ready", "id": ids, "ready": True})  # back: timed again


async def measure(seconds: float, tables: int = TABLES, slow_bluff: float = 0.0) -> tuple[Samples, Samples]:
    """Play for about ``seconds`` s at ``tables`` tables: the reply samples (s, less the
    table's delay) by kind of seat (``KINDS``) and truth of the set, and the ``choose`` costs
    (s) by strength and truth; bluffs cost ``slow_bluff`` s more to choose (``watch_server``)."""
    from neveryu.server import ServerConfig, serve

    truths: dict[int, list[bool]] = collections.defaultdict(list)
    samples, costs = _samples(KINDS), _samples(("honest", "sharp"))
    undo = watch_server(truths, costs, slow_bluff)
    config = ServerConfig(host="127.0.0.1", port=0).evolve(
        table={
            "bot_delay_ms": BOT_DELAY_MS,
            "turn_ms": TURN_MS,
            "grace_ms": 1,
            "deal_pause_ms": 0,
            "quads_window_ms": 0,
            "deals": 100_000,
        }
    )
    try:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            for k in range(tables):
                nursery.start_soon(play_table, port, k, truths, samples)
            await trio.sleep(seconds)
            nursery.cancel_scope.cancel()
    finally:
        undo()
    return samples, costs


def diff_ci95(true: list[float], bluff: list[float], rounds: int = 1000) -> tuple[float, float]:
    """A 95 % bootstrap interval (s) of median(bluff) − median(true): how far the difference of
    the medians may be from 0 by the samples' noise alone (seeded: the same samples give the
    same interval)."""
    if not true or not bluff:
        return (math.nan, math.nan)
    rng = random.Random(0)
    diffs = sorted(
        statistics.median(rng.choices(bluff, k=len(bluff)))
        - statistics.median(rng.choices(true, k=len(true)))
        for _ in range(rounds)
    )
    return diffs[int(0.025 * rounds)], diffs[int(0.975 * rounds) - 1]


def summary(samples: Samples) -> dict[str, dict]:
    """Per kind: the count, median and p90 of true sets and of bluffs (µs), the differences of
    the medians and of the p90s (bluff − true), and the 95 % interval of the first."""
    out: dict[str, dict] = {}
    for kind, by_truth in samples.items():
        row: dict = {}
        for truth, name in ((True, "true"), (False, "bluff")):
            s = by_truth[truth]
            row[name] = {
                "n": len(s),
                "p50_us": round(percentile(s, 50) * 1e6, 1),
                "p90_us": round(percentile(s, 90) * 1e6, 1),
            }
        row["p50_diff_us"] = round(row["bluff"]["p50_us"] - row["true"]["p50_us"], 1)
        row["p90_diff_us"] = round(row["bluff"]["p90_us"] - row["true"]["p90_us"], 1)
        row["p50_diff_ci95_us"] = [round(x * 1e6, 1) for x in diff_ci95(by_truth[True], by_truth[False])]
        out[kind] = row
    return out


def run(seconds: float, slow_bluff: float = 0.0) -> dict[str, dict]:
    """``{"reply": summary of the replies, "choose": summary of the choose costs}``; bluffs
    ``slow_bluff`` s slower to choose (then at ``SLOW_TABLES`` tables: busy bluffs at many tables
    would crowd each other's timers)."""
    samples, costs = trio.run(measure, seconds, SLOW_TABLES if slow_bluff else TABLES, slow_bluff)
    return {"reply": summary(samples), "choose": summary(costs)}
