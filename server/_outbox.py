"""What goes to one client, and how it gets there: the server's only way out.

Whoever sends to a client (its session, its table, the lobby) calls ``Outbox.send(frame)``,
which never waits. The work the server does for one request, or for one deadline that fired, is
a *batch* (``with batch():``, around each request in a connection's reader and around each
deadline in a table's task). Frames take one of two routes:

- A batch's frames go out at its end: all a client was sent, in one non-blocking write to
  the connection's socket (one system call per client per batch, by the batch's own task). A
  game's events go out earlier, as soon as they are made (``send_now``, called by
  ``Game.publish``): with the reply to the action, in one write; what the batch sends after
  them (every seat's ``legal``) at its end.
- The writer task (``run``, one per connection) writes the rest with the stream's ``send_all``,
  each write within ``send_ms``: what the socket did not take at once (the client reads
  slowly), what was sent while a write was under way, and what was sent outside any batch
  (shutdown, the lobby's sweeps). It also sends a heartbeat when nothing was written for
  ``heartbeat_ms`` (``on_idle``).

Why not only the writer task, the plain way: every write through ``send_all`` costs a task
switch or two (the writer's wake, ``send_all``'s own checkpoint), for every receiver of every
batch; and a request's events then leave only when its reader yields, after all the work that
follows them. Sending the events early the plain way (the reader yielding between the events
and that work, which another reader could then find half done) makes two writes per receiver
of every action, each through a task. Side by side, both plain ways cost markedly more server
CPU per action (docs/BENCHMARKS.md, "The write path"). tests/test_server_outbox.py checks
that what a client receives is exactly what the plain way (every frame through ``send_all``)
would deliver, whatever the socket takes at once.

A queue longer than ``limit`` frames means the client stopped reading: what is queued is thrown
away (its session keeps its events for a resume), the last message ``on_full()`` gives (``bye``
"too_slow") is queued in its place, and the connection closes once it is written, or when its
write times out because the client still reads nothing (then it never arrived, and the log says
so). A last message (``bye``, a fatal error) is written, then the writer half-closes the stream
and gives the peer a moment to read it (``LINGER``) before the connection closes.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import math
import os
from collections.abc import Callable, Iterator

import trio

# A socket is a file descriptor on POSIX systems only; elsewhere (Windows) the writer task
# writes everything, the plain way.
DIRECT_WRITES = os.name == "posix"
LINGER = 1.0  # s: how long a closing connection waits for the peer to read its last message
MAX_BACKLOG = 262_144  # bytes not yet written past which a client's own requests wait (``behind``)


class _Batch:
    """The outboxes a batch under way has sent frames to, and the task doing it."""

    __slots__ = ("due", "task")

    def __init__(self) -> None:
        self.due: list[Outbox] = []
        self.task = trio.lowlevel.current_task()


_BATCH: contextvars.ContextVar[_Batch | None] = contextvars.ContextVar("neveryu_batch", default=None)


@contextlib.contextmanager
def batch() -> Iterator[None]:
    """The work done inside is one batch: what it sends each client leaves in one write at
    its end (``Outbox.flush``). The batch is its task's own: what another task sends meanwhile
    (one it started included, whose context is a copy of this one's) is not part of it."""
    made = _Batch()
    token = _BATCH.set(made)
    try:
        yield
    finally:
        _BATCH.reset(token)
        for outbox in made.due:
            outbox.flush()


def send_now() -> None:
    """What the batch under way in this task has sent so far goes out now, each client's in one
    write; the batch goes on, and what it sends from now on leaves at its end. A game's
    events are sent this way as soon as they are made (``Game.publish``): the players see an
    action before the server works out what comes after it (``turn``, every seat's ``legal``,
    the bots)."""
    mine = _BATCH.get()
    if mine is None or mine.task is not trio.lowlevel.current_task():
        return
    due, mine.due = mine.due, []
    for outbox in due:
        outbox.flush()


class Outbox:
    """The frames for one client (``send``) and their writer (``run``).

    ``stream``: the connection (a ``trio.SocketStream``; the direct writes go to its socket's
    file descriptor). ``limit``: frames queued at most; ``send_s``: seconds each
    write of the queue may take; ``heartbeat_s``: seconds without a write after which
    ``on_idle()`` is called (it sends a heartbeat event). ``on_full()``: the queue overflowed;
    it returns the frame of the last message to send instead, or None to close without one.
    """

    def __init__(
        self,
        stream: trio.SocketStream,
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
        self._queued_bytes = 0  # the bytes of the frames in ``_queue``
        self._writing_bytes = 0  # the bytes of the writer's write under way
        self._rest = b""  # the rest of a frame begun (a write the socket took in part): first out
        self._writing = False  # the writer is in a send_all: nothing may be written before it ends
        self._due_in: _Batch | None = None  # the batch under way that writes the queue at its end
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

    @property
    def backlog(self) -> int:
        """Bytes sent to the client and not yet written to its socket: queued, left of a frame
        begun, or in the writer's write under way."""
        return self._queued_bytes + len(self._rest) + self._writing_bytes

    @property
    def behind(self) -> bool:
        """The client reads too slowly for more of its own requests to be answered now: half of
        ``limit`` frames are queued, or more than ``MAX_BACKLOG`` bytes wait (a few small
        requests can ask for large replies, the protocol's schema for one)."""
        return len(self._queue) > self.limit // 2 or self.backlog > MAX_BACKLOG

    def send(self, frame: bytes) -> None:
        """Send ``frame`` to the client without waiting: queued, and written at the end of the
        batch under way in this task (``batch``), else by the writer task. Ignored once a last
        message is queued."""
        if self._closing:
            return
        self._queue.append(frame)
        self._queued_bytes += len(frame)
        if len(self._queue) > self.limit:
            self._clear()
            self.send_last(self.on_full())
            return
        mine = _BATCH.get()
        if mine is not None and mine.task is not trio.lowlevel.current_task():
            mine = None  # (a batch of the task that started this one: not this task's)
        if self._writing or mine is None:
            self._wake.set()
        elif self._due_in is None:
            self._due_in = mine
            mine.due.append(self)
        elif self._due_in is not mine:
            self._wake.set()  # another task's batch holds the queue: the writer takes it now

    def flush(self) -> None:
        """Write the queue with one non-blocking write (a batch's end calls it), unless the
        writer task has it: a write under way, a frame begun, a last message queued."""
        self._due_in = None
        if self._writing or self._closing or self._rest or not self._queue:
            return
        data = b"".join(self._queue)
        self._clear()
        self._send_now(data)

    def _send_now(self, data: bytes) -> None:
        """One non-blocking write of ``data`` to the stream's socket; what it does not take is
        left to the writer."""
        sent = 0
        if DIRECT_WRITES:  # (trio keeps the socket non-blocking; a closed one's descriptor is -1)
            try:
                sent = os.write(self.stream.socket.fileno(), data)
            except OSError:  # full (BlockingIOError), or the peer is gone: the writer will find out
                sent = 0
        if sent:
            self.last_written_at = trio.current_time()
        if sent < len(data):
            self._rest = data[sent:]
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
        """Wait until the client is no longer ``behind`` (a reader's backpressure)."""
        while self.behind and not self._closing:
            self._drained = trio.Event()
            await self._drained.wait()

    async def run(self) -> None:
        """Write what the batches' ends did not (what the socket did not take at once, what was
        sent outside any batch) until the last message is written or writing fails; then
        return, and the connection closes.

        One cancel scope is the writer's timer, its deadline moved as it goes: while it waits,
        the heartbeat (``heartbeat_s`` after the last write); while it writes, the write's
        (``send_s`` from its start). A scope that fired stays cancelled, so a new one is made
        only then: after a heartbeat fell due (a write timing out ends the writer)."""
        try:
            while True:
                with trio.CancelScope() as timer:
                    while True:
                        timer.deadline = self.last_written_at + self.heartbeat_s
                        await self._wake.wait()
                        if timer.cancel_called:  # the heartbeat fell due as it woke: a new timer first
                            break
                        self._wake = trio.Event()  # (what is queued from now on wakes the next round)
                        closing = self._closing
                        data = self._take(closing)
                        if data:
                            timer.deadline = trio.current_time() + self.send_s
                            if not await self._write(data):
                                return
                        if closing:
                            timer.deadline = math.inf  # (the linger has its own)
                            await self._close()
                            return
                if self._writing:
                    self.failure = "send_timeout"
                    return
                if trio.current_time() >= self.last_written_at + self.heartbeat_s:
                    self.on_idle()  # nothing written for heartbeat_s: it sends a heartbeat
                    self.last_written_at = trio.current_time()  # (the next one is due from now)
        finally:
            self._closing = True  # nothing more is queued, nor written by a batch's end

    def _take(self, closing: bool) -> bytes:
        """Everything queued (the rest of a frame begun first), taken off the queue, and
        (``closing``) the last message."""
        data = self._rest + b"".join(self._queue)
        self._rest = b""
        self._clear()
        if closing and self._last is not None:
            data += self._last
        return data

    async def _write(self, data: bytes) -> bool:
        """Write ``data`` with the stream's ``send_all``; False (and ``failure`` said) when the
        stream broke. While it writes, ``_writing`` tells a timer that fires why (``run``)."""
        self._writing = True  # (left set when the timer cancels the write)
        self._writing_bytes = len(data)
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.failure = "broken"
            return False
        self._writing = False
        self._writing_bytes = 0
        self._drained.set()
        self.last_written_at = trio.current_time()
        return True

    def _clear(self) -> None:
        """Empty the queue (its frames written, taken to be, or thrown away)."""
        self._queue.clear()
        self._queued_bytes = 0
        self._drained.set()

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
