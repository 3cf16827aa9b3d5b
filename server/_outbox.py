"""What goes to one client, and how it gets there: the server's only way out.

Whoever sends to a client (its session, its table, the lobby) calls ``Outbox.send(frame)``,
which never waits. The work the server does for one request, or for one deadline that fired, is
a *batch*: ``begin_batch()`` and ``end_batch()`` enclose it (a connection's reader around each
request, a table's task around each deadline). When is a frame written?

- While a batch that found the server idle is under way (trio had nothing else to run, and was
  about to wait for I/O: ``Flusher.before_io_wait``), at once: one non-blocking ``send`` of that
  frame on the connection's socket. The players see an event as soon as it is made, not after
  the rest of the batch (the ``turn``, every seat's ``legal``, the bots).
- Otherwise, at the end of the batch: every frame the batch sent a client, in one ``send``. A
  busy server makes a system call per client per batch, not one per frame. Frames sent outside
  any batch (shutdown, the lobby's sweeps) are written once the sending task yields, by the
  ``Flusher``'s own task.

Whatever the socket does not take (the client reads slowly), and whatever is sent while a write
is under way, the outbox's writer task (``run``) writes with the stream's ``send_all``, each
write within ``send_ms``. The writer also sends a heartbeat when nothing was written for
``heartbeat_ms`` (``on_idle``).

Why both: written at once, an idle server's players see an action's event sooner than after
the whole batch, but a ``send`` per frame costs a busy server more CPU per action than one per
client per batch (a batch sends a client 3-4 frames: the reply, the events, ``turn``,
``legal``); why not always ``send_all`` from the writer task: waking a task and going through
``send_all`` for every receiver of every batch cost as many instructions as all the rest of an
action's work together (docs/BENCHMARKS.md, "The write path and the plain server" and
"2026-12-06: the write path, at once when the server is idle", measured side by side).
tests/test_server_outbox.py checks that what a client receives is exactly what the plain way
(every frame through ``send_all``) delivers, at once or at a batch's end, whatever the socket
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
from trio.lowlevel import RunVar

LINGER = 1.0  # s: how long a closing connection waits for the peer to read its last message


class Flusher(trio.abc.Instrument):
    """When frames are written (the module docstring), for every outbox of one trio run:
    ``at_once`` while a batch that found the server idle is under way; else ``due(outbox)``
    asks for ``outbox.flush()``, which ``flush()`` does at the batch's end, and ``run`` (a
    system task) once the sending task yields, for what no batch's end wrote. There is one per
    trio run (``flusher()``): an instrument of the run, to see it idle, and a system task."""

    def __init__(self) -> None:
        self._due: list[Outbox] = []
        self._wake = trio.Event()
        self.idle = True  # trio had nothing to run (and waited for I/O) since a batch last began
        self.at_once = False  # the batch under way found the server idle: frames go out at once

    def before_io_wait(self, timeout: float) -> None:
        """trio is about to wait for I/O: with nothing to run when ``timeout`` > 0 (it only
        polls while tasks are runnable). Under a ``MockClock`` that autojumps, or while a task
        is in ``wait_all_tasks_blocked``, trio always polls: every batch is written at its end
        (tests/test_server_outbox.py checks both ways; the tests over TCP see the server idle)."""
        if timeout > 0:
            self.idle = True

    def begin(self) -> None:
        """A batch begins: its frames go out at once if the server was idle until now."""
        self.at_once, self.idle = self.idle, False

    def due(self, outbox: Outbox) -> None:
        if not self._due:
            self._wake.set()
        self._due.append(outbox)

    def flush(self) -> None:
        """A batch ends (or the flusher's task runs): write what is due now."""
        self.at_once = False
        due, self._due = self._due, []
        for outbox in due:
            outbox.flush()

    async def run(self) -> None:
        """Until cancelled: flush what is due, each time something is."""
        while True:
            await self._wake.wait()
            self._wake = trio.Event()
            self.flush()


_FLUSHER: RunVar[Flusher] = RunVar("neveryu_flusher")


def flusher() -> Flusher:
    """This trio run's ``Flusher``, made (an instrument, and a system task) on first use."""
    try:
        return _FLUSHER.get()
    except LookupError:
        made = Flusher()
        _FLUSHER.set(made)
        trio.lowlevel.add_instrument(made)
        trio.lowlevel.spawn_system_task(made.run, name="neveryu outbox flusher")
        return made


def begin_batch() -> None:
    """A batch begins (``Flusher.begin``)."""
    flusher().begin()


def end_batch() -> None:
    """The batch ends: what it sent and was not written yet goes out (``Flusher.flush``)."""
    flusher().flush()


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
        self.flusher = flusher()
        self.limit = limit
        self.send_s = send_s
        self.heartbeat_s = heartbeat_s
        self.on_idle = on_idle
        self.on_full = on_full
        self._queue: collections.deque[bytes] = collections.deque()  # whole frames
        self._rest = b""  # the rest of a frame begun (a write the socket took in part): first out
        self._writing = False  # the writer is in a send_all: nothing may be written before it ends
        self._flush_due = False  # the flusher will write the queue
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
        """Send ``frame`` to the client without waiting: written at once when the batch under
        way found the server idle and nothing is ahead of it, else queued and written with what
        else the batch sends (by the flusher when the writer is idle, else by the writer).
        Ignored once a last message is queued."""
        if self._closing:
            return
        if self.flusher.at_once and not (self._writing or self._rest or self._queue):
            self._send_now(frame)
            return
        self._queue.append(frame)
        if len(self._queue) > self.limit:
            self._queue.clear()
            self.send_last(self.on_full())
        elif self._writing:
            self._wake.set()
        elif not self._flush_due:
            self._flush_due = True
            self.flusher.due(self)

    def flush(self) -> None:
        """Write the queue with one non-blocking ``send`` (the flusher calls it)."""
        self._flush_due = False
        if self._writing or self._closing or self._rest or not self._queue:
            return  # the writer has it
        data = b"".join(self._queue)
        self._queue.clear()
        self._drained.set()
        self._send_now(data)

    def _send_now(self, data: bytes) -> None:
        """One non-blocking ``send`` of ``data``; what the socket does not take is left to the
        writer."""
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:  # the peer is gone: the reader or the writer will find out
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
        """Wait until the queue is down to half its limit (a reader's backpressure)."""
        while len(self._queue) > self.limit // 2 and not self._closing:
            self._drained = trio.Event()
            await self._drained.wait()

    async def run(self) -> None:
        """Write what ``send`` queued until the last message is written (or writing fails);
        then return, and the connection closes. The heartbeat timer and each write's deadline
        are two scopes: a heartbeat that fell due while the writer was woken must not cancel
        the write that follows."""
        while True:
            with trio.move_on_at(self.last_written_at + self.heartbeat_s):
                await self._wake.wait()
            if not self._wake.is_set():
                now = trio.current_time()
                if now >= self.last_written_at + self.heartbeat_s:  # (a flush may have written)
                    self.on_idle()  # nothing written for heartbeat_ms: it sends a heartbeat
                    self.last_written_at = now  # (the next one is due heartbeat_ms from now)
                continue
            self._wake = trio.Event()  # (what is queued from now on wakes the next round)
            closing = self._closing
            data = self._take(closing)
            if data:
                self._writing = True
                written = await self._write(data)
                self._writing = False
                if not written:
                    return
            if closing:
                await self._close()
                return

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
