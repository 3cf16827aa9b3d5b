"""One client connection: its reader, and its outbox (``_outbox.Outbox``, the writer).

The reader feeds the bytes it reads to a sans-IO ``protocol.Connection`` and hands each request
to the server, which handles it at once (its table's part too) and answers through the
session's outbox. Every wait on the peer has a deadline: the handshake, idle time, a frame once
begun (``_deadline``). A client that sends too many requests is refused (``RATE_LIMITED``); its
frames are decoded no faster than its byte budget allows (``_pace``: it waits, with no error);
and one whose own replies pile up unread is not read until they drain (backpressure).
"""

from __future__ import annotations

import collections
import logging
import math
from collections.abc import Awaitable, Callable

import trio

from neveryu import protocol

from ._config import FRAME_BYTES, Limits
from ._outbox import Outbox, batch
from ._session import Link, Session, error_frame

log = logging.getLogger("neveryu.server")

READ_SIZE = 65_536
ERRORS_LOGGED = 5  # error replies to one connection logged one by one; after that ...
ERROR_LOG_EVERY = 10.0  # s: ... at most one summary line this often per connection
GUESSES = frozenset({"WRONG_TABLE_PASSWORD"})  # errors after which the connection waits a second


class ClientConnection:
    """The server's side of one connection (the ``Link`` of its session), from ``address``,
    under ``limits``. ``run`` serves it until the peer goes, a deadline passes, or
    ``drop``/``bye``/``fatal``; each request read is handed to ``dispatch(connection,
    request)``, at once; what it returns, if anything, is awaited before the next request (a
    request answered from another thread: the records')."""

    def __init__(
        self,
        stream: trio.SocketStream,
        address: str,
        limits: Limits,
        dispatch: Callable[[ClientConnection, protocol.Request], Awaitable[None] | None],
    ) -> None:
        self.stream = stream
        self.address = address
        self.limits = limits
        self.dispatch = dispatch
        self.wire = protocol.Connection("server")
        self.session: Session | None = None
        self.outbox = Outbox(
            stream,
            limit=limits.outbox,
            send_s=limits.send_ms / 1000,
            heartbeat_s=limits.heartbeat_ms / 1000,
            on_idle=self._heartbeat,
            on_full=self._too_slow,
        )
        self.scope = trio.CancelScope()
        self.closed = trio.Event()
        self.reason: str | None = None  # why it closed, once it does
        self.detail = ""  # more about the reason, for the log
        self.errors: collections.Counter[str] = collections.Counter()  # error replies sent, by code
        self._errors_unlogged: collections.Counter[str] = collections.Counter()
        self._errors_logged_at = -math.inf
        now = trio.current_time()
        self._opened = now
        self._tokens = float(limits.burst)
        self._refill = now
        self._bytes = float(limits.byte_burst)  # the byte budget (``_pace``)
        self._bytes_refill = now
        self._last_frame = now  # when the last whole frame arrived (idle counts these)
        self._frame_started: float | None = None  # when the frame now arriving began
        self._timer = trio.CancelScope()  # the reader's deadline (``_read``)

    def __repr__(self) -> str:
        who = self.session.name if self.session else "?"
        return f"<connection {who!r} from {self.address}>"

    @property
    def queued(self) -> int:
        """Frames waiting to be written (at most ``limits.outbox``)."""
        return self.outbox.queued

    def attach(self, session: Session) -> Link | None:
        """Serve ``session`` from now on (after its ``hello``): this connection is its link
        (``Session.attach``). Returns the link it replaces, if any (the caller closes it)."""
        self.session = session
        return session.attach(self)

    # -- Link: what sessions and tables call -------------------------------------------------------

    def send(self, frame: bytes) -> None:
        """Queue a frame for the client (``Outbox.send``); never waits."""
        self.outbox.send(frame)

    def note_error(self, code: str, msg: str) -> None:
        """A non-fatal error reply is being sent: count it, and log it without flooding (the
        first ``ERRORS_LOGGED`` one by one, then a summary at most every ``ERROR_LOG_EVERY``)."""
        self.errors[code] += 1
        if code in GUESSES:  # a second's worth of requests: guessing takes ages
            self._tokens = min(self._tokens, 0.0) - self.limits.rate
        if sum(self.errors.values()) <= ERRORS_LOGGED:
            log.info("%s: error %s (%r)", self, code, msg)
            return
        self._errors_unlogged[code] += 1
        now = trio.current_time()
        if now >= self._errors_logged_at + ERROR_LOG_EVERY:
            self._log_unlogged_errors()
            self._errors_logged_at = now

    def bye(self, reason: str) -> None:
        """Send ``bye`` and close once it is written (shutdown, replaced by a resume, idle,
        frame_timeout)."""
        self._closing(reason, "bye")
        self.outbox.send_last(self._bye_frame(reason))

    def fatal(self, exc: protocol.ProtocolError) -> None:
        """Send a fatal error and close once it is written."""
        self._closing(exc.code, exc.msg)
        self.outbox.send_last(protocol.encode_frame(protocol.Error.of(exc).to_wire()))

    def drop(self, reason: str) -> None:
        """Close now, writing nothing more (the session may resume)."""
        self._closing(reason)
        self.scope.cancel()

    def _bye_frame(self, reason: str) -> bytes | None:
        if self.session is None:
            return None
        return self.session.frame_event(protocol.Bye.wire_map(reason=reason))

    def _closing(self, reason: str, detail: str = "") -> None:
        """Remember the first reason the connection closes for (logged once, by ``run``)."""
        if self.reason is None:
            self.reason, self.detail = reason, detail

    def _heartbeat(self) -> None:
        if self.session is not None:
            self.session.event(protocol.Heartbeat.wire_map(), keep=False)

    def _too_slow(self) -> bytes | None:
        """The outbox overflowed: the client stopped reading. Its session keeps its events for a
        resume; ``bye`` "too_slow" goes out, if the client ever reads again."""
        self._closing("too_slow", "the client stopped reading")
        return self._bye_frame("too_slow")

    # -- the tasks ------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Read and write until the connection closes."""
        try:
            with self.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._write)
                    await self._read()
        finally:
            self._closing("closed")
            self._log_closed()
            self.closed.set()

    async def _write(self) -> None:
        await self.outbox.run()
        if self.outbox.failure is not None:
            self._closing(self.outbox.failure)
        self.scope.cancel()  # everything is written, or nothing more can be: the connection ends

    async def _read(self) -> None:
        """Read and hand each request to the server, under ``_deadline``. As the outbox's
        writer does, it keeps one cancel scope for its deadline and moves it (later, when a
        frame arrived; earlier, when one begins), making a new one only when it fires."""
        try:
            while True:
                with trio.CancelScope() as self._timer:
                    while True:
                        self._timer.deadline, why = self._deadline()
                        data = await self.stream.receive_some(READ_SIZE)
                        if not data:  # the peer closed its side: what is queued still goes out
                            self._closing("closed", "by the peer")
                            self.outbox.end()
                            return
                        if self.reason is None:  # (once closing, what arrives is not read)
                            self.wire.receive_data(data)
                            now = trio.current_time()
                            if self._frame_started is None:
                                self._frame_started = now
                            await self._take_requests(now)
                self._timed_out(why)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self.drop("reset")  # nothing can be written any more either
        finally:
            self.outbox.peer_closed.set()

    def _deadline(self) -> tuple[float, str]:
        """When the reader gives up on the peer, and why. Before ``hello``: the handshake time.
        After: ``idle_ms`` after the last *whole* frame (bytes dribbled in one by one are no sign
        of life), and a frame once begun must be complete within ``frame_ms`` (slowloris)."""
        limits = self.limits
        if self.reason is not None:
            return math.inf, ""  # closing: the writer decides when
        if self.session is None:
            return self._opened + limits.handshake_ms / 1000, "hello"
        deadline, why = self._last_frame + limits.idle_ms / 1000, "idle"
        if self._frame_started is not None and self._frame_started + limits.frame_ms / 1000 < deadline:
            deadline, why = self._frame_started + limits.frame_ms / 1000, "frame_timeout"
        return deadline, why

    def _timed_out(self, why: str) -> None:
        if why == "hello":
            self.fatal(protocol.error("HELLO_TIMEOUT", "no hello in time"))
        elif why:
            self.bye(why)

    async def _take_requests(self, now: float) -> None:
        """Handle every whole request read so far, one after another. ``now``: trio's clock when
        their bytes were read."""
        while self.reason is None:
            # Backpressure: a client's own requests wait while its replies pile up, so only
            # what others send it (its table's events) can overflow the outbox.
            if self.outbox.behind:
                self._timer.deadline = math.inf  # no read is waited for meanwhile
                await self.outbox.wait_drained()
                now = trio.current_time()
            size = self.wire.whole_frame()
            if size is not None:
                now = await self._pace(size, now)
            try:
                request = self.wire.next_request()
            except protocol.RemoteProtocolError as exc:
                if exc.fatal:
                    self.fatal(exc)
                    return
                self._frame_done(now)
                self._reply_error(exc.re, exc.code, exc.msg)
                continue
            if request is None:
                return
            self._frame_done(now)
            if log.isEnabledFor(logging.DEBUG):
                log.debug("%s -> %s", self, request.t)
            if not self._take_token(now):
                self._reply_error(request.id, "RATE_LIMITED", "too many requests; slow down")
                continue
            with batch():  # (what the request sent goes out at its end, also when cancelled)
                try:
                    pending = self.dispatch(self, request)
                    if pending is not None:
                        await pending
                except Exception:
                    if not self.errors["INTERNAL_ERROR"]:  # one traceback per connection, then counts
                        log.exception("%s: failed to handle %s", self, request.t)
                    self._reply_error(
                        request.id, "INTERNAL_ERROR", "the server failed to handle this request"
                    )

    def _reply_error(self, rid: int | None, code: str, msg: str) -> None:
        self.note_error(code, msg)
        self.send(error_frame(rid, code, msg))

    def _frame_done(self, now: float) -> None:
        """A whole frame arrived: a sign of life; the next one's clock starts with its bytes."""
        self._last_frame = now
        self._frame_started = now if self.wire.buffered else None

    async def _pace(self, size: int, now: float) -> float:
        """The byte budget: a token bucket of ``byte_rate`` bytes per second, ``byte_burst`` at
        most, from which each frame takes its ``size`` plus ``FRAME_BYTES`` before it is decoded.
        When it holds too little, wait until it holds enough (reading nothing meanwhile, so TCP
        pushes back on the client; the wait is not counted against the client's deadlines).
        Returns trio's clock after the wait (``now`` when there was none)."""
        limits, cost = self.limits, size + FRAME_BYTES
        refilled = self._bytes + (now - self._bytes_refill) * limits.byte_rate
        self._bytes = min(float(limits.byte_burst), refilled)
        self._bytes_refill = now
        if self._bytes < cost:
            self._timer.deadline = math.inf  # the server's own wait: no deadline of the client's runs
            await trio.sleep((cost - self._bytes) / limits.byte_rate)
            now = trio.current_time()
            self._bytes, self._bytes_refill = float(cost), now
        self._bytes -= cost
        return now

    def _take_token(self, now: float) -> bool:
        """A token bucket: ``rate`` requests per second on average, ``burst`` at once."""
        limits = self.limits
        self._tokens = min(float(limits.burst), self._tokens + (now - self._refill) * limits.rate)
        self._refill = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    # -- the log ----------------------------------------------------------------------------------------

    def _log_unlogged_errors(self) -> None:
        if self._errors_unlogged:
            counts = ", ".join(f"{code} x{n}" for code, n in self._errors_unlogged.most_common())
            log.info("%s: more errors: %s", self, counts)
            self._errors_unlogged.clear()

    def _log_closed(self) -> None:
        self._log_unlogged_errors()
        detail = self.detail
        if detail == "bye" and not self.outbox.last_written:
            detail = "bye not delivered"
        elif self.reason == "too_slow":
            detail += "; bye " + ("delivered" if self.outbox.last_written else "not delivered")
        log.info(
            "connection from %s (%s) closed: %s%s%s",
            self.address,
            f"name {self.session.name!r}" if self.session else "no hello",
            self.reason,
            f" ({detail})" if detail else "",
            f"; errors sent: {dict(self.errors)}" if self.errors else "",
        )
