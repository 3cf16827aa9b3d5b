"""The connection's writer on MockClock over memory streams: what is queued goes out in one write,
and a write the peer does not take within ``send_ms`` drops the connection ("send_timeout")."""

from __future__ import annotations

import trio
import trio.testing

from neveryu.client.botclient import Client
from neveryu.server import Server, ServerConfig

CONFIG = ServerConfig(port=0).evolve(
    limits={"handshake_ms": 2_000, "heartbeat_ms": 30_000, "idle_ms": 60_000, "send_ms": 500},
    table={"turn_ms": 0, "bot_delay_ms": 0},
)


async def hello(client: Client, name: str) -> None:
    client.welcome = await client.request(
        "hello", proto=[1, 1], client={"name": "t", "version": "0"}, name=name
    )


async def test_queued_frames_go_out_in_one_write(nursery, autojump_clock):
    server = Server(CONFIG)
    server._nursery = nursery
    client_end, server_end = trio.testing.memory_stream_pair()
    writes: list[bytes] = []
    send_all = server_end.send_stream.send_all

    async def counting(data) -> None:
        writes.append(bytes(data))
        await send_all(data)

    server_end.send_stream.send_all = counting
    nursery.start_soon(server._handle, server_end)
    client = Client(client_end, keep=True)
    await hello(client, "one")
    (conn,) = server.connections
    writes.clear()
    for k in range(5):  # five events queued before the writer runs
        conn.session.event({"t": "chat", "seat": None, "name": "x", "text": str(k)})
    await client.request("ping")
    assert [m["text"] for m in client.received if m["t"] == "chat"] == ["0", "1", "2", "3", "4"]
    assert len(writes) == 2  # the five events at once, then the pong


async def test_a_write_not_taken_within_send_ms_drops_the_connection(nursery, autojump_clock):
    server = Server(CONFIG)
    server._nursery = nursery
    # The stream passes bytes only while the client reads, and it stops reading after hello.
    client_end, server_end = trio.testing.lockstep_stream_pair()
    nursery.start_soon(server._handle, server_end)
    client = Client(client_end)
    await hello(client, "stalled")
    (conn,) = server.connections
    start = trio.current_time()
    conn.session.event({"t": "chat", "seat": None, "name": "x", "text": "unread"})
    while conn in server.connections:
        await trio.sleep(0.01)
    assert conn.reason == "send_timeout"
    assert 0.5 <= trio.current_time() - start < 0.52
