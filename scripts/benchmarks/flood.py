"""Connections that flood the server with the costliest frames it accepts.

Each flood connection says ``hello``, then sends one frame over and over as fast as its socket
takes it, and reads (and counts) whatever comes back. The frame is a ``ping`` whose ignored field
holds as many values as a client frame may (``MAX_CLIENT_OBJECTS``), chosen for the most work
per byte the server decodes:

- ``maps``: 505 empty maps (520 bytes). Each map is a call of the decoder's duplicate-key check;
  per byte of frame this is the most CPU a frame the server accepts can cost (about 150 µs for
  784 bytes of budget, the frame's 520 and the 256 every frame counts).
- ``strs``: 505 strings of 30 Cyrillic letters (the largest frame, 16,384 bytes at most).

Nothing here is fatal to the connection: the frames are valid ``ping`` requests (unknown fields
are ignored), so the flood goes on as long as it runs; only the server's byte budget
(``byte_rate``) and request bucket (``rate``) hold it back.

Run as ``python -m scripts.benchmarks.flood PORT [--connections 8] [--kind maps] [--seconds S]``:
prints ``READY`` once every connection has its ``welcome``, floods until ``S`` s have passed
or SIGTERM, then prints one JSON line: frames sent, replies by type (and error code).
"""

from __future__ import annotations

import argparse
import collections
import json
import signal
import sys

import trio

from neveryu import protocol

from .client import hello
from .wire import FrameStream

KINDS = ("maps", "strs")


def flood_frame(kind: str, rid: int = 7) -> bytes:
    """The frame a flood connection sends again and again: a ``ping`` of ``MAX_CLIENT_OBJECTS``
    values (the message map, its three keys and values, and the padding's items)."""
    items = protocol.MAX_CLIENT_OBJECTS - 7
    if kind == "maps":
        pad: list = [{} for _ in range(items)]
    elif kind == "strs":
        pad = ["ж" * 15] * items
    else:
        raise ValueError(f"kind must be one of {KINDS}")
    msg = {"t": "ping", "id": rid, "pad": pad}
    assert protocol.wire_problem(msg, max_objects=protocol.MAX_CLIENT_OBJECTS) is None
    frame = protocol.encode_frame(msg)
    assert len(frame) - protocol.HEADER_SIZE <= protocol.MAX_CLIENT_FRAME
    return frame


async def _one(conn: FrameStream, frame: bytes, counts: collections.Counter) -> None:
    async def read() -> None:
        while True:
            try:
                msg = await conn.receive()
            except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
                counts["closed"] += 1
                return
            counts[msg.get("code") or msg["t"]] += 1

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        try:
            while True:
                await conn.stream.send_all(frame)
                counts["sent"] += 1
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            counts["send_failed"] += 1


async def flood(port: int, connections: int, kind: str, seconds: float, ready=None) -> dict:
    """``connections`` flood connections for ``seconds`` s; returns the counts (``sent``, and
    the replies by type or error code). ``ready()`` is called once all have said hello."""
    frame = flood_frame(kind)
    conns = [await hello(port, f"flood{k}") for k in range(connections)]
    counts: collections.Counter = collections.Counter()
    if ready is not None:
        ready()
    with trio.move_on_after(seconds):
        with trio.open_signal_receiver(signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:
                for conn in conns:
                    nursery.start_soon(_one, conn, frame, counts)
                async for _ in signals:
                    nursery.cancel_scope.cancel()
                    break
    for conn in conns:
        await conn.stream.aclose()
    return {"kind": kind, "frame_bytes": len(frame), "connections": connections, **counts}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scripts.benchmarks.flood")
    p.add_argument("port", type=int)
    p.add_argument("--connections", type=int, default=8)
    p.add_argument("--kind", choices=KINDS, default="maps")
    p.add_argument("--seconds", type=float, default=600.0)
    args = p.parse_args(argv)
    result = trio.run(
        flood, args.port, args.connections, args.kind, args.seconds, lambda: print("READY", flush=True)
    )
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
