"""A table: its seats, its match, and the referee. One trio task owns each table.

Sessions never touch a table's state: they ``submit`` commands (a request dict with its session)
to the table's bounded memory channel, and the table task handles them one at a time, replying
to the session and pushing events without ever waiting on a connection. All rule timing reads
``trio.current_time()`` through one table of deadlines (``Table.deadlines``), so the timing rules
of RULES.md ("Timing rules") can be tested on ``trio.testing.MockClock``:

- ``window``: the challenge window of the last set (`anyone` variants). When it expires the
  referee applies ``CloseWindow(set_no)`` (a set laid early is then applied), unless a tie group
  is collecting.
- ``tie``: the first valid challenge of a set opens the tie window; challenges of the same set
  that arrive before it expires join the group, and when it expires the engine settles the group
  (``Challenges(seats, set_no)``: the seat nearest the claimant's left wins).
- ``turn``: the turn time limit; when it expires the engine acts for the seat
  (``Timeout(seat)``) and the seat is marked away.
- ``bot:<seat>``: a bot (a bot seat, or an away player) acts after ``bot_delay_ms``.
- ``grace:<seat>``: a dropped player's seat is played by a bot after ``grace_ms``.
- ``next_deal``, ``close``: the pause between deals; a table without humans closes.

Every deadline that belongs to a deal is cleared when the deal ends: no timer fires after it.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
from typing import TYPE_CHECKING, Any, Callable

import attrs
import trio

import engine

from . import _wire
from ._bots import Bot, default_strength, new_bot
from ._session import Session

if TYPE_CHECKING:
    from ._config import TableDefaults

log = logging.getLogger("neveryu.server")


class TableError(Exception):
    """A request the table refuses: ``code`` is the protocol's error code."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(msg)
        self.code = code
        self.msg = msg


@attrs.frozen(kw_only=True)
class TableSettings:
    """One table's settings, fixed when it is made (``create_table``). Times in ms; ``turn_ms``
    0 means untimed; ``seed`` None seeds every deal from ``secrets``."""

    variant: str
    options: dict[str, Any]
    seats: int
    bots: tuple[str, ...] = ()
    turn_ms: int = 60_000
    challenge_window_ms: int = 1_500
    tie_window_ms: int = 250
    bot_delay_ms: int = 800
    deal_pause_ms: int = 4_000
    deals: int = 5
    grace_ms: int = 30_000
    close_ms: int = 60_000
    password: str | None = None
    seed: int | None = None
    max_chat: int = 500

    @classmethod
    def from_request(cls, req: dict[str, Any], defaults: "TableDefaults", seed: int | None, max_chat: int) -> "TableSettings":
        """The settings a ``create_table`` request asks for, with ``defaults`` for what it leaves
        out. Raises TableError(BAD_OPTION) for a variant, option, seat count or bot strength the
        rules do not allow."""
        variant = req.get("variant", defaults.variant)
        options = dict(req.get("options") or {})
        seats = req.get("seats", defaults.seats)
        bots = tuple(strength or default_strength() for strength in req.get("bots") or ())
        try:
            rules = engine.variant(variant, **options)
            rules.deck_for(seats)
            for strength in bots:
                new_bot(strength, 0, rules, seats)
        except (ValueError, TypeError) as exc:
            raise TableError("BAD_OPTION", str(exc)) from None
        if len(bots) >= seats:
            raise TableError("BAD_OPTION", f"{len(bots)} bots leave no seat of {seats} for a player")

        def ms(name: str) -> int:
            value = req.get(name)
            return getattr(defaults, name) if value is None else value

        return cls(
            variant=variant,
            options=options,
            seats=seats,
            bots=bots,
            turn_ms=ms("turn_ms"),
            challenge_window_ms=ms("challenge_window_ms"),
            tie_window_ms=ms("tie_window_ms"),
            bot_delay_ms=defaults.bot_delay_ms,
            deal_pause_ms=defaults.deal_pause_ms,
            deals=req.get("deals") or defaults.deals,
            grace_ms=defaults.grace_ms,
            close_ms=defaults.close_ms,
            password=req.get("password") or None,
            seed=req.get("seed", seed),
            max_chat=max_chat,
        )


