"""``neveryu history``, ``neveryu export`` and ``neveryu replay --check`` over real databases in a
temporary folder, and the records' options of ``neveryu serve`` and ``neveryu play``."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest
from records_checks import VALIDATOR
from records_deals import played_deals

from neveryu.client.cli import build_parser, main
from neveryu.client.commands.serve import build_config, history_command
from neveryu.server import default_db_path, record_from_json
from neveryu.server.records.database import connect
from neveryu.server.records.deal_record import encode_actions
from neveryu.server.records.history import insert_deal
from neveryu.server.records.replay import check


@pytest.fixture
def db(tmp_path, monkeypatch):
    """Six deals: 1-2 verish, 3-4 hoyle, 5-6 lozh; seats ann (a person), bob, cyril, dasha
    (bots); the first dealt at 2023-11-14 22:13:20 UTC, ten minutes apart."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    path = tmp_path / "records.sqlite3"
    conn = connect(path, write=True)
    for variant in ("verish", "hoyle", "lozh"):
        for record, _ in played_deals(variant, 2, seed=5):
            insert_deal(conn, record)
    conn.close()
    yield str(path)
    monkeypatch.delenv("TZ")
    time.tzset()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_history_lists_the_deals_newest_first(db, capsys):
    code, out, err = run(capsys, "history", "--db", db, "--limit", "3")
    assert (code, err) == (0, "")
    assert out.splitlines() == [  # the last three recorded, by when they ended; bots as the client names them
        "id  ended             variant  players                                          result",
        " 4  2023-11-14 22:24  hoyle    ann, Bot 2 (hard), Bot 3 (easy), Bot 4 (normal)  won: Bot 2 (hard)",
        " 6  2023-11-14 22:23  lozh     ann, Bot 2 (hard), Bot 3 (easy), Bot 4 (normal)  lost: Bot 3 (easy)",
        " 5  2023-11-14 22:14  lozh     ann, Bot 2 (hard), Bot 3 (hard), Bot 4 (easy)    lost: Bot 4 (easy)",
    ]


def test_history_filters_by_player_and_variant(db, capsys):
    code, out, _ = run(capsys, "history", "--db", db, "--variant", "hoyle", "--player", "dasha")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["4", "3"]
    code, out, _ = run(capsys, "history", "--db", db, "--player", "nobody")
    assert (code, out) == (0, "No deals recorded that match.\n")


def test_history_json(db, capsys):
    code, out, _ = run(capsys, "history", "--db", db, "--json", "--variant", "verish")
    assert code == 0
    deals = json.loads(out)
    assert [d["id"] for d in deals] == [2, 1]
    first = deals[1]
    assert first["started"] == "2023-11-14T22:13:20+00:00" and first["started_ms"] == 1_700_000_000_000
    assert [p["name"] for p in first["players"]] == ["ann", "bob", "cyril", "dasha"]
    assert first["players"][0] == {"seat": 0, "name": "ann", "bot": None, "player": None}
    assert (first["variant"], first["deal_no"], first["deals"]) == ("verish", 1, 2)
    assert "session" not in out and "0" * 64 not in out  # never which session held a seat
    assert (first["loser"], first["winner"]) == (2, None)


def test_history_of_a_missing_database_is_one_line(tmp_path, capsys):
    missing = tmp_path / "no.sqlite3"
    code, out, err = run(capsys, "history", "--db", str(missing))
    assert (code, out, err) == (1, "", f"neveryu history: there is no records database at {missing}\n")


def test_export_writes_a_valid_record_that_replays(db, capsys, tmp_path):
    code, out, err = run(capsys, "export", "3", "--db", db)
    assert (code, err) == (0, "")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert (doc["id"], doc["variant"], doc["view"]) == (3, "hoyle", None)
    check(record_from_json(doc))
    target = tmp_path / "deal3.json"
    assert run(capsys, "export", "3", "--db", db, "-o", str(target)) == (0, "", "")
    assert json.loads(target.read_text("utf-8")) == doc
    code, out, _ = run(capsys, "export", "3", "--db", db, "--seat", "2")  # seats count from 1
    seat_view = json.loads(out)
    VALIDATOR.validate(seat_view)
    assert seat_view["view"] == 1  # (the record's data counts them from 0)


