"""A live table brought back from the journal (``records.journal``) when a server starts again on the
same database (docs/PROTOCOL.md, "Across a server restart").

``restore_table`` rebuilds the table from its journaled rows: its settings and seats, the match
so far, and the current deal, dealt again from the journaled deck and dealer and replayed
action by action through the engine (as ``records.replay`` replays a record; the bots at its seats
learn every event their seat was sent, as they did). Each seated player's session comes back
with its token's key only (``Session.restored``), dropped: he resumes it with the token his
client kept; until then his seat waits the grace time, then a bot plays it, as after any drop.
A spectator's session comes back the same way, watching. The deadlines start afresh, each with
its whole time (``Referee.resume``; the pause before the next deal, the grace times, the
table's closing when nobody comes back); the turn starts afresh once more when the player to
act resumes, so that his snapshot's ``time_ms`` is the whole turn time.

Anything that does not replay (a journal of a changed rules version, a bug) raises
``RestoreError`` with one line saying why: the server logs it, keeps the table's rows marked
for someone to look at (``Journal.failed``), restores the others, and tells the table's
players when they resume: they are in the lobby, and get ``table_closed`` with ``FAILED``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import msgpack
import trio

from neveryu import engine, protocol

from . import _wire
from ._game import Game
from ._password import Digest
from ._session import Session, token_key
from ._settings import TableSettings
from ._shuffle import Shuffle
from ._table import Table
from ._timers import Deadline, TimerKey
from .records.deal_notes import Recording
from .records.deal_record import RecordError, unpacked_action
from .records.journal import Journal
from .records.journal_rows import Journaled
from .records.replay import describe

log = logging.getLogger("neveryu.server")

FAILED = "the server restarted and could not bring this table back"
"""``table_closed.reason`` for the players of a table whose journal did not replay."""


class RestoreError(Exception):
    """The journal of a table does not restore it: the message says why (one line)."""


class Restored:
    """The sessions restored from the journal (seated players and spectators, sessions in the
    lobby, and the players of a table that did not restore), by their token's key, until they
    resume with the token (``reclaim``) or are forgotten (``forget_gone``)."""

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}

    def reclaim(self, token: str, last_seq: int) -> Session | None:
        """The restored session ``token`` holds, now the server's again (``token`` set), its
        ``seq`` going on after ``last_seq`` (none of its own events reached a client). At a
        table, its events before the restart are gone: the client gets a snapshot, and if it
        is his turn, his turn time starts afresh, whole. In the lobby (its table closed, or did
        not restore) it keeps the ``table_closed`` it missed, as a resume replays it. None:
        the token holds no restored session (any more)."""
        session = self.sessions.pop(token_key(token), None)
        if session is None:
            return None
        closed = _closed_event(session) if session.table is None else None
        session.token = token
        session.seq = session.evicted = last_seq
        session.buffer.clear()
        session.buffer_seqs.clear()
        if closed is not None:
            session.event(closed)
        elif session.table is not None and session.seat is not None:
            _turn_afresh(session.table, session.seat)
        return session

    def forget_gone(self, now: float, grace_s: float) -> list[str]:
        """Forget the sessions that nobody resumed within ``grace_s`` of their drop, and that
        hold no seat (``now``: trio's clock): a spectator stops watching. Returns their keys."""
        gone = []
        for key, session in list(self.sessions.items()):
            dropped = session.dropped_at
            if session.seat is not None or (dropped is not None and dropped + grace_s > now):
                continue
            if session.table is not None:
                session.table.remove(session, "dropped")
            del self.sessions[key]
            gone.append(key)
        return gone


def _closed_event(session: Session) -> dict[str, Any] | None:
    """The last ``table_closed`` ``session`` was sent, if any."""
    for frame in reversed(session.buffer):
        body = msgpack.unpackb(frame[4:])
        if body.get("t") == "table_closed":
            return protocol.TableClosed.wire_map(table=body["table"], reason=body["reason"])
    return None


def _turn_afresh(table: Any, seat: int) -> None:
    """``seat``'s player is back after the restart: if it is his turn, it starts afresh."""
    game = table.game
    deal = game.deal if game is not None else None
    referee = game.referee if game is not None else None
    if deal is None or referee is None or deal.over or deal.turn != seat:
        return
    if referee.turn_ms_left() is not None:  # (a timed turn, not a held set's)
        referee.restart_turn()


def restore_tables(
    records: Any,
    tables: dict[int, Table],
    restored: Restored,
    replay: int,
    on_close: Callable[[Table], None],
    start: Callable[[Callable[[], Any]], None],
) -> None:
    """Restore every table ``records`` took over from the journal (``RecordsWriter.journaled``) into
    ``tables`` (by its number, or the next free one), its players' sessions into ``restored``
    (``replay``: the events each keeps), ``on_close(table)`` when one closes, and
    ``start(table.run)`` each. A table whose journal does not replay is not restored: one log
    line says why, its rows are kept (``Journal.failed``) and its players' sessions wait in
    the lobby to be told (``told``)."""
    journal, journaled, lobby = records.journal, records.journaled, records.journaled_sessions
    records.journaled, records.journaled_sessions = [], []
    if journal is None:
        return
    for j in journaled:
        number = j.table_no if j.table_no not in tables else max(tables) + 1
        try:
            table, sessions = restore_table(
                j, table_id=number, journal=journal, replay=replay, records=records, on_close=on_close
            )
        except RestoreError as exc:
            log.warning("journal: table %d is not restored (its rows are kept): %s", j.table_no, exc)
            journal.failed(j.id, str(exc))
            restored.sessions.update((s.key, s) for s in told(j, replay))
            continue
        tables[table.id] = table
        restored.sessions.update((s.key, s) for s in sessions)
        start(table.run)
        log.info(
            "journal: table %d is restored (%s; %d players to come back)",
            table.id,
            table.summary["state"],
            len(sessions),
        )
    now = trio.current_time()
    for j in lobby:  # the others: in the lobby (a session at a table came back with it)
        if j.key not in restored.sessions:
            restored.sessions[j.key] = Session.restored(j.name, j.key, j.player, replay, now)


def restore_table(
    journaled: Journaled,
    *,
    table_id: int,
    journal: Journal,
    replay: int,
    records: Any = None,
    on_close: Callable[[Table], None] | None = None,
) -> tuple[Table, list[Session]]:
    """The table ``journaled`` holds, as table ``table_id``, noted by ``journal`` from now on,
    and the sessions of its seated players (``replay``: the events each keeps for a resume). Its
    deadlines are started; start ``Table.run`` in a nursery. Raises RestoreError."""
    try:
        settings = settings_from_json(_load(journaled.settings))
        table = Table(table_id, settings, on_close=on_close, records=records)
        sessions = _seat(table, _load(journaled.state), replay)
        match = _load(journaled.match) if journaled.match is not None else None
        deal = _load(journaled.deal) if journaled.deal is not None else None
        if match is not None:
            _match(table, match, deal, journaled.actions)
        elif deal is not None:
            raise RestoreError("a deal is journaled outside a match")
    except RestoreError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AssertionError) as exc:
        raise RestoreError(f"the journal does not replay: {type(exc).__name__}: {exc}") from None
    game = table.game
    referee = game.referee if game is not None else None
    table.journal = journal
    journal.adopt(
        table,
        journaled.id,
        game.match_uid if game is not None else None,
        journaled.deal_key if game is not None and game.deal is not None else 0,
        len(referee.applied) if referee is not None else 0,
    )
    for session in sessions:
        table.detached(session)  # the grace time, then a bot plays the seat (a spectator: none)
    if game is not None and game.deal is None and game.match.deals_played >= settings.deals:
        table.match_over()  # its last deal had ended
    elif game is not None and game.deal is None:
        table.timers.start(TimerKey(Deadline.NEXT_DEAL), settings.deal_pause_ms)
    elif game is not None:
        game.after_events()
    table.refresh_summary()
    return table, [s for s in sessions if s.table is table]


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RestoreError(f"the journal is not JSON: {exc}") from None


