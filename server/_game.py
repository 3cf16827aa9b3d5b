"""The match being played at a table: its deals one after another, the referee of each, the bots
that play bot seats and away players (``_game_bots.SeatBots``), what every receiver is sent, and
the deal's record and journal notes (``_game_records.DealNotes``).

A ``Game`` exists from ``start`` to the end of the match. The table owns it and hands it the game
requests (``play``), the contributions to the next deal's shuffle (``contribute``: fair deal 2,
``_shuffle``) and the deadlines that are the game's (``BOT`` of a seat, ``NEXT_DEAL``,
``contributions``, and its referee's); everything the game sends goes through ``publish``:
each receiver gets the copy of each event ``_wire.copies`` gives it, and nothing else."""

from __future__ import annotations

import logging
import secrets
from typing import Any, Literal

from neveryu import engine, protocol

from . import _wire
from ._deal_history import DealEvents, history
from ._game_bots import SeatBot, SeatBots
from ._game_records import DealNotes
from ._outbox import send_now
from ._referee import Referee
from ._seats import Seat
from ._session import Session
from ._settings import TableError, match_rng
from ._shuffle import Shuffle
from ._table_protocol import Table
from ._timers import Deadline, TimerKey
from ._wire import ActionOf
from .records.deal_notes import Recording
from .records.deal_record import Applied
from .records.journal import Journal

log = logging.getLogger("neveryu.server")


