"""What goes to one client, and how it gets there: the server's only way out.

Whoever sends to a client (its session, its table, the lobby) calls ``Outbox.send(frame)``,
which never waits: the frame is queued and the writer task (``run``, one per connection) is
woken. The writer takes everything queued and writes it with the stream's ``send_all``, each
write within ``send_ms``. Since the writer runs only once the sending task yields, what one
request (or one deadline) sends a client leaves in one write: the reply, the events, ``turn``,
``legal``. Frames sent while a write is under way go out together after it. The writer also
sends a heartbeat when nothing was written for ``heartbeat_ms`` (``on_idle``).

A queue longer than ``limit`` frames means the client stopped reading: what is queued is thrown
away (its session keeps its events for a resume), the last message ``on_full()`` gives (``bye``
"too_slow") is queued in its place, and the connection closes once it is written, or when its
write times out because the client still reads nothing (then it never arrived, and the log says
so). A last message (``bye``, a fatal error) is written, then the writer half-closes the stream
and gives the peer a moment to read it (``LINGER``) before the connection closes.
"""

from __future__ import annotations

import collections
from collections.abc import Callable

import trio

LINGER = 1.0  # s: how long a closing connection waits for the peer to read its last message


class Outbox:
    """The frames for one client (``send``) and their writer (``run``).

    ``stream``: the connection (a ``trio.abc.HalfCloseableStream``). ``limit``: frames queued
    at most; ``send_s``: seconds each write may take; ``heartbeat_s``: seconds without a write
    after which ``on_idle()`` is called (it sends a heartbeat event). ``on_full()``: the queue
    overflowed; it returns the frame of the last message to send instead, or None to close
    without one.
    """

    def __init__(
        self,
        stream: trio.abc.HalfCloseableStream,
        *,
        limit: int,
        send_s: float,
        heartbeat_s: float,
        on_idle: Callable[[], None],
        on_full: Callable[[], bytes | None],
    ) -> None:
        self.stream = stream
        self.limit = limit
        self.send_s = send_s
        self.heartbeat_s = heartbeat_s
        self.on_idle = on_idle
        self.on_full = on_full
        self._queue: collections.deque[bytes] = collections.deque()  # whole frames
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
        """Queue ``frame`` for the writer, without waiting. Ignored once a last message is
        queued."""
        if self._closing:
            return
        self._queue.append(frame)
        if len(self._queue) > self.limit:
            self._queue.clear()
            self.send_last(self.on_full())
        else:
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
        then return, and the connection closes."""
        while True:
            with trio.move_on_at(self.last_written_at + self.heartbeat_s):
                await self._wake.wait()
            if not self._wake.is_set():  # nothing written for heartbeat_ms
                self.on_idle()  # (it sends a heartbeat, which wakes the next round)
                self.last_written_at = trio.current_time()  # the next one is due from now
                continue
            self._wake = trio.Event()  # (what is queued from now on wakes the next round)
            closing = self._closing
            data = self._take(closing)
            if data and not await self._write(data):
                return
            if closing:
                await self._close()
                return

    def _take(self, closing: bool) -> bytes:
        """Everything queued, taken off the queue, and (``closing``) the last message."""
        data = b"".join(self._queue)
        self._queue.clear()
        self._drained.set()
        if closing and self._last is not None:
            data += self._last
        return data

    async def _write(self, data: bytes) -> bool:
        """Write ``data`` within ``send_s``; False (and ``failure`` said) when it did not go."""
        with trio.move_on_after(self.send_s):
            try:
                await self.stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self.failure = "broken"
                return False
            self.last_written_at = trio.current_time()
            return True
        self.failure = "send_timeout"
        return False

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
