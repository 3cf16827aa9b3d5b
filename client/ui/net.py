"""The client's network side: trio running as a guest on prompt-toolkit's asyncio loop.

``Net`` connects to a server, says ``hello``, numbers and writes requests, reads and checks
messages (``protocol.Connection``), and hands every message to ``deliver(msg)`` in the loop's
thread. A lost connection is reported as ``{"t": "_connection", "status": "lost"}`` and retried
with the session token and the last seen ``seq`` (DESIGN.md, "Resume"); ``bye`` or a fatal error
ends it. The reply to our own ``leave`` is delivered as ``{"t": "_left"}``.

``start()`` begins the guest run (``trio.lowlevel.start_guest_run`` with
``host_uses_signal_set_wakeup_fd=True``: prompt-toolkit owns the signal wakeup fd);
``await aclose()`` cancels it and waits for it to finish. The done callback receives an
``outcome`` that may hold an exception group; ``error`` keeps it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable

import trio

from neveryu import protocol

log = logging.getLogger("neveryu.client")

CONNECT_TIMEOUT_S = 5.0
RETRY_DELAYS_S = (0.5, 1.0, 2.0, 3.0, 5.0)


class Net:
    """One client connection to ``host``:``port``.

    ``hello``: the fields of the ``hello`` request besides ``t``/``id``/``resume``
    (``proto``, ``client``, ``name``, ``password``). ``on_welcome(msg, resumed)`` runs after each
    ``welcome`` (it may ``send``). ``retry``: resume after a drop (False in tests of a single
    connection).
    """

    def __init__(
        self,
        host: str,
        port: int,
        hello: dict,
        deliver: Callable[[dict], None],
        *,
        on_welcome: Callable[[dict, bool], None] = lambda msg, resumed: None,
        on_done: Callable[[BaseException | None], None] = lambda exc: None,
        retry: bool = True,
    ) -> None:
        self.host, self.port = host, port
        self.hello = dict(hello)
        self.deliver = deliver
        self.on_welcome = on_welcome
        self.on_done = on_done
        self.retry = retry
        self.session: str | None = None
        self.last_seq = 0
        self.error: BaseException | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, str] = {}
        self._queue: list[dict] = []
        self._send_channel: trio.MemorySendChannel | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._cancel: trio.CancelScope | None = None
        self._done: asyncio.Future | None = None
        self._closing = False
        self._session_scope: trio.CancelScope | None = None

    # -- from the host (asyncio) side ------------------------------------------------------------

    def start(self) -> None:
        """Start trio as a guest of the running asyncio loop."""
        loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        trio.lowlevel.start_guest_run(
            self._main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            done_callback=self._finished,
            host_uses_signal_set_wakeup_fd=True,
        )

    def send(self, request: dict) -> None:
        """Queue ``request`` (a dict without ``id``); it is numbered and written in order. Requests
        made while disconnected wait for the connection."""
        if self._token is None or self._send_channel is None:
            self._queue.append(request)
            return
        channel = self._send_channel

        def put() -> None:
            try:
                channel.send_nowait(request)
            except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
                log.warning("request dropped: %s", request.get("t"))

        try:
            self._token.run_sync_soon(put)
        except trio.RunFinishedError:
            pass

    def drop(self) -> None:
        """Close the current connection as if the network had failed (tests; the client then
        resumes)."""
        scope = self._session_scope
        if self._token is not None and scope is not None:
            self._token.run_sync_soon(scope.cancel)

    async def aclose(self) -> None:
        """Cancel the trio run and wait until it has finished."""
        self._closing = True
        if self._token is not None and self._cancel is not None:
            try:
                self._token.run_sync_soon(self._cancel.cancel)
            except trio.RunFinishedError:
                pass
        if self._done is not None:
            await self._done

    def _finished(self, result) -> None:
        try:
            result.unwrap()
        except BaseException as exc:  # an exception group from the nursery, or one error
            self.error = exc
            log.debug("network side ended with %r", exc)
        if self._done is not None and not self._done.done():
            self._done.set_result(None)
        self.on_done(self.error)

    # -- the trio side -------------------------------------------------------------------------

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        send, receive = trio.open_memory_channel[dict](256)
        self._send_channel = send
        for request in self._queue:
            send.send_nowait(request)
        self._queue.clear()
        with trio.CancelScope() as self._cancel:
            attempt = 0
            while True:
                reason = await self._session(receive)
                if reason is None or not self.retry or self._closing:
                    return
                delay = RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)]
                attempt += 1
                self.deliver({"t": "_connection", "status": "lost", "reason": reason})
                await trio.sleep(delay)
                if self.session is not None:
                    self.deliver({"t": "_connection", "status": "resuming"})

    async def _session(self, requests: trio.MemoryReceiveChannel) -> str | None:
        """One connection, from connect to close. Returns why it was lost (retry), or None when
        it ended for good (``bye``, a fatal error, or never connected)."""
        try:
            with trio.fail_after(CONNECT_TIMEOUT_S):
                stream = await trio.open_tcp_stream(self.host, self.port)
        except (OSError, trio.TooSlowError) as exc:
            if self.session is None:
                self.deliver(
                    {
                        "t": "_connection",
                        "status": "closed",
                        "reason": f"cannot connect to {self.host}:{self.port}: {exc or 'timed out'}",
                    }
                )
                return None
            return str(exc) or type(exc).__name__
        conn = protocol.Connection("client")
        self._lock = trio.Lock()
        ended: list[str | None] = ["closed"]
        async with stream:
            hello = {"t": "hello", **self.hello}
            if self.session is not None:
                hello["resume"] = {"token": self.session, "last_seq": self.last_seq}
            await self._write(stream, conn, hello)
            try:
                async with trio.open_nursery() as nursery:
                    self._session_scope = nursery.cancel_scope
                    nursery.start_soon(self._reader, stream, conn, nursery, ended)
                    nursery.start_soon(self._writer, stream, conn, requests)
                    nursery.start_soon(self._pinger, stream, conn)
            except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as group:
                ended[0] = str(group.exceptions[0]) or "connection lost"
        return ended[0]

    async def _write(self, stream, conn, request: dict) -> None:
        rid = next(self._ids)
        self._pending[rid] = request["t"]
        frame = conn.send({**request, "id": rid})
        async with self._lock:
            await stream.send_all(frame)

    async def _writer(self, stream, conn, requests) -> None:
        async for request in requests:
            await self._write(stream, conn, request)

    async def _pinger(self, stream, conn) -> None:
        while True:
            await trio.sleep(self._heartbeat_s)
            await self._write(stream, conn, {"t": "ping"})

    _heartbeat_s = protocol.HEARTBEAT_MS / 1000.0

    _idle_s = protocol.IDLE_TIMEOUT_MS / 1000.0

    async def _reader(self, stream, conn, nursery, ended: list) -> None:
        while True:
            data = b""
            with trio.move_on_after(self._idle_s) as idle:
                data = await stream.receive_some(65536)
            if idle.cancelled_caught:  # docs/PROTOCOL.md: a silent server is dropped, then resumed
                ended[0] = "the server went silent"
                nursery.cancel_scope.cancel()
                return
            if not data:
                ended[0] = "the server closed the connection"
                nursery.cancel_scope.cancel()
                return
            conn.receive_data(data)
            while True:
                try:
                    msg = conn.next_message()
                except protocol.ProtocolError as exc:
                    if exc.fatal:
                        ended[0] = None
                        self.deliver({"t": "_connection", "status": "closed", "reason": f"{exc.code}: {exc}"})
                        nursery.cancel_scope.cancel()
                        return
                    continue
                if msg is None:
                    break
                if self._handle(msg):
                    ended[0] = None
                    nursery.cancel_scope.cancel()
                    return

    def _handle(self, msg: dict) -> bool:
        """Deliver one message; True when the connection is over for good."""
        seq = msg.get("seq")
        if type(seq) is int and seq > self.last_seq:
            self.last_seq = seq
        t = msg.get("t")
        asked = self._pending.pop(msg["re"], None) if type(msg.get("re")) is int else None
        if t == "pong" or t == "heartbeat":
            return False
        if t == "welcome":
            resumed = bool(msg.get("resumed"))
            self.session = msg.get("session") or self.session
            if type(msg.get("heartbeat_ms")) is int:
                self._heartbeat_s = max(0.5, msg["heartbeat_ms"] / 2000.0)
            limits = msg.get("limits") if isinstance(msg.get("limits"), dict) else {}
            if type(limits.get("idle_ms")) is int:
                self._idle_s = max(1.0, limits["idle_ms"] / 1000.0)
            self.deliver(msg)
            self.on_welcome(msg, resumed)
            return False
        if t == "ok" and asked == "leave":
            self.deliver({"t": "_left"})
            self.send({"t": "list_tables"})
            return False
        if t == "error" and msg.get("fatal"):
            self.deliver(msg)
            self.deliver({"t": "_connection", "status": "closed", "reason": msg.get("msg")})
            return True
        if t == "bye":
            self.deliver(msg)
            return True
        if t == "ok":
            return False
        self.deliver(msg)
        return False
