"""A table: its seats, its people, its requests, and its deadlines.

Requests are handled at once, by whoever brings them (``Table.handle``: a connection's reader):
handlers never await and send without waiting on any connection, so one connection's requests
are done and answered in order, and each handler is atomic (trio runs one task at a time). The
match itself, while one is played, is the table's ``Game`` (``_game``): game requests go to it.
The table's own task (``Table.run``) sleeps until the earliest deadline, the game's referee's
(the timing rules of docs/RULES.md, ``_referee.Referee``) or one of the table's own:

- ``BOT`` of a seat: a bot (a bot seat, or an away player's) acts after ``bot_delay_ms``.
- ``GRACE`` of a seat: a dropped player's seat is played by a bot after ``grace_ms`` (between
  matches the seat is given up).
- ``NEXT_DEAL``, ``CLOSE``: the pause between deals; a table without a connected person closes.
- ``CONTRIBUTIONS``: fair deal 2 deals the next deal without the contributions that have not come.

(``_timers.Deadline``; what each does: ``_FIRES`` and ``_SEAT_FIRES`` below.)
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from neveryu import engine, protocol

from . import _seating
from ._game import Game
from ._outbox import begin_batch, end_batch
from ._seats import Seat
from ._session import Session
from ._settings import TableError, TableSettings, table_seed
from ._text import shown
from ._timers import REFEREE_DEADLINES, Deadline, TimerKey, Timers
from ._wire import GAME_ACTIONS
from .records.deal_notes import Keeper
from .records.journal import Journal

log = logging.getLogger("neveryu.server")


class Table:
    """A table. Create it, start ``run`` in a nursery (its deadlines), and ``handle``
    requests. ``on_close(table)`` is called once when it closes (its people all left, or the
    server is shutting down); ``records``: where its ended deals' records go; ``journal``: the
    journal of live tables that notes it (``records.journal``; the server opens it there)."""

    def __init__(
        self,
        table_id: int,
        settings: TableSettings,
        *,
        on_close: Callable[[Table], None] | None = None,
        records: Keeper | None = None,
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
        self.journal: Journal | None = None
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
        """Handle ``session``'s ``request`` now (never waits): reply and send events. A request
        to a closed table gets ``BAD_STATE``; one the table or the rules refuse, its code (and
        nothing changed); a bug is logged and answered ``INTERNAL_ERROR``."""
        if self.closed:
            session.error(request, "BAD_STATE", f"table {self.id} has closed")
            return
        try:
            action_of = GAME_ACTIONS.get(type(request))
            if action_of is None:
                _HANDLERS[type(request)](self, session, request)
            elif session.table is not self or session.seat is None or self.game is None:
                raise TableError("NOT_PLAYING", "no deal is being played at your seat")
            else:
                self._back(self.seats[session.seat])
                self.game.play(session, request, action_of)
        except TableError as exc:
            session.error(request, exc.code, exc.msg)
        except engine.RuleViolation as exc:
            session.error(request, exc.code, exc.reason)
        except Exception:
            log.exception("table %d: failed to handle %s", self.id, request.t)
            session.error(request, "INTERNAL_ERROR", "the server failed to handle this request")

    def detached(self, session: Session) -> None:
        """``session``'s connection dropped: a seat waits ``grace_ms``, then a bot plays it
        (between matches the seat is given up); a spectator watches on, unseen, until the
        server forgets the session (``Table.remove``). A fair deal 2 shuffle stops waiting for
        the seat's contribution."""
        if session.table is self and session.seat is not None and self.seats[session.seat].session is session:
            self.timers.start(TimerKey(Deadline.GRACE, session.seat), self.settings.grace_ms)
            if self.game is not None:
                self.game.seat_dropped(session.seat)
        self.check_empty()

    def attached(self, session: Session, snapshot: bool) -> None:
        """``session`` resumed on a new connection. ``snapshot``: what it missed is no longer
        kept, so it gets a ``table_update`` and (in a deal) a ``state`` with the deal's history."""
        if session.table is not self:
            return
        if session.seat is not None:
            self._back(self.seats[session.seat], snapshot=not snapshot)
        if snapshot:
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
            seat.session, seat.ready = None, False
            self.timers.cancel(TimerKey(Deadline.GRACE, seat.index))
            if self.playing:
                seat.away = True
            else:
                seat.name, seat.away = None, False
            log.info("table %d: %s leaves seat %d (%s)", self.id, session.name, seat.index, why)
            self.broadcast(protocol.PlayerLeft.wire_map(seat=seat.index, name=session.name, reason=why))
        session.table, session.seat = None, None
        if not session.connected:  # in the lobby now: a grace time there to come back
            session.dropped_at = self.timers.clock()
        if session is self.host:  # the host passes to the player in the first seat
            self.host = next((s.session for s in self.seats if s.session is not None), None)
        self.table_update()
        if self.game is not None:
            self.game.after_events()
        if not self.spectators and all(s.session is None for s in self.seats):
            self.close("its players left")  # nobody can come back to it: it closes at once
        self.check_empty()

    def close(self, reason: str) -> None:
        """Close the table: everyone at it gets ``table_closed`` and is back in the lobby."""
        if self.closed:
            return
        self.closed = True
        log.info("table %d closes: %s", self.id, reason)
        if self.game is not None:
            self.game.stop()
        self.timers.clear()
        now = self.timers.clock()
        for session in self.members():
            session.event(protocol.TableClosed.wire_map(table=self.id, reason=reason))
            session.table, session.seat = None, None
            if not session.connected:  # in the lobby now: a grace time there to come back
                session.dropped_at = now
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
        begin_batch()
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
                _FIRES[key.kind](self)
            else:
                _SEAT_FIRES[key.kind](self, key.seat)
        except Exception:
            log.exception("table %d: deadline %s failed", self.id, key)
        end_batch()  # (what the deadline sent and is not written yet goes out)

    def _fire_close(self) -> None:
        self.close("its players left")

    def _fire_next_deal(self) -> None:
        if self.game is not None:
            self.game.next_deal()

    def _fire_contributions(self) -> None:
        if self.game is not None:
            self.game.deal_cards()  # fair deal 2: the window closed; who sent nothing gave nothing

    def _fire_bot(self, index: int) -> None:
        if self.game is not None:
            self.game.fire_bot(index)

    def _fire_grace(self, index: int) -> None:
        seat = self.seats[index]
        session = seat.session
        if session is None or session.connected:
            return
        if self.game is None:  # between matches a dropped player gives up the seat
            self.remove(session, "dropped")
            return
        log.info("table %d: seat %d (%s) is away: a bot plays it", self.id, index, seat.name)
        seat.away = True
        if not self._people_here():  # the last grace ended and nobody is back: as if they left
            self.close("its players left")
            return
        self.table_update()
        self.game.after_events()

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

    def _people_here(self) -> bool:
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

    # -- lobby requests -----------------------------------------------------------------------------

    def _on_join_table(self, session: Session, req: protocol.JoinTable) -> None:
        _seating.join_table(self, session, req)

    def _on_spectate(self, session: Session, req: protocol.Spectate) -> None:
        _seating.spectate(self, session, req)

    def _seat_of(self, session: Session) -> Seat:
        if session.table is not self:
            raise TableError("BAD_STATE", "you are at no table")
        if session.seat is None:
            raise TableError("NOT_PLAYING", "a spectator holds no seat")
        return self.seats[session.seat]

    def _on_leave(self, session: Session, req: protocol.Leave) -> None:
        if session.table is not self:
            raise TableError("BAD_STATE", "you are at no table")
        session.ok(req)
        self.remove(session, "left")

    def _on_ready(self, session: Session, req: protocol.Ready) -> None:
        seat = self._seat_of(session)
        seat.ready = req.ready
        self._back(seat)
        session.ok(req)
        self.table_update()

    def _on_start(self, session: Session, req: protocol.Start) -> None:
        self._seat_of(session)
        if self.playing:
            raise TableError("ALREADY_PLAYING", "the match is being played")
        if not all(s.session is not None and s.ready for s in self.seats if s.human):
            raise TableError("NOT_ALL_READY", "every seat must be taken and every player ready")
        session.ok(req)
        self.start_match()

    def start_match(self) -> None:
        """The match begins (``start``; ``neveryu arena`` when its outside bots are seated, or
        their time to take a seat is over: a free seat is played by a bot, as an away one)."""
        self.game = Game(self)
        self.game.start()

    def arrange(self, strengths: list[str | None]) -> None:
        """Before anyone joins: seat ``i`` becomes a bot seat of ``strengths[i]``, or a player's
        seat for None (``neveryu arena`` seats a lineup in any order; ``create_table``'s bots
        take the last seats)."""
        assert not self.playing and len(strengths) == len(self.seats)
        assert all(seat.session is None for seat in self.seats)
        self.seats = [Seat(i, strength) for i, strength in enumerate(strengths)]
        self.refresh_summary()

    def _on_contribute(self, session: Session, req: protocol.Contribute) -> None:
        self._seat_of(session)
        if self.game is None:
            raise TableError("BAD_STATE", "no match is being played")
        self.game.contribute(session, req)  # not a sign that an away player is back: it is automatic

    def _on_chat(self, session: Session, req: protocol.ChatRequest) -> None:
        if session.table is not self:
            raise TableError("BAD_STATE", "you are at no table")
        text = shown(req.text)
        if not text.strip():
            raise TableError("BAD_OPTION", "chat is empty")
        if len(text) > self.settings.max_chat:
            raise TableError("BAD_OPTION", f"chat is at most {self.settings.max_chat} characters")
        session.ok(req)
        self.broadcast(protocol.Chat.wire_map(seat=session.seat, name=session.name, text=text))

    # -- the host's requests (docs/PROTOCOL.md, "Lobby requests"; ``_seating``) --------------------

    def _on_seat_bot(self, session: Session, req: protocol.SeatBot) -> None:
        _seating.seat_bot(self, session, req)

    def _on_seat_free(self, session: Session, req: protocol.SeatFree) -> None:
        _seating.seat_free(self, session, req)

    # -- people come and go --------------------------------------------------------------------------

    def _back(self, seat: Seat, snapshot: bool = True) -> None:
        """A player shows he is back: his seat is no longer away (``Game.back``)."""
        self.timers.cancel(TimerKey(Deadline.GRACE, seat.index))
        if seat.away and seat.session is not None:
            seat.away = False
            self.timers.cancel(TimerKey(Deadline.BOT, seat.index))
            log.info("table %d: %s is back at seat %d", self.id, seat.name, seat.index)
            self.table_update()
            if self.game is not None:
                self.game.back(seat, snapshot)

    def match_over(self) -> None:
        """The game's last deal ended: the table waits for its players to be ready again; a
        seat whose player dropped during the match (and whose grace ran out) is given up."""
        assert self.game is not None
        self.deals_played, self.game = self.game.deal_no, None
        gone = []
        for seat in self.seats:
            if seat.human:
                seat.ready = seat.away = False
                if seat.session is None:
                    seat.name = None
                elif not seat.session.connected and not self._waits(seat):
                    gone.append(seat.session)
        self.table_update()
        for session in gone:
            self.remove(session, "dropped")


_HANDLERS: dict[type[protocol.Request], Callable[[Table, Session, Any], None]] = {
    protocol.JoinTable: Table._on_join_table,
    protocol.Spectate: Table._on_spectate,
    protocol.Leave: Table._on_leave,
    protocol.Ready: Table._on_ready,
    protocol.Start: Table._on_start,
    protocol.Contribute: Table._on_contribute,
    protocol.ChatRequest: Table._on_chat,
    protocol.SeatBot: Table._on_seat_bot,
    protocol.SeatFree: Table._on_seat_free,
}
"""The handler of each request the table answers itself (the game's requests go to the
``Game``: ``_wire.GAME_ACTIONS``)."""

_FIRES: dict[Deadline, Callable[[Table], None]] = {
    Deadline.CLOSE: Table._fire_close,
    Deadline.NEXT_DEAL: Table._fire_next_deal,
    Deadline.CONTRIBUTIONS: Table._fire_contributions,
}
"""What each of the table's own deadlines does when it passes."""

_SEAT_FIRES: dict[Deadline, Callable[[Table, int], None]] = {
    Deadline.BOT: Table._fire_bot,
    Deadline.GRACE: Table._fire_grace,
}
"""What each deadline of one seat does when it passes, given the seat."""
