"""The journal of live tables (docs/RECORDS.md, "The journal"), in-process on trio's MockClock: a
table journaled while it is played comes back from the database exactly as it was (settings, seats,
the match so far, the deal, every accepted action), its players resume their seats with their
tokens, and it plays on to a deal whose record replays. A journal that does not replay costs that
table only, with one log line; ``--fresh`` (``restore`` False) and an old journal restore nothing; a
server still running keeps its tables; the journal holds no session token and no table password.

A "crash" here is the writer stopped with the tables still journaled (``RecordsWriter.close`` without
closing them): what a killed process leaves (tests/test_journal_restart.py kills real ones).
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from records_checks import check_database
from test_server_timing import ListLink

from neveryu import engine, protocol
from neveryu.server import RecordsWriter
from neveryu.server._restore import FAILED, Restored, RestoreError, restore_table, restore_tables
from neveryu.server._session import Session
from neveryu.server._settings import TableSettings
from neveryu.server._table import Table
from neveryu.server.records.database import MIGRATIONS, SCHEMA_VERSION, connect
from neveryu.server.records.history import deal_ids, insert_deal

PASSWORD = "пароль"  # a table password, in Cyrillic


class Played:
    """A table of ``humans`` players and ``sharp`` bots, journaled in ``records``, played on the
    mock clock: the players act whenever they may (the smallest set, truthful where it can;
    else a challenge), the bots after ``bot_delay_ms``."""

    def __init__(
        self, table: Table, sessions: list[Session], clock: trio.testing.MockClock, rng: random.Random
    ):
        self.table, self.sessions, self.clock, self.rng = table, sessions, clock, rng
        self.ids = 100

    async def send(self, k: int, t: str, **fields: Any) -> dict[str, Any]:
        self.ids += 1
        session = self.sessions[k]
        self.table.handle(session, protocol.parse_request({"t": t, "id": self.ids, **fields}))
        await trio.testing.wait_all_tasks_blocked()
        return next(m for m in session.link.msgs if m.get("re") == self.ids)

    async def step(self) -> None:
        """One player's move where one may move, else 0.35 s of the clock."""
        deal = self.table.deal
        for k, session in enumerate(self.sessions):
            if deal is None or deal.over or session.seat is None:
                break
            legal = deal.legal_actions(session.seat)
            if legal.lay is not None and (deal.held is None or deal.held.seat != session.seat):
                hand = deal.hands[session.seat]
                cards = hand[: legal.lay.min]
                count = len(cards) if legal.lay.count_min is not None else None
                await self.send(k, "lay", cards=cards, rank=legal.lay.ranks[0], count=count)
                return
            if legal.challenge is not None and self.rng.random() < 0.3:
                await self.send(k, "challenge", set_no=legal.challenge)
                return
        self.clock.jump(0.35)
        await trio.testing.wait_all_tasks_blocked()

    @property
    def actions(self) -> int:
        game = self.table.game
        return len(game.referee.applied) if game is not None and game.referee is not None else 0


def settings(variant: str, **changes: Any) -> TableSettings:
    values: dict[str, Any] = dict(
        variant=variant,
        options={},
        seats=4,
        bots=("sharp", "sharp"),
        turn_ms=60_000,
        challenge_window_ms=1_000,
        tie_window_ms=200,
        bot_delay_ms=300,
        deal_pause_ms=1_000,
        grace_ms=30_000,
        deals=2,
        seed=7,
        password=PASSWORD,
    )
    values.update(changes)
    return TableSettings(**values)


async def start(
    nursery, clock, records: RecordsWriter, variant: str, table_id: int = 1, **changes: Any
) -> Played:
    assert records.journal is not None
    table = Table(table_id, settings(variant, **changes), records=records, journal=records.journal)
    records.journal.opened(table)
    nursery.start_soon(table.run)
    sessions = []
    for i in range(table.settings.seats - len(table.settings.bots)):
        session = Session(f"p{i}", replay=1000)
        session.attach(ListLink())
        sessions.append(session)
    played = Played(table, sessions, clock, random.Random(table_id))
    await trio.testing.wait_all_tasks_blocked()
    for k in range(len(sessions)):
        assert (await played.send(k, "join_table", table=table_id, password=PASSWORD))["seat"] == k
        assert (await played.send(k, "ready", ready=True))["t"] == "ok"
    assert (await played.send(0, "start"))["t"] == "ok"
    return played


def crash(records: RecordsWriter) -> None:
    """The writer commits what it holds and stops; the tables stay journaled."""
    assert records.flush()
    records.close()


