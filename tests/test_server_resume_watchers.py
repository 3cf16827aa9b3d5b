"""Sessions without a seat outlive their connection too (docs/PROTOCOL.md §4): a spectator and
a player in the lobby come back with their token, each to where it was (the table it watched,
the lobby), over TCP on 127.0.0.1.

A resumed spectator is checked on the bytes: every frame it receives, the replayed ones
included, is a valid message and names no card a spectator may not see.
"""

from __future__ import annotations

import random

import trio
from server_checks import check_frames
from test_server_tcp import HOST, fast_config

from neveryu import engine
from neveryu.client.botclient import BotPlayer, Client
from neveryu.server import serve


async def test_a_spectator_dropped_mid_deal_resumes_watching_and_sees_no_hand(records_db):
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config(records_db, bot_delay_ms=0))
            owner = await Client.connect(HOST, port, "owner", keep=True)
            joined = await owner.request(
                "create_table", variant="cheat", seats=3, bots=["honest", "honest"], seed=33
            )
            table = joined["table"]["id"]
            first = await Client.connect(HOST, port, "watcher", keep=True)
            assert (await first.request("spectate", table=table))["seat"] is None
            player = BotPlayer(owner, joined["table"], 0, "honest", rng=random.Random(1))
            nursery.start_soon(player.play, 1)
            while not any(m["t"] == "set_laid" for m in first.received):
                await first.next_event()
            token = first.token
            await first.aclose()  # dropped mid-deal

            # It comes back having kept nothing but its token: every kept event is replayed.
            second = await Client.connect(HOST, port, "watcher", resume=(token, 0), keep=True)
            assert second.welcome["resumed"] is True
            assert second.welcome["table"]["id"] == table
            assert second.welcome["seat"] is None
            while not any(m["t"] == "match_ended" for m in second.received):
                await second.next_event()
            assert check_frames(second.received, None, engine.variant("cheat"), 3) == 1
            assert [m["hand"] for m in second.received if m["t"] == "deal_started"] == [None]
            nursery.cancel_scope.cancel()


async def test_a_player_dropped_in_the_lobby_resumes_in_the_lobby():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config())
            first = await Client.connect(HOST, port, "ann", keep=True)
            token, last_seq = first.token, first.last_seq
            await first.aclose()
            second = await Client.connect(HOST, port, "ann", resume=(token, last_seq), keep=True)
            assert second.welcome["resumed"] is True
            assert second.welcome["session"] == token
            assert second.welcome["table"] is None and second.welcome["seat"] is None
            assert (await second.request("list_tables"))["t"] == "tables"
            nursery.cancel_scope.cancel()


async def test_the_others_see_a_dropped_player_absent_until_he_resumes():
    """A drop is told at once (the seat's ``absent``, docs/PROTOCOL.md "Resume"), and so is the
    resume, within the grace time: his seat waits, nothing else changes."""

    async def told(client: Client, seat: int, absent: bool) -> None:
        """Wait for the ``table_update`` that shows ``seat`` as ``absent``."""
        while True:
            m = await client.next_event()
            if m["t"] == "table_update" and m["table"]["seats"][seat]["absent"] is absent:
                return

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config())
            ann = await Client.connect(HOST, port, "ann", keep=True)
            table = (await ann.request("create_table", variant="verish", seats=3, bots=[None]))["table"]["id"]
            bob = await Client.connect(HOST, port, "bob", keep=True)
            joined = await bob.request("join_table", table=table)
            seat = joined["seat"]
            assert joined["table"]["seats"][seat]["absent"] is False
            token, last_seq = bob.token, bob.last_seq
            await bob.aclose()
            await told(ann, seat, True)
            back = await Client.connect(HOST, port, "bob", resume=(token, last_seq), keep=True)
            assert back.welcome["seat"] == seat
            await told(ann, seat, False)
            assert [m["t"] for m in ann.received if m["t"] == "player_left"] == []  # (his seat waited)
            nursery.cancel_scope.cancel()
