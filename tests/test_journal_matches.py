"""Every live table comes back after a restart, whatever its match and deal (docs/RECORDS.md, "The
journal"), in process on trio's MockClock with a real database file: at every variant, matches of
two deals and of one deal (and two variants with options), the server "killed" at seeded moments
(during a deal, right after a match ends, during the next match's first deal, its first action or
before it) and started again on the same file; each time the table comes back exactly as it was, its
players resume their seats, and every deal of every match is recorded once and replays through the
rules.

A "kill" is the writer stopped with the tables still journaled (``crash``), as in
tests/test_journal.py: the journal holds what was committed; tests/test_journal_restart.py kills
real processes, which also lose the last batch. A file of schema version 3 (whose actions
were keyed by table and deal number only, so a previous match's deal of the same number
could be mixed in) is upgraded to keep only the current deal's actions.
"""

from __future__ import annotations

import logging
import random
import sqlite3
from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from test_journal import PASSWORD, Played, crash, open_records, snapshot, start
from test_server_timing import ListLink

from neveryu import engine, protocol
from neveryu.server import DealRecord, RecordsWriter, check_record, connect_records, deal_ids, load_deal
from neveryu.server._restore import Restored, restore_tables
from neveryu.server._session import Session
from neveryu.server.records.database import MIGRATIONS, SCHEMA_VERSION, connect

MOMENTS = ("deal", "match_end", "first_deal", "first_deal", "deal", "match_end", "first_deal")


def replayed(path: Any) -> list[DealRecord]:
    """Every deal the records hold, each replayed through the rules (``check_record``: the
    card invariant, the same result, the commitment kept)."""
    conn = connect_records(path)
    try:
        records = [load_deal(conn, deal) for deal in deal_ids(conn)]
        for record in records:
            assert record is not None
            check_record(record)
        return [r for r in records if r is not None]
    finally:
        conn.close()


async def play_until(played: Played, done: Any) -> None:
    """Step the table until ``done()`` (bounded)."""
    for _ in range(20_000):
        if done():
            return
        for session in played.sessions:  # (what they were sent is not looked at here)
            session.link.msgs.clear()
        await played.step()
    raise AssertionError("the table never got there")


async def new_match(played: Played) -> None:
    """The players are ready again and the host starts the next match."""
    table = played.table
    for k, session in enumerate(played.sessions):
        if session.seat is not None and not table.seats[session.seat].ready:
            assert (await played.send(k, "ready", ready=True))["t"] == "ok"
    host = next(k for k, s in enumerate(played.sessions) if s is table.host)
    assert (await played.send(host, "start"))["t"] == "ok"


async def to_moment(played: Played, moment: str, rng: random.Random) -> None:
    """Play on to the seeded ``moment``."""
    table = played.table
    if moment == "match_end":
        if table.game is None:
            await new_match(played)
        await play_until(played, lambda: table.game is None)
        return
    if moment == "first_deal":
        if table.game is not None:
            await play_until(played, lambda: table.game is None)
        await new_match(played)
        target = rng.choice([0, 0, 1, rng.randint(2, 8)])
    else:
        if table.game is None:
            await new_match(played)
        target = rng.randint(1, 40)
    await play_until(
        played, lambda: table.game is None or (table.deal is not None and played.actions >= target)
    )


async def restart(nursery, records: RecordsWriter, played: Played, caplog) -> tuple[RecordsWriter, Played]:
    """Kill the server (its tables die with it), start it again on the same file, and bring
    the players back to their seats with their tokens; the table must be as it was."""
    before = snapshot(played.table)
    seats = [s.seat for s in played.sessions]
    crash(records)
    played.table.close("killed")  # (the dead process's table: its entries reach no writer)
    caplog.clear()
    again = open_records(records.path)
    restored = Restored()
    tables = restore_tables(again, restored, 1000, lambda t: None, nursery.start_soon)
    assert not [r for r in caplog.records if "not restored" in r.getMessage()], caplog.text
    assert sorted(tables) == [played.table.id]
    table = tables[played.table.id]
    assert snapshot(table) == before
    sessions = []
    for old, seat in zip(played.sessions, seats):
        back = restored.reclaim(old.token, old.seq)
        assert back is not None and (back.seat, back.seq) == (seat, old.seq)
        back.attach(ListLink())
        table.attached(back, snapshot=True, restarted=True)
        sessions.append(back)
    await trio.testing.wait_all_tasks_blocked()
    return again, Played(table, sessions, played.clock, played.rng)