class Game(SeatBots, DealNotes):
    """The match at ``table`` (docs/RULES.md: a match is several deals), noted in ``journal``
    (None: nowhere). ``start`` deals the first. A match restored from the journal (``_restore``)
    comes as it was: ``match``, its ``match_uid``, the number of its last deal (``deal_no``)."""

    def __init__(
        self,
        table: Table[Game],
        *,
        journal: Journal | None = None,
        match: engine.Match | None = None,
        match_uid: str | None = None,
        deal_no: int = 0,
    ) -> None:
        self.table = table
        self.journal = journal
        self.settings = table.settings
        self.seats = table.seats
        self.timers = table.timers
        if match is None:
            match = engine.Match(table.rules, len(self.seats), match_rng(table.seed))
        self.match = match
        self.deal: engine.Deal | None = None
        self.opening: list[engine.Event] = []  # the deal's opening events (``Match.start``)
        self.referee: Referee | None = None
        self.bots = [SeatBot() for _ in self.seats]  # the deal's bot of each seat (``bot_for``)
        self.deal_no = deal_no
        self.salt = self.commitment = ""
        self.shuffle: Shuffle | None = None  # fair deal 2: the next deal's, then the one played
        self.drawn: list[engine.Event] = []  # the first dealer's draw (lozh), for the deal's record
        self.fair: dict[str, Any] = {}  # the fair-deal fields of the deal played (deal_started)
        self.sent_legal: dict[int, engine.Legal] = {}  # what each seat was last told it may do
        self.told: set[int] = set()  # the seats sent an event of the deal since their last legal
        self.match_uid = match_uid or secrets.token_hex(8)  # the match in the records
        self.recording: Recording | None = None  # the deal's notes for its record
        self.events = DealEvents()  # the deal's events, for a snapshot's history
        self.ended: dict[str, Any] = {}  # the table's own fields of the deal's deal_ended, once sent

    # -- the match ----------------------------------------------------------------------------------

    def start(self) -> None:
        """The match begins (``match_started``) with its first deal."""
        log.info("table %d: a match of %s begins", self.table.id, self.settings.variant)
        self.table.refresh_summary()
        self.table.broadcast(
            protocol.MatchStarted.wire_map(table=self.table.summary, deals=self.settings.deals)
        )
        if self.journal is not None:
            self.journal.match_started(self)
        self.next_deal()

    def next_deal(self) -> None:
        """Fair deal 2 (``_shuffle``): fix the next deal's dealer and commit to the server's seed
        (``seed_committed``), then deal once every connected player has contributed, or when the
        ``contributions`` deadline (``contribute_ms``) passes. A seeded table deals at once."""
        match, seed, players = self.match, self.table.seed, len(self.seats)
        # An unseeded table's deck comes from the shuffle's seed, drawn from ``secrets``; the
        # match's random source, from ``secrets`` too (``match_rng``), only draws the first dealer.
        self.drawn = match.choose_dealer()  # the first dealer's draw (lozh): public, before the seed
        for event in self.drawn:
            self._send(event)
        assert match.dealer is not None
        deal_no, kind = self.deal_no + 1, self.table.rules.deck_for(players)
        if seed is not None:
            self.shuffle = Shuffle.seeded(seed, deal_no, kind, players, match.dealer)
            self.deal_cards()
            return
        bots = frozenset(s.index for s in self.seats if not s.human)
        awaited = frozenset(s.index for s in self.seats if s.session is not None and s.session.connected)
        self.shuffle = Shuffle.draw(deal_no, kind, players, match.dealer, bots=bots, awaited=awaited)
        self.table.broadcast(self.shuffle.commit_message(self.settings.contribute_ms))
        if self.shuffle.complete:
            self.deal_cards()
        else:
            self.timers.start(TimerKey(Deadline.CONTRIBUTIONS), self.settings.contribute_ms)

    def contribute(self, session: Session, req: protocol.Contribute) -> None:
        """``session``'s seat contributes to the next deal's shuffle: ``ok``, then the cards are
        dealt when it was the last contribution awaited. Raises TableError(BAD_STATE) when the
        shuffle takes none (``Shuffle.contribute``)."""
        if self.shuffle is None or session.seat is None:
            raise TableError("BAD_STATE", "no deal is waiting for contributions")
        self.shuffle.contribute(session.seat, req.deal_no, req.contribution)
        session.ok(req)
        if self.shuffle.complete:
            self.deal_cards()

    def seat_dropped(self, seat: int) -> None:
        """Seat ``seat``'s connection dropped: a pending shuffle stops waiting for its
        contribution, and the cards are dealt at once when it was the last one awaited
        (docs/PROTOCOL.md, 9.2: the seats of players whose connection is down are not waited for)."""
        shuffle = self.shuffle
        if shuffle is None or shuffle.dealt:
            return
        shuffle.stop_awaiting(seat)
        if shuffle.complete:
            self.deal_cards()

    def deal_cards(self) -> None:
        """Deal the deck of the pending shuffle (``next_deal``), with a new referee (``_seat_deal``)."""
        shuffle = self.shuffle
        if shuffle is None or shuffle.dealt:
            return
        self.timers.cancel(TimerKey(Deadline.CONTRIBUTIONS))
        deal, opening = self.match.start(order=shuffle.deck())
        self.salt = _wire.new_salt()
        self.commitment = _wire.commitment(self.salt, deal.deck_order or ())
        self.fair = shuffle.started_fields()
        self._seat_deal(deal, shuffle.deal_no, opening)
        self._note_deal(deal, [*self.drawn, *opening])  # the record keeps the draw (RECORDS.md)
        self.drawn = []
        if self.journal is not None:
            self.journal.dealt(self)
        log.info("table %d: deal %d begins (dealer: seat %d)", self.table.id, self.deal_no, deal.dealer + 1)
        self.table.refresh_summary()
        assert self.referee is not None
        self.publish(self.referee.begin(opening))

    def _seat_deal(
        self,
        deal: engine.Deal,
        deal_no: int,
        opening: list[engine.Event],
        applied: Applied | None = None,
        elapsed_ms: int = 0,
    ) -> None:
        """``deal`` (number ``deal_no``, begun with the ``opening`` events) is the one played:
        a new referee (a restored deal's: ``resume_deal``), and no bot yet (``bot_for``)."""
        rng = self.table.rng
        self.deal, self.deal_no, self.opening, self.sent_legal = deal, deal_no, opening, {}
        self.bots = [SeatBot() for _ in self.seats]
        self.referee = Referee(
            deal,
            self.settings,
            timers=self.timers,
            by_bot=lambda i: self.seats[i].by_bot,
            choose=lambda i: self.bot_for(self.seats[i]).choose(deal.view(i), rng),
            rng=rng,
            applied=applied,
            elapsed_ms=elapsed_ms,
        )

    def resume_deal(
        self,
        deal: engine.Deal,
        deal_no: int,
        opening: list[engine.Event],
        *,
        salt: str,
        commitment: str,
        fair: dict[str, Any],
        shuffle: Shuffle | None,
        applied: Applied,
        elapsed_ms: int,
        record_notes: dict[str, Any] | None,
    ) -> None:
        """The deal the journal kept (``_restore``), dealt again, its ``applied`` actions replayed
        on it (the last ``elapsed_ms`` after its start), is played on: its fair deal material
        (``salt``, ``commitment``, ``deal_started``'s ``fair`` fields, ``shuffle``) as it was,
        its ``record_notes`` (None: records were off), its deadlines afresh (``Referee.resume``)."""
        self.salt, self.commitment, self.fair, self.shuffle = salt, commitment, dict(fair), shuffle
        self._seat_deal(deal, deal_no, opening, applied, elapsed_ms)
        self._note_restored(deal, record_notes)
        assert self.referee is not None
        self.referee.resume()

    def stop(self) -> None:
        """No deadline of the game fires any more (the table closes)."""
        if self.referee is not None:
            self.referee.stop()

    def _deal_over(self, deal: engine.Deal) -> None:
        self.sent_legal, self.told = {}, set()
        for seat in self.seats:
            self.timers.cancel(TimerKey(Deadline.BOT, seat.index))
            if seat.session is not None:
                seat.session.event(_wire.legal_message(engine.NO_ACTION))
        loser, winner = ("none" if s is None else f"seat {s + 1}" for s in (deal.loser, deal.winner))
        log.info("table %d: deal %d ends (loser: %s, winner: %s)", self.table.id, self.deal_no, loser, winner)
        self.table.refresh_summary()  # (the match's scores)
        if self.match.deals_played < self.settings.deals:
            self.timers.start(TimerKey(Deadline.NEXT_DEAL), self.settings.deal_pause_ms)
            return
        scores = list(self.match.scores)
        log.info("table %d: the match ends, scores %s", self.table.id, scores)
        self.table.broadcast(protocol.MatchEnded.wire_map(scores=scores, deals=self.deal_no))
        self.table.match_over()

    # -- game requests and bots ----------------------------------------------------------------------

    def play(self, session: Session, req: protocol.Request, action_of: ActionOf) -> None:
        """A game request from ``session``'s seat, under the referee's timing rules: ``ok`` and
        the events it caused, or the error its refusal raises (``engine.RuleViolation``,
        ``TableError``), and then nothing changed."""
        if session.seat is None or self.referee is None:
            raise TableError("NOT_PLAYING", "no deal is being played at your seat")
        events = self.referee.act(action_of(req, session.seat))
        session.ok(req)
        self.publish(events)

    def back(self, seat: Seat, snapshot: bool) -> None:
        """``seat``'s player is back from away: on his own turn his turn time starts afresh and
        (``snapshot``) a ``state`` tells him its ``time_ms``."""
        deal, referee = self.deal, self.referee
        if deal is not None and referee is not None and not deal.over and deal.turn == seat.index:
            referee.restart_turn()
            if snapshot and seat.session is not None:
                self.send_state(seat.session)

    def turn_afresh(self, seat: int) -> None:
        """``seat``'s player is back after a restart: his timed turn starts afresh (not a held set's)."""
        deal, referee = self.deal, self.referee
        if deal is None or referee is None or deal.over or deal.turn != seat:
            return
        if referee.turn_ms_left() is not None:
            referee.restart_turn()

    # -- events out ----------------------------------------------------------------------------------

    def publish(self, events: list[engine.Event]) -> None:
        """Send every receiver its copy of each of ``events`` (``_wire.copies``), keep each bot's
        for when it is to play, then bring the seats' ``legal``, the bots and the match up to
        date."""
        deal = self.deal
        if not events or deal is None:
            return
        ended = deal.over and any(type(e) is engine.DealEnded for e in events)
        if ended:
            self.match.finish(deal)
        self._note_played(events if ended else None)
        for event in events:
            self._send(event)
            if type(event) is engine.TimedOut:
                self.seats[event.seat].set_away(True, timed_out=True)
                self.table.table_update()
        send_now()  # (the events, before what follows them is worked out)
        self.after_events()

    def _send(self, event: engine.Event) -> None:
        """Every receiver's copy of ``event`` (``_wire.copies``), with the table's own fields;
        each bot's is kept for when it is to play. Receivers whose copies are equal share one
        message (most events are public, and the copies of a set hide the same cards)."""
        extra, spectators = self._extra(event), self.table.spectators
        messages: dict[engine.Event, dict[str, Any]] = {}
        for receiver, seen in _wire.copies(event, len(self.seats), self.table.rules.hand_counts_public):
            if receiver is None and not spectators:
                continue
            message = messages.get(seen)
            if message is None:
                message = messages[seen] = _wire.event_message(seen, extra)
            if receiver is None:
                for spectator in spectators:
                    spectator.event(message)
                continue
            seat = self.seats[receiver]
            if seat.session is not None:
                seat.session.event(message)
                self.told.add(receiver)
            self.bots[receiver].observe(seen)

    def _extra(self, event: engine.Event) -> dict[str, Any]:
        """The table's own fields of an event: the fair deal's commitment and disclosure, the
        deal's number, the turn time."""
        if type(event) is engine.DealStarted:
            return {"commitment": self.commitment, "deal_no": self.deal_no, **self.fair}
        if type(event) is engine.Turn and self.referee is not None:
            return {"time_ms": self.referee.turn_time_ms(event.seat)}
        if type(event) is engine.QuadsWindowOpened and self.referee is not None:
            return {"time_ms": self.referee.quads_time_ms()}
        if type(event) is engine.DealEnded and self.deal is not None:
            more = self.match.deals_played < self.settings.deals
            self.ended = {
                "salt": self.salt,
                "deck": list(self.deal.deck_order or ()),
                "match_scores": list(self.match.scores),
                "deal_no": self.deal_no,
                "next_deal_ms": self.settings.deal_pause_ms if more else None,
                **({"seed": self.shuffle.seed.hex()} if self.shuffle is not None else {}),
            }
            return self.ended
        return {}

    def send_turn(self, session: Session) -> None:
        """The deal's ``turn`` again, for ``session``, with the turn time left now: after a resume
        whose replay gave it the turn as it was announced, with all its time."""
        deal, referee = self.deal, self.referee
        if deal is None or referee is None or deal.over:
            return
        session.event(_wire.event_message(deal.turn_event(), {"time_ms": referee.turn_ms_left()}))
        if session.seat is not None:  # the batch's end (``after_events``): what the seat may do now
            legal = deal.legal_actions(session.seat)
            self.sent_legal[session.seat] = legal
            session.event(_wire.legal_message(legal))

    def after_events(self) -> None:
        """After every change: each seat gets its ``legal`` (the end of the batch, PROTOCOL.md
        §6: when what it may do changed, and after an event of the deal reached it), bots get
        asked, and an ended deal leads to the next one (or ends the match)."""
        deal = self.deal
        if deal is None:
            return
        if deal.over:
            self._deal_over(deal)
            return
        held = deal.held.seat if deal.held is not None else None  # its set is laid early: it waits
        told, self.told = self.told, set()
        for seat in self.seats:
            legal = deal.legal_actions(seat.index)
            if seat.session is not None and (seat.index in told or self.sent_legal.get(seat.index) != legal):
                self.sent_legal[seat.index] = legal
                seat.session.event(_wire.legal_message(legal))
            key = TimerKey(Deadline.BOT, seat.index)
            if not seat.by_bot or not legal:
                self.timers.cancel(key)
            elif held != seat.index and self._bot_again(seat, legal):
                self._time_bot(seat, legal)

    def send_state(self, session: Session, history: Literal["own", "public"] | None = None) -> None:
        """A full snapshot of what ``session`` may know of the deal (join, resume); while the
        next deal waits for contributions, its ``seed_committed`` too. ``history``: with the
        deal's events so far (``state.history``), as ``session``'s seat was sent them (``own``:
        a resume) or as a spectator sees them (``public``: who joins during the deal saw none)."""
        deal, shuffle, seat = self.deal, self.shuffle, session.seat
        if deal is not None:
            view = deal.view(seat)
            session.event(
                protocol.State.wire_map(
                    **_wire.view_fields(view),
                    table=self.table.summary,
                    deal_no=self.deal_no,
                    commitment=self.commitment,
                    match_scores=list(self.match.scores),
                    time_ms=self.referee.turn_ms_left() if self.referee is not None else None,
                    **self.fair,
                    held=_wire.held_fields(deal, seat),
                    history=None if history is None else self.history(seat if history == "own" else None),
                )
            )
            if seat is not None:  # a state is complete by itself: it holds the legal
                self.sent_legal[seat] = view.legal
                self.told.discard(seat)
        deadline = self.timers.deadline(TimerKey(Deadline.CONTRIBUTIONS))
        if shuffle is not None and deadline is not None and not shuffle.dealt:
            left_ms = max(0, round((deadline - self.timers.clock()) * 1000))
            session.event(shuffle.commit_message(left_ms))

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """The deal's events so far as ``seat`` (None: a spectator) was sent them, without
        ``seq`` and ``ts`` (``_deal_history.history``): a ``state``'s ``history``."""
        deal, referee = self.deal, self.referee
        if deal is None or referee is None:
            return []
        events = self.events.get(deal, self.opening, referee.applied, self.table.rules)

        def extra(event: engine.Event) -> dict[str, Any]:
            # (the ended deal's own disclosure: the shuffle may be the next deal's by now)
            return self.ended if type(event) is engine.DealEnded else self._extra(event)

        return history(events, seat, self.table.rules.hand_counts_public, extra)
