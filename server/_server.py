"""The server: listening, the handshake, the lobby, and a clean shutdown.

``Server.run`` listens with trio, runs one handler per connection (``ClientConnection``) that
catches every exception of its own connection, and one task per table (``Table.run``, its
deadlines). Lobby requests (``list_tables``, ``create_table``, ``variants``, ...) are answered
here; table and game requests are handled by the session's table at once (``Table.handle``).
Whatever one request (or one fired deadline) sends is written when it is done (``batch``); a
table may have the first event of an action written before that, when no other connection waits
to be read (``flush``).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import itertools
import logging
import select
import socket
from collections.abc import Iterator
from typing import Any

import trio
from neveryu import engine, protocol

from . import _listen
from ._bots import default_strength, strengths
from ._config import ServerConfig
from ._connection import ClientConnection
from ._password import password_ok
from ._session import Link, Session
from ._settings import TableError, TableSettings
from ._table import REQUESTS as TABLE_REQUESTS
from ._table import Table
from ._text import blank, shown

log = logging.getLogger("neveryu.server")

SERVER_VERSION = "0.1.0"
REFUSAL_LOG_EVERY = 10.0  # s: at most one log line this often about refused connections
REFUSE_S = 1.0  # s: how long a refused connection may take to get its SERVER_FULL
GAME_REQUESTS = protocol.GAME_REQUESTS


def variants_info() -> list[dict[str, Any]]:
    """The ``variants`` reply: every variant with its seats and options (default, choices)."""
    out = []
    for rules in engine.VARIANTS.values():
        options: dict[str, Any] = {}
        for name in rules.options:
            default = getattr(rules, name)
            if name == "deck":
                choices = ["auto", *rules.deck_choices]
            elif name == "scoring":
                choices = list(rules.scoring_choices) or [default]
            elif isinstance(default, bool):
                choices = [False, True]
            elif name == "packet_size":
                choices = [2, 3]
            else:
                choices = [default]
            options[name] = {"default": default, "choices": choices}
        out.append(
            {"name": rules.name, "title": rules.title, "players": list(rules.players), "options": options}
        )
    return out


def bot_strengths() -> list[str]:
    """The bot strengths ``create_table`` accepts, the default first (``welcome.bots``)."""
    default = default_strength()
    return [default, *(s for s in strengths() if s != default)]


@functools.cache
def _schema() -> dict:
    """The protocol's JSON Schema, read once."""
    return protocol.load_schema()