def open_records(path, **options: Any) -> RecordsWriter:
    records = RecordsWriter(path, server="test", journal=True, **options)
    records.open()
    assert records.on, records.off
    return records


def snapshot(table: Table) -> dict[str, Any]:
    """What must come back: every seat's view of the deal, the deck, the accepted actions, the
    match, the seats."""
    game = table.game
    deal = table.deal
    return {
        "views": [deal.view(i) for i in range(len(table.seats))] if deal is not None else None,
        "deck": deal.deck_order if deal is not None else None,
        "applied": list(game.referee.applied) if game is not None and game.referee is not None else None,
        "scores": list(game.match.scores) if game is not None else None,
        "deal_no": game.deal_no if game is not None else None,
        "match": game.match_uid if game is not None else None,
        "fair": (game.salt, game.commitment, game.fair) if game is not None else None,
        "seats": [
            (s.name, s.strength, s.ready, s.away, s.session.key if s.session else None) for s in table.seats
        ],
        "host": table.host.seat if table.host is not None else None,
    }


@pytest.mark.parametrize("variant", list(engine.VARIANTS))
async def test_a_table_comes_back_as_it_was_and_plays_on(nursery, mock_clock, tmp_path, variant):
    db = tmp_path / "records.sqlite3"
    rng = random.Random(variant)
    records = open_records(db)
    played = await start(nursery, mock_clock, records, variant)
    target = rng.randint(3, 40)
    for _ in range(2_000):
        if played.actions >= target:
            break
        await played.step()
    assert played.actions >= target
    before = snapshot(played.table)
    crash(records)

    again = open_records(db)
    (journaled,) = again.journaled
    assert again.journal is not None
    restored, sessions = restore_table(
        journaled, table_id=1, journal=again.journal, replay=1000, records=again
    )
    nursery.start_soon(restored.run)
    assert snapshot(restored) == before
    assert restored.settings.password != PASSWORD  # kept only as a digest
    assert restored.settings.variant == variant and restored.settings.seed == 7
    referee = restored.game.referee
    deal = restored.deal
    if referee.turn_time_ms(deal.turn) is not None and (deal.held is None or deal.held.seat != deal.turn):
        assert referee.turn_ms_left() == restored.settings.turn_ms  # the turn starts afresh, whole

    # The players come back with their tokens: the same seat, the same hand.
    reclaim = Restored()
    reclaim.add(sessions)
    for k, old in enumerate(played.sessions):
        back = reclaim.reclaim(old.token, old.seq)
        assert back is not None and back.seat == old.seat and back.seq == old.seq
        back.attach(ListLink())
        restored.attached(back, snapshot=True, restarted=True)
        await trio.testing.wait_all_tasks_blocked()
        state = [m for m in back.link.msgs if m.get("t") == "state"][-1]
        assert state["hand"] == list(deal.hands[back.seat])
        assert state["seq"] == old.seq + 2  # after the table_update: seq goes on
        played.sessions[k] = back
    assert reclaim.reclaim(played.sessions[0].token, 0) is None  # once only

    # It plays on to the end of the match; every deal's record replays.
    played.table = restored
    for _ in range(20_000):
        if restored.game is None:
            break
        await played.step()
    assert restored.game is None
    assert again.flush()
    records_made = check_database(db)
    assert [r.deal_no for r in records_made] == [1, 2]
    assert {r.match for r in records_made} == {before["match"]}
    if before["deal_no"] == 1:
        assert list(records_made[0].actions[: len(before["applied"])]) == before["applied"]
    again.close()
    conn = connect(db, write=False)
    assert conn.execute("SELECT count(*) FROM live_tables").fetchone()[0] == 1  # (not closed: still live)
    conn.close()


