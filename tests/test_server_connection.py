"""The connection layer on MockClock, in-process over socket pairs (served as TCP connections
are): the handshake time, heartbeats and the idle drop happen at exactly the configured times; a
client that stops reading is dropped at its outbox's bound; and a whole table (three challenges
in the tie window) driven through the wire."""

from __future__ import annotations

from typing import Any

import server_pairs
import trio
import trio.testing

from neveryu import protocol
from neveryu.client.botclient import Client
from neveryu.server import Server, ServerConfig

CONFIG = ServerConfig(port=0).evolve(
    limits={"handshake_ms": 2_000, "heartbeat_ms": 1_000, "idle_ms": 3_500},
    table={"challenge_window_ms": 1_000, "tie_window_ms": 200, "turn_ms": 0, "bot_delay_ms": 0},
)


async def connect(nursery: trio.Nursery, server: Server) -> trio.abc.Stream:
    return await server_pairs.connect(nursery, server)


async def hello(nursery: trio.Nursery, server: Server, name: str) -> Client:
    client = Client(await connect(nursery, server), keep=True)
    client.welcome = await client.request(
        "hello", proto=[1, 1], client={"name": "test", "version": "0"}, name=name
    )
    client.heartbeat_s = client.welcome["heartbeat_ms"] / 1000
    return client


async def timed_messages(client: Client) -> list[tuple[float, dict[str, Any]]]:
    """Every message until the server closes, with the (mock) time it arrived."""
    out = []
    try:
        while True:
            msg = await client._receive_one()
            out.append((trio.current_time(), msg))
    except Exception:
        return out


async def test_heartbeats_then_idle_bye_at_the_configured_times(nursery, autojump_clock, records_db):
    server = await server_pairs.started(nursery, CONFIG, records_db)
    client = await hello(nursery, server, "quiet")
    start = trio.current_time()
    got = await timed_messages(client)
    kinds = [(round(t - start, 3), m["t"]) for t, m in got]
    assert kinds == [(1.0, "heartbeat"), (2.0, "heartbeat"), (3.0, "heartbeat"), (3.5, "bye")]
    assert got[-1][1]["reason"] == "idle"
    seqs = [m["seq"] for _, m in got]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


async def test_no_hello_in_time_gets_hello_timeout(nursery, autojump_clock):
    server = Server(CONFIG)
    stream = await connect(nursery, server)
    start = trio.current_time()
    wire = protocol.Connection("client")
    while data := await stream.receive_some(65_536):
        wire.receive_data(data)
    msg = wire.next_message()
    assert (msg["code"], msg["re"], msg["fatal"]) == ("HELLO_TIMEOUT", None, True)
    assert trio.current_time() - start >= 2.0


async def test_three_challenges_through_the_wire_go_to_the_nearest_left(nursery, autojump_clock, records_db):
    server = await server_pairs.started(nursery, CONFIG, records_db)
    clients = [await hello(nursery, server, f"p{i}") for i in range(4)]
    joined = await clients[0].request("create_table", variant="hoyle", seats=4, seed=3)
    for c in clients[1:]:
        await c.request("join_table", table=joined["table"]["id"])
    for c in clients:
        await c.request("ready", ready=True)
    await clients[0].request("start")
    table = server.tables[joined["table"]["id"]]
    deal = table.deal
    claimant = deal.turn
    lay = deal.legal_actions(claimant).lay
    await clients[claimant].request("lay", cards=deal.hands[claimant][: lay.min], rank=lay.ranks[0])
    for offset in (3, 1, 2):  # arrival order: farthest first
        await clients[(claimant + offset) % 4].request("challenge", set_no=1)
        await trio.sleep(0.05)
    while not any(m["t"] == "challenged" for m in clients[0].received):
        await clients[0]._receive_one()
    (challenged,) = [m for m in clients[0].received if m["t"] == "challenged"]
    assert challenged["seat"] == (claimant + 1) % 4
    assert challenged["tied"] == [(claimant + 2) % 4, (claimant + 3) % 4]
    nursery.cancel_scope.cancel()


async def test_a_waiting_bot_client_pings_and_is_never_dropped(nursery, autojump_clock, records_db):
    server = await server_pairs.started(nursery, CONFIG, records_db)
    client = await hello(nursery, server, "patient")
    await client.request("create_table", variant="verish", seats=2)
    with trio.move_on_after(20 * CONFIG.limits.idle_ms / 1000):  # nobody else ever comes
        while True:
            await client.next_event()
    assert client.bye is None
    assert (await client.request("ping"))["t"] == "pong"
    assert client.replies == {}


async def test_a_stalled_reader_fills_its_queue_to_the_bound_and_is_dropped(
    nursery, autojump_clock, records_db
):
    config = CONFIG.evolve(
        limits={"outbox": 32, "send_ms": 10_000, "idle_ms": 60_000, "heartbeat_ms": 30_000}
    )
    server = await server_pairs.started(nursery, config, records_db)
    talker = await hello(nursery, server, "talker")
    joined = await talker.request("create_table", variant="verish", seats=2)
    # The stalled client's socket buffers are small, and it never reads after it joined.
    stalled = Client(await server_pairs.connect(nursery, server, buffer=4096))
    stalled.welcome = await stalled.request(
        "hello", proto=[1, 1], client={"name": "t", "version": "0"}, name="stalled"
    )
    await stalled.request("join_table", table=joined["table"]["id"])
    (conn,) = [c for c in server.connections if c.session is not None and c.session.name == "stalled"]
    session = conn.session
    for k in range(100):  # each chat is an event queued for the stalled client
        await talker.request("chat", text=f"line {k}")
        assert conn.queued <= config.limits.outbox
        if conn.reason is not None:
            break
    assert conn.reason == "too_slow" and k + 1 < 100
    while conn in server.connections:
        await trio.sleep(1)
    # Its session keeps its seat and the events it missed, for a resume.
    assert not session.connected and session.seat == 1 and session.missed(0) is not None
