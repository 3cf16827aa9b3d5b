"""What fair deal 2 costs when a deal starts (docs/PROTOCOL.md, section 9).

Four clients hold the four seats of a fresh `verish` table; a sample is the time from the
moment the first client sends ``start`` until all four have decoded the deal's first ``turn``
(each client decodes its own frames; the sample ends at the last of the four). The clients then
leave (the table closes) and the next sample makes a new table. Three ways:

- ``seeded``: a table with a fixed seed: no contribution is asked for, the server deals at
  once, as every deal started before fair deal 2;
- ``fair``: a table without one: the server commits to its seed (``seed_committed``), each
  client answers at once with ``contribute``, the deal starts at the fourth;
- ``silent``: the same table with clients that never contribute (written before fair deal 2):
  the deal starts when the server's window (``contribute_ms``) closes.
"""

from __future__ import annotations

import itertools
import secrets
import time

import trio

from .client import call, hello
from .wire import FrameStream

SEATS = 4
MODES = ("seeded", "fair", "silent")


async def _until_first_turn(conn: FrameStream, contribute: bool, ids: itertools.count) -> float:
    """Read ``conn`` until the deal's first ``turn``, answering ``seed_committed`` when
    ``contribute``; returns ``time.perf_counter()`` when the ``turn`` was decoded."""
    while True:
        msg = await conn.receive()
        t = msg.get("t")
        if t == "turn":
            return time.perf_counter()
        if t == "seed_committed" and contribute:
            contribution = secrets.token_hex(32)
            await conn.send(
                {"t": "contribute", "id": next(ids), "deal_no": msg["deal_no"], "contribution": contribution}
            )


async def _sample(conns: list[FrameStream], mode: str, ids: itertools.count) -> float:
    """One table made, seated, readied and started; the seconds from ``start`` until every
    client decoded the first ``turn``. Every client leaves afterwards."""
    req = {"t": "create_table", "id": next(ids), "variant": "verish", "seats": SEATS, "bots": []}
    if mode == "seeded":
        req["seed"] = 1
    joined = await call(conns[0], req)
    for c in conns[1:]:
        await call(c, {"t": "join_table", "id": next(ids), "table": joined["table"]["id"]})
    for c in conns:
        await call(c, {"t": "ready", "id": next(ids), "ready": True})
    done: list[float] = [0.0] * len(conns)

    async def watch(k: int) -> None:
        done[k] = await _until_first_turn(conns[k], mode == "fair", ids)

    async with trio.open_nursery() as nursery:
        for k in range(1, len(conns)):
            nursery.start_soon(watch, k)
        await trio.sleep(0)  # the others wait on their sockets before the start goes out
        t0 = time.perf_counter()
        # The first client sends the start and then reads in this task: its contribution, an
        # answer to what the start causes, is never sent while the start still is.
        await conns[0].send({"t": "start", "id": next(ids)})
        await watch(0)
    took = max(done) - t0
    for c in conns:
        await c.send({"t": "leave", "id": next(ids)})
    return took


async def dealstart(port: int, mode: str, samples: int, seconds: float) -> dict:
    """Up to ``samples`` samples of ``mode`` in at most ``seconds`` s: ``{"samples": [s, ...]}``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    conns = [await hello(port, f"start{k}") for k in range(SEATS)]
    ids = itertools.count(10)
    out: list[float] = []
    deadline = time.monotonic() + seconds
    try:
        while len(out) < samples and time.monotonic() < deadline:
            out.append(await _sample(conns, mode, ids))
    finally:
        for c in conns:
            await c.stream.aclose()
    return {"samples": out}