class Seat:
    """One seat: a bot (``bot`` = its strength) or a player (``session``, None when nobody holds
    it). ``away``: a bot plays it until its player comes back."""

    def __init__(self, index: int, bot: str | None = None) -> None:
        self.index = index
        self.bot = bot
        self.name: str | None = f"bot {index + 1}" if bot else None
        self.session: Session | None = None
        self.ready = bot is not None
        self.away = False
        self.brain: Bot | None = None  # plays a bot seat, and an away player's seat
        self.asked: int | None = None  # the deal's action count when the bot last chose

    @property
    def human(self) -> bool:
        return self.bot is None

    @property
    def by_bot(self) -> bool:
        """True when a bot makes this seat's moves now."""
        return self.bot is not None or self.away or self.session is None

    def summary(self) -> dict[str, Any]:
        return {"seat": self.index, "name": self.name, "bot": self.bot, "ready": self.ready, "away": self.away}


Command = tuple[str, Session | None, dict[str, Any]]

REQUESTS = frozenset(
    {"join_table", "spectate", "leave", "ready", "start", "chat", "lay", "challenge", "believe", "declare_none", "discard_quads"}
)
"""The request types a session sends to its table (the rest are the lobby's)."""
COMMANDS = REQUESTS | {"detached", "attached", "close"}


