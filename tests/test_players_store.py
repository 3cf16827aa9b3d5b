"""Players, statistics and ratings over real database files (server/records/players.py, _stats.py,
_ratings.py, _derive.py, _league.py; docs/PLAYERS.md): seeded deals written through the records'
writer's own transaction (``keep_deal``), statistics checked against counts made here by hand,
ratings made again from the records alone (``rebuild``), and a file of records schema 1 upgraded."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import attrs
import pytest
from records_deals import played_deals

from neveryu import engine
from neveryu.server import DealRecord, leaderboard, player_stats, players_named
from neveryu.server.records.database import MIGRATIONS, SCHEMA_VERSION, connect, transaction
from neveryu.server.records.derive import catch_up, derived_through, keep_deal, pending, rebuild
from neveryu.server.records.history import write_deal
from neveryu.server.records.players import key_hash, person_key, player_by_key, tag_of
from neveryu.server.records.ratings import MU, SIGMA, finishing_ranks, interval, rate
from neveryu.server.records.replay import check
from neveryu.server.records.statistics import COUNTS, is_bluff, seat_stats

KEY_ANN = "ann-key-" + "a" * 40
KEY_FORGED = "ann-key-" + "b" * 40


def keep(
    conn: sqlite3.Connection, record: DealRecord, key: str | None, name: str | None = None
) -> DealRecord:
    """``record`` kept as the writer keeps it, seat 0 held by the person of player key ``key``
    (None: a guest) under ``name``; returns it with its id and player ids."""
    seat = attrs.evolve(
        record.seats[0], key=person_key(key) if key else None, name=name or record.seats[0].name
    )
    record = attrs.evolve(record, seats=(seat, *record.seats[1:]))
    deal_id = keep_deal(conn, record)
    from neveryu.server import load_deal

    kept = load_deal(conn, deal_id)
    assert kept is not None
    return kept


def table_rows(conn: sqlite3.Connection, table: str) -> list[tuple[Any, ...]]:
    return conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()


# -- who is who ---------------------------------------------------------------------------------------


def test_the_server_keeps_only_the_keys_hash_and_the_tag_comes_from_it(tmp_path):
    conn = connect(tmp_path / "records.sqlite3", write=True)
    ((record, _),) = played_deals("verish", 1, 3)
    keep(conn, record, KEY_ANN)
    stored = person_key(KEY_ANN)
    assert stored == "p:" + key_hash(KEY_ANN) and len(key_hash(KEY_ANN)) == 64
    dump = "\n".join(conn.iterdump())
    assert KEY_ANN not in dump and stored in dump  # the key itself is nowhere in the file
    ann = player_by_key(conn, stored)
    assert ann is not None and (ann.name, ann.kind, ann.tag) == ("ann", "person", tag_of(stored))
    assert ann.tag == key_hash(KEY_ANN)[:4] and ann.label == f"ann#{ann.tag}"


def test_the_same_key_under_a_new_name_keeps_its_id_and_statistics(tmp_path):
    path = tmp_path / "records.sqlite3"
    deals = [r for r, _ in played_deals("verish", 4, 11)]
    conn = connect(path, write=True)
    first = [keep(conn, r, KEY_ANN, "ann") for r in deals[:2]]
    conn.close()
    conn = connect(path, write=True)  # the server restarted
    later = [keep(conn, r, KEY_ANN, "anya") for r in deals[2:]]
    ids = {r.seats[0].player for r in first + later}
    assert len(ids) == 1
    (pid,) = ids
    assert players_named(conn, "ann") == players_named(conn, "anya")  # (the old name finds him too)
    (stats,) = player_stats(conn, players_named(conn, "anya"))
    assert (stats.player.id, stats.player.name) == (pid, "anya")
    (verish,) = stats.variants
    assert (verish.deals, verish.seats) == (4, 4)
    assert verish.rating is not None and verish.rating.deals == 4


def test_a_forged_key_is_a_new_separate_player(tmp_path):
    conn = connect(tmp_path / "records.sqlite3", write=True)
    deals = [r for r, _ in played_deals("verish", 3, 12)]
    keep(conn, deals[0], KEY_ANN)
    keep(conn, deals[1], KEY_ANN)
    keep(conn, deals[2], KEY_FORGED)  # someone else, who calls himself ann too
    real, forged = (player_by_key(conn, person_key(k)) for k in (KEY_ANN, KEY_FORGED))
    assert real is not None and forged is not None and real.id != forged.id and real.tag != forged.tag
    assert sorted(p.id for p in players_named(conn, "ann")) == sorted([real.id, forged.id])
    assert players_named(conn, f"ann#{forged.tag}") == [forged]
    by_id = {s.player.id: s.variants[0].deals for s in player_stats(conn, [real, forged])}
    assert by_id == {real.id: 2, forged.id: 1}


def test_bots_are_one_player_per_strength_and_keyless_people_are_guests(tmp_path):
    conn = connect(tmp_path / "records.sqlite3", write=True)
    deals = [r for r, _ in played_deals("veryu", 3, 2)]
    kept = [keep(conn, r, None) for r in deals]
    kinds = dict(conn.execute("SELECT key, kind FROM players").fetchall())
    assert kinds == {
        "guest:" + f"{0:064x}": "guest",  # records_deals gives seat 0 this session hash
        "bot:honest": "bot",
        "bot:random": "bot",
        "bot:sharp": "bot",
    }
    sharp = player_by_key(conn, "bot:sharp")
    assert sharp is not None
    for r in kept:
        assert {s.player for s in r.seats if s.bot == "sharp"} == {sharp.id}
    total, rows = leaderboard(conn, "veryu")
    assert total == 3 and {p.kind for p, _ in rows} == {"bot"}  # a guest is not on a leaderboard


# -- statistics ---------------------------------------------------------------------------------------


def by_hand(record: DealRecord) -> dict[str, list[int]]:
    """``verish``'s counts straight from the recorded actions (the next player challenges, every
    set is a new set number, the round's rank is held, counts are true), without the engine."""
    n = record.players
    c = {k: [0] * n for k in COUNTS}
    pile, last, rank, before = 0, (0, False), "", 0
    for ms, action in record.actions:
        if isinstance(action, engine.Timeout):
            c["timeouts"][action.seat] += 1
            action = action.action
        elif isinstance(action, engine.LaySet | engine.Challenge | engine.DiscardQuads | engine.DeclineQuads):
            c["actions"][action.seat] += 1
            c["action_ms"][action.seat] += ms - before
        before = ms
        if isinstance(action, engine.LaySet):
            rank = action.rank or rank
            bluff = any(card[0] != rank for card in action.cards)
            pile += len(action.cards)
            c["sets"][action.seat] += 1
            c["bluffs"][action.seat] += bluff
            last = (action.seat, bluff)
        elif isinstance(action, engine.Challenge):
            layer, bluff = last
            c["challenges"][action.seat] += 1
            c["challenges_right"][action.seat] += bluff
            c["bluffs_caught"][layer] += bluff
            c["cards_taken"][layer if bluff else action.seat] += pile
            pile, rank = 0, ""
    return c


