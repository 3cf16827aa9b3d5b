"""Players: whether the ratings rank the bots as they should, what counting and
rating a deal costs the records' writer, and how fast a leaderboard answers over a large
database.

- ``sanity(deals, seed)``: per variant, ``deals`` seeded deals of one ``sharp`` against three
  ``honest`` bots (the simulator's game, seats rotating), kept as the server's writer keeps them
  (``records.derive.keep_deal``: the deal, its players, its statistics, its ratings); then the
  variant's leaderboard: ``sharp`` must rank above ``honest`` with intervals (mu ± 2 sigma) that
  do not overlap. Also the writer's CPU per deal, with and without the counting and rating.
- ``board(total, seed)``: a database of ``total`` deals (``records.real_deals``: a few hundred
  real deals per variant written again and again, seat 0 each time one of 32 people with a
  player key of his own, the other seats the sharp bots), every deal counted from scratch
  (``records.derive.catch_up``, what ``neveryu stats --rebuild`` costs), then the leaderboard and a
  player's statistics read: in-process (the server's query, median of 20) and as ``neveryu
  stats`` run by a user (a new process each time, median of 3).
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time

import attrs

from neveryu import engine
from neveryu.server import _wire
from neveryu.server.records import database as _store
from neveryu.server.records import derive as _derive
from neveryu.server.records import history as _history
from neveryu.server.records import league as _league
from neveryu.server.records import players as _players
from neveryu.server.records.deal_record import DealRecord, Result, SeatRecord

from . import records as rec

LINEUP = ("sharp", "honest", "honest", "honest")


def bot_deals(variant: str, count: int, seed: int) -> list[DealRecord]:
    """``count`` seeded deals of ``variant``, one ``sharp`` against three ``honest`` bots, as
    records (every seat a bot's)."""
    rules = engine.variant(variant)
    match = engine.Match(rules, 4, random.Random(seed))
    rng = random.Random(seed + 1)
    out = []
    for i in range(count):
        game = rec._Recorded(rules, match, LINEUP, i, rng, False)
        ended = game.play()
        if ended is None:
            match.deal = None
            continue
        deal = game.deal
        match.finish(deal)
        result = Result.of(ended)
        out.append(
            DealRecord(
                match=f"{variant}-{seed}-{i // 5}",
                deal_no=i % 5 + 1,
                deals=5,
                server="bench",
                table=1,
                started_ms=rec.BASE_MS + i * 600_000,
                ended_ms=rec.BASE_MS + i * 600_000 + game.now + 500,
                variant=variant,
                options={},
                rules=rules,
                timing={"turn_ms": 60_000, "challenge_window_ms": 1_500, "tie_window_ms": 250},
                seeded=True,
                reveal_after_deal=False,
                seats=tuple(
                    SeatRecord(
                        seat=s,
                        name=f"bot {s + 1}",
                        bot=game.strengths[s],
                        place=result.out.index(s) + 1 if s in result.out else None,
                        score=result.scores[s],
                    )
                    for s in range(4)
                ),
                dealer=deal.dealer,
                draws=None,
                deck=tuple(deal.deck_order or ()),
                fair=_fair(deal.deck_order or ()),
                actions=tuple(game.applied),
                result=result,
                match_scores=tuple(match.scores),
            )
        )
    return out


def _fair(deck: tuple[str, ...]) -> dict[str, str]:
    """A fair deal's fields for ``deck`` (a fixed salt): the record checks as a server's would."""
    salt = "0" * 64
    return {"commitment": _wire.commitment(salt, deck), "salt": salt}


def _fresh(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def sanity(deals: int, seed: int = 1, say=print) -> list[dict]:
    """Per variant: the bots' ratings after ``deals`` deals, whether sharp ranks above honest
    with intervals apart, and the writer's CPU per deal with and without counting and rating."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for variant in engine.VARIANTS:
            t0 = time.perf_counter()
            made = bot_deals(variant, deals, seed)
            played = time.perf_counter() - t0
            path = f"{folder}/{variant}.sqlite3"
            conn = _store.connect(path, write=True)
            cpu = time.process_time()
            for r in made:
                _derive.keep_deal(conn, r)
            kept = time.process_time() - cpu
            _, rows = _league.leaderboard(conn, variant)
            conn.close()
            plain = _store.connect(f"{folder}/{variant}-plain.sqlite3", write=True)
            cpu = time.process_time()
            for r in made:
                _history.insert_deal(plain, r)
            inserted = time.process_time() - cpu
            plain.close()
            by = {p.name: s for p, s in rows}
            sharp, honest = by["sharp"], by["honest"]
            wins = sum(r.result.winner is not None and r.seats[r.result.winner].bot == "sharp" for r in made)
            losses = sum(r.result.loser is not None and r.seats[r.result.loser].bot == "sharp" for r in made)
            actions = sum(len(r.actions) for r in made)
            row = {
                "variant": variant,
                "deals": len(made),
                "sharp": {"mu": round(sharp.mu, 2), "sigma": round(sharp.sigma, 3), "rank": sharp.rank},
                "honest": {"mu": round(honest.mu, 2), "sigma": round(honest.sigma, 3), "rank": honest.rank},
                "gap": round(sharp.low - honest.high, 2),
                "apart": sharp.rank == 1 and sharp.low > honest.high,
                "sharp_won": wins,
                "sharp_lost": losses,
                "played_s": round(played, 1),
                "writer_us_per_deal": round(kept / len(made) * 1e6),
                "insert_only_us_per_deal": round(inserted / len(made) * 1e6),
                "counting_us_per_action": round((kept - inserted) / actions * 1e6, 1),
            }
            out.append(row)
            say(
                f"  {variant:<12} sharp {sharp.mu:6.2f} ± {2 * sharp.sigma:4.2f}  honest {honest.mu:6.2f} ±"
                f" {2 * honest.sigma:4.2f}  gap {row['gap']:+6.2f}  {'apart' if row['apart'] else 'OVERLAP'}"
                f"  (sharp {'won' if wins else 'lost'} {wins or losses} of {len(made)});"
                f" writer {row['writer_us_per_deal']} µs/deal, {row['insert_only_us_per_deal']} without"
                f" counting and rating ({row['counting_us_per_action']} µs per action more)"
            )
    return out


PEOPLE = rec.NAMES


def fill(path: str, total: int, seed: int = 1, per_variant: int = 200, say=print) -> dict:
    """Write ``total`` deals with their players into a new database at ``path`` (not yet
    counted); returns ``{"deals", "seconds", "real"}``."""
    _fresh(path)
    started = time.perf_counter()
    base = [
        attrs.evolve(r, fair=_fair(r.deck))
        for v in engine.VARIANTS
        for r in rec.real_deals(v, per_variant, seed)
    ]
    played = time.perf_counter() - started
    say(f"  played {len(base)} real deals ({len(engine.VARIANTS)} variants) in {played:.1f} s")
    rng = random.Random(seed)
    keys = {name: _players.person_key(f"{name}-{'k' * 40}") for name in PEOPLE}
    conn = _store.connect(path, write=True)
    try:
        for start in range(0, total, 1000):
            with _store.transaction(conn):
                for k in range(start, min(total, start + 1000)):
                    r = base[k % len(base)]
                    name = rng.choice(PEOPLE)
                    seat = attrs.evolve(r.seats[0], name=name, key=keys[name], session=None)
                    when = rec.BASE_MS + k * 60_000
                    made = attrs.evolve(
                        r, match=f"m{k // 5}", deal_no=k % 5 + 1, table=k % 97, seats=(seat, *r.seats[1:]),
                        started_ms=when, ended_ms=when + (r.ended_ms - r.started_ms),
                    )  # fmt: skip
                    _history.write_deal(conn, _players.with_players(conn, made))
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return {"deals": total, "seconds": round(time.perf_counter() - started, 1), "real": len(base)}


def board(total: int, seed: int = 1, say=print) -> dict:
    """The leaderboard's and a player's statistics' speed over ``total`` deals."""
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/records.sqlite3"
        filled = fill(path, total, seed, per_variant=min(200, max(2, total // 100)), say=say)
        say(f"  made {total:,} deals with their players in {filled['seconds']} s")
        conn = _store.connect(path, write=True)
        t0 = time.perf_counter()
        _derive.catch_up(conn)
        counted = time.perf_counter() - t0
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        say(
            f"  counted and rated every deal from scratch (what --rebuild does) in {counted:.1f} s"
            f" ({counted / total * 1e6:.0f} µs per deal); the file: {os.path.getsize(path) / 2**20:.1f} MiB"
        )
        sharp = _players.player_by_key(conn, "bot:sharp")
        vera = _players.players_named(conn, "vera")[0]
        queries = {
            "leaderboard verish (top 20)": lambda: _league.leaderboard(conn, "verish"),
            "leaderboard hoyle (all, 100)": lambda: _league.leaderboard(conn, "hoyle", limit=100),
            "player_stats vera (every variant)": lambda: _league.player_stats(conn, [vera]),
            "player_stats sharp (the bots: 3 seats of every deal)": lambda: _league.player_stats(
                conn, [sharp]
            ),
        }
        inside = {}
        for label, query in queries.items():
            times = []
            for _ in range(20):
                t0 = time.perf_counter()
                query()
                times.append(time.perf_counter() - t0)
            inside[label] = round(statistics.median(times) * 1000, 2)
            say(f"  {label}: {inside[label]} ms (in-process, median of 20)")
        conn.close()
        commands = {
            "neveryu stats --top --variant verish": ["--top", "--variant", "verish"],
            "neveryu stats --top": ["--top"],
            "neveryu stats vera": ["vera"],
        }
        outside = {}
        runs = 3 if total >= 10_000 else 1
        for label, args in commands.items():
            outside[label] = rec.command_seconds("stats", path, args, runs)
            say(f"  {label}: {outside[label]} s (a new process, median of {runs})")
    return {"deals": filled, "count_s": round(counted, 1), "query_ms": inside, "command_s": outside}
