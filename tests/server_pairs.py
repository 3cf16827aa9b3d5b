"""A server started in-process as ``neveryu serve`` starts it (``started``), and connections to
it over socket pairs: the server serves each exactly as it serves a TCP connection
(``Server.handle`` takes a ``trio.SocketStream``), and the test holds the other end. Works on
``trio.testing.MockClock``."""

from __future__ import annotations

import socket

import trio

from neveryu.server import Server, ServerConfig


async def connect(nursery: trio.Nursery, server: Server, *, buffer: int | None = None) -> trio.SocketStream:
    """The client's end of a new connection to ``server``, whose handler runs in ``nursery``.
    ``buffer``: shrink both sides' socket buffers to about this many bytes (a client that stops
    reading then fills them quickly)."""
    ours, theirs = socket.socketpair()
    if buffer is not None:
        for sock in (ours, theirs):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffer)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer)
    for sock in (ours, theirs):
        sock.setblocking(False)
    nursery.start_soon(server.handle, trio.SocketStream(trio.socket.from_stdlib_socket(theirs)))
    return trio.SocketStream(trio.socket.from_stdlib_socket(ours))


async def started(nursery: trio.Nursery, config: ServerConfig, db: str) -> Server:
    """A server for ``config`` running in ``nursery`` as ``neveryu serve`` runs it (``Server.run``:
    its records and journal in the file ``db``, restored from it if it holds tables), listening
    on 127.0.0.1, port 0."""
    server = Server(config.evolve(host="127.0.0.1", port=0, db=db))
    await nursery.start(server.run)
    return server
