"""One connection of the client's network side (client/ui/net.py), from connect to close:
the TCP connection, the handshake (``hello``, resuming a kept session, within ``HANDSHAKE_S``), then
the reader, the writer and the heartbeat's pings side by side until the connection ends, and why
it ended: lost (the session resumes), a fresh session at once, or over for good.
"""

from __future__ import annotations

import itertools
from typing import Literal

import trio

from neveryu import protocol
from neveryu.client.handshake import HANDSHAKE_S, Refused, closed_at_once, not_neveryu, silent

from .net_inbox import Inbox, Msg


class Link(Inbox):
    """The connection's side of ``Net`` (its attributes are set by ``Net.__init__``)."""

    host: str
    port: int
    hello: Msg
    _ids: itertools.count[int]
    _lock: trio.Lock
    _session_scope: trio.CancelScope | None

    @property
    def address(self) -> str:
        """``host:port`` as a person types it (``[v6]:port`` for IPv6)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

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


def _os_reason(exc: BaseException) -> str:
    """The human part of an OSError (``Connection refused``), or ''."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) if isinstance(exc, OSError) else ""
