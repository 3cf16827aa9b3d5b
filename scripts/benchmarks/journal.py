"""The journal of live tables: what restoring costs a starting server, and what
journaling costs a running one per action.

- ``live_tables(db, tables, seconds)``: the capacity section's load (``loadgen``: bots over the
  protocol, tables of 4, acting 100 ms after they may) against the real server process
  recording into ``db``, for ``seconds``; then the server is killed with SIGKILL, leaving
  ``tables`` live tables in its journal, most in the middle of a deal.
- ``restore(db)``: those tables restored in this process, as a server does at its start
  (``RecordsWriter.open``: the journal read; ``_restore.restore_tables``: every table rebuilt, its deal
  dealt again and replayed through the rules): wall and CPU time.
- ``serve_start(db)``: ``neveryu serve`` started on ``db``, timed to the line saying it listens
  (Python's start and imports included), beside the same on an empty file.
- ``overhead``: the capacity section's step at N clients with the records on, without and with
  the journal, rounds alternating which goes first; the server's CPU per action compared, and
  the records' writer thread's own CPU (the server's ``--stats``): what it spent more with the
  journal than without, per action journaled.
- ``note_cost``/``write_cost``: the journal's two parts measured alone: a table's notes per
  action (``Journal.played``), and the writer's (real actions encoded and committed in batches
  of the size a 50 ms batch holds at 1,000 clients).
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
from types import SimpleNamespace

import msgpack
import trio

from neveryu.server import RecordsWriter
from neveryu.server._restore import Restored, restore_tables
from neveryu.server.records import journal_rows as store
from neveryu.server.records.database import connect, transaction
from neveryu.server.records.deal_record import Applied, packed_action
from neveryu.server.records.journal import ActionsTaken, Journal, TableOpened

from . import capacity
from .records import real_deals
from .subproc import ROOT, Helper


def _remove(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def live_tables(db: str, tables: int, seconds: float, warmup: float) -> dict:
    """Play ``tables`` tables of 4 for ``seconds`` against a server recording into ``db``, then
    kill it (SIGKILL). Returns what its journal holds: tables, of them in a deal, actions."""
    _remove(db)
    clients = tables * 4
    with Helper(
        "scripts.benchmarks.neveryu_server",
        "--clients",
        str(clients),
        "--deal-pause-ms",
        str(capacity.CAPACITY_DEAL_PAUSE_MS),
        "--db",
        db,
    ) as srv:
        gen = capacity.loadgen(srv.port, clients, seconds + 60, capacity.DELAY_MS, warmup)
        try:
            line = gen.stdout.readline()
            if not line.startswith("SEATED"):
                raise RuntimeError(f"the load generator failed: {line!r}")
            time.sleep(warmup + seconds)
            srv.proc.kill()  # SIGKILL: the tables stay in the journal
            srv.proc.wait()
        finally:
            gen.kill()
            gen.wait(10)
    conn = sqlite3.connect(db)
    try:
        held = conn.execute("SELECT count(*), count(deal) FROM live_tables").fetchone()
        actions = conn.execute("SELECT count(*) FROM live_actions").fetchone()[0]
    finally:
        conn.close()
    return {"tables": held[0], "in_a_deal": held[1], "actions": actions}


def restore(db: str, server: str = "neveryu") -> dict:
    """Restore every table of ``db``'s journal in this process, as a starting server does;
    returns the wall and CPU seconds of reading the journal and of rebuilding the tables. The
    journal is left as it was found (for the next server)."""
    wall, cpu = time.perf_counter(), time.process_time()
    records = RecordsWriter(db, server=server, journal=True)
    records.open()
    read = (time.perf_counter() - wall, time.process_time() - cpu)
    taken = len(records.journaled)
    replayed = sum(len(j.actions) for j in records.journaled)
    out: dict = {}

    async def main() -> None:
        restored = Restored()
        async with trio.open_nursery() as nursery:
            w, c = time.perf_counter(), time.process_time()
            tables = restore_tables(records, restored, 256, lambda t: None, nursery.start_soon)
            out["rebuild"] = (time.perf_counter() - w, time.process_time() - c)
            out["restored"] = len(tables)
            out["players"] = len(restored.sessions)
            records.close()  # the writer stops first: closing the tables below writes nothing
            nursery.cancel_scope.cancel()

    trio.run(main)
    rebuild = out["rebuild"]
    return {
        "journaled": taken,
        "restored": out["restored"],
        "players": out["players"],
        "actions_replayed": replayed,
        "read_s": round(read[0], 3),
        "read_cpu_s": round(read[1], 3),
        "rebuild_s": round(rebuild[0], 3),
        "rebuild_cpu_s": round(rebuild[1], 3),
        "total_s": round(read[0] + rebuild[0], 3),
    }


def serve_start(db: str, runs: int = 3) -> dict:
    """``neveryu serve`` on ``db`` timed to its listening line (killed with SIGKILL there, so
    its tables stay journaled), and the same on an empty file, median of ``runs`` each."""
    empty = db + ".empty"
    times: dict[str, list[float]] = {"with": [], "empty": []}
    restored = 0
    for _ in range(runs):
        for label, path in (("with", db), ("empty", empty)):
            if label == "empty":
                _remove(empty)
            cmd = [sys.executable, "-m", "neveryu.client.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
            cmd += ["--no-advertise", "--db", path, "--log-level", "info"]
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                cmd, cwd=ROOT, env=Helper.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            proc.stdout.readline()
            times[label].append(time.perf_counter() - t0)
            proc.kill()
            _, err = proc.communicate()
            if label == "with":
                restored = err.count("is restored")
    _remove(empty)
    return {
        "with_s": round(statistics.median(times["with"]), 3),
        "empty_s": round(statistics.median(times["empty"]), 3),
        "restored": restored,
    }


def overhead(clients: int, seconds: float, rounds: int, warmup: float, say=print) -> dict:
    """The capacity step at ``clients`` with records, without and with the journal, ``rounds``
    rounds alternating which goes first; the medians of the server's CPU µs per action."""
    steps: dict[str, list[dict]] = {"off": [], "on": []}
    for k in range(rounds):
        for mode in ("off", "on") if k % 2 == 0 else ("on", "off"):
            path = f"/tmp/neveryu-bench-journal-{os.getpid()}-{k}.sqlite3"
            args = ["--db", path, "--stats", path + ".json"] + (["--no-journal"] if mode == "off" else [])
            r = capacity.step(clients, seconds, warmup=warmup, server_args=args)
            with open(path + ".json") as f:
                r["writer"] = json.load(f)
            os.remove(path + ".json")
            _remove(path)
            steps[mode].append(r)
            w = r["writer"]
            say(
                f"  journal {mode:>3}: {r['actions_per_s']:>7.1f} actions/s,"
                f" server CPU {r['server_cpu']:.0%} = {r['server_cpu_us_per_action']} µs/action,"
                f" p99 {r['p99_ms']} ms; the writer thread: {w['cpu_s']:.2f} s of CPU,"
                f" {w['actions']:,} actions journaled, {w['written']} deals recorded"
            )
    per = {m: statistics.median(r["server_cpu_us_per_action"] for r in steps[m]) for m in steps}
    # The writer thread records deals (and derives their players' figures) in both modes: the
    # journal's part of its CPU is what it spent more with the journal, per action journaled.
    cpu = {m: statistics.mean(r["writer"]["cpu_s"] for r in steps[m]) for m in steps}
    journaled = statistics.mean(r["writer"]["actions"] for r in steps["on"])
    writer = round((cpu["on"] - cpu["off"]) / journaled * 1e6, 2) if journaled else None
    return {
        "clients": clients,
        "rounds": rounds,
        "steps": steps,
        "cpu_us_per_action": per,
        "writer_cpu_s": cpu,  # the writer thread's CPU per run, mean of each mode
        "writer_us_per_action": writer,  # its CPU with the journal less without, per action journaled
        "overhead": round(per["on"] / per["off"] - 1, 4) if per["off"] else None,
    }


