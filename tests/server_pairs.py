"""A connection to an in-process server over a socket pair: the server serves it exactly as it
serves a TCP connection (``Server._handle`` takes a ``trio.SocketStream``), and the test holds
the other end. Works on ``trio.testing.MockClock``."""

from __future__ import annotations

import socket

import trio

from neveryu.server import Server


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
    nursery.start_soon(server._handle, trio.SocketStream(trio.socket.from_stdlib_socket(theirs)))
    return trio.SocketStream(trio.socket.from_stdlib_socket(ours))
