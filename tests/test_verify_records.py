"""``neveryu verify`` on recorded deals (docs/PROTOCOL.md, 9.7, "Checking a recorded deal"), given
either a deal's id in the records' database (``--db``; the default database otherwise) or a deal's
record in the hand-history format (``neveryu export``, ``get_record``). A real server on 127.0.0.1
records fair-deal-2 deals into a real database in a temporary folder; a copy with one deck changed
is caught."""

from __future__ import annotations

import json
import sqlite3

import trio
from test_records_server import config, play_match

from neveryu.client import cli
from neveryu.server import Server


async def recorded(records_db: str, **create: object) -> tuple[list[dict], list[dict]]:
    """Ann plays a match of two ``verish`` deals with three bots; returns her deals' summaries
    and their records as she may fetch them."""
    server = Server(config(records_db))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            ann = await play_match(port, "ann", "verish", 2, **create)
            assert await trio.to_thread.run_sync(server.records.flush)
            mine = (await ann.request("list_records", mine=True))["records"]
            docs = [(await ann.request("get_record", deal=r["id"]))["record"] for r in mine]
            nursery.cancel_scope.cancel()
    return mine, docs


def run(capsys, *argv: str) -> tuple[int, list[str], str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


CHECKED = "fair deal 2: the deck is the one the server's committed seed and the contributions make"


async def test_verify_a_deal_by_its_id_in_the_records(records_db, tmp_path, capsys):
    mine, _ = await recorded(records_db)
    first, second = sorted(r["id"] for r in mine)
    assert run(capsys, "verify", str(first), "--db", records_db) == (
        0,
        [f"record {first} (deal 1 of its match): {CHECKED}"],
        "",
    )
    code, out, _ = run(capsys, "verify", str(second), "--db", records_db, "--json")
    assert (code, [json.loads(line) for line in out]) == (
        0,
        [{"deal_no": 2, "status": "checked", "problems": [], "id": second}],
    )
    # a copy of the database whose first deal's deck was changed afterwards
    copy = tmp_path / "changed.sqlite3"
    with sqlite3.connect(records_db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    with sqlite3.connect(copy) as conn:
        (deck,) = conn.execute("SELECT deck FROM deals WHERE id = ?", (first,)).fetchone()
        cards = deck.split(",")
        cards[0], cards[-1] = cards[-1], cards[0]
        conn.execute("UPDATE deals SET deck = ? WHERE id = ?", (",".join(cards), first))
    code, out, _ = run(capsys, "verify", str(first), "--db", str(copy))
    assert code == 1 and out == [
        f"record {first} (deal 1 of its match): FAILED: the deck disclosed is not the one committed"
        " to at the deal's start (SHA-256 of salt:deck); the deck is not the one the seed and the"
        " contributions make"
    ]
    code, _, err = run(capsys, "verify", "999", "--db", records_db)
    assert code == 2 and err == f"neveryu verify: there is no deal 999 in {records_db}\n"


async def test_verify_a_record_fetched_over_the_network(records_db, tmp_path, capsys):
    mine, docs = await recorded(records_db)
    for summary, doc in zip(mine, docs):
        assert doc["view"] == 0  # as ann saw it: the deck and the fair deal's fields are there
        path = tmp_path / f"deal{summary['id']}.json"
        path.write_text(json.dumps(doc))
        assert run(capsys, "verify", str(path)) == (
            0,
            [f"record {summary['id']} (deal {summary['deal_no']} of its match): {CHECKED}"],
            "",
        )


def test_verify_a_missing_database_is_one_line(tmp_path, capsys):
    code, out, err = run(capsys, "verify", "3", "--db", str(tmp_path / "none.sqlite3"))
    assert code == 2 and out == [] and err.startswith("neveryu verify: ") and err.count("\n") == 1
