"""One client connection: a reader, one writer, and a bounded outgoing queue.

The reader feeds bytes to a sans-IO ``protocol.Connection`` and hands each request to the
server, which handles it at once (its table's part too). Messages for the client are
``push``ed and never waited on: inside a ``Server.batch`` (one request, one table deadline)
they gather on the connection, and when the batch is over (or at ``Server.flush``, its first
event's frames) ``flush`` writes them: with one
non-blocking ``send`` on the socket when nothing else waits to be written, else (and whatever
that ``send`` did not take) onto the bounded queue of the writer task, which writes it under
``send_ms`` and sends heartbeats. When the queue is full the client has fallen behind and the
connection is dropped (its session may resume). Every wait on the peer has a deadline: the
handshake, idle time, and each write.
"""

from __future__ import annotations

import collections
import logging
import math
import os
import socket
from typing import TYPE_CHECKING, Any

import msgpack
import trio
from neveryu import protocol

from ._session import Session, wall_ms

if TYPE_CHECKING:
    from ._server import Server

log = logging.getLogger("neveryu.server")

READ_SIZE = 65_536
ERRORS_LOGGED = 5  # error replies to one connection logged one by one; after that ...
ERROR_LOG_EVERY = 10.0  # s: ... at most one summary line this often per connection
GUESSES = frozenset({"WRONG_TABLE_PASSWORD"})  # errors after which the connection waits a second
LINGER = 1.0  # s: how long a closing connection waits for the peer to read its last message
MAX_BATCH = 64  # queued messages written with one send_all at most
# Set (to anything but 0) to check the wire types of every message the server sends (the tests
# do: tests/conftest.py). Off by default: the walk cost a tenth of the server's CPU per action.
CHECK_SENT = "NEVERYU_CHECK_SENT"


