"""The server: listening, the handshake, the lobby, and a clean shutdown.

``Server.run`` listens with ``trio.serve_tcp`` and runs one handler per connection
(``ClientConnection``), which catches every exception of its own connection, and one task per
table (``Table.run``, its deadlines). Lobby requests (``list_tables``, ``create_table``,
``variants``, ...) are answered here; table and game requests go to the session's table at once
(``Table.handle``). What a request sends goes to each receiver's outbox (``_outbox``: when it is
written is said there).
"""

from __future__ import annotations

import collections
import functools
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from neveryu import protocol

from ._config import ServerConfig
from ._connection import ClientConnection
from ._lobby import TABLE_REQUESTS, schema, variants_info, welcome
from ._password import Guard
from ._restore import Restored, restore_tables
from ._session import Session, forget_gone, forget_oldest_gone
from ._settings import TableError, TableSettings
from ._table import Table
from ._text import blank, shown
from .records.history_requests import RecordRequests
from .records.player_requests import PlayerRequests
from .records.players import person_key
from .records.writer import RecordsWriter

log = logging.getLogger("neveryu.server")

REFUSAL_LOG_EVERY = 10.0  # s: at most one log line this often about refused connections
REFUSE_S = 1.0  # s: how long a refused connection may take to get its SERVER_FULL


