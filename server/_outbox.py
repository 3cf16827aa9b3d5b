"""What goes to one client, and how it gets there: the server's only way out.

Whoever sends to a client (its session, its table, the lobby) calls ``Outbox.send(frame)``,
which never waits. A frame with nothing ahead of it is written at once, with one non-blocking
``send`` on the connection's socket; whatever the socket does not take (the client reads
slowly), and every frame sent while something is still ahead of it, is left to the outbox's
writer task (``run``), which writes all that is waiting with the stream's ``send_all``, each
write within ``send_ms``. The writer also sends a heartbeat when nothing was written for
``heartbeat_ms`` (``on_idle``).

Why a ``send`` at once rather than a wake-up of the writer for every frame: waking a task and
going through ``send_all`` cost as many instructions as all the rest of an action's work
together. Why not batch a request's frames into one ``send`` at its end: the players then wait
for the server's whole batch (the ``turn``, every seat's ``legal``, the bots) before the event
that concerns them leaves; written at once, it leaves as soon as it is made, and the system
calls it adds cost the capacity step little (docs/BENCHMARKS.md, "The write path"; both were
measured side by side). tests/test_server_outbox.py checks that what a client receives is
exactly what the plain way (every frame through ``send_all``) delivers, whatever the socket
takes at once.

A queue longer than ``limit`` frames means the client stopped reading: what is queued is thrown
away (its session keeps its events for a resume), the last message ``on_full()`` gives (``bye``
"too_slow") is queued in its place, and the connection closes once it is written, or when its
write times out because the client still reads nothing (then it never arrived, and the log says
so). A last message (``bye``, a fatal error) is written, then the writer half-closes the stream
and gives the peer a moment to read it (``LINGER``) before the connection closes.
"""

from __future__ import annotations

import collections
import socket
from collections.abc import Callable

import trio

LINGER = 1.0  # s: how long a closing connection waits for the peer to read its last message


class Outbox:
    """The frames for one client (``send``) and their writer (``run``).

    ``stream``: the connection (a ``trio.SocketStream``); ``sock``: its socket as the standard
    library's, for the direct writes. ``limit``: frames queued at most; ``send_s``: seconds each
    write of the queue may take; ``heartbeat_s``: seconds without a write after which
    ``on_idle()`` is called (it sends a heartbeat event). ``on_full()``: the queue overflowed;
    it returns the frame of the last message to send instead, or None to close without one.
    """

    def __init__(
        self,
        stream: trio.SocketStream,
        sock: socket.socket,
        *,
        limit: int,
        send_s: float,
        heartbeat_s: float,
        on_idle: Callable[[], None],
        on_full: Callable[[], bytes | None],
    ) -> None:
        self.stream = stream
        self.sock = sock
        self.limit = limit
        self.send_s = send_s
        self.heartbeat_s = heartbeat_s
        self.on_idle = on_idle
        self.on_full = on_full
        self._queue: collections.deque[bytes] = collections.deque()  # whole frames
        self._rest = b""  # the rest of a frame begun (a write the socket took in part): first out
        self._writing = False  # the writer is in a send_all: nothing may be written before it ends
        self._last: bytes | None = None  # the last message, once one is queued
        self._closing = False  # a last message is queued (or the connection ends without one)
        self._wake = trio.Event()
        self._drained = trio.Event()
        self.last_written_at = trio.current_time()  # when bytes last went out (heartbeats)
        self.peer_closed = trio.Event()  # set by the reader when the peer closes its side
        self.last_written = False  # the last message was written whole
        self.failure: str | None = None  # why writing stopped: send_timeout, broken

    @property
    def queued(self) -> int:
        """Frames waiting for the writer."""
        return len(self._queue)

    def send(self, frame: bytes) -> None:
        """Send ``frame`` to the client without waiting: written at once when nothing is ahead
        of it (what the socket does not take is left to the writer), else queued behind what
        is. Ignored once a last message is queued."""
        if self._closing:
            return
        if self._writing or self._rest or self._queue:
            self._queue.append(frame)
            if len(self._queue) > self.limit:
                self._queue.clear()
                self.send_last(self.on_full())
            else:
                self._wake.set()
            return
        try:
            sent = self.sock.send(frame)
        except BlockingIOError:
            sent = 0
        except OSError:  # the peer is gone: the reader or the writer will find out
            sent = 0
        if sent:
            self.last_written_at = trio.current_time()
        if sent < len(frame):
            self._rest = frame[sent:]
            self._wake.set()

    def send_last(self, frame: bytes | None) -> None:
        """Queue the last message (None: none); the connection closes once it is written.
        Frames queued before it go first."""
        if self._closing:
            return
        self._closing = True
        self._last = frame
        self._wake.set()

    def end(self) -> None:
        """The peer will read no more of us (it closed): write what is queued, then stop."""
        self.send_last(None)

    async def wait_drained(self) -> None:
        """Wait until the queue is down to half its limit (a reader's backpressure)."""
        while len(self._queue) > self.limit // 2 and not self._closing:
            self._drained = trio.Event()
            await self._drained.wait()

    async def run(self) -> None:
        """Write what ``send`` queued until the last message is written (or writing fails);
        then return, and the connection closes.

        One cancel scope is both the heartbeat timer (while waiting) and the write deadline
        (while writing): its deadline is moved between the two, and a new one is made only when
        it fires (trio's scopes cannot be reused once cancelled)."""
        while True:
            writing = False
            with trio.CancelScope() as timer:
                while True:
                    timer.deadline = self.last_written_at + self.heartbeat_s
                    await self._wake.wait()
                    self._wake = trio.Event()  # (what is queued from now on wakes the next round)
                    closing = self._closing
                    data = self._take(closing)
                    if data:
                        writing = self._writing = True
                        timer.deadline = trio.current_time() + self.send_s
                        if not await self._write(data):
                            return
                        writing = self._writing = False
                        self.last_written_at = trio.current_time()
                    if closing:
                        await self._close()
                        return
            if writing:  # the write's deadline passed
                self.failure = "send_timeout"
                return
            now = trio.current_time()
            if now >= self.last_written_at + self.heartbeat_s:
                self.on_idle()  # nothing written for heartbeat_ms: it sends a heartbeat
                self.last_written_at = now  # (the next one is due heartbeat_ms from now)

    def _take(self, closing: bool) -> bytes:
        """Everything queued (the rest of a frame begun first), taken off the queue, and
        (``closing``) the last message."""
        data = self._rest + b"".join(self._queue)
        self._rest = b""
        self._queue.clear()
        self._drained.set()
        if closing and self._last is not None:
            data += self._last
        return data

    async def _write(self, data: bytes) -> bool:
        """Write ``data``; False (and ``failure`` said) when the peer is gone."""
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.failure = "broken"
            return False
        return True

    async def _close(self) -> None:
        self.last_written = self._last is not None
        if self._last is not None:
            await self._linger()

    async def _linger(self) -> None:
        """After the last message: half-close and give the peer a moment to read it and close
        (closing with unread input would reset the connection and could lose the message)."""
        with trio.move_on_after(LINGER):
            try:
                await self.stream.send_eof()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                return
            await self.peer_closed.wait()
