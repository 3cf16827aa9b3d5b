"""Protocol steps of a measuring client against the real server (docs/PROTOCOL.md): the
handshake, making and joining a table, getting a match going. Plain dicts over ``wire``."""

from __future__ import annotations

from .wire import FrameStream, connect

PROTO = [1, 1]


class RequestFailed(RuntimeError):
    """The server answered a set-up request with an ``error``."""


async def call(conn: FrameStream, msg: dict, on_other=None) -> dict:
    """Send request ``msg`` and return its reply (events before it go to ``on_other``).
    Raises RequestFailed for an ``error`` reply."""
    await conn.send(msg)
    while True:
        m = await conn.receive()
        if m.get("re") == msg["id"]:
            if m["t"] == "error":
                raise RequestFailed(f"{msg['t']}: {m.get('code')} {m.get('msg')}")
            return m
        if on_other is not None:
            on_other(m)


async def hello(port: int, name: str) -> FrameStream:
    """A connection to 127.0.0.1:``port`` that has said ``hello`` and got ``welcome``."""
    conn = await connect(port)
    await call(
        conn,
        {"t": "hello", "id": 1, "proto": PROTO, "client": {"name": "bench", "version": "1"}, "name": name},
    )
    return conn


async def seat_table(
    port: int, variant: str, names: list[str], seed: int | None = None, on_other=None
) -> tuple[list[FrameStream], list[int]]:
    """Connect one client per name, make a table of ``variant`` with that many seats (no bots),
    seat them all, make them ready and start the match. Returns the connections and their seats.
    ``on_other(k, msg)`` sees the events client k receives meanwhile."""
    conns = [await hello(port, n) for n in names]
    cb = (lambda k: lambda m: on_other(k, m)) if on_other else (lambda k: None)
    req = {"t": "create_table", "id": 2, "variant": variant, "options": {}, "seats": len(names), "bots": []}
    if seed is not None:
        req["seed"] = seed
    joined = [await call(conns[0], req, cb(0))]
    table = joined[0]["table"]["id"]
    for k, c in enumerate(conns[1:], 1):
        joined.append(await call(c, {"t": "join_table", "id": 2, "table": table}, cb(k)))
    for k, c in enumerate(conns):
        await call(c, {"t": "ready", "id": 3, "ready": True}, cb(k))
    await call(conns[0], {"t": "start", "id": 4}, cb(0))
    return conns, [j["seat"] for j in joined]