def test_statistics_of_seeded_deals_are_what_the_actions_say(tmp_path):
    deals = [r for r, _ in played_deals("verish", 12, 21)]
    for record in deals:
        got = seat_stats(record, check(record))
        want = by_hand(record)
        assert {k: [getattr(s, k) for s in got] for k in COUNTS} == want, record.deal_no


def test_a_players_statistics_are_the_sums_of_his_deals(tmp_path):
    conn = connect(tmp_path / "records.sqlite3", write=True)
    deals = [r for r, _ in played_deals("verish", 6, 21)]
    for record in deals:
        keep(conn, record, KEY_ANN)
    (stats,) = player_stats(conn, [player_by_key(conn, person_key(KEY_ANN))])
    (verish,) = stats.variants
    counted = [by_hand(r) for r in deals]
    assert verish.counts == {k: sum(c[k][0] for c in counted) for k in COUNTS}
    places = [r.seats[0].place for r in deals]
    assert verish.places == tuple(places.count(p) for p in range(1, max(p or 0 for p in places) + 1))
    assert verish.lost == sum(r.result.loser == 0 for r in deals)
    assert verish.score == sum(r.result.scores[0] for r in deals)
    assert (verish.deals, verish.seats, verish.won) == (6, 6, 0)


def test_the_first_deal_of_seed_21_counted_by_hand():
    """One deal written out. Seat 0's row was counted off its 88 recorded actions by reading
    them: 10 sets (3H as 3; 6D 9C as 4; 8C 8D 8S as 8; QH as Q; 6D as 7; 4C 4S as 4; JC JS as J;
    5S 5C as 5; TD TS 9C as T; AH as A), 3 of them bluffs, one caught (set 7, by seat 1, when the
    pile held 5 cards: seat 0 took them); three challenges, all right (seat 3's 2C 2S 7S as 6,
    KC KS as J, 9D 9H 9S as 2); 13 actions, 700 ms apart."""
    record = played_deals("verish", 1, 21)[0][0]
    assert len(record.actions) == 88 and record.result.out == (0, 2, 3) and record.result.loser == 1
    got = {k: [getattr(s, k) for s in seat_stats(record, check(record))] for k in COUNTS}
    assert got == by_hand(record)
    assert got == FIRST_DEAL_OF_SEED_21


