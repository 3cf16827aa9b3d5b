"""Records: what a deal's record weighs, how fast ``neveryu history`` answers over a
large database, and what recording costs the server per action.

- ``real_deals(variant, count, seed)``: deals played by the engine and bots (the simulator's own
  game, ``engine.simulate``), each turned into the record a server would keep.
- ``fill(path, total, seed)``: a database of ``total`` deals, made fast: a few hundred real deals
  per variant, written again and again under other names, tables and times (a history query
  reads rows and indexes; what the actions hold does not change its speed).
- ``sizes``: the database's bytes per deal (file size over deals, after a checkpoint) and the
  exported JSON's, per variant.
- ``history``: ``neveryu history`` as a user runs it (a new process each time), wall time.
- ``overhead``: the capacity section's measurement (N clients in another process against the
  real server process) with and without recording, alternated in the same run.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

import attrs

from neveryu import engine
from neveryu.engine import simulate
from neveryu.server.records import database as _store
from neveryu.server.records import hand_history as _views
from neveryu.server.records import history as _history
from neveryu.server.records import replay as _replay
from neveryu.server.records.deal_record import DealRecord, Result, SeatRecord

NAMES = (
    "ann", "bob", "cyril", "dasha", "egor", "fedya", "galya", "igor", "katya", "lena", "misha", "nadia",
    "oleg", "pasha", "rita", "sasha", "tanya", "uliana", "vera", "yura", "zhenya", "arkady", "boris",
    "vlad", "gleb", "den", "emil", "fima", "zoya", "ilya", "kolya", "lyuba",
)  # fmt: skip
BASE_MS = 1_760_000_000_000  # a Unix time in ms where the made-up history starts


class _Recorded(simulate._Game):
    """The simulator's bots-only deal, keeping every accepted action as a referee does, with
    the times a table of one person and bots gives them: the person (seat 0) takes 1.5–8 s, a
    bot 0.8–1 s, a challenge window 1.5 s (the defaults)."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.applied: list[tuple[int, engine.Action]] = []
        self.clock = random.Random(len(self.deal.deck_order or ()) + self.deal.dealer)
        self.now = 0

    def apply(self, action: engine.Action) -> list[engine.Event]:
        events = super().apply(action)
        seat = getattr(action, "seat", None)
        self.now += (
            1_500
            if seat is None
            else self.clock.randint(1_500, 8_000)
            if seat == 0
            else self.clock.randint(800, 1_000)
        )
        self.applied.append((self.now, action))
        return events


def real_deals(variant: str, count: int, seed: int, players: int = 4) -> Iterator[DealRecord]:
    """``count`` deals of ``variant`` at ``players`` seats, as records of a person (seat 0, an
    ``honest`` bot playing for him) against ``sharp`` bots, as ``neveryu play`` records them."""
    rules = engine.variant(variant)
    match = engine.Match(rules, players, random.Random(seed))
    rng = random.Random(seed + 1)
    lineup = ("honest", "sharp", "sharp", "sharp")[:players]  # (the simulator rotates them)
    for i in range(count):
        game = _Recorded(rules, match, lineup, i, rng, False)
        ended = game.play()
        if ended is None:
            match.deal = None
            continue
        deal = game.deal
        opening_dealer = deal.dealer
        match.finish(deal)
        result = Result.of(ended)
        yield DealRecord(
            match=f"{variant}-{seed}",
            deal_no=i + 1,
            deals=count,
            server="bench",
            table=1,
            started_ms=BASE_MS,
            ended_ms=BASE_MS + game.now + 500,
            variant=variant,
            options={},
            rules=rules,
            timing={"turn_ms": 60_000, "challenge_window_ms": 1_500, "tie_window_ms": 250},
            seeded=True,
            reveal_after_deal=False,
            seats=tuple(
                SeatRecord(
                    seat=s,
                    name=f"bot {s + 1}" if s else "ann",
                    bot=game.strengths[s] if s else None,
                    session=None if s else f"{rng.getrandbits(256):064x}",
                    place=result.out.index(s) + 1 if s in result.out else None,
                    score=result.scores[s],
                )
                for s in range(players)
            ),
            dealer=opening_dealer,
            draws=None,
            deck=tuple(deal.deck_order or ()),
            fair={"commitment": "0" * 64, "salt": "0" * 64},
            actions=tuple(game.applied),
            result=result,
            match_scores=tuple(match.scores),
        )


