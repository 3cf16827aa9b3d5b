"""One connection's requests are done and answered strictly in order (docs/PROTOCOL.md §3);
an impossible game request is refused without closing the connection.

Real TCP on 127.0.0.1: a burst of lobby and table requests sent in one write, before any reply
arrives, is handled as if each had waited for the previous reply.
"""

from __future__ import annotations

from typing import Any

import trio

from neveryu import protocol
from neveryu.server import ServerConfig, serve

HOST = "127.0.0.1"
HELLO = {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "burst", "version": "0"}, "name": "ann"}


async def messages(stream: trio.SocketStream, until: Any) -> list[dict[str, Any]]:
    """What the server sends until ``until(msg)`` holds for one message (that one included)."""
    wire = protocol.Connection("client")
    out: list[dict[str, Any]] = []
    while True:
        data = await stream.receive_some(65_536)
        assert data, f"closed after {out}"
        wire.receive_data(data)
        while (msg := wire.next_message()) is not None:
            out.append(msg)
            if until(msg):
                return out


async def test_a_burst_of_requests_is_done_and_answered_in_order():
    burst = [
        HELLO,
        {"t": "create_table", "id": 2, "variant": "verish", "seats": 3, "bots": [None, None]},
        {"t": "ready", "id": 3, "ready": True},
        {"t": "ping", "id": 4},
        {"t": "list_tables", "id": 5},
        {"t": "leave", "id": 6},
        {"t": "ping", "id": 7},
    ]
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, ServerConfig(host=HOST, port=0))
            for _ in range(3):  # the race the newcomer met did not show every time
                stream = await trio.open_tcp_stream(HOST, port)
                await stream.send_all(b"".join(protocol.encode_frame(m) for m in burst))
                got = await messages(stream, lambda m: m.get("re") == 7)
                replies = [(m["re"], m["t"]) for m in got if "re" in m]
                assert replies == [
                    (1, "welcome"),
                    (2, "table_joined"),
                    (3, "ok"),
                    (4, "pong"),
                    (5, "tables"),
                    (6, "ok"),
                    (7, "pong"),
                ], got
                table = next(m for m in got if m["t"] == "table_joined")["table"]["id"]
                (listed,) = [m for m in got if m["t"] == "tables"]
                mine = next(tb for tb in listed["tables"] if tb["id"] == table)
                assert mine["seats"][0]["name"] == "ann" and mine["seats"][0]["ready"] is True
                # each reply comes before the events its request causes
                order = [m.get("re", m["t"]) for m in got]
                ready_update = next(
                    i
                    for i, m in enumerate(got)
                    if m["t"] == "table_update" and m["table"]["seats"][0]["ready"]
                )
                assert order.index(3) < ready_update < order.index(4)
                await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_an_impossible_game_request_is_refused_and_the_connection_stays():
    burst = [
        HELLO,
        {"t": "challenge", "id": 2, "set_no": 0},
        {"t": "lay", "id": 3, "cards": ["10H"]},
        {"t": "ping", "id": 4},
    ]
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, ServerConfig(host=HOST, port=0))
            stream = await trio.open_tcp_stream(HOST, port)
            await stream.send_all(b"".join(protocol.encode_frame(m) for m in burst))
            got = await messages(stream, lambda m: m.get("re") == 4)
            assert [(m["re"], m["t"], m.get("code"), m.get("fatal")) for m in got if "re" in m] == [
                (1, "welcome", None, None),
                (2, "error", "ILLEGAL_ACTION", False),
                (3, "error", "ILLEGAL_ACTION", False),
                (4, "pong", None, None),
            ]
            await stream.aclose()
            nursery.cancel_scope.cancel()