async def test_a_journal_that_does_not_replay_costs_that_table_only(nursery, mock_clock, tmp_path, caplog):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    good = await start(nursery, mock_clock, records, "verish", table_id=1)
    bad = await start(nursery, mock_clock, records, "hoyle", table_id=2)
    for _ in range(200):
        if good.actions >= 6 and bad.actions >= 6:
            break
        await good.step()
        await bad.step()
    kept = good.actions  # of table 1's deal
    crash(records)
    conn = sqlite3.connect(db)
    jid = conn.execute("SELECT id FROM live_tables WHERE table_no = 2").fetchone()[0]
    # A set its player never held: the rules refuse it, as they would a journal of other rules.
    lay = msgpack.packb(["lay", 0, ["XX"], "A", None])
    conn.execute("UPDATE live_actions SET action = ? WHERE table_id = ? AND n = 1", (lay, jid))
    conn.commit()
    conn.close()

    caplog.set_level(logging.INFO, logger="neveryu.server")
    again = open_records(db)
    restored = Restored()
    tables = restore_tables(again, restored, 1000, lambda t: None, nursery.start_soon)
    assert sorted(tables) == [1]
    seated = {(s.table.id if s.table else None, s.seat) for s in restored.sessions.values()}
    assert seated == {(1, 0), (1, 1), (None, None)}  # table 2's players wait in the lobby
    said = [r.getMessage() for r in caplog.records if "not restored" in r.getMessage()]
    assert said == [
        "journal: table 2 is not restored (its rows are kept): action 1 (lay by seat 1) is refused:"
        " it is seat 3's turn"
    ]
    # Its players are told when they resume: in the lobby, the table closed, and why.
    for k, old in enumerate(bad.sessions):
        back = restored.reclaim(old.token, old.seq)
        assert back is not None and (back.table, back.seat) == (None, None)
        assert back.missed(old.seq) is not None
        (frame,) = back.missed(old.seq)
        told = msgpack.unpackb(frame[4:])
        assert {k: told[k] for k in ("t", "table", "reason", "seq")} == {
            "t": "table_closed",
            "table": 2,
            "reason": FAILED,
            "seq": old.seq + 1,
        }
    assert again.flush()
    again.close()  # (collected: the actions of the failed table stay, as its rows do)
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT table_no, failure FROM live_tables ORDER BY table_no").fetchall()
    assert rows == [(1, None), (2, "action 1 (lay by seat 1) is refused: it is seat 3's turn")]
    assert conn.execute("SELECT count(*) FROM live_actions WHERE table_id = ?", (jid,)).fetchone()[0] >= 6
    assert conn.execute("SELECT count(*) FROM live_actions WHERE table_id != ?", (jid,)).fetchone()[0] == kept
    conn.close()

    # The next start leaves the failed table alone (it restores table 1 again); a week later
    # its rows go.
    third = open_records(db)
    assert [j.table_no for j in third.journaled] == [1]
    third.close()
    conn = sqlite3.connect(db)
    conn.execute(
        "UPDATE live_tables SET updated_ms = updated_ms - 7 * 24 * 3600 * 1000 - 1 WHERE id = ?", (jid,)
    )
    conn.commit()
    conn.close()
    fourth = open_records(db)
    fourth.close()
    conn = sqlite3.connect(db)
    assert [r[0] for r in conn.execute("SELECT table_no FROM live_tables")] == [1]
    assert conn.execute("SELECT count(*) FROM live_actions WHERE table_id = ?", (jid,)).fetchone()[0] == 0
    conn.close()


async def test_a_restore_refuses_a_deck_that_is_not_the_committed_one(nursery, mock_clock, tmp_path):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(nursery, mock_clock, records, "cheat")
    crash(records)
    conn = sqlite3.connect(db)
    (text,) = conn.execute("SELECT deal FROM live_tables").fetchone()
    deal = json.loads(text)
    deal["deck"][0], deal["deck"][1] = deal["deck"][1], deal["deck"][0]
    conn.execute("UPDATE live_tables SET deal = ?", (json.dumps(deal),))
    conn.commit()
    conn.close()
    again = open_records(db)
    with pytest.raises(RestoreError, match="the deck does not match the deal's commitment"):
        restore_table(again.journaled[0], table_id=1, journal=again.journal, replay=10)
    again.close()
    assert played.table.deal is not None


@pytest.mark.parametrize(
    ("column", "old", "new", "why"),
    [
        ("state", '"sharp"', '"strong"', "ValueError: unknown bot strength 'strong'"),
        ("settings", '"sharp"', '"strong"', "ValueError: unknown bot strength 'strong'"),
        ("settings", '"turn_ms": 60000', '"turn_ms": "60"', "ValueError: turn_ms is '60'"),
        ("settings", '"bot_delay_ms": 300', '"bot_delay_ms": -1', "ValueError: bot_delay_ms is -1"),
    ],
)
async def test_a_table_that_could_not_be_played_is_not_restored(
    nursery, mock_clock, tmp_path, column, old, new, why
):
    """A bot of a strength this server does not know (a journal of another version) would never
    move, and a time that is not a whole number of ms would fail the first time it is started:
    either stops the table for good, so the table is not restored, as one that does not replay."""
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    await start(nursery, mock_clock, records, "veryu")
    crash(records)
    conn = sqlite3.connect(db)
    (text,) = conn.execute(f"SELECT {column} FROM live_tables").fetchone()
    text = json.dumps(json.loads(text))  # (its spacing as json.dumps writes it)
    assert old in text
    conn.execute(f"UPDATE live_tables SET {column} = ?", (text.replace(old, new),))
    conn.commit()
    conn.close()
    again = open_records(db)
    with pytest.raises(RestoreError, match=f"^the journal does not replay: {why}"):
        restore_table(again.journaled[0], table_id=1, journal=again.journal, replay=10)
    again.close()


