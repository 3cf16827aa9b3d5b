"""The client's network side: trio running as a guest on prompt-toolkit's asyncio loop.

``Net`` connects to a server, says ``hello``, numbers and writes requests, reads and checks
messages (``protocol.Connection``), and hands every message to ``deliver(msg)`` in the loop's
thread. It adds local notes (client/ui/model.py lists them):

- the handshake must end within ``HANDSHAKE_S``: a peer that answers something else (a web
  server: ``HTTP/1.1 400``, bytes that are not a neveryu frame) is "not a neveryu server", a
  silent one "does not answer" (``{"t": "_connection", "status": "closed", "reason": ...}``);
- a lost connection is reported (``status: "lost"``) and resumed with the session token and the
  last seen ``seq`` (docs/ARCHITECTURE.md, "Resume"); a ``ping`` sent right after a resuming ``hello`` is
  answered after everything the server replays, and its ``pong`` is delivered as
  ``{"t": "_replayed"}``;
- ``BAD_RESUME`` (the server no longer knows the session) is delivered as ``{"t": "_fresh"}``
  and a new session starts at once;
- the reply to our own ``leave`` is delivered as ``{"t": "_left"}``;
- the ``records`` that answer ``list_records`` with ``mine`` (the player's own deals) are
  delivered as ``{"t": "_my_records", "records": [...]}``, apart from the lobby's list;
- ``bye`` ``shutdown`` or ``replaced``, or a fatal error, end it for good; ``bye`` ``idle``,
  ``too_slow`` or ``frame_timeout`` are a lost connection (the session resumes);
- fair deal 2: every ``seed_committed`` is answered at once with a fresh ``contribute``
  (client/fairdeal.py), and ``{"t": "_contribution", ...}`` notes tell the model what was sent
  and whether the server took it (its reply is not delivered as such: a late contribution is no
  error to show). A ``seed_committed`` seen again (replayed after a resume) is not answered twice.

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
from typing import Any, Literal

import trio

from neveryu import protocol
from neveryu.client import fairdeal
from neveryu.client.handshake import HANDSHAKE_S, RETRY_DELAYS_S, Refused, closed_at_once, not_neveryu, silent

log = logging.getLogger("neveryu.client")

Msg = dict[str, Any]

RESUMABLE_BYES = frozenset({"idle", "too_slow", "frame_timeout"})


class Net:
    """One client connection to ``host``:``port``.

    ``hello``: the fields of the ``hello`` request besides ``t``/``id``/``resume``
    (``proto``, ``client``, ``name``, ``password``). ``session`` and ``last_seq``: a kept
    session to resume at once (client/session_store.py). ``on_welcome(msg, resumed)`` runs
    after each ``welcome`` (it may ``send``). ``retry``: resume after a drop (False in tests of a
    single connection).
    """

    def __init__(
        self,
        host: str,
        port: int,
        hello: Msg,
        deliver: Callable[[Msg], None],
        *,
        session: str | None = None,
        last_seq: int = 0,
        on_welcome: Callable[[Msg, bool], None] = lambda msg, resumed: None,
        on_done: Callable[[BaseException | None], None] = lambda exc: None,
        retry: bool = True,
    ) -> None:
        self.host, self.port = host, port
        self.hello = dict(hello)
        self.deliver = deliver
        self.on_welcome = on_welcome
        self.on_done = on_done
        self.retry = retry
        self.session: str | None = session
        self.last_seq = last_seq
        self.error: BaseException | None = None
        self.welcomed = False  # a welcome has come on some connection of this run
        self._ids = itertools.count(1)
        self._pending: dict[int, str] = {}
        self._replay_ping: int | None = None
        self._queue: list[Msg] = []
        self._send_channel: trio.MemorySendChannel[Msg] | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._cancel: trio.CancelScope | None = None
        self._done: asyncio.Future[None] | None = None
        self._closing = False
        self._session_scope: trio.CancelScope | None = None
        self._lock = trio.Lock()
        self._heartbeat_s = protocol.HEARTBEAT_MS / 2000.0
        self._idle_s = protocol.IDLE_TIMEOUT_MS / 1000.0
        self._contributed: set[str] = set()  # the seed hashes already answered (fair deal 2)

    @property
    def address(self) -> str:
        """``host:port`` as a person types it (``[v6]:port`` for IPv6)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

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

    def send(self, request: Msg) -> None:
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

    def _finished(self, result: Any) -> None:
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
        send, receive = trio.open_memory_channel[Msg](256)
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
                if reason == "":  # a fresh session at once (BAD_RESUME)
                    continue
                delay = RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)]
                attempt += 1
                self.deliver({"t": "_connection", "status": "lost", "reason": reason})
                await trio.sleep(delay)
                if self.session is not None:
                    self.deliver({"t": "_connection", "status": "resuming"})

    def _closed(self, reason: str) -> None:
        self.deliver({"t": "_connection", "status": "closed", "reason": reason})

    async def _session(self, requests: trio.MemoryReceiveChannel[Msg]) -> str | None:
        """One connection, from connect to close. Returns why it was lost (then it is resumed),
        ``""`` to start a fresh session at once, or None when it ended for good (``bye``, a
        fatal error, not a neveryu server, or never reached)."""
        try:
            with trio.fail_after(HANDSHAKE_S):
                stream = await trio.open_tcp_stream(self.host, self.port)
        except (OSError, trio.TooSlowError) as exc:
            if not self.welcomed:
                why = "no answer" if isinstance(exc, trio.TooSlowError) else (_os_reason(exc) or str(exc))
                self._closed(f"cannot connect to {self.address}: {why}")
                return None
            return _os_reason(exc) or type(exc).__name__
        conn = protocol.Connection("client")
        ended: list[str | None] = ["closed"]
        async with stream:
            hello: Msg = {"t": "hello", **self.hello}
            if self.session is not None:
                hello["resume"] = {"token": self.session, "last_seq": self.last_seq}
            try:
                await self._write(stream, conn, hello)
                if self.session is not None:  # its pong comes after every replayed event
                    self._replay_ping = await self._write(stream, conn, {"t": "ping"})
                outcome = await self._handshake(stream, conn)
            except Refused as exc:
                if not self.welcomed:
                    self._closed(str(exc))
                    return None
                return str(exc)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                if not self.welcomed:
                    self._closed(f"{self.address} closed the connection during the handshake")
                    return None
                return _os_reason(exc) or "connection lost"
            if outcome is not True:
                return outcome
            try:
                async with trio.open_nursery() as nursery:
                    self._session_scope = nursery.cancel_scope
                    nursery.start_soon(self._reader, stream, conn, nursery, ended)
                    nursery.start_soon(self._writer, stream, conn, requests)
                    nursery.start_soon(self._pinger, stream, conn)
            except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as group:
                ended[0] = str(group.exceptions[0]) or "connection lost"
        return ended[0]

    async def _handshake(
        self, stream: trio.SocketStream, conn: protocol.Connection
    ) -> Literal[True] | str | None:
        """Read until the reply to ``hello``, within ``HANDSHAKE_S``. True: welcomed (the
        session goes on); ``""``: the kept session is unknown, start afresh; None: refused for
        good (said). Raises ``Refused`` when the peer is not a neveryu server."""
        first = b""
        with trio.move_on_after(HANDSHAKE_S):
            while True:
                data = await stream.receive_some(65536)
                if not data:
                    raise Refused(closed_at_once(self.address))
                first = first or data
                try:
                    conn.receive_data(data)
                    msg = conn.next_message()
                except protocol.ProtocolError:
                    raise Refused(not_neveryu(self.address, first)) from None
                if msg is None:
                    continue
                if msg.get("t") == "welcome":
                    self._handle(msg)
                    return True
                if msg.get("t") == "error" and msg.get("code") == "BAD_RESUME":
                    self.session, self.last_seq = None, 0
                    self._replay_ping = None
                    self.deliver({"t": "_fresh", "reason": msg.get("msg")})
                    return ""
                if msg.get("t") == "error":
                    self.deliver(msg)
                    self._closed(f"{msg.get('code')}: {msg.get('msg')}")
                    return None
                raise Refused(not_neveryu(self.address, first))
        raise Refused(silent(self.address, HANDSHAKE_S) if not first else not_neveryu(self.address, first))

    async def _write(self, stream: trio.SocketStream, conn: protocol.Connection, request: Msg) -> int:
        rid = next(self._ids)
        # A list of one's own deals is told apart from the lobby's list of the server's last deals.
        mine = request["t"] == "list_records" and request.get("mine")
        self._pending[rid] = "list_records_mine" if mine else str(request["t"])
        frame = conn.send({**request, "id": rid})
        async with self._lock:
            await stream.send_all(frame)
        return rid

    async def _writer(
        self, stream: trio.SocketStream, conn: protocol.Connection, requests: trio.MemoryReceiveChannel[Msg]
    ) -> None:
        async for request in requests:
            await self._write(stream, conn, request)

    async def _pinger(self, stream: trio.SocketStream, conn: protocol.Connection) -> None:
        while True:
            await trio.sleep(self._heartbeat_s)
            await self._write(stream, conn, {"t": "ping"})

    async def _reader(
        self,
        stream: trio.SocketStream,
        conn: protocol.Connection,
        nursery: trio.Nursery,
        ended: list[str | None],
    ) -> None:
        while True:
            while True:  # first what came with the welcome, then each read
                try:
                    msg = conn.next_message()
                except protocol.ProtocolError as exc:
                    if exc.fatal:
                        ended[0] = None
                        self._closed(f"{exc.code}: {exc}")
                        nursery.cancel_scope.cancel()
                        return
                    continue
                if msg is None:
                    break
                verdict = self._handle(msg)
                if verdict is not False:
                    ended[0] = verdict
                    nursery.cancel_scope.cancel()
                    return
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

    def _handle(self, msg: Msg) -> Literal[False] | str | None:
        """Deliver one message. False: go on; None: the connection is over for good; a string:
        it is lost for that reason (resume)."""
        seq = msg.get("seq")
        if type(seq) is int and seq > self.last_seq:
            self.last_seq = seq
        t = msg.get("t")
        rid = msg.get("re")
        asked = self._pending.pop(rid, None) if type(rid) is int else None
        if t == "pong":
            if rid == self._replay_ping:
                self._replay_ping = None
                self.deliver({"t": "_replayed"})
            return False
        if t == "heartbeat":
            return False
        if t == "welcome":
            self.welcomed = True
            resumed = bool(msg.get("resumed"))
            self.session = msg.get("session") or self.session
            if type(msg.get("heartbeat_ms")) is int:
                self._heartbeat_s = max(0.5, msg["heartbeat_ms"] / 2000.0)
            limits = msg.get("limits")
            if isinstance(limits, dict) and type(limits.get("idle_ms")) is int:
                self._idle_s = max(1.0, limits["idle_ms"] / 1000.0)
            self.deliver(msg)
            self.on_welcome(msg, resumed)
            return False
        if asked == "contribute" and t in ("ok", "error") and not msg.get("fatal"):
            self.deliver({"t": "_contribution", "status": "taken" if t == "ok" else "refused"})
            return False
        if t == "seed_committed":
            self.deliver(msg)
            self._contribute(msg)
            return False
        if t == "ok" and asked == "leave":
            self.deliver({"t": "_left"})
            self.send({"t": "list_tables"})
            return False
        if t == "error" and msg.get("fatal"):
            self.deliver(msg)
            self._closed(str(msg.get("msg") or msg.get("code")))
            return None
        if t == "bye":
            self.deliver(msg)
            if msg.get("reason") in RESUMABLE_BYES:
                return f"the server dropped the connection ({msg.get('reason')})"
            return None
        if t == "ok":
            return False
        if t == "records" and asked == "list_records_mine":
            self.deliver({**msg, "t": "_my_records"})
            return False
        self.deliver(msg)
        return False

    def _contribute(self, msg: Msg) -> None:
        """Fair deal 2: answer ``seed_committed`` with 32 fresh random bytes (once per seed)."""
        deal_no, seed_hash = msg.get("deal_no"), str(msg.get("seed_hash"))
        channel = self._send_channel
        if type(deal_no) is not int or channel is None or seed_hash in self._contributed:
            return
        self._contributed.add(seed_hash)
        contribution = fairdeal.new_contribution()
        self.deliver(
            {"t": "_contribution", "status": "sent", "deal_no": deal_no, "contribution": contribution}
        )
        try:
            channel.send_nowait({"t": "contribute", "deal_no": deal_no, "contribution": contribution})
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            log.warning("contribution to deal %d dropped", deal_no)


def _os_reason(exc: BaseException) -> str:
    """The human part of an OSError (``Connection refused``), or ''."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) if isinstance(exc, OSError) else ""
