"""A table: its seats, its people, and its deadlines.

Requests are handled at once, by whoever brings them (``Table.handle``: a connection's reader;
what each does: ``_table_requests``). The match itself, while one is played, is the table's
``Game`` (``_game``): game requests go to it. The table's own task (``Table.run``) sleeps
until the earliest deadline, the game's referee's (the timing rules of docs/RULES.md,
``_referee.Referee``) or one of the table's own (``_table_deadlines``).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from neveryu import engine, protocol

from . import _table_requests
from ._game import Game
from ._outbox import batch
from ._seats import Seat
from ._session import Session
from ._settings import TableSettings, table_seed
from ._table_deadlines import ABSENT_AFTER_MS, FIRES, SEAT_FIRES
from ._timers import REFEREE_DEADLINES, Deadline, TimerKey, Timers
from .records.deal_notes import Keeper
from .records.journal import Journal

log = logging.getLogger("neveryu.server")


class Table:
    """A table. Create it, start ``run`` in a nursery (its deadlines), and ``handle``
    requests. ``on_close(table)`` is called once when it closes (its people all left, or the
    server is shutting down); ``records``: where its ended deals' records go; ``journal``: the
    journal of live tables that notes it (``records.journal``; the server notes a new table
    there, ``Journal.opened``). A table restored from the journal (``_restore``) gets its
    people (``restore_people``) and its match (``resume``) before its task starts."""

    def __init__(
        self,
        table_id: int,
        settings: TableSettings,
        *,
        on_close: Callable[[Table], None] | None = None,
        records: Keeper | None = None,
        journal: Journal | None = None,
    ) -> None:
        self.id = table_id
        self.settings = settings
        self.rules = engine.variant(settings.variant, **settings.options)
        self.seats = [Seat(i) for i in range(settings.seats)]
        for k, strength in enumerate(settings.bots):
            i = settings.seats - len(settings.bots) + k
            self.seats[i] = Seat(i, strength)
        self.spectators: list[Session] = []
        self.host: Session | None = None  # who made the table (seat_bot, seat_free), while seated
        self.closed = False
        self.game: Game | None = None  # the match being played
        self.deals_played = 0  # deals of the last match, once it ended (the summary's deal_no)
        self.timers = Timers(trio.current_time)
        # A fixed seed makes the table's deals reproducible, its own (``table_seed``); else each
        # deal is seeded afresh from ``secrets`` (docs/ARCHITECTURE.md, engine/).
        self.seed = table_seed(settings.seed, table_id) if settings.seed is not None else None
        self.rng = random.Random(self.seed if self.seed is not None else secrets.randbits(64))
        self.summary: dict[str, Any] = {}
        self._task = trio.CancelScope()  # the table task's (``run``)
        self._nursery: trio.Nursery | None = None  # its bots' searches run here (``start_soon``)
        self._on_close = on_close
        self.records = records  # where ended deals' records go (None: nowhere)
        self.journal = journal
        self.refresh_summary()

    def __repr__(self) -> str:
        return f"<table {self.id} {self.settings.variant}>"

    @property
    def playing(self) -> bool:
        """A match is being played."""
        return self.game is not None

    @property
    def deal(self) -> engine.Deal | None:
        """The deal of the match being played (over, between two deals), if any."""
        return self.game.deal if self.game is not None else None

    # -- the outside: requests and connections come in --------------------------------------------

    def handle(self, session: Session, request: protocol.Request) -> None:
        """Handle ``session``'s ``request`` now (never waits): reply and send events
        (``_table_requests.handle``)."""
        _table_requests.handle(self, session, request)

    def detached(self, session: Session) -> None:
        """``session``'s connection dropped: a seat waits ``grace_ms``, then a bot plays it
        (between matches the seat is given up); a spectator watches on, unseen, until the
        server forgets the session (``Table.remove``). A fair deal 2 shuffle stops waiting for
        the seat's contribution."""
        if session.table is self and session.seat is not None and self.seats[session.seat].session is session:
            self.timers.start(TimerKey(Deadline.GRACE, session.seat), self.settings.grace_ms)
            self.timers.start(TimerKey(Deadline.ABSENT, session.seat), ABSENT_AFTER_MS)
            if self.game is not None:
                self.game.seat_dropped(session.seat)
        self.check_empty()

    def attached(self, session: Session, snapshot: bool, restarted: bool = False) -> None:
        """``session`` resumed on a new connection. ``snapshot``: what it missed is no longer
        kept, so it gets a ``table_update`` and (in a deal) a ``state`` with the deal's history.
        ``restarted``: the server restarted since (``_restore``): on his turn his turn time
        starts afresh, whole (docs/PROTOCOL.md, "Across a server restart")."""
        if session.table is not self:
            return
        if restarted and session.seat is not None and self.game is not None:
            self.game.turn_afresh(session.seat)
        told = session.seat is not None and self.back(self.seats[session.seat], not snapshot, resumed=True)
        if snapshot:
            if not told:
                session.event(protocol.TableUpdate.wire_map(table=self.summary))
            if self.game is not None:
                self.game.send_state(session, history="own")
        elif self.game is not None:
            self.game.send_turn(session)  # the replay told the turn's time as it was announced
        self.check_empty()

    def remove(self, session: Session, why: str) -> None:
        """Take ``session`` off this table (``why``: left, dropped): a spectator goes; a seat is
        freed (during a match a bot plays it until someone takes it)."""
        if session in self.spectators:
            self.spectators.remove(session)
        elif session.seat is not None:
            seat = self.seats[session.seat]
            seat.free(self.playing)
            self.timers.cancel(TimerKey(Deadline.GRACE, seat.index))
            log.info("table %d: %s leaves seat %d (%s)", self.id, session.name, seat.index + 1, why)
            self.broadcast(protocol.PlayerLeft.wire_map(seat=seat.index, name=session.name, reason=why))
        session.leave(self.timers.clock())  # (a grace time in the lobby to come back)
        if session is self.host:  # the host passes to the player in the first seat
            self.host = next((s.session for s in self.seats if s.session is not None), None)
        self.table_update()
        if self.game is not None:
            self.game.after_events()
        if not self.spectators and all(s.session is None for s in self.seats):
            self.close("its players left")  # nobody can come back to it: it closes at once
        self.check_empty()

    def close(self, reason: str, *, keep: bool = False) -> None:
        """Close the table: everyone at it gets ``table_closed`` and is back in the lobby.
        ``keep``: the journal keeps the table as it is, for the server started next on the same
        records to restore (a shutdown that keeps the tables, ``Server.shutdown``)."""
        if self.closed:
            return
        if keep:
            self.journal = None  # its closing is not noted: the journal keeps it
        self.closed = True
        log.info("table %d closes: %s", self.id, reason)
        if self.game is not None:
            self.game.stop()
        self.timers.clear()
        now = self.timers.clock()
        for session in self.members():
            session.event(protocol.TableClosed.wire_map(table=self.id, reason=reason))
            session.leave(now)  # (a grace time in the lobby to come back)
        self._task.cancel()  # the table task ends
        if self.journal is not None:
            self.journal.closed(self)
        if self._on_close is not None:
            self._on_close(self)

    # -- the task: deadlines ---------------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The table task: fire deadlines as they fall due, until the table closes (a bug in
        one table closes that table, never the server)."""
        task_status.started()
        self.check_empty()
        try:
            with self._task:
                async with trio.open_nursery() as self._nursery:
                    self._nursery.start_soon(self.timers.run, self._fire)
        except Exception:
            log.exception("table %d failed and is closed", self.id)
            self.close("a server error")
        finally:
            self._nursery = None
            self.close("the server is shutting down")

    def start_soon(self, task: Callable[[], Awaitable[object]]) -> bool:
        """Run ``task`` in the table task (a bot's search, ``SeatBots.fire_bot``), cancelled when
        the table closes; False when the table task does not run (nothing is started)."""
        if self._nursery is None:
            return False
        self._nursery.start_soon(task)
        return True

    def _fire(self, key: TimerKey) -> None:
        """A deadline passed: its referee's (the game's), or one of the table's own."""
        with batch():  # (what the deadline sent goes out at its end)
            try:
                if key.kind in REFEREE_DEADLINES:
                    game = self.game
                    if game is not None and game.referee is not None:
                        events = game.referee.fired(key.kind)
                        if events:
                            game.publish(events)
                        elif game.deal is not None and not game.deal.over:
                            game.after_events()  # (a bot a settled group let play is asked, ``fire_bot``)
                elif key.seat is None:
                    FIRES[key.kind](self)
                else:
                    SEAT_FIRES[key.kind](self, key.seat)
            except Exception:
                log.exception("table %d: deadline %s failed", self.id, key)

    # -- sending -----------------------------------------------------------------------------------

    def members(self) -> list[Session]:
        return [s.session for s in self.seats if s.session is not None] + list(self.spectators)

    def broadcast(self, body: dict[str, Any]) -> None:
        """Send ``body`` (an event's wire map) to everyone at the table."""
        for session in self.members():
            session.event(body)

    def refresh_summary(self) -> None:
        """Bring ``summary`` (the table as ``table_update`` shows it) up to date."""
        s = self.settings
        self.summary = {
            "id": self.id,
            "variant": s.variant,
            "options": dict(s.options),
            "seats": [seat.summary() for seat in self.seats],
            "state": "playing" if self.playing else "waiting",
            "spectators": len(self.spectators),
            "password": s.password is not None,
            "turn_ms": s.turn_ms,
            "challenge_window_ms": s.challenge_window_ms,
            "tie_window_ms": s.tie_window_ms,
            "quads_window_ms": s.quads_window_ms,
            "deals": s.deals,
            "deal_no": self.game.deal_no if self.game is not None else self.deals_played,
            "match_scores": list(self.game.match.scores) if self.game is not None else None,
            "seeded": s.seed is not None,
            "seed_from": s.seed_from,
            "host": self.host.seat if self.host is not None else None,
            "reveal_after_deal": s.reveal_after_deal,
        }
        if self.journal is not None:
            self.journal.changed(self)

    def table_update(self) -> None:
        """``table_update`` to everyone at the table."""
        self.refresh_summary()
        self.broadcast(protocol.TableUpdate.wire_map(table=self.summary))

    def people_here(self) -> bool:
        """A person is connected at the table, or a dropped player's seat still waits for him."""
        return self._connected() or any(self._waits(s) for s in self.seats)

    def _waits(self, seat: Seat) -> bool:
        """A dropped player's seat still waits for him (its grace is running)."""
        return self.timers.running(TimerKey(Deadline.GRACE, seat.index))

    def _connected(self) -> bool:
        return any(s.session is not None and s.session.connected for s in self.seats) or any(
            p.connected for p in self.spectators
        )

    def check_empty(self) -> None:
        """Start the closing deadline when no person is connected; cancel it when one is."""
        if self._connected():
            self.timers.cancel(TimerKey(Deadline.CLOSE))
        elif not self.timers.running(TimerKey(Deadline.CLOSE)):
            self.timers.start(TimerKey(Deadline.CLOSE), self.settings.close_ms)

    # -- the match ---------------------------------------------------------------------------------

    def start_match(self) -> None:
        """The match begins (``start``; ``neveryu arena`` when its outside bots are seated, or
        their time to take a seat is over: a free seat is played by a bot, as an away one)."""
        self.game = Game(self, journal=self.journal)
        self.game.start()

    def arrange(self, strengths: list[str | None]) -> None:
        """Before anyone joins: seat ``i`` becomes a bot seat of ``strengths[i]``, or a player's
        seat for None (``neveryu arena`` seats a lineup in any order; ``create_table``'s bots
        take the last seats)."""
        assert not self.playing and len(strengths) == len(self.seats)
        assert all(seat.session is None for seat in self.seats)
        self.seats = [Seat(i, strength) for i, strength in enumerate(strengths)]
        self.refresh_summary()

    # -- people come and go --------------------------------------------------------------------------

    def take_seat(self, session: Session, seat: Seat) -> None:
        """``session`` takes ``seat`` (``_seating.join_table``); the first to sit at a table
        without a host is its host."""
        seat.take(session)
        session.sit(self, seat.index)
        if self.host is None:
            self.host = session

    def add_spectator(self, session: Session) -> None:
        """``session`` watches the table (``_seating.spectate``)."""
        self.spectators.append(session)
        session.sit(self, None)

    def back(self, seat: Seat, snapshot: bool = True, resumed: bool = False) -> bool:
        """A player shows he is back: his seat is no longer away (``Game.back``) nor absent; his
        client's resume (``resumed``) does not bring back a seat away since a turn timeout
        (docs/PROTOCOL.md, "Resume"). True when it changed (everyone got a ``table_update``)."""
        self.timers.cancel(TimerKey(Deadline.GRACE, seat.index))
        self.timers.cancel(TimerKey(Deadline.ABSENT, seat.index))
        away = seat.away and seat.session is not None and not (resumed and seat.timed_out)
        if not (away or seat.absent):
            return False
        seat.set_absent(False)
        if away:
            seat.set_away(False)
            self.timers.cancel(TimerKey(Deadline.BOT, seat.index))
            log.info("table %d: %s is back at seat %d", self.id, seat.name, seat.index + 1)
        self.table_update()
        if away and self.game is not None:
            self.game.back(seat, snapshot)
        return True

    def restore_people(
        self, seats: list[Seat], spectators: list[Session], host: int | None, deals_played: int
    ) -> None:
        """The seats and spectators the journal kept (``_restore``: their sessions restored at
        this table), the ``host``'s seat, and the deals of the last match (between matches)."""
        assert not self.playing and len(seats) == len(self.seats)
        self.seats, self.spectators = seats, spectators
        self.host = seats[host].session if host is not None else None
        self.deals_played = deals_played

    def resume(self, game: Game | None, jid: int, deal_key: int) -> None:
        """The table restored from the journal's rows ``jid`` (``_restore``), with its match
        (``game``, None: between matches; ``deal_key``: the key of the deal being played) goes
        on: the journal notes it there from now on, each of its people is dropped (the grace
        time, then a bot plays a seat), and its deadlines start afresh (docs/PROTOCOL.md, "Across
        a server restart"): the pause before the next deal, or the match's end when its last
        deal had ended."""
        self.game = game
        referee = game.referee if game is not None else None
        if self.journal is not None:
            match_uid = game.match_uid if game is not None else None
            deal = deal_key if game is not None and game.deal is not None else 0
            self.journal.adopt(self, jid, match_uid, deal, len(referee.applied) if referee is not None else 0)
        for session in self.members():
            self.detached(session)  # the grace time, then a bot plays the seat (a spectator: none)
        if game is not None and game.deal is None and game.match.deals_played >= self.settings.deals:
            self.match_over()  # its last deal had ended
        elif game is not None and game.deal is None:
            self.timers.start(TimerKey(Deadline.NEXT_DEAL), self.settings.deal_pause_ms)
        elif game is not None:
            game.after_events()
        self.refresh_summary()

    def match_over(self) -> None:
        """The game's last deal ended: the table waits for its players to be ready again; a
        seat whose player dropped during the match (and whose grace ran out) is given up."""
        assert self.game is not None
        self.deals_played, self.game = self.game.deal_no, None
        gone = []
        for seat in self.seats:
            seat.match_ended()
            if (
                seat.human
                and seat.session is not None
                and not seat.session.connected
                and not self._waits(seat)
            ):
                gone.append(seat.session)
        self.table_update()
        for session in gone:
            self.remove(session, "dropped")