class ClientConnection:
    """The server's side of one TCP connection (a ``Link`` for its session)."""

    def __init__(
        self, server: Server, stream: trio.abc.Stream, address: str, sock: socket.socket | None = None
    ) -> None:
        self.server = server
        self.stream = stream
        self.address = address
        self.sock = sock  # the stream's socket: written to directly when nothing waits (``flush``)
        self._check_sent = os.environ.get(CHECK_SENT, "") not in ("", "0")
        self.wire = protocol.Connection("server", check_sent=self._check_sent)
        # ``push_frame``: frames up to this length go out as they are (longer ones, or all of
        # them when checking, through ``push``)
        self._direct_max = -1 if self._check_sent else protocol.MAX_SERVER_FRAME + 4
        self.session: Session | None = None
        limits = server.config.limits
        # The writer's queue: frames (None: the peer half-closed) and whether each is the last.
        self._out_send, self._out_receive = trio.open_memory_channel[tuple[bytes | None, bool]](limits.outbox)
        self._unwritten = 0  # items put on the queue and not yet written by the writer
        self._pending: list[bytes] = []  # frames pushed in this batch, not yet flushed
        self._pending_final = False  # the last of them is a last message
        self._dirty = False  # on the server's list of connections to flush
        self._slow = False  # too_slow is being handled
        self._tail: bytes | None = None  # the queued rest of a frame a direct send began
        self._last_sent = trio.current_time()  # when something was last written (heartbeat)
        self._read_timer = trio.CancelScope()  # the reader's deadline (``_reader``)
        self.scope = trio.CancelScope()
        self.reason: str | None = None  # why it closed, once it does
        self.detail = ""  # more about the reason, for the log
        self.errors: collections.Counter[str] = collections.Counter()  # error replies sent, by code
        self._errors_unlogged: collections.Counter[str] = collections.Counter()
        self._errors_logged_at = -math.inf
        self._final = False  # a last message (bye, fatal error) is queued: push no more
        self._tokens = float(limits.burst)
        self._refill = trio.current_time()
        self._peer_closed = trio.Event()
        self._drained = trio.Event()
        self._half = limits.outbox // 2
        self._flushing = False  # the peer half-closed; the writer closes once the queue is empty
        self._last_frame = trio.current_time()  # when the last whole frame arrived (idle counts these)
        self._frame_started: float | None = None  # when the frame now arriving began, None: between frames

    def __repr__(self) -> str:
        who = self.session.name if self.session else "?"
        return f"<connection {who!r} from {self.address}>"

    # -- Link: what sessions and tables call ---------------------------------------------------

    def push_frame(self, frame: bytes) -> None:
        """``push`` for a message already framed (the 4-byte length, then its msgpack bytes:
        ``Session.event_packed``, ``Session.ok``): the same, with less work on the server's
        busiest path. Checked (``CHECK_SENT``) as decoded from those bytes."""
        if self._final:
            return
        if len(frame) > self._direct_max:
            body = frame[4:]
            self.push(msgpack.unpackb(body), body=body)
            return
        self._pending.append(frame)
        server = self.server
        if not server._batching:
            self.flush()
        elif not self._dirty:
            self._dirty = True
            server._dirty.append(self)

    def push(self, msg: dict[str, Any], final: bool = False, body: bytes | None = None) -> None:
        """Send ``msg`` without waiting. ``final``: close the connection once it is written.
        ``body``: ``msg`` already msgpack-encoded (``Session.event`` encodes each event once).
        Inside a ``Server.batch`` it waits for the batch to end; else it is flushed at once.
        A full queue means the client stopped reading: the connection is dropped."""
        if self._final:
            return
        if msg.get("t") == "error" and not msg.get("fatal"):
            self._note_error(msg)
        if body is not None and not self._check_sent and len(body) <= protocol.MAX_SERVER_FRAME:
            frame = len(body).to_bytes(4, "big") + body  # what ``wire.send`` makes, with fewer calls
        else:
            try:
                frame = self.wire.send(msg, body)
            except protocol.ProtocolError:
                log.exception("%s: cannot send a %s (a bug)", self, msg.get("t"))
                return
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s <- %s", self, msg.get("t"))
        self._pending.append(frame)
        if final:
            self._final = self._pending_final = True
        if self.server._batching and not final:
            if not self._dirty:
                self._dirty = True
                self.server._dirty.append(self)
        else:
            self.flush()

    def flush(self, now: float | None = None) -> None:
        """Write what was pushed: when the writer has nothing to write and no last message is
        among it, with one non-blocking ``send`` on the socket; what that does not take (or all
        of it otherwise) goes to the writer's queue. Never waits. ``now``: trio's clock, if the
        caller has it."""
        self._dirty = False
        frames, final = self._pending, self._pending_final
        if not frames:
            return
        self._pending, self._pending_final = [], False
        if (
            self.sock is not None and not self._unwritten and not final and self.reason is None
        ):  # (reason: closing)
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            try:
                sent = self.sock.send(data)
            except BlockingIOError:
                sent = 0
            except OSError:
                self.drop("broken")
                return
            if sent:
                self._last_sent = trio.current_time() if now is None else now
            if sent == len(data):
                return
            frames = [data[sent:]]
            self._tail = frames[0]  # the rest of a frame begun: it must not be thrown away
        last = len(frames) - 1
        for i, frame in enumerate(frames):
            try:
                self._out_send.send_nowait((frame, final and i == last))
            except trio.WouldBlock:
                self._too_slow()
                return
            self._unwritten += 1

    def _note_error(self, msg: dict[str, Any]) -> None:
        """Log a non-fatal error reply without flooding: the first ``ERRORS_LOGGED`` of a
        connection one by one, then one summary line at most every ``ERROR_LOG_EVERY`` s."""
        code = msg.get("code", "?")
        self.errors[code] += 1
        if code in GUESSES:  # a second's worth of requests: guessing takes ages
            self._tokens = min(self._tokens, 0.0) - self.server.config.limits.rate
        if sum(self.errors.values()) <= ERRORS_LOGGED:
            log.info("%s: error %s (%r)", self, code, msg.get("msg"))
            return
        self._errors_unlogged[code] += 1
        now = trio.current_time()
        if now >= self._errors_logged_at + ERROR_LOG_EVERY:
            self._log_unlogged_errors()
            self._errors_logged_at = now

    def _log_unlogged_errors(self) -> None:
        if self._errors_unlogged:
            counts = ", ".join(f"{code} x{n}" for code, n in self._errors_unlogged.most_common())
            log.info("%s: more errors: %s", self, counts)
            self._errors_unlogged.clear()

    def _end_after_flush(self) -> None:
        """The peer will send no more: write what is queued, then close."""
        try:
            self._out_send.send_nowait((None, True))
        except trio.WouldBlock:
            return
        self._unwritten += 1
        self._final = self._flushing = True

    def _too_slow(self) -> None:
        """The queue is full: the client stopped reading. What is queued is thrown away (its
        session keeps its events for a resume) and ``bye`` "too_slow" goes out instead."""
        if self._slow:  # not even the bye fits
            self.drop("too_slow")
            return
        self._slow = True
        cut = False  # a frame's first bytes went out and the rest was thrown away
        while True:
            try:
                frame, _ = self._out_receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            self._unwritten -= 1
            cut = cut or (frame is not None and frame is self._tail)
        self._tail = None
        self._pending, self._pending_final, self._final = [], False, False
        if cut:  # a bye after half a frame could not be read: close without one
            self.drop("too_slow")
            return
        self.bye("too_slow")

    def _closing(self, reason: str, detail: str = "") -> None:
        """Remember the first reason the connection closes for (logged once, by ``run``)."""
        if self.reason is None:
            self.reason, self.detail = reason, detail

    def drop(self, reason: str) -> None:
        """Close now, without flushing (the session may resume)."""
        self._closing(reason)
        self.scope.cancel()

    def bye(self, reason: str) -> None:
        """Send ``bye`` and close once it is written (shutdown, replaced by a resume, idle,
        frame_timeout, too_slow)."""
        self._closing(reason, "bye")
        if self._final:
            return
        seq = self.session.seq + 1 if self.session else 1
        if self.session is not None:
            self.session.seq = seq
        if self.queued >= self.server.config.limits.outbox:  # not even the bye fits
            self.scope.cancel()
            return
        self.push({"t": "bye", "reason": reason, "seq": seq, "ts": wall_ms()}, final=True)

    def fatal(self, exc: protocol.ProtocolError) -> None:
        """Send a fatal error and close once it is written."""
        self._closing(exc.code, exc.msg)
        self.push(exc.to_wire(), final=True)

    # -- the tasks ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Read and write until the peer goes, a deadline passes, or ``drop``/``bye``."""
        try:
            with self.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer)
                    await self._reader()
                    self._closing("closed", "by the peer")
                    if not self._flushing:
                        self.scope.cancel()
        finally:
            self._closing("closed")
            self._log_unlogged_errors()
            log.info(
                "connection from %s (%s) closed: %s%s%s",
                self.address,
                f"name {self.session.name!r}" if self.session else "no hello",
                self.reason,
                f" ({self.detail})" if self.detail else "",
                f"; errors sent: {dict(self.errors)}" if self.errors else "",
            )

    async def _writer(self) -> None:
        """Write what is queued: after the first frame, everything else already waiting (up to
        a last one, at most ``MAX_BATCH``) goes out with one ``send_all`` within ``send_ms``
        (else the connection is dropped: "send_timeout"). One cancel scope is both the heartbeat
        timer (while waiting: ``heartbeat_ms`` after the last write, this task's or ``flush``'s)
        and the send deadline (while writing): moving its deadline costs far less than a new
        scope for each wait. A scope once cancelled stays so: a batch taken just as the heartbeat
        deadline passed is written under a fresh one."""
        limits = self.server.config.limits
        heartbeat, send_s = limits.heartbeat_ms / 1000, limits.send_ms / 1000
        items: list[tuple[bytes | None, bool]] | None = None  # taken, not yet written
        while True:
            sending = final = False
            last = None
            with trio.CancelScope() as timer:
                while not final:
                    if items is None:
                        sending = False
                        timer.deadline = self._last_sent + heartbeat
                        items = await self._take()
                        if timer.cancel_called:  # the heartbeat deadline passed as the batch came
                            break
                    sending = True
                    timer.deadline = trio.current_time() + send_s
                    await self._send(items)
                    self._unwritten -= len(items)
                    self._last_sent = trio.current_time()
                    last, final = items[-1]
                    items = None
            if final:
                if last is not None:  # a last message (bye, fatal error); None: the peer half-closed
                    await self._linger()
                self.scope.cancel()
                return
            if timer.cancelled_caught and sending:  # the send deadline passed
                self.drop("send_timeout")
                await trio.lowlevel.checkpoint()
                return
            if (
                items is None and trio.current_time() >= self._last_sent + heartbeat
            ):  # nothing sent for a while
                self._last_sent = trio.current_time()  # (the next heartbeat is due from now)
                if self.session is not None and not self._final:
                    self.session.event({"t": "heartbeat"}, keep=False)

    async def _take(self) -> list[tuple[bytes | None, bool]]:
        """The next queued frame and everything behind it, up to a last one or ``MAX_BATCH``."""
        items = [await self._out_receive.receive()]
        while not items[-1][1] and len(items) < MAX_BATCH:
            try:
                items.append(self._out_receive.receive_nowait())
            except trio.WouldBlock:
                break
        if self.queued <= self._half:
            self._drained.set()
        return items

    async def _send(self, items: list[tuple[bytes | None, bool]]) -> None:
        """Write the frames of ``items`` with one ``send_all``."""
        frames = [frame for frame, _ in items if frame is not None]
        if not frames:
            return
        try:
            await self.stream.send_all(frames[0] if len(frames) == 1 else b"".join(frames))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.drop("broken")
            await trio.lowlevel.checkpoint()

    async def _linger(self) -> None:
        """After the last message: half-close and give the peer a moment to read it and close
        (closing with unread input would reset the connection and could lose the message)."""
        with trio.move_on_after(LINGER):
            try:
                await self.stream.send_eof()  # type: ignore[attr-defined]
            except (AttributeError, trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                return
            await self._peer_closed.wait()

    def _deadline(self) -> tuple[float, str]:
        """When the reader gives up on the peer, and why. Before ``hello``: the handshake time.
        After: ``idle_ms`` after the last *whole* frame (bytes dribbled in one by one are no sign
        of life), and a frame once begun must be complete within ``frame_ms`` (slowloris)."""
        limits = self.server.config.limits
        if self._final:
            return math.inf, ""  # the writer decides when to close
        if self.session is None:
            return self._opened + limits.handshake_ms / 1000, "hello"
        deadline, why = self._last_frame + limits.idle_ms / 1000, "idle"
        if self._frame_started is not None and self._frame_started + limits.frame_ms / 1000 < deadline:
            deadline, why = self._frame_started + limits.frame_ms / 1000, "frame_timeout"
        return deadline, why

    async def _reader(self) -> None:
        """Read and hand each request to the server, under ``_deadline``. One cancel scope
        serves every read while none times out (a new scope for each read cost a tenth of the
        server's CPU per action). Its deadline only moves earlier (moving it is not free
        either): when it passes, the deadline is read again, and a later one gets a new scope."""
        self._opened = trio.current_time()
        try:
            while True:
                with trio.CancelScope() as self._read_timer:
                    while True:
                        deadline, why = self._deadline()
                        if deadline < self._read_timer.deadline:
                            self._read_timer.deadline = deadline
                        try:
                            if self.sock is None:
                                data = await self.stream.receive_some(READ_SIZE)
                            else:  # wait, then read: one system call fewer than receive_some's try first
                                await trio.lowlevel.wait_readable(self.sock)
                                try:
                                    data = self.sock.recv(READ_SIZE)
                                except BlockingIOError:
                                    continue
                        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                            self._closing("reset", "by the peer")
                            return
                        if not data:
                            if not self._final:  # a half-close: what is queued still goes out
                                self._end_after_flush()
                            return
                        if not self._final:
                            self.wire.receive_data(data)
                            now = trio.current_time()
                            if self._frame_started is None:
                                self._frame_started = now
                            await self._take_messages(now)
                deadline, why = self._deadline()
                if trio.current_time() < deadline:  # it moved on since: wait for it
                    continue
                if why == "hello":
                    self.fatal(protocol.error("HELLO_TIMEOUT", "no hello in time"))
                else:
                    self.bye(why)
        finally:
            self._peer_closed.set()

    async def _take_messages(self, now: float) -> None:
        """Handle every whole request read so far. ``now``: trio's clock when the bytes were
        read (after a wait for backpressure, read again): the time of their frames and of the
        batch their requests make (``Server.batch_time``)."""
        while not self._final:
            # Backpressure: a client's own requests wait while its replies pile up, so only
            # what others send it (its table's events) can overflow the queue.
            while self._unwritten > self._half and self.queued > self._half and not self._final:
                self._drained = trio.Event()
                self._read_timer.deadline = math.inf  # no read is waited for meanwhile
                await self._drained.wait()
                now = trio.current_time()
            try:
                msg = self.wire.next_message()
            except protocol.ProtocolError as exc:
                if exc.fatal:
                    self.fatal(exc)
                    return
                self._frame_done(now)
                self.push(exc.to_wire())
                continue
            if msg is None:
                return
            self._frame_done(now)
            if log.isEnabledFor(logging.DEBUG):
                log.debug("%s -> %s", self, msg.get("t"))
            if not self._take_token(now):
                self.push(
                    protocol.error("RATE_LIMITED", "too many requests; slow down", re=msg["id"]).to_wire()
                )
                continue
            server = self.server
            server._batching += 1  # server.batch(): what the request sends is written once it is handled
            server.batch_time = now
            try:
                server.dispatch(self, msg)
            except Exception:
                if not self.errors["INTERNAL_ERROR"]:  # one traceback per connection, then counts
                    log.exception("%s: failed to handle %s", self, msg.get("t"))
                self.push(
                    protocol.error(
                        "INTERNAL_ERROR", "the server failed to handle this request", re=msg["id"]
                    ).to_wire()
                )
            finally:
                server.end_batch()

    def _frame_done(self, now: float) -> None:
        """A whole frame arrived: a sign of life; the next one's clock starts with its bytes."""
        self._last_frame = now
        self._frame_started = now if self.wire.buffered else None

    def _take_token(self, now: float) -> bool:
        """A token bucket: ``rate`` requests per second on average, ``burst`` at once."""
        limits = self.server.config.limits
        self._tokens = min(float(limits.burst), self._tokens + (now - self._refill) * limits.rate)
        self._refill = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    @property
    def queued(self) -> int:
        """Messages waiting for the writer (bounded by ``limits.outbox``)."""
        return self._out_send.statistics().current_buffer_used
