"""A table: its seats, its lobby commands, its match, and what each seat is sent.

Commands (a request dict with its session) are handled at once, by whoever brings them
(``Table.handle``: a connection's reader, the server when a connection drops): handlers never
await, push events without ever waiting on a connection, and one connection's requests are
therefore done and answered in order. The table's own task (``Table.run``) only fires deadlines
(``Table.deadlines``, on ``trio.current_time()``): it sleeps until the earliest one, and a
handler that sets an earlier deadline moves its wake-up (``_at``). They drive the referee's
timing rules (``_referee.Referee``) and these:

- ``grace:<seat>``: a dropped player's seat is played by a bot after ``grace_ms``.
- ``next_deal``, ``close``: the pause between deals; a table without humans closes.
"""

from __future__ import annotations

import contextlib
import logging
import math
import random
import secrets
from collections.abc import Callable
from typing import Any

import trio
from neveryu import engine

from . import _session, _wire
from ._bots import default_strength, new_bot
from ._password import password_ok
from ._referee import Referee
from ._seats import Seat
from ._session import Link, Session
from ._settings import TableError, TableSettings
from ._text import shown

log = logging.getLogger("neveryu.server")


REQUESTS = frozenset(
    {
        "join_table",
        "spectate",
        "leave",
        "ready",
        "start",
        "chat",
        "lay",
        "challenge",
        "believe",
        "declare_none",
        "discard_quads",
    }
)
"""The request types a session sends to its table (the rest are the lobby's)."""
COMMANDS = REQUESTS | {"detached", "attached", "close"}
_BOT_KEYS = tuple(f"bot:{i}" for i in range(16))  # the deadline keys of bots, made once
_GRACE_KEYS = tuple(f"grace:{i}" for i in range(16))  # and of dropped players' grace
_PUBLIC, _OWNER = "public", "owner"  # values of engine.Event.projection (engine/_events.py)


_LEGAL_PREFIXES: dict[engine.Legal, bytes] = {}  # legal -> its packed event
_LEGAL_KEPT = 1024  # packed legal events kept at most


def _legal_prefix(legal: engine.Legal) -> bytes:
    """A ``legal`` event packed (``_session.event_prefix``), once per value: a seat that has
    just acted (nothing to do, or only a challenge) gets the same one again and again; one
    that may lay names the set to answer, which changes with every set."""
    prefix = _LEGAL_PREFIXES.get(legal)
    if prefix is None:
        if len(_LEGAL_PREFIXES) >= _LEGAL_KEPT:
            _LEGAL_PREFIXES.clear()
        prefix = _LEGAL_PREFIXES[legal] = _session.event_prefix(_wire.legal_message(legal))
    return prefix


# The actions of the game requests, built from every field by keyword (``engine.builder``: half
# the cost of the attrs constructor, on every request's path)
_LAY_SET, _DECLARE_NONE, _DISCARD_QUADS, _BELIEVE, _CHALLENGE = map(
    engine.builder, (engine.LaySet, engine.DeclareNone, engine.DiscardQuads, engine.Believe, engine.Challenge)
)


def _event_prefix(seen: engine.Event, extra: dict[str, Any] | None) -> bytes:
    """A projected event's wire body, plus the table's ``extra`` fields, packed once for every
    receiver of that copy (``_session.event_prefix``)."""
    body = _wire.event_message(seen)
    if extra:
        body.update(extra)
    return _session.event_prefix(body)