def settings_from_json(values: dict[str, Any]) -> TableSettings:
    """``records.journal.settings_json`` undone. Raises TypeError or ValueError."""
    values = dict(values)
    password = values.get("password")
    values["password"] = Digest(**password) if password is not None else None
    values["bots"] = tuple(values.get("bots") or ())
    settings = TableSettings(**values)
    engine.variant(settings.variant, **settings.options).deck_for(settings.seats)  # the rules still take it
    return settings


def told(journaled: Journaled, replay: int) -> list[Session]:
    """The sessions of the seated players and spectators of ``journaled``, a table that did not
    restore, in the lobby, each holding a ``table_closed`` (reason ``FAILED``) to be replayed
    when it resumes (none where its seats cannot be read)."""
    try:
        _host, _deals, seats, *more = _load(journaled.state)
        people = [(seat[0], seat[2], seat[3]) for seat in seats] + [tuple(p) for p in (more or [[]])[0]]
    except (RestoreError, ValueError, TypeError, IndexError):
        return []
    now = trio.current_time()
    sessions = []
    for name, key, player in people:
        if key is not None:
            session = Session.restored(str(name or "?"), str(key), player, replay, now)
            session.event(protocol.TableClosed.wire_map(table=journaled.table_no, reason=FAILED))
            sessions.append(session)
    return sessions


