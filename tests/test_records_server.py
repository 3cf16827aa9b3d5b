"""A server keeps a record of every deal that ends, and serves them over the network
(``list_records``, ``get_record``): real server on 127.0.0.1 port 0, a real database in a
temporary folder, clients reading the frames as they arrive.

What a record served to a player holds is checked against what that player was sent at the table:
another seat's set shows its cards only if a ``set_revealed`` the player received showed them;
no session's hash ever leaves the server.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import trio
from records_checks import VALIDATOR, check_database
from server_checks import check_frames

from neveryu import engine
from neveryu.client.botclient import BotPlayer, Client, ServerError
from neveryu.server import Server, ServerConfig, connect_records, load_deal, record_json
from neveryu.server._session import token_key
from neveryu.server.records.replay import replay

HOST = "127.0.0.1"


def config(db: str | None, **table: Any) -> ServerConfig:
    times = dict(turn_ms=5_000, challenge_window_ms=0, tie_window_ms=0, bot_delay_ms=0, deal_pause_ms=0)
    return ServerConfig(host=HOST, port=0, db=db).evolve(table={**times, **table})


async def play_match(port: int, name: str, variant: str, deals: int, **create: Any) -> Client:
    """``name`` makes a table of ``variant`` with three bots and plays a match of ``deals``
    deals at seat 0 (an honest bot plays for it); returns its client."""
    client = await Client.connect(HOST, port, name, keep=True)
    joined = await client.request(
        "create_table", variant=variant, seats=4, bots=["sharp"] * 3, deals=deals, **create
    )
    await BotPlayer(client, joined["table"], 0, "honest", rng=random.Random(7)).play(1)
    return client


def revealed_sets(received: list[dict[str, Any]], deal_no: int) -> list[tuple[str, ...]]:
    """The cards of every set revealed to a client in deal ``deal_no`` of its match."""
    out, current = [], 0
    for m in received:
        if m["t"] == "deal_started":
            current = m["deal_no"]
        elif m["t"] == "set_revealed" and current == deal_no:
            out.append(tuple(m["cards"]))
    return out


@pytest.mark.parametrize("variant", ["verish", "veryu", "cheat"])
async def test_a_player_fetches_his_deals_as_he_saw_them(records_db, variant):
    server = Server(config(records_db))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            ann = await play_match(port, "ann", variant, 2, seed=4)
            assert ann.welcome["records"] is True
            assert await trio.to_thread.run_sync(server.records.flush)
            mine = (await ann.request("list_records", mine=True))["records"]
            assert [(r["deal_no"], r["seat"], r["variant"]) for r in mine] == [
                (2, 0, variant),
                (1, 0, variant),
            ]
            key = token_key(ann.token)
            for summary in mine:
                reply = await ann.request("get_record", deal=summary["id"])
                doc = reply["record"]
                VALIDATOR.validate(doc)
                assert doc["view"] == 0 and doc["id"] == summary["id"]
                assert key not in json.dumps(reply)  # no session hash leaves the server
                shown = revealed_sets(ann.received, doc["deal_no"])
                hidden = 0
                for action in doc["actions"]:
                    made = action.get("action", action)
                    if made["t"] != "lay" or made["seat"] == 0:
                        continue
                    if made["cards"] is None:
                        hidden += 1
                    else:  # another seat's cards: only a set this player saw revealed
                        assert tuple(made["cards"]) in shown
                assert hidden > 0  # every deal had sets nobody revealed
                ended = next(
                    m for m in ann.received if m["t"] == "deal_ended" and m["deal_no"] == doc["deal_no"]
                )
                assert (doc["deck"], doc["fair"]["salt"]) == (ended["deck"], ended["salt"])
            nursery.cancel_scope.cancel()
    records = check_database(records_db)
    assert [(r.deal_no, r.seats[0].session) for r in records] == [(1, key), (2, key)]
    assert all(s.session is None for r in records for s in r.seats[1:])  # bots hold no session


async def test_reveal_after_deal_gives_the_whole_record(records_db):
    server = Server(config(records_db))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            ann = await play_match(port, "ann", "hoyle", 1, seed=9, reveal_after_deal=True)
            joined = next(m for m in ann.received if m["t"] == "table_joined")
            assert joined["table"]["reveal_after_deal"] is True
            assert await trio.to_thread.run_sync(server.records.flush)
            (summary,) = (await ann.request("list_records", mine=True))["records"]
            doc = (await ann.request("get_record", deal=summary["id"]))["record"]
            nursery.cancel_scope.cancel()
    conn = connect_records(records_db)
    record = load_deal(conn, summary["id"])
    conn.close()
    assert doc["view"] is None
    assert doc == json.loads(json.dumps(record_json(record, replay(record))))
    assert all(a.get("action", a).get("cards", ()) is not None for a in doc["actions"])


async def test_the_record_keeps_the_draw_for_the_first_dealer(records_db):
    """``lozh`` draws for its first dealer (``dealer_drawn``, sent before the fair deal's
    ``seed_committed``): the record of that deal holds the same draw and dealer (RECORDS.md,
    ``draws``), so a reader can check who dealt; the next deal, dealt by the loser, has none."""
    server = Server(config(records_db))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            ann = await play_match(port, "ann", "lozh", 2, reveal_after_deal=True)
            assert await trio.to_thread.run_sync(server.records.flush)
            summaries = (await ann.request("list_records", mine=True))["records"]
            docs = [(await ann.request("get_record", deal=s["id"]))["record"] for s in summaries]
            nursery.cancel_scope.cancel()
    (drawn,) = [m for m in ann.received if m["t"] == "dealer_drawn"]
    first, second = sorted(docs, key=lambda d: d["deal_no"])
    assert (first["draws"], first["dealer"]) == (drawn["draws"], drawn["dealer"])
    assert second["draws"] is None
    assert second["dealer"] == first["result"]["loser"]


async def test_another_session_with_the_same_name_gets_none_of_his_records(records_db):
    server = Server(config(records_db))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            ann = await play_match(port, "ann", "lozh", 1, seed=3)
            assert await trio.to_thread.run_sync(server.records.flush)
            other = await Client.connect(HOST, port, "ann", keep=True)
            assert (await other.request("list_records", mine=True))["records"] == []
            (summary,) = (await other.request("list_records"))["records"]  # the server's last deals
            assert summary["seat"] is None
            assert [s["name"] for s in summary["seats"]] == ["ann", "bot 2", "bot 3", "bot 4"]
            with pytest.raises(ServerError) as caught:
                await other.request("get_record", deal=summary["id"])
            assert (caught.value.code, caught.value.fatal) == ("NO_SUCH_RECORD", False)
            assert caught.value.reply["msg"] == f"you played no deal {summary['id']} here"
            with pytest.raises(ServerError) as caught:
                await ann.request("get_record", deal=summary["id"] + 1)
            assert caught.value.code == "NO_SUCH_RECORD"
            nursery.cancel_scope.cancel()


async def test_records_requests_are_answered_in_order(records_db):
    server = Server(config(records_db))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            client = await Client.connect(HOST, port, "bob", keep=True)
            first = await client.send_request("list_records")
            second = await client.send_request("ping")
            third = await client.send_request("list_records", mine=True, limit=5)
            await client.reply_to(third)
            replies = [m for m in client.received if "re" in m and m["re"] in (first, second, third)]
            assert [(m["re"], m["t"]) for m in replies] == [
                (first, "records"),
                (second, "pong"),
                (third, "records"),
            ]
            nursery.cancel_scope.cancel()


async def test_a_server_without_records_says_so():
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Server(config(None)).run)
            client = await Client.connect(HOST, port, "bob", keep=True)
            assert client.welcome["records"] is False
            for t, fields in (("list_records", {}), ("get_record", {"deal": 1})):
                with pytest.raises(ServerError) as caught:
                    await client.request(t, **fields)
                assert (caught.value.code, caught.value.fatal) == ("RECORDS_OFF", False)
            nursery.cancel_scope.cancel()


async def test_the_recorded_times_follow_the_deal(records_db):
    """A human who waits: the seat's actions come later than the bots' (bot_delay_ms 0), and
    every offset is counted from the deal's start, in order."""
    server = Server(config(records_db, bot_delay_ms=20))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            await play_match(port, "ann", "verish", 1, seed=2)
            nursery.cancel_scope.cancel()
    (record,) = check_database(records_db)
    times = [ms for ms, _ in record.actions]
    assert times == sorted(times)
    bots = [ms for ms, a in record.actions if getattr(a, "seat", 0) != 0]
    assert len(bots) > 3 and min(b - a for a, b in zip([0, *times], times)) >= 0
    assert times[-1] >= 20 * len(bots) // 2  # the bots' delays are in it
    assert record.ended_ms - record.started_ms >= times[-1]
    assert record.variant == "verish" and record.rules == engine.variant("verish")