FIRST_DEAL_OF_SEED_21 = {
    "sets": [10, 14, 14, 19],
    "bluffs": [3, 14, 4, 14],
    "bluffs_caught": [1, 8, 2, 6],
    "challenges": [3, 9, 6, 4],
    "challenges_right": [3, 4, 6, 4],
    "believes": [0, 0, 0, 0],
    "believes_right": [0, 0, 0, 0],
    "cards_taken": [5, 60, 9, 29],
    "actions": [13, 31, 21, 23],
    "action_ms": [9100, 21700, 14000, 16100],
    "timeouts": [0, 0, 0, 0],
}


def test_a_believe_is_right_on_a_true_claim_and_a_count_that_lies_is_a_bluff():
    assert is_bluff(("QS", "QH"), "Q", 2) is False
    assert is_bluff(("QS", "7H"), "Q", 2) is True
    assert is_bluff(("QS", "QH"), "Q", 3) is True  # cheat: the count may lie
    for record, _ in played_deals("veryu", 8, 5):
        stats = seat_stats(record, check(record))
        steps = check(record)
        believed = {e.set_no: e.seat for s in steps for e in s.events if isinstance(e, engine.Believed)}
        right = [0] * record.players
        for s in steps:
            for e in s.events:
                if isinstance(e, engine.SetRevealed) and e.set_no in believed:
                    right[believed[e.set_no]] += e.claim_true
        assert [s.believes for s in stats] == [list(believed.values()).count(i) for i in range(4)]
        assert [s.believes_right for s in stats] == right


# -- ratings ------------------------------------------------------------------------------------------


def test_the_finishing_order_ranks_the_seats_still_in_last():
    assert finishing_ranks((2, 0, 3), 4) == [2, 4, 1, 3]  # last_loses: seat 1 lost
    assert finishing_ranks((1,), 4) == [2, 1, 2, 2]  # first_wins: the others tie


def test_one_player_in_several_seats_moves_by_the_sum_of_his_seats():
    one = rate([1, 2], {}, [1, 2])
    three = rate([1, 2, 2, 2], {}, [1, 2, 2, 2])
    assert one[1][0] > MU > one[2][0]
    # three honest seats lose three times what one seat loses, and learn more (smaller sigma)
    assert three[2][0] < one[2][0] and three[2][1] < one[2][1] < SIGMA
    assert rate([None, 2], {}, [1, 2]) == {2: one[2]}  # nobody's seat: rated from the prior
    low, high = interval(three[1])
    assert (low, high) == pytest.approx((three[1][0] - 2 * three[1][1], three[1][0] + 2 * three[1][1]))