class Server:
    """A neveryu server for ``config``. ``run`` serves until cancelled or ``shutdown``.
    ``records``: where ended deals are kept (``config.records_path``; opened by ``run``)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.records = RecordsWriter.of(config)
        self.record_requests = RecordRequests(self.records)
        self.player_requests = PlayerRequests(self.records)
        self.tables: dict[int, Table] = {}
        self.sessions: dict[str, Session] = {}
        self.restored = Restored()  # the sessions restored from the journal, until resumed
        self.connections: set[ClientConnection] = set()
        self.per_address: collections.Counter[str] = collections.Counter()
        self.table_address: dict[int, str] = {}  # table id -> the address of who made it
        self.passwords = Guard()  # the server's password, against guessing
        self.port: int | None = None
        self._table_ids = itertools.count(1)
        self._nursery: trio.Nursery | None = None
        self._tasks = trio.CancelScope(shield=True)
        self._stop = trio.Event()
        self._keep_tables = False  # (shutdown)
        self._refused = 0
        self._refusal_logged = -REFUSAL_LOG_EVERY
        # The handler of each request after hello (``dispatch``; any other: UNKNOWN_TYPE).
        self._handlers: dict[type[protocol.Request], Callable[[Session, Any], Awaitable[None] | None]] = {
            protocol.ListRecords: self.record_requests.handle,
            protocol.GetRecord: self.record_requests.handle,
            protocol.PlayerStatsRequest: self.player_requests.handle,
            protocol.LeaderboardRequest: self.player_requests.handle,
            protocol.Ping: self._ping,
            protocol.ListTables: self._list_tables,
            protocol.VariantsRequest: self._variants,
            protocol.SchemaRequest: self._schema,
            protocol.CreateTable: self._create_table,
            protocol.JoinTable: self._join,
            protocol.Spectate: self._join,
            **dict.fromkeys(TABLE_REQUESTS, self._at_table),  # to the session's table
        }

    # -- running ----------------------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Listen on ``config.host``:``config.port`` and serve until cancelled or ``shutdown()``.
        Reports the bound port through ``task_status``. On the way out every table closes
        (``table_closed``) and every client gets ``bye`` ("shutdown"), waiting at most
        ``limits.shutdown_ms`` for them to be written."""
        cfg = self.config
        accepting = trio.CancelScope()
        await trio.to_thread.run_sync(self.records.open)
        try:
            async with trio.open_nursery() as outer:
                await outer.start(self._hold_tasks)
                assert self._nursery is not None  # the journal's tables, back (``_restore``):
                replay, start = cfg.limits.replay, self._nursery.start_soon
                self.tables = restore_tables(self.records, self.restored, replay, self._table_closed, start)
                self._table_ids = itertools.count(max(self.tables, default=0) + 1)  # (new ones after)
                listeners = await outer.start(self._listen, accepting)
                self.port = listeners[0].socket.getsockname()[1]
                log.info("%s listening on %s port %d", cfg.name, cfg.host or "every interface", self.port)
                outer.start_soon(self._forget_sessions)
                task_status.started(self.port)
                try:
                    await self._stop.wait()
                finally:
                    try:
                        with trio.CancelScope(shield=True):
                            accepting.cancel()
                            await self._shutdown()
                    finally:  # (even when saying bye failed: the server must still stop)
                        self._tasks.cancel()
                        outer.cancel_scope.cancel()
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(self.records.close)
            log.info("%s stopped", cfg.name)

    async def _hold_tasks(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The nursery of every connection's and table's task. Shielded: cancelling ``run``
        does not cut them short; its shutdown says bye first, then ends them (``_tasks``)."""
        with self._tasks:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                task_status.started()
                await trio.sleep_forever()

    async def _listen(
        self, accepting: trio.CancelScope, *, task_status: Any = trio.TASK_STATUS_IGNORED
    ) -> None:
        """``trio.serve_tcp`` (every interface when ``config.host`` is empty); the handlers run
        in the nursery of ``_hold_tasks``, so they outlive the accepting, which stops first."""
        with accepting:
            await trio.serve_tcp(
                self.handle,
                self.config.port,
                host=self.config.host or None,
                handler_nursery=self._nursery,
                task_status=task_status,
            )

    def shutdown(self, keep_tables: bool = False) -> None:
        """Ask ``run`` to stop: every client gets ``bye`` and the server returns. ``keep_tables``:
        the tables stay in the journal, as after a kill (docs/PROTOCOL.md, "Across a server
        restart"), with every action taken so far: the server started again on the same records
        brings them back (``neveryu play`` after Ctrl-C); without a journal they are lost."""
        self._keep_tables = keep_tables
        self._stop.set()

    async def _shutdown(self) -> None:
        log.info("shutting down: %d connections, %d tables", len(self.connections), len(self.tables))
        for table in list(self.tables.values()):
            table.close("the server is shutting down", keep=self._keep_tables)
        if not self._keep_tables:  # told bye "shutdown": nothing to resume
            self._forgotten([session.key for session in self.sessions.values()])
        for conn in list(self.connections):
            conn.bye("shutdown")
        with trio.move_on_after(self.config.limits.shutdown_ms / 1000):
            for conn in list(self.connections):  # each closes once its bye is written (or fails)
                await conn.closed.wait()

    async def _forget_sessions(self) -> None:
        """Every so often, forget the sessions whose connection has been gone for ``grace_ms``
        and that hold no seat (a spectator stops watching): nothing is left to resume."""
        grace = self.config.table.grace_ms / 1000
        while True:
            await trio.sleep(max(grace / 2, 0.05))
            now = trio.current_time()
            self._forgotten(forget_gone(self.sessions, now, grace) + self.restored.forget_gone(now, grace))

    def _forgotten(self, keys: list[str]) -> None:
        """The sessions of ``keys`` are forgotten: nothing is left to resume after a restart either."""
        if self.records.journal is not None:
            self.records.journal.sessions_gone(keys)

    # -- one connection -----------------------------------------------------------------------

    async def handle(self, stream: trio.SocketStream) -> None:
        """Serve one connection until it closes: the listener's handler (``run``), or a
        connection that came another way (a socket pair). Everything it raises stays here; a
        connection over the limits gets ``SERVER_FULL`` (docs/PROTOCOL.md, section 8)."""
        try:
            address = stream.socket.getpeername()[0]
        except (OSError, IndexError, TypeError):
            address = "?"  # (no address: a socket pair, as in tests)
        limits = self.config.limits
        full = len(self.connections) >= limits.max_connections
        if full or self.per_address[address] >= limits.max_per_address:
            await self._refuse(stream, address)
            return
        conn = ClientConnection(stream, address, limits, self.dispatch)
        self.connections.add(conn)
        self.per_address[address] += 1
        try:
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
            await trio.aclose_forcefully(stream)

    async def _refuse(self, stream: trio.abc.Stream, address: str) -> None:
        """Send the fatal ``SERVER_FULL`` and close, within ``REFUSE_S``. A refused connection
        is not counted among the connections (a flood of them cannot keep others out) and is
        logged in bulk: one line at most every ``REFUSAL_LOG_EVERY`` s."""
        self._refused += 1
        now = trio.current_time()
        if now >= self._refusal_logged + REFUSAL_LOG_EVERY:
            log.warning("refusing connections: too many (%d, the last from %s)", self._refused, address)
            self._refusal_logged, self._refused = now, 0
        full = protocol.error("SERVER_FULL", "the server takes no more connections")
        with trio.move_on_after(REFUSE_S):
            try:
                await stream.send_all(protocol.encode_frame(protocol.Error.of(full).to_wire()))
                await stream.send_eof()  # type: ignore[attr-defined]
                while await stream.receive_some(4096):  # let the client read it before the close
                    pass
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError, AttributeError):
                pass
        await trio.aclose_forcefully(stream)

    def _detach(self, conn: ClientConnection) -> None:
        session = conn.session
        if session is not None and session.detach(conn, trio.current_time()) and session.table is not None:
            session.table.detached(session)

    # -- requests ----------------------------------------------------------------------------------

    def dispatch(self, conn: ClientConnection, req: protocol.Request) -> Awaitable[None] | None:
        """Handle one checked request from ``conn`` at once, its table's part too (``_handlers``),
        in order (docs/PROTOCOL.md §3); one that reads the records returns what the connection awaits."""
        if isinstance(req, protocol.Hello):
            if conn.session is not None:
                conn.session.error(req, "BAD_STATE", "hello was already said")
            elif self.passwords.waits(conn.address):  # (a wrong password came from there)
                return self.passwords.in_turn(conn.address, functools.partial(self._hello, conn, req))
            else:
                self._hello(conn, req)
            return None
        session = conn.session
        if session is None:  # protocol.Connection refuses anything before hello; a failed hello too
            conn.fatal(protocol.error("NOT_READY", "no session: say hello first", re=req.id))
            return None
        handler = self._handlers.get(type(req))
        if handler is not None:
            return handler(session, req)
        session.error(req, "UNKNOWN_TYPE", f"this server does not handle {req.t!r}")
        return None

    # -- the lobby's requests (``_handlers``) ---------------------------------------------------

    def _ping(self, session: Session, req: protocol.Ping) -> None:
        session.reply(req, protocol.Pong.wire_map())

    def _list_tables(self, session: Session, req: protocol.ListTables) -> None:
        session.reply(req, protocol.Tables.wire_map(tables=[tb.summary for tb in self.tables.values()]))

    def _variants(self, session: Session, req: protocol.VariantsRequest) -> None:
        session.reply(req, protocol.Variants.wire_map(variants=variants_info(self.config.table)))

    def _schema(self, session: Session, req: protocol.SchemaRequest) -> None:
        session.reply(req, protocol.SchemaReply.wire_map(schema=schema()))

    def _join(self, session: Session, req: protocol.JoinTable | protocol.Spectate) -> None:
        table = self.tables.get(req.table)
        if table is None:
            session.error(req, "NO_SUCH_TABLE", f"there is no table {req.table}")
        elif session.table is not None:
            session.error(req, "BAD_STATE", "leave your table first")
        else:
            table.handle(session, req)

    def _at_table(self, session: Session, req: protocol.Request) -> None:
        if session.table is not None:
            session.table.handle(session, req)
        elif req.t in protocol.GAME_REQUESTS:
            session.error(req, "NOT_PLAYING", "you are at no table")
        else:
            session.error(req, "BAD_STATE", "you are at no table")

    def _hello(self, conn: ClientConnection, req: protocol.Hello) -> None:
        cfg = self.config
        lo, hi = req.proto
        if not lo <= (version := protocol.PROTOCOL_VERSION) <= hi:
            conn.fatal(
                protocol.error("UNSUPPORTED_VERSION", f"this server speaks version {version}", re=req.id)
            )
            return
        refused = self.passwords.refusal(conn.address, req.password, cfg.password)
        if refused is not None:
            conn.fatal(protocol.error("WRONG_PASSWORD", refused, re=req.id))
            return
        if req.resume is not None:
            self._resume(conn, req, req.resume["token"], req.resume["last_seq"])
            return
        name = shown(req.name)
        if blank(name):
            conn.fatal(
                protocol.error("BAD_MESSAGE", "hello.name: a name needs a letter, digit or sign", re=req.id)
            )
            return
        player = person_key(req.player_key) if req.player_key is not None else None
        session = Session(name, cfg.limits.replay, conn.address, player)
        self.sessions[session.token] = session
        self._forgotten(forget_oldest_gone(self.sessions, conn.address, cfg.limits.max_per_address))
        if self.records.journal is not None:  # (so that it resumes after a restart too)
            self.records.journal.session(session.key, session.name, session.player)
        conn.attach(session)
        client = req.client  # (%r below: no log injection)
        log.info("%s says hello (%r %r)", conn, client["name"], client["version"])
        session.reply(req, welcome(self.config, session, self.records.on, resumed=False))

    def _resume(self, conn: ClientConnection, req: protocol.Hello, token: str, last_seq: int) -> None:
        session = self.sessions.get(token)
        restarted = session is None and (session := self.restored.reclaim(token, last_seq)) is not None
        if session is not None and restarted:
            self.sessions[token] = session
        if session is None:
            conn.fatal(protocol.error("BAD_RESUME", "no such session: it may have expired", re=req.id))
            return
        old = conn.attach(session)
        if isinstance(old, ClientConnection):
            old.bye("replaced")
        log.info("%s resumes (last seq %d of %d%s)", conn, last_seq, session.seq, restarted * ", restarted")
        missed = None if restarted and session.table is not None else session.missed(last_seq)
        if missed is not None and len(missed) > self.config.limits.outbox // 2:
            missed = None  # a replay that would fill the outbox: a snapshot instead
        session.reply(req, welcome(self.config, session, self.records.on, resumed=True, restarted=restarted))
        for frame in missed or ():
            conn.send(frame)
        if session.table is not None:  # the snapshot (or the seat back from away)
            session.table.attached(session, snapshot=missed is None, restarted=restarted)

    def _create_table(self, session: Session, req: protocol.CreateTable) -> None:
        cfg = self.config
        if session.table is not None:
            session.error(req, "BAD_STATE", "leave your table first")
            return
        if len(self.tables) >= cfg.limits.max_tables:
            session.error(req, "BAD_STATE", f"this server holds at most {cfg.limits.max_tables} tables")
            return
        mine = sum(1 for address in self.table_address.values() if address == session.address)
        if mine >= cfg.limits.max_tables_per_address:
            session.error(
                req, "BAD_STATE", f"at most {cfg.limits.max_tables_per_address} tables from one address"
            )
            return
        try:
            settings = TableSettings.from_request(req, cfg.table, cfg.seed, cfg.limits.max_chat)
        except TableError as exc:
            session.error(req, exc.code, exc.msg)
            return
        table = self.open_table(settings)
        self.table_address[table.id] = session.address
        log.info(
            "%s makes table %d (%s, %d seats, bots %s)",
            session,
            table.id,
            settings.variant,
            settings.seats,
            list(settings.bots),
        )
        table.handle(session, protocol.JoinTable(id=req.id, table=table.id, password=req.password or None))

    def open_table(self, settings: TableSettings) -> Table:
        """A new table of ``settings``, its task started (``run`` must be running). The lobby's
        ``create_table`` opens one; so does ``neveryu arena`` for its outside bots."""
        journal = self.records.journal
        table = Table(
            next(self._table_ids),
            settings,
            on_close=self._table_closed,
            records=self.records,
            journal=journal,
        )
        if journal is not None:
            journal.opened(table)
        self.tables[table.id] = table
        assert self._nursery is not None
        self._nursery.start_soon(table.run)
        return table

    def _table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.table_address.pop(table.id, None)


async def serve(config: ServerConfig | None = None, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    """Run a server for ``config`` until cancelled; reports the bound port (an int) through
    ``task_status``: ``port = await nursery.start(serve, config)``. Installs no signal
    handlers, so it runs in any thread with its own ``trio.run``. Cancelling it sends every
    client ``bye`` first (at most ``limits.shutdown_ms``)."""
    await Server(config or ServerConfig()).run(task_status=task_status)