@pytest.mark.parametrize("how", ["fresh", "old"])
async def test_fresh_or_old_tables_are_not_restored_and_are_forgotten(
    nursery, mock_clock, tmp_path, how, caplog
):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    await start(nursery, mock_clock, records, "lozh")
    crash(records)
    if how == "old":
        conn = sqlite3.connect(db)
        conn.execute("UPDATE live_tables SET updated_ms = updated_ms - 7200001")
        conn.commit()
        conn.close()
    caplog.set_level(logging.INFO, logger="neveryu.server")
    again = open_records(db, restore=how != "fresh")
    assert again.journaled == []
    why = "--fresh" if how == "fresh" else "their server was gone over 120 min"
    assert f"journal: 1 tables of the last run are not restored ({why})" in caplog.messages
    again.close()
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM live_tables").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM live_actions").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM journal_runs").fetchone()[0] == 0
    conn.close()


async def test_a_running_server_keeps_its_tables(nursery, mock_clock, tmp_path):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    await start(nursery, mock_clock, records, "veryu")
    assert records.flush()
    second = open_records(db)  # the same name, while the first runs (two neveryu play)
    assert second.journaled == []
    other = RecordsWriter(db, server="another", journal=True)
    other.open()
    assert other.journaled == []  # another server's tables are never its own
    for r in (second, other, records):
        r.close()
    third = open_records(db)  # the first has ended: its tables are free
    assert len(third.journaled) == 1
    third.close()


async def test_a_closed_table_leaves_the_journal(nursery, mock_clock, tmp_path):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(nursery, mock_clock, records, "verish")
    played.table.close("its players left")
    records.close()
    again = open_records(db)
    assert again.journaled == []
    again.close()


async def test_the_journal_holds_no_token_and_no_password(nursery, mock_clock, tmp_path):
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(nursery, mock_clock, records, "hoyle-three", seats=3, bots=("honest",))
    for _ in range(30):
        await played.step()
    crash(records)
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("records"))
    for session in played.sessions:
        assert session.token.encode() not in raw
        assert session.key.encode() in raw  # its hash is there
    assert PASSWORD.encode() not in raw
    again = open_records(db)
    restored, _ = restore_table(again.journaled[0], table_id=1, journal=again.journal, replay=10)
    nursery.start_soon(restored.run)
    newcomer = Session("zoe", replay=10)
    newcomer.attach(ListLink())
    replies = []
    for rid, given in enumerate((PASSWORD + "x", PASSWORD)):
        restored.handle(
            newcomer, protocol.parse_request({"t": "spectate", "id": rid, "table": 1, "password": given})
        )
        reply = next(m for m in newcomer.link.msgs if m.get("re") == rid)
        replies.append(reply.get("code") or reply["t"])
    assert replies == ["WRONG_TABLE_PASSWORD", "table_joined"]
    again.close()


def test_a_records_database_of_version_1_is_upgraded_and_keeps_its_deals(tmp_path):
    from records_deals import played_deals

    path = tmp_path / "records.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    conn = connect(path, write=True)  # (a version-1 file cannot take a deal before; upgraded here)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    record, _ = next(iter(played_deals("verish", 1, seed=3)))
    insert_deal(conn, record)
    assert deal_ids(conn) == [1]
    conn.close()


async def test_the_actions_of_ended_deals_are_deleted_as_the_table_plays_on(
    nursery, mock_clock, tmp_path, monkeypatch
):
    from neveryu.server.records import writer

    monkeypatch.setattr(writer, "COLLECT_S", 0.0)  # at every batch (the server: every minute)
    db = tmp_path / "records.sqlite3"
    records = open_records(db)
    played = await start(nursery, mock_clock, records, "cheat-free")
    for _ in range(5_000):
        if played.table.game.deal_no == 2 and played.actions >= 3:
            break
        await played.step()
    assert played.table.game.deal_no == 2
    assert records.flush()
    conn = sqlite3.connect(db)
    held = conn.execute(
        "SELECT t.deal_no, count(*) FROM live_actions a JOIN live_tables t ON t.deal_key = a.deal_key"
        " GROUP BY a.deal_key"
    ).fetchall()
    kept = conn.execute("SELECT count(*) FROM live_actions").fetchone()[0]
    conn.close()
    assert held == [(2, played.actions)] and kept == played.actions
    records.close()
