"""An experiment, not the server: ``ClientConnection._writer`` writing every queued frame of a
connection with one ``send_all`` (``neveryu_server --batch-writes``).

The server's writer sends each frame with its own ``send_all`` under its own deadline. A game
action makes the table task push 3–4 frames to each of the 4 connections at once (``ok``,
``set_laid``, ``turn``, ``legal``), so on loopback the server pays 12–16 ``send`` system calls
(and as many receiver wake-ups) per action where one per connection would do. The profile of
the latency run puts about half of the server's time in ``socket.send``
(docs/BENCHMARKS.md). This writer drains the queue after the first frame and writes what it
found in one call; the rest (heartbeat, final message, send timeout, backpressure) is as the
server's writer does it. It follows the server's private names, so it may need a touch when
server/_connection.py changes.
"""

from __future__ import annotations

import logging

import trio

import protocol
from server import _connection

log = logging.getLogger("neveryu.server")
MAX_BATCH = 64  # frames joined into one send at most


async def _writer(self) -> None:
    heartbeat = self.server.config.limits.heartbeat_ms / 1000
    send_s = self.server.config.limits.send_ms / 1000
    while True:
        item = None
        with trio.move_on_after(heartbeat):
            item = await self._out_receive.receive()
        if item is None:
            if self.session is not None and not self._final:
                self.session.event({"t": "heartbeat"}, keep=False)
            continue
        items = [item]
        while not items[-1][1] and len(items) < MAX_BATCH:
            try:
                items.append(self._out_receive.receive_nowait())
            except trio.WouldBlock:
                break
        drained = getattr(self, "_drained", None)  # the reader's backpressure, where the server has it
        if drained is not None and self.queued <= self._half:
            drained.set()
        chunks = []
        for msg, _final in items:
            if msg is None:  # the server's "flush, then close" mark (the peer half-closed)
                continue
            try:
                chunks.append(self.wire.send(msg))
            except protocol.ProtocolError:
                log.exception("%s: cannot send a %s (a bug)", self, msg.get("t"))
        with trio.move_on_after(send_s) as timer:
            await self.stream.send_all(b"".join(chunks))
        if timer.cancelled_caught:
            self.drop("send_timeout")
            await trio.lowlevel.checkpoint()
        last, final = items[-1]
        if final:
            if last is not None:
                await self._linger()
            self.scope.cancel()
            return


def install() -> None:
    """Replace the server's writer with this one (in this process only)."""
    _connection.ClientConnection._writer = _writer