@pytest.mark.parametrize("command", ["export", "replay"])
@pytest.mark.parametrize("seat", ["0", "5"])
def test_a_seat_the_deal_does_not_have_is_one_line_counted_from_1(db, capsys, command, seat):
    assert len(json.loads(run(capsys, "export", "3", "--db", db)[1])["seats"]) == 4
    code, out, err = run(capsys, command, "3", "--db", db, "--seat", seat)
    assert (code, out, err) == (1, "", f"neveryu {command}: deal 3 has seats 1 to 4, not {seat}\n")


@pytest.mark.parametrize("command", ["export", "replay"])
def test_an_unknown_deal_is_one_line_and_exit_1(db, capsys, command):
    code, out, err = run(capsys, command, "99", "--db", db)
    assert (code, out, err) == (1, "", f"neveryu {command}: there is no deal 99 in {db}\n")


def test_a_record_that_does_not_replay_is_refused_by_every_command(db, capsys):
    conn = sqlite3.connect(db)
    actions = conn.execute("SELECT actions FROM deals WHERE id = 2").fetchone()[0]
    from neveryu.server.records.deal_record import decode_actions

    cut = decode_actions(actions)[:-1]
    conn.execute("UPDATE deals SET actions = ? WHERE id = 2", (encode_actions(cut),))
    conn.commit()
    conn.close()
    why = f"deal 2 does not replay: the deal has not ended after its {len(cut)} actions"
    for command in ("export", "replay"):
        code, out, err = run(capsys, command, "2", "--db", db)
        assert (code, out, err) == (1, "", f"neveryu {command}: {why}\n")
    code, out, err = run(capsys, "replay", "--check", "--db", db)
    assert (code, out, err) == (1, "5 of 6 deals replay exactly; 1 does not\n", f"neveryu replay: {why}\n")


def test_replay_check_of_a_whole_database(db, capsys):
    assert run(capsys, "replay", "--check", "--db", db) == (0, "6 of 6 deals replay exactly\n", "")
    assert run(capsys, "replay", "4", "--check", "--db", db) == (0, "1 of 1 deal replays exactly\n", "")


def test_replay_needs_a_deal_or_check(db, capsys):
    code, _, err = run(capsys, "replay", "--db", db)
    assert code == 2 and err.startswith("neveryu replay: which deal?")


def test_serve_records_by_default_and_the_flags_change_it(tmp_path, monkeypatch):
    monkeypatch.setenv("NEVERYU_DATA_DIR", str(tmp_path / "data"))
    parser = build_parser()
    config = build_config(parser.parse_args(["serve"]))
    assert (config.db, config.record, config.records_path) == (
        str(tmp_path / "data" / "records.sqlite3"),
        True,
        str(default_db_path()),
    )
    config = build_config(parser.parse_args(["serve", "--db", str(tmp_path / "x.db")]))
    assert config.records_path == str(tmp_path / "x.db")
    assert build_config(parser.parse_args(["serve", "--no-record"])).records_path is None
    toml = tmp_path / "server.toml"
    toml.write_text(f'db = "{tmp_path / "y.db"}"\n', "utf-8")
    assert build_config(parser.parse_args(["serve", "--config", str(toml)])).records_path == str(
        tmp_path / "y.db"
    )
    toml.write_text("record = false\n[table]\nreveal_after_deal = true\n", "utf-8")
    config = build_config(parser.parse_args(["serve", "--config", str(toml)]))
    assert config.records_path is None and config.table.reveal_after_deal is True
    toml.write_text('record = "yes"\n', "utf-8")
    with pytest.raises(TypeError):
        build_config(parser.parse_args(["serve", "--config", str(toml)]))


def test_serve_names_the_history_command_that_lists_its_records(tmp_path, monkeypatch):
    monkeypatch.setenv("NEVERYU_DATA_DIR", str(tmp_path / "data"))
    assert history_command(default_db_path()) == "neveryu history"
    assert history_command(str(tmp_path / "data" / "." / "records.sqlite3")) == "neveryu history"
    assert history_command(str(tmp_path / "my games.db")) == f"neveryu history --db '{tmp_path}/my games.db'"
