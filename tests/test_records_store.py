"""The records database (server/records/database.py, _history.py, _record.py) over real SQLite files in a
temporary folder: the schema and its version, a deal written and read back whole, the history's
filters, and files that cannot be used."""

from __future__ import annotations

import sqlite3

import attrs
import pytest
from records_deals import played_deals

from neveryu import engine
from neveryu.server import StoreError, connect_records, deal_ids, list_deals, load_deal
from neveryu.server.records.database import SCHEMA_VERSION, connect
from neveryu.server.records.deal_record import (
    ACTIONS,
    action_from_json,
    action_json,
    decode_actions,
    encode_actions,
    rules_from_json,
    rules_json,
)
from neveryu.server.records.history import insert_deal


def test_a_new_database_is_made_in_wal_mode_at_the_current_schema(tmp_path):
    path = tmp_path / "sub" / "records.sqlite3"
    conn = connect(path, write=True)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"meta", "matches", "deals", "deal_seats", "players", "seat_stats", "ratings"} | {
        "journal_runs",
        "live_tables",
        "live_actions",
        "live_sessions",
    }
    conn.close()
    assert connect(path, write=True).execute("PRAGMA user_version").fetchone()[0] == 4  # opens again


def test_a_database_from_a_newer_neveryu_is_refused(tmp_path):
    path = tmp_path / "records.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    for write in (True, False):
        with pytest.raises(StoreError) as caught:
            connect(path, write=write)
        assert str(caught.value) == (
            f"{path} was written by a newer neveryu (records schema 7; this one knows up to {SCHEMA_VERSION})"
        )


def test_a_file_that_is_no_database_is_refused(tmp_path):
    path = tmp_path / "records.sqlite3"
    path.write_bytes(b"these are not the records you are looking for\n" * 100)
    with pytest.raises(StoreError) as caught:
        connect(path, write=True)
    assert str(caught.value) == f"{path} is not a records database (or it is damaged)"
    assert path.read_bytes().startswith(b"these are not")  # left as it was


def test_reading_needs_an_existing_file(tmp_path):
    with pytest.raises(StoreError) as caught:
        connect_records(tmp_path / "none.sqlite3")
    assert str(caught.value) == f"there is no records database at {tmp_path / 'none.sqlite3'}"
    assert not (tmp_path / "none.sqlite3").exists()


@pytest.mark.parametrize("variant", list(engine.VARIANTS))
def test_a_deal_is_read_back_exactly_as_it_was_written(tmp_path, variant):
    conn = connect(tmp_path / "r.sqlite3", write=True)
    written = [record for record, _events in played_deals(variant, 3, seed=11)]
    ids = [insert_deal(conn, r) for r in written]
    assert ids == [1, 2, 3]
    assert deal_ids(conn) == [1, 2, 3]
    for deal_id, record in zip(ids, written):
        assert load_deal(conn, deal_id) == attrs.evolve(record, id=deal_id)
    assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 1  # one match, three deals
    assert load_deal(conn, 4) is None


def test_every_kind_of_action_packs_and_unpacks(tmp_path):
    actions = [
        (0, engine.LaySet(1, ("QS", "QH"), "Q", None)),
        (10, engine.LaySet(2, ("7C",), "Q", 2)),
        (20, engine.Challenge(3, 4)),
        (30, engine.Believe(0, 5)),
        (40, engine.DeclareNone(1)),
        (50, engine.DiscardQuads(2, ("K", "K"))),
        (60, engine.DeclineQuads(3)),
        (70, engine.Challenges((1, 2, 3), 6)),
        (80, engine.CloseWindow(7)),
        (90, engine.Timeout(0, engine.LaySet(0, ("2D",), None, None))),
        (100, engine.Timeout(1, engine.Challenge(1, 8))),
        (110, engine.OpenQuadsWindow(2)),
        (120, engine.CloseQuadsWindow(2)),
    ]
    kinds = {action_json(ms, a)["t"] for ms, a in actions}
    assert kinds == set(ACTIONS)
    assert decode_actions(encode_actions(actions)) == tuple(actions)
    assert [action_from_json(action_json(ms, a)) for ms, a in actions] == actions
    assert action_json(90, actions[9][1]) == {
        "ms": 90,
        "t": "timeout",
        "seat": 0,
        "action": {"t": "lay", "seat": 0, "cards": ["2D"], "rank": None, "count": None},
    }


@pytest.mark.parametrize("variant", list(engine.VARIANTS))
def test_every_rule_parameter_is_kept(variant):
    rules = engine.variant(variant)
    assert rules_from_json(rules_json(rules)) == rules


def test_the_history_lists_newest_first_with_filters(tmp_path):
    conn = connect(tmp_path / "r.sqlite3", write=True)
    for variant in ("verish", "hoyle", "lozh"):
        for record, _ in played_deals(variant, 2, seed=5):
            insert_deal(conn, record)
    # deals 1-2 verish, 3-4 hoyle, 5-6 lozh; seat 0 is "ann" (session 0...0), seat 1 "bob"
    assert [s.id for s in list_deals(conn)] == [6, 5, 4, 3, 2, 1]
    assert [s.id for s in list_deals(conn, limit=2)] == [6, 5]
    assert [s.id for s in list_deals(conn, before=5, limit=2)] == [4, 3]
    assert [s.id for s in list_deals(conn, variant="hoyle")] == [4, 3]
    assert [s.id for s in list_deals(conn, player="bob", variant="lozh")] == [6, 5]
    assert list_deals(conn, player="nobody") == []
    assert [s.id for s in list_deals(conn, session="0" * 64, before=3)] == [2, 1]
    assert list_deals(conn, session="f" * 64) == []
    first = list_deals(conn, limit=1)[0]
    assert [(x.seat, x.name, x.bot is None) for x in first.seats] == [
        (0, "ann", True),
        (1, "bob", False),
        (2, "cyril", False),
        (3, "dasha", False),
    ]
    assert (first.variant, first.deal_no, first.deals, first.table) == ("lozh", 2, 2, 1)


def test_a_row_that_cannot_be_read_back_says_so(tmp_path):
    from neveryu.server import RecordError

    conn = connect(tmp_path / "r.sqlite3", write=True)
    insert_deal(conn, played_deals("verish", 1, seed=3)[0][0])
    conn.execute("UPDATE deals SET actions = ? WHERE id = 1", (b"not zlib",))
    with pytest.raises(RecordError, match=r"^actions: "):
        load_deal(conn, 1)
