"""A table: its seats, its requests, its match, and what each receiver is sent.

Requests are handled at once, by whoever brings them (``Table.handle``: a connection's reader):
handlers never await and send without waiting on any connection, so one connection's requests
are done and answered in order, and each handler is atomic (trio runs one task at a time). The
table's own task (``Table.run``) sleeps until the earliest deadline, its referee's (the timing
rules of RULES.md, ``_referee.Referee``) or its own:

- ``bot:<seat>``: a bot (a bot seat, or an away player's) acts after ``bot_delay_ms``.
- ``grace:<seat>``: a dropped player's seat is played by a bot after ``grace_ms`` (between
  matches the seat is given up).
- ``next_deal``, ``close``: the pause between deals; a table without a connected person closes.

Every engine event goes out through ``_publish``: each receiver gets the copy ``_wire.copies``
gives it, and nothing else.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable
from typing import Any

import trio

from neveryu import engine, protocol

from . import _wire
from ._bots import default_strength, new_bot
from ._password import password_ok
from ._referee import Referee
from ._seats import Seat
from ._session import Session
from ._settings import TableError, TableSettings
from ._text import shown
from ._timers import Timers

log = logging.getLogger("neveryu.server")

GAME_ACTIONS: dict[type[protocol.Request], Callable[[Any, int], engine.Action]] = {
    protocol.Lay: lambda r, seat: engine.LaySet(seat, r.cards, r.rank, r.count),
    protocol.DeclareNoneRequest: lambda r, seat: engine.DeclareNone(seat),
    protocol.DiscardQuadsRequest: lambda r, seat: engine.DiscardQuads(seat, r.ranks),
    protocol.BelieveRequest: lambda r, seat: engine.Believe(seat, r.set_no),
    protocol.ChallengeRequest: lambda r, seat: engine.Challenge(seat, r.set_no),
    protocol.DeclineQuadsRequest: lambda r, seat: engine.DeclineQuads(seat),
}
"""The engine action of each game request (docs/PROTOCOL.md, "Game requests"), for a seat."""


class Table:
    """A table. Create it, start ``run`` in a nursery (its deadlines), and ``handle``
    requests. ``on_close(table)`` is called once when it closes (its people all left, or the
    server is shutting down)."""

    def __init__(
        self, table_id: int, settings: TableSettings, *, on_close: Callable[[Table], None] | None = None
    ) -> None:
        self.id = table_id
        self.settings = settings
        self.rules = engine.variant(settings.variant, **settings.options)
        self.seats = [Seat(i) for i in range(settings.seats)]
        for k, strength in enumerate(settings.bots):
            i = settings.seats - len(settings.bots) + k
            self.seats[i] = Seat(i, strength)
        self.spectators: list[Session] = []
        self.playing = False
        self.closed = False
        self.match: engine.Match | None = None
        self.deal: engine.Deal | None = None
        self.referee: Referee | None = None
        self.deal_no = 0
        self.salt = ""
        self.commitment = ""
        self.timers = Timers(trio.current_time)
        self.sent_legal: dict[int, engine.Legal] = {}
        self.rng = random.Random(settings.seed if settings.seed is not None else secrets.randbits(64))
        self.summary: dict[str, Any] = {}
        self._sleep: trio.CancelScope | None = None  # the table task's wait for the next deadline
        self._on_close = on_close
        self._refresh_summary()

    def __repr__(self) -> str:
        return f"<table {self.id} {self.settings.variant}>"

    # -- the outside: requests and connections come in --------------------------------------------

    def handle(self, session: Session, request: protocol.Request) -> None:
        """Handle ``session``'s ``request`` now (never waits): reply and send events. A request
        to a closed table gets ``BAD_STATE``; one the table or the rules refuse, its code (and
        nothing changed); a bug is logged and answered ``INTERNAL_ERROR``."""
        if self.closed:
            session.error(request, "BAD_STATE", f"table {self.id} has closed")
            return
        try:
            action = GAME_ACTIONS.get(type(request))
            if action is not None:
                self._play(session, request, action)
            else:
                getattr(self, "_on_" + request.t)(session, request)
        except TableError as exc:
            session.error(request, exc.code, exc.msg)
        except engine.RuleViolation as exc:
            session.error(request, exc.code, exc.reason)
        except Exception:
            log.exception("table %d: failed to handle %s", self.id, request.t)
            session.error(request, "INTERNAL_ERROR", "the server failed to handle this request")
        self._wake()

    def detached(self, session: Session) -> None:
        """``session``'s connection dropped: a seat waits ``grace_ms``, then a bot plays it
        (between matches the seat is given up); a spectator watches on, unseen, until the
        server forgets the session (``Table.remove``)."""
        if session.table is self and session.seat is not None and self.seats[session.seat].session is session:
            self.timers.start(f"grace:{session.seat}", self.settings.grace_ms)
        self._check_empty()
        self._wake()

    def attached(self, session: Session, snapshot: bool) -> None:
        """``session`` resumed on a new connection. ``snapshot``: what it missed is no longer
        kept, so it gets a ``table_update`` and (in a deal) a ``state``."""
        if session.table is not self:
            return
        if session.seat is not None:
            self._back(self.seats[session.seat], snapshot=not snapshot)
        if snapshot:
            session.event({"t": "table_update", "table": self.summary})
            if self.playing:
                self._send_state(session)
        self._check_empty()
        self._wake()

    def remove(self, session: Session, why: str) -> None:
        """Take ``session`` off this table (``why``: left, dropped): a spectator goes; a seat is
        freed (during a match a bot plays it until someone takes it)."""
        if session in self.spectators:
            self.spectators.remove(session)
        elif session.seat is not None:
            seat = self.seats[session.seat]
            seat.session, seat.ready = None, False
            self.timers.cancel(f"grace:{seat.index}")
            if self.playing:
                seat.away = True
            else:
                seat.name, seat.away = None, False
            log.info("table %d: %s leaves seat %d (%s)", self.id, session.name, seat.index, why)
            self._broadcast({"t": "player_left", "seat": seat.index, "name": session.name, "reason": why})
        session.table, session.seat = None, None
        self._table_update()
        if self.playing:
            self._after_events()
        if not self.spectators and all(s.session is None for s in self.seats):
            self.close("its players left")  # nobody can come back to it: it closes at once
        self._check_empty()
        self._wake()

    def close(self, reason: str) -> None:
        """Close the table: everyone at it gets ``table_closed`` and is back in the lobby."""
        if self.closed:
            return
        self.closed = True
        log.info("table %d closes: %s", self.id, reason)
        if self.referee is not None:
            self.referee.stop()
        self.timers.clear()
        for session in self._members():
            session.event({"t": "table_closed", "table": self.id, "reason": reason})
            session.table, session.seat = None, None
        if self._sleep is not None:
            self._sleep.cancel()  # the table task ends
        if self._on_close is not None:
            self._on_close(self)

    # -- the task: deadlines ---------------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The table task: fire deadlines as they fall due, until the table closes (a bug in
        one table closes that table, never the server)."""
        task_status.started()
        self._check_empty()
        try:
            while not self.closed:
                with trio.CancelScope(deadline=self._next()) as self._sleep:
                    await trio.sleep_forever()
                self._sleep = None
                self._fire_due()
        except Exception:
            log.exception("table %d failed and is closed", self.id)
            self.close("a server error")
        finally:
            self._sleep = None
            self.close("the server is shutting down")

    def _next(self) -> float:
        return min(
            self.timers.next(), self.referee.next() if self.referee is not None else self.timers.next()
        )

    def _wake(self) -> None:
        """After any change: the task's sleep ends at the earliest deadline now."""
        if self._sleep is not None:
            self._sleep.deadline = self._next()

    def _fire_due(self) -> None:
        while not self.closed:
            if self.referee is not None and self.referee.next() <= trio.current_time():
                try:
                    self._publish(self.referee.fire())
                except Exception:
                    log.exception("table %d: a deadline of the referee failed", self.id)
                continue
            key = self.timers.due()
            if key is None:
                return
            name, _, arg = key.partition(":")
            try:
                getattr(self, "_fire_" + name)(int(arg) if arg else None)
            except Exception:
                log.exception("table %d: deadline %s failed", self.id, key)

    # -- sending -----------------------------------------------------------------------------------

    def _members(self) -> list[Session]:
        return [s.session for s in self.seats if s.session is not None] + list(self.spectators)

    def _broadcast(self, body: dict[str, Any]) -> None:
        for session in self._members():
            session.event(body)

    def _refresh_summary(self) -> None:
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
            "deals": s.deals,
            "deal_no": self.deal_no,
            "seeded": s.seed is not None,
        }

    def _table_update(self) -> None:
        self._refresh_summary()
        self._broadcast({"t": "table_update", "table": self.summary})

    def _check_empty(self) -> None:
        """Start the closing deadline when no person is connected; cancel it when one is."""
        if any(s.session is not None and s.session.connected for s in self.seats) or any(
            p.connected for p in self.spectators
        ):
            self.timers.cancel("close")
        elif not self.timers.running("close"):
            self.timers.start("close", self.settings.close_ms)

    def _fire_close(self, _arg: None) -> None:
        self.close("its players left")

    # -- lobby requests -----------------------------------------------------------------------------

    def _on_join_table(self, session: Session, req: protocol.JoinTable) -> None:
        self._check_password(req.password)
        if session.table is not None:
            raise TableError("BAD_STATE", "leave your table first")
        if req.seat is not None:
            if not (0 <= req.seat < len(self.seats)):
                raise TableError("SEAT_TAKEN", f"there is no seat {req.seat}")
            seat = self.seats[req.seat]
            if not seat.human or seat.session is not None:
                raise TableError("SEAT_TAKEN", f"seat {req.seat} is taken")
        else:
            free = [s for s in self.seats if s.human and s.session is None]
            if not free:
                raise TableError("TABLE_FULL", "no seat is free")
            seat = free[0]
        seat.session, seat.name, seat.ready, seat.away = session, session.name, False, False
        session.table, session.seat = self, seat.index
        self.timers.cancel(f"grace:{seat.index}")
        self.timers.cancel(f"bot:{seat.index}")
        log.info("table %d: %s takes seat %d", self.id, session.name, seat.index)
        self._refresh_summary()
        session.reply(req, {"t": "table_joined", "table": self.summary, "seat": seat.index})
        for other in self._members():
            if other is not session:
                other.event({"t": "player_joined", "seat": seat.index, "name": session.name})
        self._table_update()
        if self.playing:
            self._send_state(session)
            self._after_events()
        self._check_empty()

    def _on_spectate(self, session: Session, req: protocol.Spectate) -> None:
        self._check_password(req.password)
        if session.table is not None:
            raise TableError("BAD_STATE", "leave your table first")
        self.spectators.append(session)
        session.table, session.seat = self, None
        self._refresh_summary()
        session.reply(req, {"t": "table_joined", "table": self.summary, "seat": None})
        self._table_update()
        if self.playing:
            self._send_state(session)
        self._check_empty()

    def _check_password(self, given: str | None) -> None:
        if not password_ok(given, self.settings.password):
            raise TableError("WRONG_TABLE_PASSWORD", f"table {self.id} needs its password")

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
        self._table_update()

    def _on_start(self, session: Session, req: protocol.Start) -> None:
        self._seat_of(session)
        if self.playing:
            raise TableError("ALREADY_PLAYING", "the match is being played")
        if not all(s.session is not None and s.ready for s in self.seats if s.human):
            raise TableError("NOT_ALL_READY", "every seat must be taken and every player ready")
        session.ok(req)
        self._start_match()

    def _on_chat(self, session: Session, req: protocol.ChatRequest) -> None:
        if session.table is not self:
            raise TableError("BAD_STATE", "you are at no table")
        text = shown(req.text)
        if len(text) > self.settings.max_chat:
            raise TableError("BAD_OPTION", f"chat is at most {self.settings.max_chat} characters")
        session.ok(req)
        self._broadcast({"t": "chat", "seat": session.seat, "name": session.name, "text": text})

    # -- people come and go --------------------------------------------------------------------------

    def _fire_grace(self, index: int) -> None:
        seat = self.seats[index]
        session = seat.session
        if session is None or session.connected:
            return
        if not self.playing:  # between matches a dropped player gives up the seat
            self.remove(session, "dropped")
            return
        log.info("table %d: seat %d (%s) is away: a bot plays it", self.id, index, seat.name)
        seat.away = True
        self._table_update()
        self._after_events()

    def _back(self, seat: Seat, snapshot: bool = True) -> None:
        """A player shows he is back: his seat is no longer away. Back on his own turn, his turn
        time starts afresh and (``snapshot``) a ``state`` tells him its ``time_ms``."""
        self.timers.cancel(f"grace:{seat.index}")
        if seat.away and seat.session is not None:
            seat.away = False
            self.timers.cancel(f"bot:{seat.index}")
            log.info("table %d: %s is back at seat %d", self.id, seat.name, seat.index)
            self._table_update()
            deal, referee = self.deal, self.referee
            if deal is not None and referee is not None and not deal.over and deal.turn == seat.index:
                referee.restart_turn()
                if snapshot:
                    self._send_state(seat.session)

    # -- the match ----------------------------------------------------------------------------------

    def _start_match(self) -> None:
        seed = self.settings.seed
        self.match = engine.Match(
            self.rules, len(self.seats), random.Random(seed if seed is not None else secrets.randbits(128))
        )
        self.playing = True
        self.deal_no = 0
        log.info("table %d: a match of %s begins", self.id, self.settings.variant)
        self._refresh_summary()
        self._broadcast({"t": "match_started", "table": self.summary, "deals": self.settings.deals})
        self._start_deal()

    def _fire_next_deal(self, _arg: None) -> None:
        self._start_deal()

    def _start_deal(self) -> None:
        match = self.match
        assert match is not None
        if self.settings.seed is None:  # DESIGN.md: each deal seeded afresh from secrets
            match.rng = random.Random(secrets.randbits(128))
        deal, opening = match.start()
        self.deal = deal
        self.deal_no += 1
        self.salt = _wire.new_salt()
        self.commitment = _wire.commitment(self.salt, deal.deck_order or ())
        self.sent_legal = {}
        for seat in self.seats:
            seat.bot = new_bot(seat.strength or default_strength(), seat.index, self.rules, len(self.seats))
            seat.unseen, seat.asked = [], None
        self.referee = Referee(
            deal,
            self.settings,
            clock=trio.current_time,
            by_bot=lambda i: self.seats[i].by_bot,
            choose=lambda i: self.seats[i].bot_sees().choose(deal.view(i), self.rng),
            rng=self.rng,
        )
        log.info("table %d: deal %d begins (dealer %d)", self.id, self.deal_no, deal.dealer)
        self._refresh_summary()
        self._publish(self.referee.begin(opening))

    def _end_deal(self, deal: engine.Deal) -> None:
        self.sent_legal = {}
        for seat in self.seats:
            self.timers.cancel(f"bot:{seat.index}")
            if seat.session is not None:
                seat.session.event(_wire.legal_message(engine.NO_ACTION))
        log.info(
            "table %d: deal %d ends (loser %s, winner %s)", self.id, self.deal_no, deal.loser, deal.winner
        )
        assert self.match is not None
        if self.match.deals_played >= self.settings.deals:
            self._end_match()
        else:
            self.timers.start("next_deal", self.settings.deal_pause_ms)

    def _end_match(self) -> None:
        assert self.match is not None
        scores = list(self.match.scores)
        self.playing = False
        self.deal = self.referee = None
        log.info("table %d: the match ends, scores %s", self.id, scores)
        self._broadcast({"t": "match_ended", "scores": scores, "deals": self.deal_no})
        gone = []
        for seat in self.seats:
            if seat.human:
                seat.ready = seat.away = False
                if seat.session is None:
                    seat.name = None
                elif not seat.session.connected and not self.timers.running(f"grace:{seat.index}"):
                    gone.append(seat.session)  # dropped during the match: the seat is given up
        self._table_update()
        for session in gone:
            self.remove(session, "dropped")

    # -- game requests and events --------------------------------------------------------------------

    def _play(
        self, session: Session, req: protocol.Request, action: Callable[[Any, int], engine.Action]
    ) -> None:
        """A game request: the seat's action, under the referee's timing rules."""
        if session.table is not self or session.seat is None or self.referee is None:
            raise TableError("NOT_PLAYING", "no deal is being played at your seat")
        seat = self.seats[session.seat]
        self._back(seat)
        events = self.referee.act(action(req, seat.index))
        session.ok(req)
        self._publish(events)

    def _fire_bot(self, index: int) -> None:
        deal, referee, seat = self.deal, self.referee, self.seats[index]
        if deal is None or referee is None or deal.over or not seat.by_bot or seat.bot is None:
            return
        seat.asked = before = deal.actions
        action = seat.bot_sees().choose(deal.view(index), self.rng)
        try:
            if action is not None:
                self._publish(referee.act(action))
                return
        except (engine.RuleViolation, TableError) as exc:
            if deal.actions != before:  # a challenge was settled first: the bot is asked again
                return
            log.warning("table %d: the bot at seat %d tried %r: %s", self.id, index, action, exc)
        # A bot that has no move (or a wrong one) on its own turn must not stall the deal: the
        # engine acts for the seat as it does when a turn's time runs out.
        if not deal.over and deal.turn == index and deal.held is None and deal.legal_actions(index).lay:
            made = engine.random_turn_action(deal.view(index), self.rng)
            self._publish(referee.act(engine.Timeout(index, made)))

    def _publish(self, events: list[engine.Event]) -> None:
        """Send every receiver its copy of each of ``events`` (``_wire.copies``), feed the bots
        theirs, then bring the seats' ``legal``, the bots and the match up to date."""
        deal = self.deal
        if not events or deal is None:
            return
        if deal.over and self.match is not None and any(type(e) is engine.DealEnded for e in events):
            self.match.finish(deal)
        for event in events:
            extra = self._extra(event)
            for receiver, seen in _wire.copies(event, len(self.seats), self.rules.hand_counts_public):
                sessions = self.spectators if receiver is None else [self.seats[receiver].session]
                body = _wire.event_message(seen) | extra
                for session in sessions:
                    if session is not None:
                        session.event(body)
                if receiver is not None:
                    seat = self.seats[receiver]
                    if seat.bot is not None and type(seen) in seat.bot.observes:
                        seat.unseen.append(seen)
            if type(event) is engine.TimedOut:
                self.seats[event.seat].away = True
                self._table_update()
        self._after_events()

    def _extra(self, event: engine.Event) -> dict[str, Any]:
        """The table's own fields of an event: the fair deal's commitment and disclosure, the
        deal's number, the turn time."""
        if type(event) is engine.DealStarted:
            return {"commitment": self.commitment, "deal_no": self.deal_no}
        if type(event) is engine.Turn and self.referee is not None:
            return {"time_ms": self.referee.turn_time_ms(event.seat)}
        if type(event) is engine.DealEnded and self.deal is not None:
            return {
                "salt": self.salt,
                "deck": list(self.deal.deck_order or ()),
                "match_scores": list(self.match.scores) if self.match else None,
                "deal_no": self.deal_no,
            }
        return {}

    def _after_events(self) -> None:
        """After every change: each seat gets its new ``legal``, bots get asked, and an ended
        deal leads to the next one."""
        deal = self.deal
        if deal is None:
            return
        if deal.over:
            self._end_deal(deal)
            return
        held = deal.held.seat if deal.held is not None else None  # its set is laid early: it waits
        for seat in self.seats:
            legal = deal.legal_actions(seat.index)
            if seat.session is not None and self.sent_legal.get(seat.index) != legal:
                self.sent_legal[seat.index] = legal
                seat.session.event(_wire.legal_message(legal))
            key = f"bot:{seat.index}"
            if not seat.by_bot:
                self.timers.cancel(key)
            elif legal and held != seat.index and seat.asked != deal.actions and not self.timers.running(key):
                self.timers.start(key, self.settings.bot_delay_ms)

    def _send_state(self, session: Session) -> None:
        """A full snapshot of what ``session`` may know of the deal (join, resume)."""
        deal = self.deal
        if deal is None:
            return
        view = deal.view(session.seat)
        body = {
            "t": "state",
            **_wire.view_fields(view),
            "table": self.summary,
            "deal_no": self.deal_no,
            "commitment": self.commitment,
            "match_scores": list(self.match.scores) if self.match else None,
            "time_ms": self.referee.turn_ms_left() if self.referee is not None else None,
        }
        session.event(body)
        if session.seat is not None:
            self.sent_legal[session.seat] = view.legal
