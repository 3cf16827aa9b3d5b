"""How long each section of ``scripts/bench`` runs: a ``Profile`` per run length (``full``,
``--quick``: short runs of every section, ``smoke``: the shortest, tests/test_bench_smoke.py's).
Every loop of a section is bounded by a count and a time, both held here."""

from __future__ import annotations

import attrs


@attrs.frozen
class Profile:
    engine_s: float  # per variant
    engine_modes: tuple[str, ...]  # engine_speed modes
    latency_samples: int
    latency_s: float
    rounds: int  # interleaved floor/neveryu latency rounds
    ping_clients: int
    ping_s: float
    ladder: tuple[int, ...]  # capacity: the N tried, in order (multiples of 4: tables of 4)
    bisect: int  # capacity: steps spent halving the gap around the largest N that passed
    capacity_s: float  # measured seconds per N
    warmup_s: float  # capacity: play before measuring
    soak_min: float  # when --soak is given without minutes
    dealstart_samples: int = 300  # per way of starting a deal (fixed seed, fair deal 2)
    dealstart_silent: int = 5  # samples with clients that never contribute (a window each)
    records_sizes: int = 300  # records: real deals per variant for the sizes
    records_history: int = 100_000  # records: deals in the database neveryu history reads
    records_clients: int = 1_000  # records: clients of the recording overhead's steps
    records_rounds: int = 3  # records: rounds of (without, with) recording
    flood_rounds: int = 6  # flood: rounds of (without, with) the flood
    flood_s: float = 10.0  # flood: seconds of each block
    players_deals: int = 2_000  # players: seeded deals per variant, sharp against three honest
    players_board: int = 100_000  # players: deals in the database the leaderboard reads
    botreply_s: float = 30.0  # botreply: seconds of play
    journal_tables: int = 100  # journal: live tables restored (the load generator's, 4 clients each)
    journal_play_s: float = 10.0  # journal: how long they play before the server is killed
    journal_clients: int = 1_000  # journal: clients of the journal overhead's steps
    journal_rounds: int = 3  # journal: rounds of (without, with) the journal
    journal_actions: int = 50_000  # journal: real actions noted and written, for its cost alone
    journal_starts: int = 3  # journal: neveryu serve started this many times, with and without tables


PROFILES = {
    "full": Profile(
        4.0,
        ("bots", "core"),
        6000,
        60.0,
        10,
        200,
        10.0,
        (100, 200, 400, 600, 800, 1000, 1200, 1600, 2000, 2400, 2800),
        2,
        15.0,
        2.5,
        5.0,
    ),
    "quick": Profile(
        0.5,
        ("bots", "core"),
        1200,
        8.0,
        4,
        200,
        2.0,
        (200, 1000),
        0,
        4.0,
        1.5,
        5.0,
        records_sizes=40,
        records_history=20_000,
        records_clients=1_000,
        records_rounds=1,
        flood_rounds=2,
        flood_s=5.0,
        players_deals=300,
        players_board=20_000,
        botreply_s=8.0,
        journal_play_s=5.0,
        journal_rounds=1,
    ),
    "smoke": Profile(
        0.1,
        ("core",),
        40,
        2.0,
        2,
        8,
        0.3,
        (8,),
        0,
        1.0,
        0.3,
        0.1,
        dealstart_samples=5,
        dealstart_silent=1,
        records_sizes=3,
        records_history=300,
        records_clients=8,
        records_rounds=1,
        flood_rounds=1,
        flood_s=0.5,
        players_deals=6,
        players_board=300,
        botreply_s=1.0,
        journal_tables=2,
        journal_play_s=1.0,
        journal_clients=8,
        journal_rounds=1,
        journal_actions=2_000,
        journal_starts=1,
    ),
}