class Table(Referee):
    """A table and its referee. Create it, start ``run`` in a nursery (deadlines), and
    ``handle`` commands.

    ``on_close(table)`` is called once when the table closes (its humans all left, or the
    server is shutting down). ``batch()``: a context manager around each fired deadline (the
    server's: what the deadline sent is written when it is over).
    """

    def __init__(
        self,
        table_id: int,
        settings: TableSettings,
        *,
        on_close: Callable[[Table], None] | None = None,
        batch: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext,
        flush: Callable[[Link], None] = lambda link: None,
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
        self.deal_no = 0
        self.salt = ""
        self.commitment = ""
        self.deadlines: dict[str, float] = {}
        self.tie: list[int] = []  # the seats of the tie group collecting, first one first
        self.tie_set: int | None = None
        self.turn_deadline: float | None = None
        self.sent_legal: dict[int, engine.Legal] = {}
        self.rng = random.Random(settings.seed if settings.seed is not None else secrets.randbits(64))
        self.summary: dict[str, Any] = {}
        self._window_set: int | None = None
        self._sleep: trio.CancelScope | None = None  # the table task's wait for the next deadline
        self._closed_callback = on_close
        self._batch = batch
        self._flush = flush
        self._refresh_summary()

    def __repr__(self) -> str:
        return f"<table {self.id} {self.settings.variant}>"

    # -- the outside: commands in -------------------------------------------------------------

    def handle(self, kind: str, session: Session | None, request: dict[str, Any] | None = None) -> None:
        """Handle a command now (never waits): reply to ``session`` and push events.

        ``kind`` is a request type (``join_table``, ``lay``, ...) or an internal one:
        ``detached`` (the session's connection dropped), ``attached`` (it resumed; request
        ``{"state": bool}``: send a snapshot), ``close`` (shut the table). A request to a
        closed table gets ``BAD_STATE``; a rule or table error its code; a bug is logged and
        answered ``INTERNAL_ERROR``.
        """
        req = request or {}
        if self.closed:
            if session is not None and "id" in req:
                session.error(req, "BAD_STATE", f"table {self.id} has closed")
            return
        try:
            handler = _HANDLERS.get(kind)
            if handler is None:
                raise TableError("UNKNOWN_TYPE", f"a table does not handle {kind!r}")
            handler(self, session, req)
        except TableError as exc:
            if session is not None:
                session.error(req, exc.code, exc.msg)
        except engine.RuleViolation as exc:
            if session is not None:
                session.error(req, exc.code, exc.reason)
        except Exception:
            log.exception("table %d: failed to handle %s", self.id, kind)
            if session is not None and "id" in req:
                session.error(req, "INTERNAL_ERROR", "the server failed to handle this request")

    # -- the task -----------------------------------------------------------------------------

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """The table task: fire deadlines, one at a time, until the table closes."""
        task_status.started()
        self._check_empty()
        try:
            while not self.closed:
                with trio.CancelScope(deadline=min(self.deadlines.values(), default=math.inf)) as self._sleep:
                    await trio.sleep_forever()
                self._sleep = None
                if not self.closed:
                    with self._batch():
                        self._fire_due()
        finally:
            self._sleep = None
            self._close("the server is shutting down" if not self.closed else None)

    # -- deadlines ------------------------------------------------------------------------------

    def _at(self, key: str, delay_ms: int) -> None:
        at = self.deadlines[key] = trio.current_time() + delay_ms / 1000
        if self._sleep is not None and at < self._sleep.deadline:
            self._sleep.deadline = at  # the table task wakes up for it

    def _cancel(self, key: str) -> None:
        self.deadlines.pop(key, None)

    def _fire_due(self) -> None:
        """Fire the earliest deadline that has passed, if any (the task's loop comes back for the
        next one: its sleep ends at once while one is due)."""
        if not self.deadlines:
            return
        key = min(self.deadlines, key=self.deadlines.__getitem__)
        if self.deadlines[key] > trio.current_time():
            return
        del self.deadlines[key]
        try:
            name, _, arg = key.partition(":")
            getattr(self, "_fire_" + name)(int(arg) if arg else None)
        except Exception:
            log.exception("table %d: deadline %s failed", self.id, key)

    # -- sending ----------------------------------------------------------------------------------

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
        """Start the closing deadline when no human is connected; cancel it when one is."""
        if any(s.session is not None and s.session.connected for s in self.seats) or any(
            p.connected for p in self.spectators
        ):
            self._cancel("close")
        elif "close" not in self.deadlines:
            self._at("close", self.settings.close_ms)

    # -- lobby commands ---------------------------------------------------------------------------

    def _on_join_table(self, session: Session, req: dict[str, Any]) -> None:
        self._check_password(req)
        if session.table is not None:
            raise TableError("BAD_STATE", "leave your table first")
        wanted = req.get("seat")
        if wanted is not None:
            if not (0 <= wanted < len(self.seats)):
                raise TableError("SEAT_TAKEN", f"there is no seat {wanted}")
            seat = self.seats[wanted]
            if not seat.human or seat.session is not None:
                raise TableError("SEAT_TAKEN", f"seat {wanted} is taken")
        else:
            seat = next((s for s in self.seats if s.human and s.session is None), None)
            if seat is None:
                raise TableError("TABLE_FULL", "no seat is free")
        seat.session, seat.name, seat.ready = session, session.name, False
        session.table, session.seat = self, seat.index
        if self.playing:
            seat.away = False
            self._cancel(f"grace:{seat.index}")
            self._cancel(f"bot:{seat.index}")
        log.info("table %d: %s takes seat %d", self.id, session.name, seat.index)
        self._refresh_summary()
        session.reply(req, {"t": "table_joined", "table": self.summary, "seat": seat.index})
        for other in self._members():
            if other is not session:
                other.event({"t": "player_joined", "seat": seat.index, "name": session.name})
        self._table_update()
        if self.playing:
            self._send_state(session)
            self._after_batch()
        self._check_empty()

    def _on_spectate(self, session: Session, req: dict[str, Any]) -> None:
        self._check_password(req)
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

    def _check_password(self, req: dict[str, Any]) -> None:
        if not password_ok(req.get("password"), self.settings.password):
            raise TableError("WRONG_TABLE_PASSWORD", f"table {self.id} needs its password")

    def _seat_of(self, session: Session) -> Seat:
        if session.table is not self:
            raise TableError("BAD_STATE", "you are at no table")
        if session.seat is None:
            raise TableError("NOT_PLAYING", "a spectator holds no seat")
        return self.seats[session.seat]

    def _on_leave(self, session: Session, req: dict[str, Any]) -> None:
        if session.table is not self:
            raise TableError("BAD_STATE", "you are at no table")
        self._remove(session, "left")
        session.ok(req)
        if not self.spectators and all(s.session is None for s in self.seats):
            self._close("its players left")  # nobody can come back to it: it closes at once

    def _remove(self, session: Session, why: str) -> None:
        """Take ``session`` off this table: a spectator goes; a seat is freed (during a deal a
        bot plays it until someone takes it)."""
        if session in self.spectators:
            self.spectators.remove(session)
        elif session.seat is not None:
            seat = self.seats[session.seat]
            seat.session, seat.ready = None, False
            self._cancel(f"grace:{seat.index}")
            if self.playing:
                seat.away = True
            else:
                seat.name, seat.away = None, False
            log.info("table %d: %s leaves seat %d (%s)", self.id, session.name, seat.index, why)
            self._broadcast({"t": "player_left", "seat": seat.index, "name": session.name, "reason": why})
        session.table, session.seat = None, None
        self._table_update()
        if self.playing:
            self._after_batch()
        self._check_empty()

    def _on_ready(self, session: Session, req: dict[str, Any]) -> None:
        seat = self._seat_of(session)
        seat.ready = bool(req.get("ready", True))
        self._back(seat)
        session.ok(req)
        self._table_update()

    def _on_start(self, session: Session, req: dict[str, Any]) -> None:
        self._seat_of(session)
        if self.playing:
            raise TableError("ALREADY_PLAYING", "the match is being played")
        if not all(s.session is not None and s.ready for s in self.seats if s.human):
            raise TableError("NOT_ALL_READY", "every seat must be taken and every player ready")
        session.ok(req)
        self._start_match()

    def _on_chat(self, session: Session, req: dict[str, Any]) -> None:
        if session.table is not self:
            raise TableError("BAD_STATE", "you are at no table")
        text = shown(str(req.get("text", "")))
        if len(text) > self.settings.max_chat:
            raise TableError("BAD_OPTION", f"chat is at most {self.settings.max_chat} characters")
        session.ok(req)
        self._broadcast({"t": "chat", "seat": session.seat, "name": session.name, "text": text})

    # -- connections come and go --------------------------------------------------------------------

    def _on_detached(self, session: Session, req: dict[str, Any]) -> None:
        """The session's connection dropped: its seat waits ``grace_ms``, then a bot plays it."""
        if session.table is not self or session.connected:  # gone, or already back
            return
        if session.seat is None:
            self._remove(session, "dropped")
            return
        seat = self.seats[session.seat]
        if seat.session is session:
            self._at(f"grace:{seat.index}", self.settings.grace_ms)
        self._check_empty()

    def _fire_grace(self, index: int) -> None:
        seat = self.seats[index]
        session = seat.session
        if session is None or session.connected:
            return
        if not self.playing:  # between matches a dropped player gives up the seat
            self._remove(session, "dropped")
            return
        log.info("table %d: seat %d (%s) is away: a bot plays it", self.id, index, seat.name)
        seat.away = True
        self._table_update()
        self._after_batch()

    def _on_attached(self, session: Session, req: dict[str, Any]) -> None:
        """The session resumed: its player is back; ``req["state"]``: send a snapshot."""
        if session.table is not self:
            return
        if session.seat is not None:  # a snapshot asked for comes below, after the table_update
            self._back(self.seats[session.seat], snapshot=not req.get("state"))
        if req.get("state"):  # docs/PROTOCOL.md, Resume: a table_update, then (in a deal) state
            session.event({"t": "table_update", "table": self.summary})
            if self.playing:
                self._send_state(session)
        self._check_empty()

    def _back(self, seat: Seat, snapshot: bool = True) -> None:
        """A player shows he is back: his seat is no longer away. Back on his own turn, his turn
        time starts afresh and (``snapshot``) a ``state`` tells him its ``time_ms``."""
        index = seat.index  # (every game request comes here: the key is made once)
        self._cancel(_GRACE_KEYS[index] if index < len(_GRACE_KEYS) else f"grace:{index}")
        if seat.away and seat.session is not None:
            seat.away = False
            self._cancel(f"bot:{seat.index}")
            log.info("table %d: %s is back at seat %d", self.id, seat.name, seat.index)
            self._refresh_summary()
            self._table_update()
            if self.playing and self.deal is not None and not self.deal.over and self.deal.turn == seat.index:
                self._start_turn_timer()
                if snapshot:
                    self._send_state(seat.session)

    def _fire_close(self, _arg: None) -> None:
        self._close("its players left")

    def _on_close(self, session: Session | None, req: dict[str, Any]) -> None:
        self._close(req.get("reason") or "closed")

    def _close(self, reason: str | None) -> None:
        if self.closed:
            return
        self.closed = True
        log.info("table %d closes: %s", self.id, reason)
        self._clear_deal_deadlines()
        self.deadlines.clear()
        for session in self._members():
            session.event({"t": "table_closed", "table": self.id, "reason": reason or "closed"})
            session.table, session.seat = None, None
        if self._sleep is not None:
            self._sleep.cancel()  # the table task ends
        if self._closed_callback is not None:
            self._closed_callback(self)

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
        deal, events = match.start()
        self.deal = deal
        self.deal_no += 1
        self.salt = _wire.new_salt()
        self.commitment = _wire.commitment(self.salt, deal.deck_order or ())
        self.sent_legal = {}
        for seat in self.seats:
            seat.brain = new_bot(seat.bot or default_strength(), seat.index, self.rules, len(self.seats))
            seat.asked = None
        log.info("table %d: deal %d begins (dealer %d)", self.id, self.deal_no, deal.dealer)
        self._refresh_summary()
        self._publish(events)

    def _end_match(self) -> None:
        assert self.match is not None
        scores = list(self.match.scores)
        self.playing = False
        self.deal = None
        log.info("table %d: the match ends, scores %s", self.id, scores)
        for seat in self.seats:
            if seat.human:
                seat.ready = False
                seat.away = False
                if seat.session is None:
                    seat.name = None
        self._broadcast({"t": "match_ended", "scores": scores, "deals": self.deal_no})
        self._table_update()

    # -- game requests ------------------------------------------------------------------------------

    def _game_seat(self, session: Session) -> int:
        if session.table is not self or session.seat is None or not self.playing or self.deal is None:
            raise TableError("NOT_PLAYING", "no deal is being played at your seat")
        seat = self.seats[session.seat]
        self._back(seat)
        return seat.index

    def _on_lay(self, session: Session, req: dict[str, Any]) -> None:
        seat = self._game_seat(session)
        self._act(
            _LAY_SET(
                seat=seat, cards=tuple(req.get("cards") or ()), rank=req.get("rank"), count=req.get("count")
            ),
            session,
            req,
        )

    def _on_declare_none(self, session: Session, req: dict[str, Any]) -> None:
        self._act(_DECLARE_NONE(seat=self._game_seat(session)), session, req)

    def _on_discard_quads(self, session: Session, req: dict[str, Any]) -> None:
        self._act(
            _DISCARD_QUADS(seat=self._game_seat(session), ranks=tuple(req.get("ranks") or ())), session, req
        )

    def _on_believe(self, session: Session, req: dict[str, Any]) -> None:
        self._act(_BELIEVE(seat=self._game_seat(session), set_no=req.get("set_no")), session, req)

    def _on_challenge(self, session: Session, req: dict[str, Any]) -> None:
        self._act(_CHALLENGE(seat=self._game_seat(session), set_no=req.get("set_no")), session, req)

    # -- events out -----------------------------------------------------------------------------------

    def _publish(self, events: list[engine.Event]) -> None:
        """Send each seat (and each spectator) its projection of ``events``, feed the bots, then
        bring deadlines, legal events and the match up to date. Each distinct copy of an event
        is packed once (``_session.event_prefix``); each receiver adds its ``seq``. An event's
        ``projection`` (engine/_events.py) says which copies differ: ``public`` ones are
        one copy for all, ``owner`` ones one for their seat and one for everyone else.

        The first event (what the action did: ``set_laid``, ``challenged``, ...) may be written
        to each receiver as soon as its copy is framed (``flush(link)``, with the reply before
        it on the actor's connection; the server's ``Server.flush`` writes when no other request
        waits), before the rest is worked out: the players see it the sooner, the first of them
        while the others' copies are made, and every connection gets the same bytes in the same
        order. The bots learn the events after that."""
        deal = self.deal
        assert deal is not None
        ended = False
        for e in events:
            if type(e) is engine.DealEnded:
                ended = True
                break
        if ended and self.match is not None:
            self.match.finish(deal)
        public = self.rules.hand_counts_public
        turned = False
        ts = _session.ts_pair()  # one time stamp for the batch
        project = engine.project
        observed: list[tuple[Any, engine.Event]] = []  # (bot, its copy), learnt after the sending
        flush: Callable[[Link], None] | None = self._flush  # for the first event only
        for event in events:
            cls = type(event)
            extra: dict[str, Any] | None = None
            if cls is engine.DealStarted:
                extra = {"commitment": self.commitment, "deal_no": self.deal_no}
            elif cls is engine.Turn:
                turned = True
                extra = {"time_ms": self._turn_time_ms(event.seat)}  # type: ignore[attr-defined]
            elif cls is engine.DealEnded:
                extra = {
                    "salt": self.salt,
                    "deck": list(deal.deck_order or ()),
                    "match_scores": list(self.match.scores) if self.match else None,
                    "deal_no": self.deal_no,
                }
            projection = cls.projection
            if projection == _PUBLIC:
                owner, other = -1, event
            elif projection == _OWNER:
                owner, other = event.seat, project(event, None, public)  # type: ignore[attr-defined]
            else:
                owner, other = -1, None
            other_prefix: bytes | None = None  # ``other`` packed, once a receiver needs it
            last: engine.Event | None = None  # seats that see the same copy share one packing
            prefix = b""
            for seat in self.seats:
                index = seat.index
                if other is None or index == owner:
                    seen = project(event, index, public)
                    if seen is None:
                        continue
                else:
                    seen = other
                brain = seat.brain
                if (
                    brain is not None and type(seen) in brain.observes
                ):  # others change nothing (engine.bots.Bot)
                    observed.append((brain, seen))
                session = seat.session
                if session is None:
                    continue
                if seen is other:
                    if other_prefix is None:
                        other_prefix = _event_prefix(other, extra)
                    session.event_packed(other_prefix, ts)
                else:
                    if seen is not last:
                        if last is None or seen != last:
                            prefix = _event_prefix(seen, extra)
                        last = seen
                    session.event_packed(prefix, ts)
                if flush is not None and session.link is not None:
                    flush(session.link)  # this seat sees the first event now
            if self.spectators:
                if other is not None:
                    if other_prefix is None:
                        other_prefix = _event_prefix(other, extra)
                    prefix = other_prefix
                    seen = other
                else:
                    seen = project(event, None, public)
                    if seen is not None and (last is None or (seen is not last and seen != last)):
                        prefix = _event_prefix(seen, extra)
                if seen is not None:
                    for spectator in self.spectators:
                        spectator.event_packed(prefix, ts)
                        if flush is not None and spectator.link is not None:
                            flush(spectator.link)
            flush = None
        for brain, seen in observed:
            brain.observe(seen)
        if turned:
            self._start_turn_timer()
        self._after_batch()

    def _after_batch(self) -> None:
        """After every change: deadlines follow the deal, seats get their new ``legal``, bots
        get asked, and an ended deal leads to the next one."""
        deal = self.deal
        if deal is None:
            return
        if deal.over:
            self._clear_deal_deadlines()
            self.sent_legal = {}
            for seat in self.seats:
                if seat.session is not None:
                    seat.session.event(_wire.legal_message(engine.NO_ACTION))
            log.info(
                "table %d: deal %d ends (loser %s, winner %s)", self.id, self.deal_no, deal.loser, deal.winner
            )
            assert self.match is not None
            if self.match.deals_played >= self.settings.deals:
                self._end_match()
            else:
                self._at("next_deal", self.settings.deal_pause_ms)
            return
        self._follow_deal(deal)
        held = deal.held.seat if deal.held is not None else None  # its set is laid early: it waits
        ts: bytes | None = None  # the time stamp of the legal events, once one is sent
        sent_legal, deadlines = self.sent_legal, self.deadlines
        for seat in self.seats:
            index = seat.index
            legal = deal.legal_actions(index)
            session = seat.session
            if session is not None:
                sent = sent_legal.get(index)
                if sent is not legal and sent != legal:
                    sent_legal[index] = legal
                    if ts is None:
                        ts = _session.ts_pair()
                    session.event_packed(_legal_prefix(legal), ts)
            key = _BOT_KEYS[index] if index < len(_BOT_KEYS) else f"bot:{index}"
            if seat.by_bot:
                if legal and held != index and seat.asked != deal.actions and key not in deadlines:
                    self._at(key, self.settings.bot_delay_ms)
            elif key in deadlines:
                self._cancel(key)

    def _send_state(self, session: Session) -> None:
        """A full snapshot of what ``session`` may know of the deal (join, resume)."""
        deal = self.deal
        if deal is None:
            return
        seat = session.seat
        view = deal.view(seat)
        time_ms = None
        if self.turn_deadline is not None:
            time_ms = max(0, int((self.turn_deadline - trio.current_time()) * 1000))
        body = {
            "t": "state",
            **_wire.view_fields(view),
            "table": self.summary,
            "deal_no": self.deal_no,
            "commitment": self.commitment,
            "match_scores": list(self.match.scores) if self.match else None,
            "time_ms": time_ms,
        }
        session.event(body)
        if seat is not None:
            self.sent_legal[seat] = view.legal


_HANDLERS: dict[str, Callable[[Table, Session | None, dict[str, Any]], None]] = {
    kind: getattr(Table, "_on_" + kind) for kind in COMMANDS
}
"""The handler of each command (``Table.handle``): ``Table._on_<kind>``."""