CASES = [(variant, {}, deals) for variant in engine.VARIANTS for deals in (2, 1)] + [
    ("hoyle", {"declare_none": True, "scoring": "chips_per_card"}, 2),
    ("veryu", {"deck": "52"}, 2),
]


@pytest.mark.parametrize(
    ("variant", "options", "deals"),
    CASES,
    ids=[f"{v}-{'-'.join(map(str, o.values()))}-{d}" for v, o, d in CASES],
)
async def test_every_table_comes_back_in_every_match(
    nursery, mock_clock, tmp_path, caplog, variant, options, deals
):
    caplog.set_level(logging.INFO, logger="neveryu.server")
    rng = random.Random(f"{variant} {options} {deals}")
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(
        nursery,
        mock_clock,
        records,
        variant,
        seats=3,
        bots=("sharp",),
        deals=deals,
        turn_ms=1_500,
        options=options,
    )
    matches = set()
    for moment in MOMENTS:
        await to_moment(played, moment, rng)
        if played.table.game is not None:
            matches.add(played.table.game.match_uid)
        records, played = await restart(nursery, records, played, caplog)
    if played.table.game is not None:  # the last match, to its end
        await play_until(played, lambda: played.table.game is None)
    assert records.flush()
    records.close()
    made = replayed(db)
    by_match: dict[str, list[int]] = {}
    for record in made:
        by_match.setdefault(record.match, []).append(record.deal_no)
    assert set(by_match) >= matches and len(by_match) >= 3
    assert all(sorted(nos) == list(range(1, deals + 1)) for nos in by_match.values()), by_match


def test_a_version_3_journal_keeps_only_the_current_deals_actions(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for step in range(3):
        for statement in MIGRATIONS[step]:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 3")
    insert = (
        "INSERT INTO live_tables (id, run, server, table_no, opened_ms, updated_ms, settings, state, deal_no)"
    )
    conn.execute(insert + " VALUES (7, 'r', 's', 1, 0, 0, '{}', '[]', 1)")  # a second match's deal 1
    conn.execute(insert + " VALUES (8, 'r', 's', 2, 0, 0, '{}', '[]', NULL)")  # between deals
    rows = [(7, 1, n, n, msgpack.packb(["old", n])) for n in range(5)]  # the first match's deal 1
    rows += [(8, 2, n, n, b"gone") for n in range(2)]  # table 8's ended deal
    rows += [(7, 1, n, 10 + n, msgpack.packb(["new", n])) for n in range(3)]  # the current deal
    conn.executemany("INSERT INTO live_actions VALUES (?, ?, ?, ?, ?)", rows)
    conn.close()

    conn = connect(path, write=True)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT id, deal_key, failure FROM live_tables ORDER BY id").fetchall() == [
        (7, -7, None),
        (8, None, None),
    ]
    kept = conn.execute(
        "SELECT table_id, deal_key, n, ms, action FROM live_actions ORDER BY rowid"
    ).fetchall()
    assert kept == [(7, -7, n, 10 + n, msgpack.packb(["new", n])) for n in range(3)]
    conn.close()


async def test_a_spectator_comes_back_watching(nursery, mock_clock, tmp_path, caplog):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(nursery, mock_clock, records, "cheat", seats=3, bots=("sharp",), turn_ms=20_000)
    watcher = Session("eve", replay=1000)
    watcher.attach(ListLink())
    played.table.handle(
        watcher, protocol.parse_request({"t": "spectate", "id": 1, "table": 1, "password": PASSWORD})
    )
    await play_until(played, lambda: played.actions >= 5 and played.table.deal.turn in (0, 1))
    crash(records)
    played.table.close("killed")
    again = open_records(db)
    restored = Restored()
    tables = restore_tables(again, restored, 1000, lambda t: None, nursery.start_soon)
    table = tables[1]
    mock_clock.jump(0.2)  # (the players take a while to come back)
    await trio.testing.wait_all_tasks_blocked()

    back = restored.reclaim(watcher.token, watcher.seq)
    assert back is not None and (back.table, back.seat) == (table, None)
    assert table.spectators == [back]
    back.attach(ListLink())
    table.attached(back, snapshot=True, restarted=True)
    assert [m["t"] for m in back.link.msgs][:2] == ["table_update", "state"]

    again.close()