class Server:
    """A neveryu server for ``config``. ``run`` serves until cancelled or ``shutdown``."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.tables: dict[int, Table] = {}
        self.sessions: dict[str, Session] = {}
        self.connections: set[ClientConnection] = set()
        self.per_address: collections.Counter[str] = collections.Counter()
        self._table_ids = itertools.count(1)
        self.table_address: dict[int, str] = {}  # table id -> the address of who made it
        self._tables_nursery: trio.Nursery | None = None
        self._stop = trio.Event()
        self._refused = 0
        self._refusal_logged = -REFUSAL_LOG_EVERY
        self._accept_scope: trio.CancelScope | None = None
        self.port: int | None = None
        self._batching = 0  # depth of ``batch``: > 0 while a request or a deadline is handled
        self._dirty: list[ClientConnection] = []  # connections pushed to in this batch
        self.batch_time = 0.0  # trio's clock when the batch began (``flush`` stamps writes with it)
        self._early: bool | None = None  # whether this batch may write early (``flush``), once asked
        # Every client socket, level-triggered (Linux; None elsewhere, or before ``run``): a poll
        # of it says whether any connection waits to be read (``flush``)
        self._waiting: Any = None

    # -- running ----------------------------------------------------------------------------

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen on ``config.host``:``config.port`` and serve until cancelled or ``shutdown()``.
        Reports the bound port through ``task_status``. On the way out every client gets
        ``bye`` ("shutdown"), waiting at most ``limits.shutdown_ms``."""
        cfg = self.config
        listeners = await _listen.open_listeners(cfg.port, cfg.host or None)
        self.port = listeners[0].getsockname()[1]
        log.info("%s listening on %s port %d", cfg.name, cfg.host or "every interface", self.port)
        inner = trio.CancelScope(shield=True)  # connections and tables end only when we say so
        if hasattr(select, "epoll"):
            self._waiting = select.epoll()
        try:
            async with trio.open_nursery() as outer:

                async def _serve(task_status=trio.TASK_STATUS_IGNORED) -> None:
                    with inner:
                        async with trio.open_nursery() as nursery:
                            self._tables_nursery = nursery
                            nursery.start_soon(self._accept, listeners, nursery)
                            task_status.started()

                await outer.start(_serve)
                task_status.started(self.port)
                try:
                    await self._stop.wait()
                finally:
                    with trio.CancelScope(shield=True):
                        await self._shutdown(listeners)
                        inner.cancel()
        finally:
            _listen.close(listeners)
            if self._waiting is not None:
                self._waiting.close()
                self._waiting = None
            log.info("%s stopped", cfg.name)

    def shutdown(self) -> None:
        """Ask ``run`` to stop: every client gets ``bye`` and the server returns."""
        self._stop.set()

    async def _accept(self, listeners: list[socket.socket], nursery: trio.Nursery) -> None:
        with trio.CancelScope() as self._accept_scope:
            async with trio.open_nursery() as accepting:
                for listener in listeners:
                    accepting.start_soon(_listen.accept, listener, self._handle, nursery)

    async def _shutdown(self, listeners: list[socket.socket]) -> None:
        if self._accept_scope is not None:
            self._accept_scope.cancel()
        _listen.close(listeners)
        log.info("shutting down: %d connections, %d tables", len(self.connections), len(self.tables))
        for conn in list(self.connections):
            conn.bye("shutdown")
        with trio.move_on_after(self.config.limits.shutdown_ms / 1000):
            while self.connections:  # each closes once its bye is written (or it fails)
                await trio.sleep(0.01)

    # -- one connection -----------------------------------------------------------------------

    async def _handle(self, stream: trio.abc.Stream, sock: socket.socket | None = None) -> None:
        """The handler of one connection: everything it raises stays here. ``sock``: the
        stream's socket, written to directly when nothing waits (None: any other stream, which
        only the connection's writer writes to)."""
        try:
            address = (sock.getpeername() if sock is not None else stream.socket.getpeername())[0]  # type: ignore[attr-defined]
        except (OSError, AttributeError, IndexError):
            address = "?"
        limits = self.config.limits
        if (
            len(self.connections) >= limits.max_connections
            or self.per_address[address] >= limits.max_per_address
        ):
            await self._refuse(stream, address)
            return
        conn = ClientConnection(self, stream, address, sock)
        waiting = self._waiting if sock is not None else None
        try:
            if waiting is not None:
                with contextlib.suppress(OSError):  # unwatched, it only never delays an early write
                    waiting.register(sock.fileno(), select.EPOLLIN)
            self.connections.add(conn)
            self.per_address[address] += 1
            log.debug("connection from %s", address)
            await conn.run()
        except Exception:
            log.exception("%s failed", conn)
        finally:
            self.connections.discard(conn)
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]
            self._detach(conn)
            if waiting is not None and not waiting.closed:
                with contextlib.suppress(OSError, ValueError):
                    waiting.unregister(sock.fileno())  # type: ignore[union-attr]
            await trio.aclose_forcefully(stream)

    async def _refuse(self, stream: trio.SocketStream, address: str) -> None:
        """Send the fatal ``SERVER_FULL`` and close, within ``REFUSE_S``. A refused connection
        is not counted among the connections (a flood of them cannot keep others out) and is
        logged in bulk: one line at most every ``REFUSAL_LOG_EVERY`` s."""
        self._refused += 1
        now = trio.current_time()
        if now >= self._refusal_logged + REFUSAL_LOG_EVERY:
            log.warning(
                "refusing connections: too many (%d refused, the last from %s)", self._refused, address
            )
            self._refusal_logged, self._refused = now, 0
        refusal = protocol.encode_frame(
            protocol.error("SERVER_FULL", "the server takes no more connections").to_wire()
        )
        with trio.move_on_after(REFUSE_S):
            try:
                await stream.send_all(refusal)
                await stream.send_eof()
                while await stream.receive_some(4096):  # let the client read it before the close
                    pass
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
        await trio.aclose_forcefully(stream)

    def _detach(self, conn: ClientConnection) -> None:
        session = conn.session
        if session is None or not session.detach(conn):
            return
        if session.table is not None:
            with self.batch():
                session.table.handle("detached", session)
        else:
            self.sessions.pop(session.token, None)

    # -- writing --------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Around the handling of one request or one deadline: what it pushes to connections
        waits until the outermost batch is over, then each connection it touched writes it all
        at once (``ClientConnection.flush``: one ``send`` on the socket when nothing else
        waits, else its writer's queue). Never waits."""
        self._batching += 1
        if self._batching == 1:
            self.batch_time = trio.current_time()
        try:
            yield
        finally:
            self.end_batch()

    def flush(self, link: Link) -> None:
        """Inside a batch, write now what it has pushed so far to ``link``
        (``ClientConnection.flush``), when no connection waits to be read (asked once per
        batch); the batch goes on, and what it pushes next is written after it, in order (a
        table sends the first event of an action this way, to each receiver as soon as its copy
        is framed: the players see it before the rest is worked out, the first of them while
        the others' copies are made). When other requests wait (a busy server), or where this
        cannot be known (no epoll), nothing is written before the batch ends: a second write
        per connection and batch costs CPU that those requests would wait for."""
        if not self._batching:
            return  # (outside a batch every push is written at once)
        early = self._early
        if early is None:
            early = self._early = self._waiting is not None and not self._waiting.poll(0, 1)
        if early:
            link.flush(self.batch_time)

    def end_batch(self) -> None:
        """The end of a batch begun with ``_batching += 1`` (what ``batch`` does, without a
        context manager: the reader's hot path)."""
        self._batching -= 1
        if self._batching:
            return
        self._early = None
        if self._dirty:
            now = trio.current_time()
            while self._dirty:
                dirty, self._dirty = self._dirty, []
                for conn in dirty:
                    conn.flush(now)

    # -- requests ----------------------------------------------------------------------------------

    def dispatch(self, conn: ClientConnection, req: dict[str, Any]) -> None:
        """Handle one checked request from ``conn`` (``protocol.Connection`` has validated it)
        at once, its table's part too: one connection's requests are done, and answered,
        strictly in order (docs/PROTOCOL.md §3). Call it inside ``batch()``."""
        t = req["t"]
        if t == "hello":
            if conn.session is not None:
                conn.push(protocol.error("BAD_STATE", "hello was already said", re=req["id"]).to_wire())
                return None
            return self._hello(conn, req)
        session = conn.session
        if session is None:  # protocol.Connection refuses anything before hello; a failed hello too
            conn.fatal(protocol.error("NOT_READY", "no session: say hello first", re=req["id"]))
            return None
        if t == "ping":
            session.reply(req, {"t": "pong"})
        elif t == "list_tables":
            session.reply(req, {"t": "tables", "tables": [tb.summary for tb in self.tables.values()]})
        elif t == "variants":
            session.reply(req, {"t": "variants", "variants": variants_info()})
        elif t == "schema":
            session.reply(req, {"t": "schema", "schema": _schema()})
        elif t == "create_table":
            return self._create_table(session, req)
        elif t in ("join_table", "spectate"):
            table = self.tables.get(req["table"])
            if table is None:
                session.error(req, "NO_SUCH_TABLE", f"there is no table {req['table']}")
            elif session.table is not None:
                session.error(req, "BAD_STATE", "leave your table first")
            else:
                table.handle(t, session, req)
        elif t in TABLE_REQUESTS:
            table = session.table
            if table is None:
                code = "NOT_PLAYING" if t in GAME_REQUESTS else "BAD_STATE"
                session.error(req, code, "you are at no table")
            else:
                table.handle(t, session, req)
        else:
            session.error(req, "UNKNOWN_TYPE", f"this server does not handle {t!r}")
        return None

    def _hello(self, conn: ClientConnection, req: dict[str, Any]) -> None:
        cfg = self.config
        lo, hi = req["proto"]
        if not lo <= protocol.PROTOCOL_VERSION <= hi:
            conn.fatal(
                protocol.error(
                    "UNSUPPORTED_VERSION",
                    f"this server speaks version {protocol.PROTOCOL_VERSION}",
                    re=req["id"],
                )
            )
            return None
        if not password_ok(req.get("password"), cfg.password):
            conn.fatal(protocol.error("WRONG_PASSWORD", "this server needs its password", re=req["id"]))
            return None
        self._sweep()
        resume = req.get("resume")
        if resume is not None:
            session = self.sessions.get(resume["token"])
            if session is None:
                conn.fatal(
                    protocol.error("BAD_RESUME", "no such session (it may have expired)", re=req["id"])
                )
                return None
            old = session.attach(conn)
            conn.session = session
            if old is not None:
                old.bye("replaced")  # type: ignore[attr-defined]
            log.info("%s resumes (last seq %d of %d)", conn, resume["last_seq"], session.seq)
            missed = session.missed(resume["last_seq"])
            if missed is not None and len(missed) > cfg.limits.outbox // 2:
                missed = None  # a replay that would fill the queue: a snapshot instead
            session.reply(req, self._welcome(session, resumed=True))
            for msg in missed or ():
                conn.push(msg)
            if session.table is not None:  # the snapshot (or the seat back from away)
                session.table.handle("attached", session, {"state": missed is None})
            return None
        name = shown(req["name"])
        if blank(name):
            conn.fatal(
                protocol.error(
                    "BAD_MESSAGE", "hello.name: a name needs a letter, digit or sign", re=req["id"]
                )
            )
            return None
        session = Session(name, cfg.limits.replay, conn.address)
        self.sessions[session.token] = session
        session.attach(conn)
        conn.session = session
        log.info(
            "%s says hello (%r %r)", conn, req["client"]["name"], req["client"]["version"]
        )  # %r: no log injection
        session.reply(req, self._welcome(session, resumed=False))
        return None

    def _welcome(self, session: Session, resumed: bool) -> dict[str, Any]:
        limits = self.config.limits
        table = session.table
        return {
            "t": "welcome",
            "proto": protocol.PROTOCOL_VERSION,
            "server": {"name": self.config.name, "version": SERVER_VERSION},
            "session": session.token,
            "resumed": resumed,
            "table": table.summary if table is not None else None,
            "seat": session.seat if table is not None else None,
            "limits": {
                "max_client_frame": protocol.MAX_CLIENT_FRAME,
                "max_server_frame": protocol.MAX_SERVER_FRAME,
                "max_chat": limits.max_chat,
                "idle_ms": limits.idle_ms,
            },
            "heartbeat_ms": limits.heartbeat_ms,
            "bots": bot_strengths(),
        }

    def _sweep(self) -> None:
        """Forget sessions that are neither connected nor seated (nothing to resume)."""
        for token, session in list(self.sessions.items()):
            if not session.connected and session.table is None:
                del self.sessions[token]

    def _create_table(self, session: Session, req: dict[str, Any]) -> None:
        cfg = self.config
        if session.table is not None:
            session.error(req, "BAD_STATE", "leave your table first")
            return None
        if len(self.tables) >= cfg.limits.max_tables:
            session.error(req, "BAD_STATE", f"this server holds at most {cfg.limits.max_tables} tables")
            return None
        mine = sum(1 for address in self.table_address.values() if address == session.address)
        if mine >= cfg.limits.max_tables_per_address:
            session.error(
                req, "BAD_STATE", f"at most {cfg.limits.max_tables_per_address} tables from one address"
            )
            return None
        try:
            settings = TableSettings.from_request(req, cfg.table, cfg.seed, cfg.limits.max_chat)
        except TableError as exc:
            session.error(req, exc.code, exc.msg)
            return None
        table = Table(
            next(self._table_ids), settings, on_close=self._table_closed, batch=self.batch, flush=self.flush
        )
        self.tables[table.id] = table
        self.table_address[table.id] = session.address
        assert self._tables_nursery is not None
        self._tables_nursery.start_soon(self._run_table, table)
        log.info(
            "%s makes table %d (%s, %d seats, bots %s)",
            session,
            table.id,
            settings.variant,
            settings.seats,
            list(settings.bots),
        )
        table.handle("join_table", session, {**req, "seat": None})

    async def _run_table(self, table: Table) -> None:
        """A table's task; a bug in one table closes that table, never the server."""
        try:
            await table.run()
        except Exception:
            log.exception("table %d failed and is closed", table.id)
            self._table_closed(table)
            for session in list(self.sessions.values()):
                if session.table is table:
                    session.event({"t": "table_closed", "table": table.id, "reason": "a server error"})
                    session.table, session.seat = None, None

    def _table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.table_address.pop(table.id, None)


async def serve(config: ServerConfig | None = None, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Run a server for ``config`` until cancelled; reports the bound port (an int) through
    ``task_status``: ``port = await nursery.start(serve, config)``. Installs no signal
    handlers, so it runs in any thread with its own ``trio.run``. Cancelling it sends every
    client ``bye`` first (at most ``limits.shutdown_ms``)."""
    await Server(config or ServerConfig()).run(task_status=task_status)