def _actions(count: int) -> list:
    """``count`` real accepted actions (``(ms, action)``) of ``verish`` deals."""
    out: list = []
    for record in real_deals("verish", max(4, count // 40), seed=5):
        out.extend(record.actions)
        if len(out) >= count:
            break
    return out[:count]


def note_cost(actions: int = 50_000, tables: int = 250) -> dict:
    """A table's own part, per action: the action kept packed (``Applied.append``) and
    ``Journal.played`` after it (the new action handed to the writer's queue, ``RecordsWriter.put``),
    ``tables`` tables taking turns; CPU µs per action."""
    records = RecordsWriter(None)  # the real queue (``RecordsWriter.put``), no writer taking from it
    records.on = True
    journal = Journal(records.put, records.keep)
    played = _actions(actions)
    games = []
    for k in range(tables):
        table = SimpleNamespace(id=k, host=None, deals_played=0, seats=[], spectators=[], game=None)
        journal.adopt(table, k + 1, None, 1, 0)  # (a stand-in for a table: no seats)
        referee = SimpleNamespace(applied=Applied())
        deal = SimpleNamespace(over=False)
        games.append(SimpleNamespace(table=table, referee=referee, deal=deal))
    queued = records._queued
    cpu = time.process_time()
    for i, (ms, action) in enumerate(played):
        game = games[i % tables]
        game.referee.applied.append(ms, action)  # (packed here: the table's part)
        journal.played(game, None)
        if i % 250 == 249:
            records._items.clear()  # (what the writer takes every 100 ms at 2,500 actions/s)
    spent = time.process_time() - cpu
    assert records._queued - queued == len(played)
    return {"actions": len(played), "cpu_us_per_action": round(spent / len(played) * 1e6, 2)}


def write_cost(
    actions: int = 50_000, per_batch: int = 120, tables: int = 250, synchronous: str | None = None
) -> dict:
    """The writer's part, per action: real actions of ``tables`` tables, ``per_batch`` to a
    transaction (what 50 ms hold at 2,400 actions/s), packed beforehand as the tables pack them
    (``Applied``), then committed as the writer does (``records.journal_rows.write`` and ``flush``,
    then the run's ``alive_ms``); ``synchronous``: SQLite's setting, if not the server's own
    (``records.database.connect``). CPU (user and system: the syncs' own included) and wall time
    per action."""
    path = f"/tmp/neveryu-bench-journal-write-{os.getpid()}.sqlite3"
    _remove(path)
    conn = connect(path, write=True, threads=True)
    if synchronous is not None:
        conn.execute(f"PRAGMA synchronous = {synchronous}")
    mode = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[conn.execute("PRAGMA synchronous").fetchone()[0]]
    run = "bench"
    try:
        store.begin_run(conn, run, "bench", 0, restore=False, max_age_ms=0)
        with transaction(conn):
            for k in range(tables):
                state = (None, 0, tuple(("p", None, "0" * 64, None, True, False) for _ in range(4)))
                store.write(conn, run, "bench", [TableOpened(k + 1, k + 1, {}, state)], 0, [])
        played = [(ms, msgpack.packb(packed_action(a))) for ms, a in _actions(actions)]  # (``Applied``'s)
        counts = [0] * tables
        rng = random.Random(1)
        cpu, wall = time.process_time(), time.perf_counter()
        for start in range(0, len(played), per_batch):
            batch = []
            for action in played[start : start + per_batch]:
                k = rng.randrange(tables)
                batch.append([ActionsTaken(k + 1, k + 1, counts[k], (action,))])
                counts[k] += 1
            rows: list = []
            with transaction(conn):
                for entries in batch:
                    store.write(conn, run, "bench", entries, 1, rows)
                store.flush(conn, rows)
                store.alive(conn, run, 1)
        spent, waited = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        conn.close()
        _remove(path)
    return {
        "actions": len(played),
        "per_batch": per_batch,
        "synchronous": mode,
        "cpu_us_per_action": round(spent / len(played) * 1e6, 2),
        "wall_us_per_action": round(waited / len(played) * 1e6, 2),
    }
