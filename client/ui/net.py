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

The parts: ``net_link`` (one connection: connect, handshake, then read, write and ping until it
ends), ``net_inbox`` (what each message read becomes); this module starts and stops the trio run,
queues requests from the host's side, and resumes after a drop.

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
from typing import Any

import trio

from neveryu import protocol
from neveryu.client.handshake import RETRY_DELAYS_S

from .net_inbox import Msg
from .net_link import Link

log = logging.getLogger("neveryu.client")


class Net(Link):
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
