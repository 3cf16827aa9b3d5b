"""Players over the network (docs/PROTOCOL.md, "Players, statistics and ratings"): a real server
on 127.0.0.1 port 0 with a real database in a temporary folder; clients that send a player key
in ``hello`` (or none: guests); ``player_stats`` and ``leaderboard``, and the bytes they put on
the wire, which hold no card."""

from __future__ import annotations

import random
import struct
from typing import Any

import msgpack
import pytest
import trio
from server_checks import cards_on_wire

from neveryu import engine, protocol
from neveryu.client.botclient import BotPlayer, Client, ServerError
from neveryu.server import Server, ServerConfig
from neveryu.server.records.players import key_hash

HOST = "127.0.0.1"
KEY_ANN = "ann-" + "Q" * 40
KEY_FORGED = "ann-" + "R" * 40


def config(db: str | None) -> ServerConfig:
    times = dict(turn_ms=5_000, challenge_window_ms=0, tie_window_ms=0, bot_delay_ms=0, deal_pause_ms=0)
    return ServerConfig(host=HOST, port=0, db=db).evolve(table=times)


async def play_match(
    port: int, name: str, key: str | None, variant: str = "verish", deals: int = 1, seed: int = 4
) -> Client:
    """``name`` (player key ``key``) makes a table of ``variant`` with three sharp bots and plays
    a match of ``deals`` deals at seat 0 (an honest bot plays for him); returns his client."""
    client = await Client.connect(HOST, port, name, keep=True, player_key=key)
    joined = await client.request(
        "create_table", variant=variant, seats=4, bots=["sharp"] * 3, deals=deals, seed=seed
    )
    await BotPlayer(client, joined["table"], 0, "honest", rng=random.Random(seed)).play(1)
    return client


async def test_a_players_id_survives_a_restart_and_a_change_of_name(records_db):
    tag = key_hash(KEY_ANN)[:4]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            server = Server(config(records_db))
            port = await nursery.start(server.run)
            ann = await play_match(port, "ann", KEY_ANN)
            assert ann.welcome["player"] == {"tag": tag}
            joined = next(m for m in ann.received if m["t"] == "table_joined")
            assert joined["table"]["seats"][0]["tag"] == tag
            assert all("tag" not in s for s in joined["table"]["seats"][1:])  # bots have none
            assert await trio.to_thread.run_sync(server.records.flush)
            (me,) = (await ann.request("player_stats"))["players"]
            assert me["player"] == {"id": me["player"]["id"], "name": "ann", "tag": tag, "kind": "person"}
            assert [(v["variant"], v["deals"]) for v in me["variants"]] == [("verish", 1)]
            first_deal = (await ann.request("list_records", mine=True))["records"][0]["id"]
            nursery.cancel_scope.cancel()
        async with trio.open_nursery() as nursery:  # the server again, on the same file
            server = Server(config(records_db))
            port = await nursery.start(server.run)
            anya = await play_match(port, "anya", KEY_ANN, seed=5)
            assert await trio.to_thread.run_sync(server.records.flush)
            (again,) = (await anya.request("player_stats", variant="verish"))["players"]
            assert again["player"] == {**me["player"], "name": "anya"}  # the same id, the new name
            assert [(v["variant"], v["deals"]) for v in again["variants"]] == [("verish", 2)]
            assert again["variants"][0]["rating"]["deals"] == 2
            # the deals he played follow his key into his new session
            mine = (await anya.request("list_records", mine=True))["records"]
            assert [r["seat"] for r in mine] == [0, 0] and mine[-1]["id"] == first_deal
            record = (await anya.request("get_record", deal=first_deal))["record"]
            assert record["view"] == 0 and record["seats"][0]["player"] == me["player"]["id"]
            nursery.cancel_scope.cancel()


async def test_a_forged_key_is_another_player_and_gets_none_of_his_deals(records_db):
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            server = Server(config(records_db))
            port = await nursery.start(server.run)
            ann = await play_match(port, "ann", KEY_ANN)
            assert await trio.to_thread.run_sync(server.records.flush)
            (deal,) = (await ann.request("list_records", mine=True))["records"]
            forger = await Client.connect(HOST, port, "ann", keep=True, player_key=KEY_FORGED)
            assert forger.welcome["player"]["tag"] == key_hash(KEY_FORGED)[:4] != key_hash(KEY_ANN)[:4]
            assert (await forger.request("player_stats"))["players"] == []  # no deal of his yet
            assert (await forger.request("list_records", mine=True))["records"] == []
            with pytest.raises(ServerError) as caught:
                await forger.request("get_record", deal=deal["id"])
            assert caught.value.code == "NO_SUCH_RECORD"
            await forger.aclose()
            await play_match(port, "ann", KEY_FORGED, seed=6)
            assert await trio.to_thread.run_sync(server.records.flush)
            both = (await ann.request("player_stats", name="ann"))["players"]
            assert sorted((p["player"]["tag"], p["variants"][0]["deals"]) for p in both) == sorted(
                [(key_hash(KEY_ANN)[:4], 1), (key_hash(KEY_FORGED)[:4], 1)]
            )
            assert len({p["player"]["id"] for p in both}) == 2
            nursery.cancel_scope.cancel()