async def test_the_player_to_act_gets_his_whole_turn_when_he_resumes(nursery, mock_clock, tmp_path):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(nursery, mock_clock, records, "verish", seats=3, bots=("sharp",), turn_ms=20_000)

    def timed() -> bool:
        deal, referee = played.table.deal, played.table.game.referee
        return played.actions >= 3 and deal.turn in (0, 1) and referee.turn_ms_left() is not None

    await play_until(played, timed)
    crash(records)
    played.table.close("killed")
    again = open_records(db)
    restored = Restored()
    tables = restore_tables(again, restored, 1000, lambda t: None, nursery.start_soon)
    table = tables[1]
    mock_clock.jump(0.2)  # (he takes a while to come back: less than any window or bot delay)
    await trio.testing.wait_all_tasks_blocked()
    turn = table.deal.turn
    assert table.game.referee.turn_ms_left() == 20_000 - 200
    old = played.sessions[turn]
    player = restored.reclaim(old.token, old.seq)
    assert player is not None and player.seat == turn
    player.attach(ListLink())
    table.attached(player, snapshot=True, restarted=True)
    state = next(m for m in player.link.msgs if m["t"] == "state")
    assert state["time_ms"] == 20_000  # the whole turn, though the table was restored before
    again.close()


async def test_a_seat_away_since_a_timeout_stays_away_when_its_client_resumes(nursery, mock_clock, tmp_path):
    """The journal keeps why a seat is away: after a restart, the client's resume (made by
    itself) does not bring back a seat whose turn time ran out (docs/PROTOCOL.md, "Resume")."""
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(nursery, mock_clock, records, "verish", seats=3, bots=("sharp",), turn_ms=20_000)
    await play_until(played, lambda: played.actions >= 3 and played.table.deal.turn in (0, 1))
    turn = played.table.deal.turn
    mock_clock.jump(20.0)  # nobody acts for him: his time runs out
    await trio.testing.wait_all_tasks_blocked()
    assert played.table.seats[turn].timed_out
    crash(records)
    played.table.close("killed")
    again = open_records(db)
    restored = Restored()
    table = restore_tables(again, restored, 1000, lambda t: None, nursery.start_soon)[1]
    old = played.sessions[turn]
    player = restored.reclaim(old.token, old.seq)
    assert player is not None and player.seat == turn
    player.attach(ListLink())
    table.attached(player, snapshot=True, restarted=True)
    assert table.summary["seats"][turn]["away"] and table.seats[turn].timed_out
    again.close()


async def test_a_table_restored_between_deals_tells_the_match_so_far(nursery, mock_clock, tmp_path):
    """Between two deals a resumed player gets no deal to learn the match from: the table summary
    of its ``table_update`` holds the match's scores after the deal that ended, and its number."""
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(
        nursery, mock_clock, records, "veryu", seats=3, bots=("sharp",), deal_pause_ms=60_000
    )
    await play_until(played, lambda: played.table.game.deal_no == 1 and played.table.deal.over)
    scores = list(played.table.game.match.scores)
    assert scores != [0, 0, 0] and played.table.summary["match_scores"] == scores
    crash(records)
    played.table.close("killed")
    again = open_records(db)
    restored = Restored()
    table = restore_tables(again, restored, 1000, lambda t: None, nursery.start_soon)[1]
    await trio.testing.wait_all_tasks_blocked()
    assert table.deal is None
    old = played.sessions[0]
    player = restored.reclaim(old.token, old.seq)
    assert player is not None and player.seat == 0
    player.attach(ListLink())
    table.attached(player, snapshot=True, restarted=True)
    (update,) = [m for m in player.link.msgs if m["t"] == "table_update"]
    summary = update["table"]
    assert (summary["state"], summary["deal_no"], summary["match_scores"]) == ("playing", 1, scores)
    again.close()


def test_a_restored_session_nobody_resumes_is_forgotten_after_its_grace_time():
    restored = Restored()
    lobby = Session.restored("zoe", "k" * 64, None, 10, now=0.0)  # (dropped when the clock read 0)
    restored.sessions[lobby.key] = lobby
    assert restored.forget_gone(29.9, 30.0) == []
    assert restored.forget_gone(30.0, 30.0) == [lobby.key]
    assert restored.sessions == {}