async def test_a_spectator_of_a_table_that_reveals_gets_no_record(records_db):
    """``reveal_after_deal`` opens the whole record to the table's players only: a spectator who
    watched the deal has none (``NO_SUCH_RECORD``), and was sent no card of any hand."""
    server = Server(config(records_db))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            ann = await Client.connect(HOST, port, "ann", keep=True)
            joined = await ann.request(
                "create_table",
                variant="hoyle",
                seats=4,
                bots=["sharp"] * 3,
                deals=1,
                seed=9,
                reveal_after_deal=True,
            )
            spy = await Client.connect(HOST, port, "spy", keep=True)
            await spy.request("spectate", table=joined["table"]["id"])
            await BotPlayer(ann, joined["table"], 0, "honest", rng=random.Random(7)).play(1)
            assert await trio.to_thread.run_sync(server.records.flush)
            (summary,) = (await ann.request("list_records", mine=True))["records"]
            assert (await ann.request("get_record", deal=summary["id"]))["record"]["view"] is None
            assert (await spy.request("list_records", mine=True))["records"] == []
            with pytest.raises(ServerError) as caught:
                await spy.request("get_record", deal=summary["id"])
            assert (caught.value.code, caught.value.fatal) == ("NO_SUCH_RECORD", False)
            nursery.cancel_scope.cancel()
    assert check_frames(spy.received, None, engine.variant("hoyle"), 4) == 1