async def test_a_guest_has_statistics_but_no_place_on_the_leaderboard(records_db):
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            server = Server(config(records_db))
            port = await nursery.start(server.run)
            bob = await play_match(port, "bob", None, variant="veryu", deals=2)
            assert bob.welcome["player"] == {"tag": None}
            assert await trio.to_thread.run_sync(server.records.flush)
            (me,) = (await bob.request("player_stats"))["players"]
            assert (me["player"]["kind"], me["player"]["tag"]) == ("guest", None)
            (veryu,) = me["variants"]
            assert veryu["deals"] == 2 and veryu["rating"]["rank"] is None
            board = await bob.request("leaderboard", variant="veryu")
            assert board["total"] == 1  # the sharp bots, one player
            (sharp,) = board["players"]
            assert sharp["player"] == {
                "id": sharp["player"]["id"],
                "name": "sharp",
                "tag": None,
                "kind": "bot",
            }
            assert (sharp["rating"]["deals"], sharp["rating"]["rank"]) == (2, 1)
            rating = sharp["rating"]
            # (each rounded from the exact values to hundredths: at most 1 apart)
            assert abs(rating["low"] - (rating["mu"] - 2 * rating["sigma"])) <= 1
            assert abs(rating["high"] - (rating["mu"] + 2 * rating["sigma"])) <= 1
            by_id = await bob.request("player_stats", player=sharp["player"]["id"])
            assert by_id["players"][0]["variants"][0]["seats"] == 6  # three seats a deal
            nursery.cancel_scope.cancel()


async def test_player_requests_refuse_what_they_cannot_answer(records_db):
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Server(config(records_db)).run)
            client = await Client.connect(HOST, port, "bob", keep=True, player_key=KEY_ANN)
            for t, fields, code in (
                ("player_stats", {"player": 99}, "NO_SUCH_PLAYER"),
                ("player_stats", {"variant": "poker"}, "BAD_OPTION"),
                ("leaderboard", {"variant": "poker"}, "BAD_OPTION"),
            ):
                with pytest.raises(ServerError) as caught:
                    await client.request(t, **fields)
                assert (caught.value.code, caught.value.fatal) == (code, False)
            assert await client.request("leaderboard", variant="hoyle") == {
                "t": "leaderboard",
                "re": client._ids,
                "variant": "hoyle",
                "total": 0,
                "players": [],
            }
            nursery.cancel_scope.cancel()
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Server(config(None)).run)
            client = await Client.connect(HOST, port, "bob", keep=True, player_key=KEY_ANN)
            for t, fields in (("player_stats", {}), ("leaderboard", {"variant": "verish"})):
                with pytest.raises(ServerError) as caught:
                    await client.request(t, **fields)
                assert caught.value.code == "RECORDS_OFF"
            nursery.cancel_scope.cancel()


async def test_a_bad_player_key_costs_only_that_connection(records_db):
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Server(config(records_db)).run)
            for bad in ("short", "x" * 129, "has spaces in it and is long enough to pass"):
                with pytest.raises(ServerError) as caught:
                    await Client.connect(HOST, port, "bob", player_key=bad)
                assert (caught.value.code, caught.value.fatal) == ("BAD_MESSAGE", True)
            ok = await Client.connect(HOST, port, "bob", player_key=KEY_ANN)
            assert (await ok.request("ping"))["t"] == "pong"
            nursery.cancel_scope.cancel()


# -- the bytes ----------------------------------------------------------------------------------------


async def raw_replies(port: int, requests: list[dict[str, Any]]) -> list[bytes]:
    """The raw frame bodies the server sends in answer to ``hello`` and then ``requests``, in
    order (one reply each), read off the socket as they come."""
    stream = await trio.open_tcp_stream(HOST, port)
    hello = {
        "t": "hello",
        "id": 0,
        "proto": [1, 1],
        "client": {"name": "raw", "version": "1"},
        "name": "eve",
        "player_key": "eve-" + "E" * 40,
    }
    bodies: list[bytes] = []
    buffer = b""
    for i, req in enumerate([hello, *requests]):
        await stream.send_all(protocol.encode_frame({**req, "id": i}))
        while True:
            while len(buffer) >= 4 and len(buffer) >= 4 + struct.unpack(">I", buffer[:4])[0]:
                (n,) = struct.unpack(">I", buffer[:4])
                body, buffer = buffer[4 : 4 + n], buffer[4 + n :]
                bodies.append(body)
                if msgpack.unpackb(body).get("re") == i:
                    break
            else:
                buffer += await stream.receive_some(65536)
                continue
            break
    await stream.aclose()
    return bodies


async def test_statistics_and_leaderboards_hold_no_card_on_the_wire(records_db):
    every_card = set(engine.new_deck("2x52"))
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            server = Server(config(records_db))
            port = await nursery.start(server.run)
            for variant, seed in (("verish", 1), ("cheat", 2), ("hoyle", 3)):
                await play_match(port, "ann", KEY_ANN, variant=variant, deals=2, seed=seed)
            assert await trio.to_thread.run_sync(server.records.flush)
            requests: list[dict[str, Any]] = [
                {"t": "player_stats", "name": n} for n in ("ann", "sharp", "honest")
            ]
            requests += [{"t": "player_stats", "player": i} for i in (1, 2)]
            requests += [{"t": "leaderboard", "variant": v, "limit": 100} for v in engine.VARIANTS]
            bodies = await raw_replies(port, requests)
            nursery.cancel_scope.cancel()
    replies = [msgpack.unpackb(b) for b in bodies]
    answered = [r for r in replies if r["t"] in ("player_stats", "leaderboard")]
    assert len(answered) == len(requests)
    # ann and the sharp bots (one player): by name, by id, on three leaderboards; nobody "honest"
    boards = [2 if v in ("verish", "cheat", "hoyle") else 0 for v in engine.VARIANTS]
    assert [len(r["players"]) for r in answered] == [1, 1, 0, 1, 1, *boards]
    for body, reply in zip(bodies, replies):
        if reply["t"] not in ("player_stats", "leaderboard"):
            continue
        assert cards_on_wire(body, set(every_card)) == [], reply  # no card in any string
        protocol.REPLIES[reply["t"]].from_wire(reply)