def _seat(table: Table, state: list[Any], replay: int) -> list[Session]:
    """The seats and spectators as journaled; a session for each seated player and spectator
    (a journal of version 3 holds no spectators)."""
    host, deals_played, seats, *more = state
    if len(seats) != len(table.seats):
        raise RestoreError(f"{len(seats)} seats journaled for a table of {len(table.seats)}")
    now = trio.current_time()
    sessions = []
    for seat, (name, strength, key, player, ready, away) in zip(table.seats, seats):
        seat.name, seat.strength, seat.ready, seat.away = name, strength, bool(ready), bool(away)
        if key is not None:
            session = Session.restored(str(name or "?"), str(key), player, replay, now)
            session.table, session.seat = table, seat.index
            seat.session = session
            sessions.append(session)
    table.host = table.seats[host].session if host is not None else None
    table.deals_played = int(deals_played)
    for name, key, player in more[0] if more else ():
        session = Session.restored(str(name or "?"), str(key), player, replay, now)
        session.table = table
        table.spectators.append(session)
        sessions.append(session)
    return sessions


def _match(table: Table, match: dict[str, Any], deal: dict[str, Any] | None, actions: Any) -> None:
    """The match so far, and its deal being played (dealt again, its actions replayed)."""
    game = table.game = Game(table)
    game.match_uid = str(match["uid"])
    game.match.scores = [int(v) for v in match["scores"]]
    game.match.deals_played = int(match["deals_played"])
    game.deal_no = int(match["deal_no"])
    if match["dealer"] is not None:
        game.match.dealer = int(match["dealer"])
    if deal is None:
        return
    if deal["deal_no"] != game.deal_no + 1:
        raise RestoreError(f"deal {deal['deal_no']} is journaled after deal {game.deal_no}")
    game.match.dealer = int(deal["dealer"])
    deck = [str(card) for card in deal["deck"]]
    dealt, opening = game.match.start(order=deck)
    game.salt, game.commitment, game.fair = str(deal["salt"]), str(deal["commitment"]), dict(deal["fair"])
    if _wire.commitment(game.salt, deck) != game.commitment:
        raise RestoreError("the deck does not match the deal's commitment")
    game.shuffle = _shuffle(deal, dealt, table.rules.deck_for(dealt.players))
    game.seat_deal(dealt, int(deal["deal_no"]), opening)
    _replay(game, dealt, list(actions))
    records = table.records
    if deal["record"] is not None and records is not None and records.on:
        game.recording = Recording.restored(
            deal["record"],
            server=records.server,
            table=table.id,
            settings=table.settings,
            match=game.match_uid,
            deal_no=game.deal_no,
            deal=dealt,
        )


def _shuffle(deal: dict[str, Any], dealt: engine.Deal, kind: str) -> Shuffle | None:
    """The deal's shuffle (fair deal 2), dealt: its seed is disclosed when the deal ends."""
    if deal["seed"] is None:
        return None
    shuffle = Shuffle(int(deal["deal_no"]), kind, dealt.players, dealt.dealer, bytes.fromhex(deal["seed"]))
    given = deal["fair"].get("contributions") or [None] * dealt.players
    shuffle.contributions = [None if c is None else bytes.fromhex(c) for c in given]
    shuffle.awaited, shuffle.dealt = set(), True
    return shuffle


def _replay(game: Game, deal: engine.Deal, rows: list[Any]) -> None:
    """Apply the journaled actions ``rows`` (``(n, ms, action)``, msgpack) to ``deal``, as
    the referee did (a bot, made when first needed, learns the deal from them: ``Game.bot_for``)."""
    referee = game.referee
    assert referee is not None
    ms = 0
    for k, (n, ms, data) in enumerate(rows):
        if n != k:
            raise RestoreError(f"action {k} is missing from the journal")
        try:
            action = unpacked_action(data)
        except (ValueError, TypeError, IndexError, KeyError, RecordError, msgpack.UnpackException) as exc:
            raise RestoreError(f"action {k} cannot be read: {exc}") from None
        try:
            deal.apply(action)
        except engine.RuleViolation as exc:
            raise RestoreError(f"action {k} ({describe(action)}) is refused: {exc.reason}") from None
        referee.applied.append(int(ms), action)
    if deal.over:
        raise RestoreError(f"the deal has ended after its {len(rows)} actions")
    deal.check_invariant()
    referee.started = referee.timers.clock() - int(ms) / 1000  # its times go on from the last action
    referee.resume()