class Table:
    """A table and its referee. Create it, start ``run`` in a nursery, then ``submit`` commands.

    ``on_close(table)`` is called once when the table closes (its humans all left, or the
    server is shutting down).
    """

    def __init__(
        self,
        table_id: int,
        settings: TableSettings,
        *,
        queue: int = 256,
        on_close: Callable[["Table"], None] | None = None,
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
        self._send, self._receive = trio.open_memory_channel[Command](queue)
        self._closed_callback = on_close
        self._refresh_summary()

    def __repr__(self) -> str:
        return f"<table {self.id} {self.settings.variant}>"

    # -- the outside: commands in -------------------------------------------------------------

    def submit(self, kind: str, session: Session | None, request: dict[str, Any] | None = None) -> bool:
        """Queue a command for the table task without waiting. Returns False when the table's
        queue is full (the caller answers the request with ``RATE_LIMITED``) or it has closed.

        ``kind`` is a request type (``join_table``, ``lay``, ...) or an internal one:
        ``detached`` (the session's connection dropped), ``attached`` (it resumed; request
        ``{"state": bool}``: send a snapshot), ``close`` (shut the table).
        """
        try:
            self._send.send_nowait((kind, session, request or {}))
            return True
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            return False

    @property
    def queued(self) -> int:
        """Commands waiting for the table task (bounded by the queue size)."""
        return self._send.statistics().current_buffer_used

    # -- the task -----------------------------------------------------------------------------

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """The table task: handle commands and fire deadlines until the table closes."""
        task_status.started()
        self._check_empty()
        try:
            while not self.closed:
                while not self.closed:
                    try:
                        command = self._receive.receive_nowait()
                    except trio.WouldBlock:
                        break
                    self._handle(command)
                if self.closed:
                    break
                if self._fire_due():
                    await trio.lowlevel.checkpoint()
                    continue
                with trio.move_on_at(min(self.deadlines.values(), default=math.inf)):
                    command = await self._receive.receive()
                    self._handle(command)
        finally:
            self._close("the server is shutting down" if not self.closed else None)

    def _handle(self, command: Command) -> None:
        kind, session, req = command
        try:
            if kind not in COMMANDS:
                raise TableError("UNKNOWN_TYPE", f"a table does not handle {kind!r}")
            getattr(self, "_on_" + kind)(session, req)
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

    # -- deadlines ------------------------------------------------------------------------------

    def _at(self, key: str, delay_ms: int) -> None:
        self.deadlines[key] = trio.current_time() + delay_ms / 1000

    def _cancel(self, key: str) -> None:
        self.deadlines.pop(key, None)

    def _fire_due(self) -> bool:
        """Fire the earliest deadline that has passed, if any; True if one fired."""
        if not self.deadlines:
            return False
        key = min(self.deadlines, key=self.deadlines.__getitem__)
        if self.deadlines[key] > trio.current_time():
            return False
        del self.deadlines[key]
        try:
            name, _, arg = key.partition(":")
            getattr(self, "_fire_" + name)(int(arg) if arg else None)
        except Exception:
            log.exception("table %d: deadline %s failed", self.id, key)
        return True

    def _clear_deal_deadlines(self) -> None:
        for key in list(self.deadlines):
            if key.split(":")[0] in ("window", "tie", "turn", "bot"):
                del self.deadlines[key]
        self.tie, self.tie_set, self.turn_deadline = [], None, None

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
        want = self.settings.password
        if want is not None and not secrets.compare_digest(str(req.get("password") or ""), want):
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
        text = str(req.get("text", ""))
        if len(text) > self.settings.max_chat:
            raise TableError("BAD_OPTION", f"chat is at most {self.settings.max_chat} characters")
        session.ok(req)
        self._broadcast({"t": "chat", "seat": session.seat, "name": session.name, "text": text})

    # -- connections come and go --------------------------------------------------------------------

    def _on_detached(self, session: Session, req: dict[str, Any]) -> None:
        """The session's connection dropped: its seat waits ``grace_ms``, then a bot plays it."""
        if session.table is not self:
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
        if session.seat is not None:
            self._back(self.seats[session.seat])
        if req.get("state"):  # docs/PROTOCOL.md, Resume: a table_update, then (in a deal) state
            session.event({"t": "table_update", "table": self.summary})
            if self.playing:
                self._send_state(session)
        self._check_empty()

    def _back(self, seat: Seat) -> None:
        """A player shows he is back: his seat is no longer away."""
        self._cancel(f"grace:{seat.index}")
        if seat.away and seat.session is not None:
            seat.away = False
            self._cancel(f"bot:{seat.index}")
            log.info("table %d: %s is back at seat %d", self.id, seat.name, seat.index)
            self._refresh_summary()
            self._table_update()
            if self.playing and self.deal is not None and not self.deal.over and self.deal.turn == seat.index:
                self._start_turn_timer()

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
        self._send.close()
        if self._closed_callback is not None:
            self._closed_callback(self)

    # -- the match ----------------------------------------------------------------------------------

    def _start_match(self) -> None:
        seed = self.settings.seed
        self.match = engine.Match(self.rules, len(self.seats), random.Random(seed if seed is not None else secrets.randbits(128)))
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
        action = engine.LaySet(seat, tuple(req.get("cards") or ()), req.get("rank"), req.get("count"))
        self._act(action, session, req)

    def _on_declare_none(self, session: Session, req: dict[str, Any]) -> None:
        self._act(engine.DeclareNone(self._game_seat(session)), session, req)

    def _on_discard_quads(self, session: Session, req: dict[str, Any]) -> None:
        self._act(engine.DiscardQuads(self._game_seat(session), tuple(req.get("ranks") or ())), session, req)

    def _on_believe(self, session: Session, req: dict[str, Any]) -> None:
        self._act(engine.Believe(self._game_seat(session), req.get("set_no")), session, req)

    def _on_challenge(self, session: Session, req: dict[str, Any]) -> None:
        self._act(engine.Challenge(self._game_seat(session), req.get("set_no")), session, req)

    def _act(self, action: engine.Action, session: Session | None, req: dict[str, Any] | None) -> None:
        """Apply a seat's action under the timing rules; reply ``ok`` (or let the RuleViolation
        reach ``_handle``, which replies with its code). ``session`` None: a bot's move."""
        deal = self.deal
        assert deal is not None
        if deal.over:
            raise engine.DealOver(getattr(action, "seat", None), action, "the deal is over")
        if isinstance(action, engine.Challenge) and self.rules.challengers == "anyone":
            if self._collect_challenge(action):
                if session is not None:
                    session.ok(req)
                return
            # Premature (RULES.md, `hoyle`): void, and its sender may not challenge that set.
            events = deal.apply(action)
            if session is not None:
                session.error(req, "PREMATURE", f"set {action.set_no} is not laid yet: your challenge is void "
                              "and you may not challenge that set")
            self._publish(events)
            return
        if isinstance(action, (engine.LaySet, engine.DeclareNone)):
            self._settle_tie_before_cover(action)
        events = deal.apply(action)
        if session is not None:
            session.ok(req)
        self._publish(events)

    def _collect_challenge(self, action: engine.Challenge) -> bool:
        """RULES.md, "Timing rules": the first valid challenge of the last set opens the tie
        window; later ones within it join the group. True if ``action`` was taken into a group
        (the engine settles it when the tie window expires); False to apply it now (a premature
        challenge: void, and its sender is barred). Raises the engine's RuleViolation for a
        challenge the rules refuse (stale, barred, the claimant's own set)."""
        deal = self.deal
        assert deal is not None
        deal.check(action)
        last = deal.last
        if last is None or action.set_no != last.set_no:
            return False  # premature: the engine makes it void
        if self.tie_set == action.set_no:
            if action.seat in self.tie:
                raise engine.IllegalAction(action.seat, action, f"you have already challenged set {action.set_no}")
            self.tie.append(action.seat)
            return True
        self.tie, self.tie_set = [action.seat], action.set_no
        self._at("tie", self.settings.tie_window_ms)
        return True

    def _settle_tie_before_cover(self, action: engine.Action) -> None:
        """A set arrives while a tie group collects and the challenge window has closed: the
        challenges came first, so they are settled before the set is looked at."""
        if self.tie_set is not None and self.deal is not None and not self.deal.window_open:
            self._cancel("tie")
            self._fire_tie(None)

    def _fire_tie(self, _arg: None) -> None:
        deal = self.deal
        seats, set_no = self.tie, self.tie_set
        self.tie, self.tie_set = [], None
        if deal is None or deal.over or set_no is None or not seats:
            return
        valid = []
        for seat in seats:
            try:
                deal.check(engine.Challenge(seat, set_no))
                valid.append(seat)
            except engine.RuleViolation:
                pass
        if not valid:  # every challenger went out meanwhile: the window resumes its course
            if deal.window_open and "window" not in self.deadlines:
                self._fire_window(None)
            return
        action = engine.Challenge(valid[0], set_no) if len(valid) == 1 else engine.Challenges(tuple(valid), set_no)
        log.debug("table %d: settling challenges of set %d by seats %s", self.id, set_no, valid)
        self._publish(deal.apply(action))

    def _fire_window(self, _arg: None) -> None:
        deal = self.deal
        if deal is None or deal.over or not deal.window_open or deal.last is None:
            return
        if self.tie_set is not None:  # a challenge came first; the tie group settles it
            return
        self._publish(deal.apply(engine.CloseWindow(deal.last.set_no)))

    def _fire_turn(self, _arg: None) -> None:
        deal = self.deal
        self.turn_deadline = None
        if deal is None or deal.over:
            return
        seat = deal.turn
        if deal.held is not None:
            return
        self._settle_tie_before_cover(engine.Timeout(seat))
        if deal.over or deal.turn != seat or deal.held is not None:
            return
        log.info("table %d: seat %d's time ran out; it is away", self.id, seat)
        events = deal.apply(engine.Timeout(seat))
        self.seats[seat].away = True
        self._refresh_summary()
        self._publish(events)
        self._table_update()

    def _fire_bot(self, index: int) -> None:
        deal = self.deal
        seat = self.seats[index]
        if deal is None or deal.over or not seat.by_bot or seat.brain is None:
            return
        seat.asked = deal.actions
        action = seat.brain.choose(deal.view(index), self.rng)
        try:
            if action is not None:
                self._act(action, None, None)
                return
        except engine.RuleViolation as exc:
            log.warning("table %d: the bot at seat %d tried %r: %s", self.id, index, action, exc.reason)
        # A bot that has no move (or a wrong one) on its own turn must not stall the deal: the
        # engine acts for the seat as it does when a turn's time runs out.
        if not deal.over and deal.turn == index and deal.held is None and deal.legal(index).lay is not None:
            self._publish(deal.apply(engine.Timeout(index)))

    # -- events out -----------------------------------------------------------------------------------

    def _publish(self, events: list[engine.Event]) -> None:
        """Send each seat (and each spectator) its projection of ``events``, feed the bots, then
        bring deadlines, legal events and the match up to date."""
        deal = self.deal
        assert deal is not None
        ended = any(isinstance(e, engine.DealEnded) for e in events)
        if ended and self.match is not None:
            self.match.finish(deal)
        public = self.rules.hand_counts_public
        turned = False
        for event in events:
            extra: dict[str, Any] = {}
            if isinstance(event, engine.DealStarted):
                extra = {"commitment": self.commitment, "deal_no": self.deal_no}
            elif isinstance(event, engine.Turn):
                turned = True
                extra = {"time_ms": self._turn_time_ms(event.seat)}
            elif isinstance(event, engine.DealEnded):
                extra = {
                    "salt": self.salt,
                    "deck": list(deal.deck_order or ()),
                    "match_scores": list(self.match.scores) if self.match else None,
                    "deal_no": self.deal_no,
                }
            for seat in self.seats:
                seen = engine.project(event, seat.index, public)
                if seen is None:
                    continue
                if seat.brain is not None:
                    seat.brain.observe(seen)
                if seat.session is not None:
                    seat.session.event({**_wire.event_message(seen), **extra})
            if self.spectators:
                seen = engine.project(event, None, public)
                if seen is not None:
                    body = {**_wire.event_message(seen), **extra}
                    for spectator in self.spectators:
                        spectator.event(body)
        if turned:
            self._start_turn_timer()
        self._after_batch()

    def _turn_time_ms(self, seat: int) -> int | None:
        if not self.settings.turn_ms or self.seats[seat].by_bot:
            return None
        return self.settings.turn_ms

    def _start_turn_timer(self) -> None:
        deal = self.deal
        self._cancel("turn")
        self.turn_deadline = None
        if deal is None or deal.over or not self.settings.turn_ms or self.seats[deal.turn].by_bot:
            return
        self._at("turn", self.settings.turn_ms)
        self.turn_deadline = self.deadlines["turn"]

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
            log.info("table %d: deal %d ends (loser %s, winner %s)", self.id, self.deal_no, deal.loser, deal.winner)
            assert self.match is not None
            if self.match.deals_played >= self.settings.deals:
                self._end_match()
            else:
                self._at("next_deal", self.settings.deal_pause_ms)
            return
        # The challenge window follows the last set (RULES.md, "Timing rules").
        if deal.window_open and deal.last is not None:
            if self._window_set != deal.last.set_no:  # a new set: its own window
                self._window_set = deal.last.set_no
                self._at("window", self.settings.challenge_window_ms)
        else:
            self._cancel("window")
            self._window_set = None
        if self.tie_set is not None and (deal.last is None or deal.last.set_no != self.tie_set):
            self._cancel("tie")
            self.tie, self.tie_set = [], None
        if deal.held is not None and deal.held.seat == deal.turn:
            self._cancel("turn")  # the seat has acted; its set waits for the window
            self.turn_deadline = None
        for seat in self.seats:
            legal = deal.legal(seat.index)
            if seat.session is not None and self.sent_legal.get(seat.index) != legal:
                self.sent_legal[seat.index] = legal
                seat.session.event(_wire.legal_message(legal))
            key = f"bot:{seat.index}"
            waits = deal.held is not None and deal.held.seat == seat.index  # its set is laid early
            if seat.by_bot and legal and not waits and seat.asked != deal.actions:
                if key not in self.deadlines:
                    self._at(key, self.settings.bot_delay_ms)
            elif key in self.deadlines and not seat.by_bot:
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