def fill(path: str, total: int, seed: int = 1, per_variant: int = 200, say=print) -> dict:
    """Write ``total`` deals into a new database at ``path``; returns ``{"deals", "seconds",
    "real"}`` (``real``: distinct real deals played for it)."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    started = time.perf_counter()
    base = [r for v in engine.VARIANTS for r in real_deals(v, per_variant, seed)]
    played = time.perf_counter() - started
    say(f"  played {len(base)} real deals ({len(engine.VARIANTS)} variants) in {played:.1f} s")
    rng = random.Random(seed)
    conn = _store.connect(path, write=True)
    try:
        for k in range(total):
            r = base[k % len(base)]
            names = rng.sample(NAMES, r.players - 1)
            seats = tuple(
                attrs.evolve(s, name=names[s.seat - 1], bot=None, session=f"{rng.getrandbits(64):016x}")
                if s.seat
                else s
                for s in r.seats
            )
            when = BASE_MS + k * 60_000
            made = attrs.evolve(
                r, match=f"m{k // 5}", deal_no=k % 5 + 1, table=k % 97, seats=seats, started_ms=when,
                ended_ms=when + (r.ended_ms - r.started_ms),
            )  # fmt: skip
            _history.insert_deal(conn, made)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return {"deals": total, "seconds": round(time.perf_counter() - started, 1), "real": len(base)}


def sizes(count: int = 300, seed: int = 7) -> list[dict]:
    """Per variant: the median actions of a deal, the database's bytes per deal, the export's
    median bytes (compact JSON)."""
    out = []
    for variant in engine.VARIANTS:
        deals = list(real_deals(variant, count, seed))
        path = f"/tmp/neveryu-bench-size-{os.getpid()}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        conn = _store.connect(path, write=True)
        empty = _db_bytes(conn)
        for r in deals:
            _history.insert_deal(conn, r)
        db = (_db_bytes(conn) - empty) / len(deals)
        conn.close()
        os.remove(path)
        exported = [
            len(json.dumps(_views.record_json(r, _replay.replay(r)), separators=(",", ":"))) for r in deals
        ]
        out.append(
            {
                "variant": variant,
                "deals": len(deals),
                "actions_median": statistics.median(len(r.actions) for r in deals),
                "db_bytes_per_deal": round(db),
                "actions_column_median": statistics.median(
                    len(_history.encode_actions(r.actions))
                    for r in deals  # compressed
                ),
                "export_bytes_median": statistics.median(exported),
            }
        )
    return out


def _db_bytes(conn) -> int:
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    return (pages - free) * size


def history(path: str, runs: int = 5) -> dict:
    """Wall time of ``neveryu history`` (a new process each run, as a user runs it) over
    ``path``: the median of ``runs`` per query, in seconds."""
    queries = {
        "last 20": [],
        "--player vera": ["--player", "vera"],
        "--variant hoyle": ["--variant", "hoyle"],
        "--player vera --variant lozh --limit 100 --json": [
            "--player", "vera", "--variant", "lozh", "--limit", "100", "--json"
        ],
    }  # fmt: skip
    return {label: command_seconds("history", path, args, runs) for label, args in queries.items()}


def command_seconds(command: str, path: str, args: list[str], runs: int) -> float:
    """The median wall time, in s, of ``neveryu COMMAND --db PATH ARGS`` run as a user runs it
    (a new process each time), over ``runs`` runs."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "neveryu.client.cli", command, "--db", path, *args],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times), 3)


def overhead(clients: int, seconds: float, rounds: int, warmup: float, say=print) -> dict:
    """The capacity section's step (``capacity.step``: ``clients`` clients of the load generator
    against the real server process, ``seconds`` measured) without and with recording, in
    ``rounds`` rounds of both, alternating which goes first. Returns the steps, the medians of
    the server's CPU µs per action per mode, their ratio, and the deals recorded per second."""
    from . import capacity

    steps: dict[str, list[dict]] = {"off": [], "on": []}
    recorded = []
    for k in range(rounds):
        for mode in ("off", "on") if k % 2 == 0 else ("on", "off"):
            path = f"/tmp/neveryu-bench-records-{os.getpid()}-{k}.sqlite3"
            args = ["--db", path] if mode == "on" else []
            r = capacity.step(clients, seconds, warmup=warmup, server_args=args)
            steps[mode].append(r)
            line = (
                f"  recording {mode:>3}: {r['actions_per_s']:>7.1f} actions/s,"
                f" server CPU {r['server_cpu']:.0%} = {r['server_cpu_us_per_action']} µs/action,"
                f" p99 {r['p99_ms']} ms"
            )
            if mode == "on":
                conn = sqlite3.connect(path)
                deals = conn.execute("SELECT count(*) FROM deals").fetchone()[0]
                conn.close()
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(path + suffix):
                        os.remove(path + suffix)
                rate = deals / (seconds + warmup + 1)  # (the run lasts about that long)
                recorded.append(round(rate, 1))
                line += f"; {deals} deals recorded (~{rate:.0f}/s)"
            say(line)
    per = {m: statistics.median(r["server_cpu_us_per_action"] for r in steps[m]) for m in steps}
    return {
        "clients": clients,
        "rounds": rounds,
        "steps": steps,
        "cpu_us_per_action": per,
        "overhead": round(per["on"] / per["off"] - 1, 4) if per["off"] else None,
        "deals_recorded_per_s": recorded,
    }


def write_cost(count: int = 300, variant: str = "verish") -> dict:
    """The writer's CPU per deal and per action, measured alone (no noise from other work in the
    same process): ``count`` real deals of ``variant`` encoded and committed one transaction
    each, as the writer thread does (``records.history.insert_deal``)."""
    import time as _time

    deals = list(real_deals(variant, count, seed=11))
    path = f"/tmp/neveryu-bench-write-{os.getpid()}.sqlite3"
    conn = _store.connect(path, write=True)
    try:
        started = _time.process_time()
        for r in deals:
            _history.insert_deal(conn, r)
        cpu = _time.process_time() - started
    finally:
        conn.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
    actions = sum(len(r.actions) for r in deals)
    return {
        "variant": variant,
        "deals": len(deals),
        "actions": actions,
        "cpu_us_per_deal": round(cpu / len(deals) * 1e6, 1),
        "cpu_us_per_action": round(cpu / actions * 1e6, 2),
    }