def test_the_rating_vector_of_players_md():
    """docs/PLAYERS.md, "Ratings": its vector, to the last bit, and the hundredths sent."""
    text = (Path(__file__).parent.parent / "docs" / "PLAYERS.md").read_text("utf-8")
    block = text.split("```text vector rating\n", 1)[1].split("```", 1)[0]
    want = {
        int(k.split()[1]): tuple(float(x) for x in v.split())
        for k, v in (line.split("=") for line in block.splitlines())
    }
    ranks = finishing_ranks((2, 0), 4)
    assert ranks == [2, 3, 1, 3]
    assert rate([1, 2, 2, None], {1: (27.0, 6.0)}, ranks) == want
    mu, sigma = want[1]
    assert [round(100 * x) for x in (mu, sigma, mu - 2 * sigma, mu + 2 * sigma)] == [2775, 595, 1585, 3965]


def test_rebuild_reproduces_every_rating_and_statistic_exactly(tmp_path):
    conn = connect(tmp_path / "records.sqlite3", write=True)
    for variant, seed in (("verish", 1), ("hoyle", 2), ("veryu", 3), ("cheat", 4), ("verish", 5)):
        for i, (record, _) in enumerate(played_deals(variant, 5, seed)):
            keep(conn, record, (KEY_ANN, KEY_FORGED, None)[i % 3])
    before = {t: table_rows(conn, t) for t in ("seat_stats", "ratings")}
    assert len(before["seat_stats"]) == 25 * 4 and derived_through(conn) == 25
    done = rebuild(conn)
    assert (done.deals, done.compared, done.differ) == (25, 25, 0)
    assert {t: table_rows(conn, t) for t in ("seat_stats", "ratings")} == before  # to the last bit


def test_rebuild_says_how_many_values_came_out_otherwise(tmp_path):
    conn = connect(tmp_path / "records.sqlite3", write=True)
    for record, _ in played_deals("lozh", 3, 8):
        keep(conn, record, KEY_ANN)
    conn.execute("UPDATE ratings SET mu = mu + 1 WHERE player_id = 1")
    conn.execute("UPDATE seat_stats SET sets = 0 WHERE deal_id = 2 AND seat = 3")
    assert rebuild(conn).differ == 2


def test_deals_recorded_before_players_existed_are_counted_after_the_upgrade(tmp_path):
    path = tmp_path / "records.sqlite3"
    deals = [r for r, _ in played_deals("verish", 3, 6)]
    old = sqlite3.connect(path, isolation_level=None)  # a file of records schema 1, as neveryu 0.1 wrote it
    with transaction(old):
        for statement in MIGRATIONS[0]:
            old.execute(statement)
        old.execute("PRAGMA user_version = 1")
    for r in deals:
        with transaction(old):
            write_deal(old, r)
    old.close()
    conn = connect(path, write=True)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    players = conn.execute("SELECT 0, id, key, kind, name FROM players ORDER BY id").fetchall()
    assert [row[1:] for row in players] == [
        (1, "bot:honest", "bot", "honest"),  # (seat 0 is ann's, whom a random bot plays for)
        (2, "bot:sharp", "bot", "sharp"),
        (3, "guest:" + f"{0:064x}", "guest", "ann"),
    ]
    held = conn.execute("SELECT count(*) FROM deal_seats WHERE player_id IS NULL").fetchone()[0]
    assert held == 0
    assert pending(conn) == 3 and catch_up(conn) == 3 and pending(conn) == 0
    (ann,) = players_named(conn, "ann")
    assert ann.kind == "guest"
    (stats,) = player_stats(conn, [ann])
    assert stats.variants[0].counts == {k: sum(by_hand(r)[k][0] for r in deals) for k in COUNTS}
