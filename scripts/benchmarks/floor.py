"""The floor: a bare trio TCP server with neveryu's framing and message sizes and no game logic.

Run as ``python -m scripts.benchmarks.floor`` it serves on 127.0.0.1 (port printed as
``PORT n``). A client joins table k with ``{"t": "join_table", "table": k}``; a ``lay`` from any
client is decoded and one ``set_laid`` event (the size of neveryu's), encoded once, goes to each
client of the table, written as neveryu's server writes (``Peer.write``); a ``ping`` gets a
``pong``. ``latency`` and ``throughput`` are the measuring clients.
"""

from __future__ import annotations

import socket
import time
from collections import defaultdict

import trio

from . import fanout
from .wire import RECEIVE_BYTES, FrameStream, connect, encode, split

TABLE_SEATS = 4


def lay_request(i: int) -> dict:
    """A ``lay`` request as neveryu's clients send it (two cards, claiming tens)."""
    return {"t": "lay", "id": i, "cards": ["TS", "TH"], "rank": "T"}


def set_laid_event(seq: int, seat: int, set_no: int) -> dict:
    """A ``set_laid`` event with the fields the real server sends to the other seats."""
    return {
        "t": "set_laid",
        "seq": seq,
        "ts": int(time.time() * 1000),
        "seat": seat,
        "set_no": set_no,
        "rank": "T",
        "count": 2,
        "cards": None,
        "size": 2,
    }


class Peer:
    """One connection of the floor server, read and written the way neveryu's server reads and
    writes (server/_connection.py, ``_reader`` and ``flush``): wait until the socket is readable,
    then one ``recv``; one non-blocking ``send`` when nothing waits to be written, trio's
    ``send_all`` for the rest."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.stream = trio.SocketStream(trio.socket.from_stdlib_socket(sock))
        self.lock = trio.Lock()  # held while send_all writes what a direct send left
        self._buf = bytearray()

    async def receive(self) -> list[dict]:
        """The frames of the next read (raises EOFError when the peer closed)."""
        while True:
            await trio.lowlevel.wait_readable(self.sock)
            try:
                data = self.sock.recv(RECEIVE_BYTES)
            except BlockingIOError:
                continue
            if not data:
                raise EOFError("the peer closed the connection")
            self._buf += data
            frames = split(self._buf)
            if frames:
                return frames

    async def write(self, frame: bytes) -> None:
        sent = 0
        if not self.lock.locked():
            try:
                sent = self.sock.send(frame)
            except BlockingIOError:
                pass
            if sent == len(frame):
                return
        async with self.lock:
            await self.stream.send_all(frame[sent:])


async def serve(task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Serve on 127.0.0.1 and a free port (reported through ``task_status``) until cancelled."""
    tables: dict[int, list[Peer]] = defaultdict(list)

    async def handle(sock: socket.socket) -> None:
        me = Peer(sock)
        table: list[Peer] | None = None
        seq = 0
        try:
            while True:
                for msg in await me.receive():
                    t = msg["t"]
                    if t == "lay" and table is not None:
                        seq += 1
                        frame = encode(
                            set_laid_event(seq, table.index(me), msg["id"])
                        )  # once, as neveryu does
                        for peer in table:
                            await peer.write(frame)
                    elif t == "ping":
                        await me.write(encode({"t": "pong", "re": msg["id"]}))
                    elif t == "join_table":
                        table = tables[msg["table"]]
                        table.append(me)
                        await me.write(encode({"t": "table_joined", "re": msg["id"], "table": msg["table"]}))
        except (EOFError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            if table is not None and me in table:
                table.remove(me)
            await me.stream.aclose()

    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.setblocking(False)
        async with trio.open_nursery() as nursery:
            task_status.started(listener.getsockname()[1])
            while True:
                await trio.lowlevel.wait_readable(listener)
                try:
                    sock, _ = listener.accept()
                except BlockingIOError:
                    continue
                sock.setblocking(False)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                nursery.start_soon(handle, sock)


async def _join_table(port: int, table: int) -> list[FrameStream]:
    clients = [await connect(port) for _ in range(TABLE_SEATS)]
    for c in clients:
        await c.send({"t": "join_table", "id": 1, "table": table})
        await c.receive()
    return clients


async def latency(port: int, samples: int, seconds: float, quiet: float | None = None) -> dict:
    """One table of 4 clients; client i % 4 sends a ``lay``; the time from the send until all 4
    have decoded the ``set_laid`` event (``fanout.measure``). Returns ``summary_us``."""
    clients = await _join_table(port, 0)

    async def act(i: int):
        return clients[i % TABLE_SEATS], lay_request(i), lambda m: m["t"] == "set_laid" and m["set_no"] == i

    return await fanout.measure(clients, act, samples, seconds, quiet=quiet)


async def throughput(port: int, clients: int, seconds: float) -> dict:
    """``clients`` connections each sending ``ping`` and awaiting its ``pong`` in a loop for
    ``seconds`` s; returns ``{"clients", "requests", "requests_per_s"}``."""
    return await ping_loop([await connect(port) for _ in range(clients)], seconds)


async def ping_loop(conns: list[FrameStream], seconds: float) -> dict:
    """Closed-loop ``ping``/``pong`` on every connection of ``conns`` for ``seconds`` s (shared by
    the floor and neveryu measurements)."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds

    async def loop(conn: FrameStream) -> None:
        nonlocal count
        i = 1000
        while time.perf_counter() < deadline:
            i += 1
            await conn.send({"t": "ping", "id": i})
            while True:
                m = await conn.receive()
                if m.get("re") == i:
                    break
            count += 1

    async with trio.open_nursery() as nursery:
        for c in conns:
            nursery.start_soon(loop, c)
    elapsed = time.perf_counter() - start
    for c in conns:
        await c.stream.aclose()
    return {"clients": len(conns), "requests": count, "requests_per_s": round(count / elapsed)}


async def _main() -> None:
    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve)
        print("PORT", port, flush=True)


if __name__ == "__main__":
    trio.run(_main)
