"""The server over real TCP on 127.0.0.1 (real clock, short timeouts, fail_after deadlines).

Four bot clients play whole deals of every variant; every frame each one receives is checked
against the protocol's message classes and for cards the seat may not see; a client dropped
mid-turn resumes with the same seat and hand; ``neveryu bot`` plays a match over the wire.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import trio
from server_checks import check_frames

from neveryu import engine
from neveryu.client.botclient import BotPlayer, Client, ConnectionClosed, SeatTracker, ServerError
from neveryu.client.botseat import play_bot
from neveryu.server import ServerConfig, serve

HOST = "127.0.0.1"


def fast_config(db: str | None = None, **table: Any) -> ServerConfig:
    """Short times; ``db``: record the deals there (the ``records_db`` fixture replays them)."""
    settings = dict(
        turn_ms=5_000,
        challenge_window_ms=0,
        tie_window_ms=0,
        bot_delay_ms=0,
        deal_pause_ms=0,
        deals=1,
        grace_ms=10_000,
        close_ms=1_000,
    )
    settings.update(table)
    return ServerConfig(host=HOST, port=0, seed=None, db=db).evolve(table=settings)


# -- whole deals --------------------------------------------------------------------------------


async def seat_four(port: int, variant: str, players: int = 4, **create: Any) -> list[tuple[Client, dict]]:
    clients = [await Client.connect(HOST, port, f"p{i}", keep=True) for i in range(players)]
    joined = [await clients[0].request("create_table", variant=variant, seats=players, **create)]
    table = joined[0]["table"]["id"]
    for c in clients[1:]:
        joined.append(await c.request("join_table", table=table))
    assert [j["seat"] for j in joined] == list(range(players))
    return list(zip(clients, joined))


# Table seeds whose first deal is short with honest bots (engine.simulate, 4 seats), so the test
# stays quick; the deals still depend on which challenge reaches the server first.
SHORT_DEALS = {
    "verish": 52,
    "veryu": 23,
    "lozh": 2,
    "hoyle": 34,
    "hoyle-three": 18,
    "cheat": 1,
    "cheat-free": 58,
}


async def play_four(port: int, variant: str) -> None:
    seated = await seat_four(port, variant, seed=SHORT_DEALS[variant])
    players = [
        BotPlayer(client, joined["table"], joined["seat"], "honest", rng=random.Random(k))
        for k, (client, joined) in enumerate(seated)
    ]
    async with trio.open_nursery() as game:
        for p in players:
            game.start_soon(p.play, 1)
    rules = engine.variant(variant)
    for p in players:
        assert (p.deals, p.matches) == (1, 1), variant
        assert check_frames(p.client.received, p.seat, rules, 4) == 1, variant
        (ended,) = [m for m in p.client.received if m["t"] == "deal_ended"]
        assert (ended["loser"] is None) != (ended["winner"] is None)
        await p.client.aclose()


async def test_four_clients_play_a_whole_deal_of_every_variant(records_db):
    assert set(SHORT_DEALS) == set(engine.VARIANTS)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config(records_db))
            async with trio.open_nursery() as tables:  # one table per variant, all at once
                for variant in SHORT_DEALS:
                    tables.start_soon(play_four, port, variant)
            nursery.cancel_scope.cancel()


async def test_spectator_sees_no_hand(records_db):
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config(records_db, bot_delay_ms=0))
            owner = await Client.connect(HOST, port, "owner", keep=True)
            joined = await owner.request(
                "create_table", variant="cheat", seats=3, bots=["honest", "honest"], seed=33
            )
            watcher = await Client.connect(HOST, port, "watcher", keep=True)
            watched = await watcher.request("spectate", table=joined["table"]["id"])
            assert watched["seat"] is None
            player = BotPlayer(owner, joined["table"], 0, "honest", rng=random.Random(1))
            await player.play(1)
            while not any(m["t"] == "match_ended" for m in watcher.received):
                await watcher.next_event()
            assert check_frames(watcher.received, None, engine.variant("cheat"), 3) == 1
            assert [m["hand"] for m in watcher.received if m["t"] == "deal_started"] == [None]
            nursery.cancel_scope.cancel()


# -- resume -------------------------------------------------------------------------------------


async def wait_for_my_turn(client: Client, tracker: SeatTracker) -> None:
    while True:
        msg = await client.next_event()
        tracker.apply(msg)
        if msg["t"] == "legal" and msg["lay"] is not None:
            return


@pytest.mark.parametrize("replay", [512, 2], ids=["replayed", "snapshot"])
async def test_client_dropped_mid_turn_resumes_same_seat_and_hand(replay, records_db):
    config = fast_config(records_db, bot_delay_ms=0, turn_ms=30_000).evolve(limits={"replay": replay})
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            first = await Client.connect(HOST, port, "ann", keep=True)
            joined = await first.request(
                "create_table", variant="verish", seats=3, bots=["honest", "honest"], seed=15
            )
            seat = joined["seat"]
            rules = engine.variant("verish")
            tracker = SeatTracker(seat, rules, 3)
            await first.request("ready", ready=True)
            await first.request("start")
            await wait_for_my_turn(first, tracker)
            hand = sorted(tracker.view().hand or ())
            token, last_seq = first.token, first.last_seq
            await first.aclose()  # dropped mid-turn

            # It comes back having kept nothing but its token (last_seq 0): the server replays
            # every event it kept, or, when it no longer keeps them all, sends a snapshot.
            second = await Client.connect(HOST, port, "ann", resume=(token, 0), keep=True)
            assert second.welcome["resumed"] is True
            assert second.welcome["seat"] == seat
            assert second.welcome["table"]["id"] == joined["table"]["id"]
            tracker = SeatTracker(seat, rules, 3)
            while True:
                msg = await second.next_event()
                tracker.apply(msg)
                if msg["t"] == "state" or (replay != 2 and msg["seq"] >= last_seq):
                    break
            kinds = {m["t"] for m in second.received}
            if replay == 2:  # too much was missed for the buffer: a fresh snapshot
                assert "state" in kinds and "deal_started" not in kinds
                assert msg["seat"] == seat and msg["legal"]["lay"] is not None
            else:
                assert "deal_started" in kinds and "state" not in kinds
            # Nothing happened while it was away: it is still its turn, with the same hand.
            assert sorted(tracker.view().hand or ()) == hand
            assert tracker.view().turn == seat
            assert tracker.legal.lay is not None
            player = BotPlayer(second, joined["table"], seat, "honest", rng=random.Random(3), start=False)
            player.tracker = tracker
            await player._move()  # it may act at once
            assert player.errors == Counter()
            await player.play(1)
            assert check_frames(second.received, seat, rules, 3) == (0 if replay == 2 else 1)
            nursery.cancel_scope.cancel()


async def test_second_connection_with_the_same_token_replaces_the_first():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config())
            first = await Client.connect(HOST, port, "ann", keep=True)
            second = await Client.connect(HOST, port, "ann", resume=(first.token, first.last_seq))
            assert second.welcome["session"] == first.token
            with pytest.raises(ConnectionClosed):
                while True:
                    await first.next_event()
            assert first.bye is not None and first.bye["reason"] == "replaced"
            assert (await second.request("ping"))["t"] == "pong"
            nursery.cancel_scope.cancel()


async def test_unknown_token_is_refused():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config())
            with pytest.raises(ServerError) as caught:
                await Client.connect(HOST, port, "eve", resume=("no-such-token", 0))
            assert caught.value.code == "BAD_RESUME" and caught.value.fatal
            nursery.cancel_scope.cancel()


# -- the bot command ---------------------------------------------------------------------------------


async def test_bot_command_plays_a_match_over_tcp(records_db):
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config(records_db))
            results: list[BotPlayer] = []

            async def bot(**kw: Any) -> None:
                results.append(await play_bot(HOST, port, matches=1, **kw))

            nursery.start_soon(lambda: bot(name="a", seed=1))
            lobby = await Client.connect(HOST, port, "lobby")
            while not (tables := (await lobby.request("list_tables"))["tables"]):
                await trio.sleep(0.01)
            table = tables[0]["id"]
            async with trio.open_nursery() as more:
                for name in ("b", "c", "d"):
                    more.start_soon(lambda n=name: bot(name=n, table=table, seed=2))
            while len(results) < 4:
                await trio.sleep(0.01)
            assert sorted(p.matches for p in results) == [1, 1, 1, 1]
            assert all(p.deals == 1 for p in results)
            nursery.cancel_scope.cancel()


async def test_shutdown_says_bye_to_every_client():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            stop = trio.CancelScope()

            async def run_server(task_status=trio.TASK_STATUS_IGNORED):
                with stop:
                    await serve(fast_config(), task_status=task_status)

            port = await nursery.start(run_server)
            clients = [await Client.connect(HOST, port, f"p{i}") for i in range(3)]
            stop.cancel()
            for c in clients:
                with pytest.raises(ConnectionClosed):
                    while True:
                        await c.next_event()
                assert c.bye is not None and c.bye["reason"] == "shutdown"


async def test_neveryu_bot_command_fills_a_free_seat(records_db):
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, fast_config(records_db))
            owner = await Client.connect(HOST, port, "owner")
            joined = await owner.request("create_table", variant="verish", seats=3, bots=["honest"], seed=15)
            command = [
                sys.executable,
                "-m",
                "neveryu.client.cli",
                "bot",
                "--host",
                HOST,
                "--port",
                str(port),
                "--table",
                str(joined["table"]["id"]),
                "--matches",
                "1",
                "--delay-ms",
                "0",
                "--seed",
                "4",
                "--log-level",
                "warning",
            ]
            done: list[trio.Process] = []

            async def run_bot() -> None:
                done.append(
                    await trio.run_process(
                        command, cwd=root, capture_stdout=True, capture_stderr=True, check=False
                    )
                )

            nursery.start_soon(run_bot)
            player = BotPlayer(owner, joined["table"], 0, "honest", rng=random.Random(2))
            await player.play(1)
            while not done:
                await trio.sleep(0.02)
            assert done[0].returncode == 0, done[0].stderr.decode()[-2000:]
            assert b"played 1 deal in 1 match" in done[0].stdout
            nursery.cancel_scope.cancel()


async def next_of(client: Client, t: str) -> dict:
    """The next event of type ``t`` the client receives (others before it are skipped)."""
    while True:
        event = await client.next_event()
        if event["t"] == t:
            return event


async def test_a_set_after_a_far_challenge_waits_and_the_nearer_tie_challenge_wins():
    """docs/RULES.md, "Timing rules", over TCP: after the challenge window has closed, a far seat
    challenges, the next player's set comes a moment later (refused: CHALLENGE_PENDING), and a
    nearer seat challenges within the tie window of the first: the nearer seat wins the tie."""
    config = fast_config(challenge_window_ms=50, tie_window_ms=600, turn_ms=0)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            seated = await seat_four(port, "hoyle", seed=5)
            clients = [c for c, _ in seated]
            for c in clients:
                await c.request("ready", ready=True)
            await clients[0].request("start")
            hands = [(await next_of(c, "deal_started"))["hand"] for c in clients]
            turn = await next_of(clients[0], "turn")
            claimant = turn["seat"]
            layer, near, far = ((claimant + k) % 4 for k in (1, 2, 3))
            legal = await next_of(clients[claimant], "legal")
            await clients[claimant].request("lay", cards=[hands[claimant][0]], rank=legal["lay"]["ranks"][0])
            await next_of(clients[far], "window_closed")
            assert (await clients[far].request("challenge", set_no=1))["t"] == "ok"
            with pytest.raises(ServerError) as refused:
                await clients[layer].request("lay", cards=[hands[layer][0]], rank="K")
            assert refused.value.code == "CHALLENGE_PENDING"
            assert (await clients[near].request("challenge", set_no=1))["t"] == "ok"
            challenged = await next_of(clients[layer], "challenged")
            assert (challenged["seat"], challenged["tied"]) == (near, [far])
            nursery.cancel_scope.cancel()
