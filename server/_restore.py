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

import attrs
import msgpack
import trio

from neveryu import engine, protocol

from . import _wire
from ._bots import new_bot
from ._game import Game
from ._password import Digest
from ._seats import Seat
from ._session import Session, forget_gone, token_key
from ._settings import TableSettings, match_rng
from ._shuffle import Shuffle
from ._table import Table
from .records.deal_notes import Keeper
from .records.deal_record import Applied, RecordError, unpacked_action
from .records.journal import Journal
from .records.journal_rows import Journaled
from .records.replay import describe
from .records.writer import RecordsWriter

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
        table, its events before the restart are gone: the client gets a snapshot (and if it
        is his turn, his turn time starts afresh, whole: ``Table.attached``). In the lobby
        (its table closed, or did not restore) it keeps the ``table_closed`` it missed, as a
        resume replays it. None: the token holds no restored session (any more)."""
        session = self.sessions.pop(token_key(token), None)
        if session is None:
            return None
        closed = _closed_event(session) if session.table is None else None
        session.reclaimed(token, last_seq)
        if closed is not None:
            session.event(closed)
        return session

    def add(self, sessions: list[Session]) -> None:
        """``sessions`` wait to be resumed (``reclaim``)."""
        self.sessions.update((session.key, session) for session in sessions)

    def forget_gone(self, now: float, grace_s: float) -> list[str]:
        """Forget the sessions that nobody resumed within ``grace_s`` of their drop, and that
        hold no seat (``now``: trio's clock): a spectator stops watching. Returns their keys."""
        return forget_gone(self.sessions, now, grace_s)


def _closed_event(session: Session) -> dict[str, Any] | None:
    """The last ``table_closed`` ``session`` was sent, if any."""
    for frame in reversed(session.buffer):
        body = msgpack.unpackb(frame[4:])
        if body.get("t") == "table_closed":
            return protocol.TableClosed.wire_map(table=body["table"], reason=body["reason"])
    return None


def restore_tables(
    records: RecordsWriter,
    restored: Restored,
    replay: int,
    on_close: Callable[[Table], None],
    start: Callable[[Callable[[], Any]], None],
) -> dict[int, Table]:
    """The tables ``records`` took over from the journal (``RecordsWriter.take_journaled``), by
    their number (or the next free one), their players' sessions put in ``restored``
    (``replay``: the events each keeps), ``on_close(table)`` called when one closes, and
    ``start(table.run)`` each. A table whose journal does not replay is not restored: one log
    line says why, its rows are kept (``Journal.failed``) and its players' sessions wait in
    the lobby to be told (``told``). From a database that cannot be written (``journal`` None)
    the tables are restored all the same, and then not journaled."""
    tables: dict[int, Table] = {}
    journal = records.journal  # (None: read from a database that cannot be written)
    journaled, lobby = records.take_journaled()
    for j in journaled:
        number = j.table_no if j.table_no not in tables else max(tables) + 1
        try:
            table, sessions = restore_table(
                j, table_id=number, journal=journal, replay=replay, records=records, on_close=on_close
            )
        except RestoreError as exc:
            log.warning("journal: table %d is not restored (its rows are kept): %s", j.table_no, exc)
            if journal is not None:
                journal.failed(j.id, str(exc))
            restored.add(told(j, replay))
            continue
        tables[table.id] = table
        restored.add(sessions)
        start(table.run)
        log.info(
            "journal: table %d is restored (%s; players to come back: %d)",
            table.id,
            table.summary["state"],
            len(sessions),
        )
    now = trio.current_time()
    for kept in lobby:  # the others: in the lobby (a session at a table came back with it)
        if kept.key not in restored.sessions:
            restored.add([Session.restored(kept.name, kept.key, kept.player, replay, now)])
    return tables


def restore_table(
    journaled: Journaled,
    *,
    table_id: int,
    journal: Journal | None,
    replay: int,
    records: Keeper | None = None,
    on_close: Callable[[Table], None] | None = None,
) -> tuple[Table, list[Session]]:
    """The table ``journaled`` holds, as table ``table_id``, noted by ``journal`` from now on
    (None: not journaled, the database cannot be written), and the sessions of its seated
    players (``replay``: the events each keeps for a resume). Its deadlines are started; start
    ``Table.run`` in a nursery. Raises RestoreError."""
    try:
        settings = settings_from_json(_load(journaled.settings))
        table = Table(table_id, settings, on_close=on_close, records=records, journal=journal)
        _seat(table, _load(journaled.state), replay)
        match = _load(journaled.match) if journaled.match is not None else None
        deal = _load(journaled.deal) if journaled.deal is not None else None
        if match is not None:
            game: Game | None = _game(table, match, deal, journaled.actions)
        elif deal is not None:
            raise RestoreError("a deal is journaled outside a match")
        else:
            game = None
    except RestoreError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AssertionError) as exc:
        raise RestoreError(f"the journal does not replay: {type(exc).__name__}: {exc}") from None
    table.resume(game, journaled.id, journaled.deal_key)
    return table, [s for s in table.members() if s.table is table]


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RestoreError(f"the journal is not JSON: {exc}") from None


def settings_from_json(values: dict[str, Any]) -> TableSettings:
    """``records.journal.settings_json`` undone, checked as a new table's are (its variant and
    options, seats, bot strengths; its times and counts whole numbers, none below 0), so that no
    table comes back that cannot be played. Raises TypeError or ValueError."""
    values = dict(values)
    password = values.get("password")
    values["password"] = Digest(**password) if password is not None else None
    values["bots"] = tuple(values.get("bots") or ())
    settings = TableSettings(**values)
    for field in attrs.fields(TableSettings):  # (a number the table would time or count with)
        value = getattr(settings, field.name)
        if type(field.default) is int and (type(value) is not int or value < 0):
            raise ValueError(f"{field.name} is {value!r}, not a count of ms or of things")
    rules = engine.variant(settings.variant, **settings.options)
    rules.deck_for(settings.seats)  # the rules still take it
    for strength in settings.bots:
        new_bot(strength, 0, rules, settings.seats)  # (and its bots' strengths)
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


def _seat(table: Table, state: list[Any], replay: int) -> None:
    """The seats and spectators as journaled, with a session for each seated player and
    spectator (a journal of version 3 holds no spectators)."""
    host, deals_played, seats, *more = state
    if len(seats) != len(table.seats):
        raise RestoreError(f"{len(seats)} seats journaled for a table of {len(table.seats)}")
    now = trio.current_time()
    for i, (_name, strength, *_rest) in enumerate(seats):
        if strength is not None:  # a bot of a strength this server does not know could never move
            new_bot(str(strength), i, table.rules, len(table.seats))

    def session(name: Any, key: Any, player: Any, seat: int | None) -> Session:
        return Session.restored(str(name or "?"), str(key), player, replay, now, table=table, seat=seat)

    table.restore_people(
        [
            Seat.restored(
                i,
                name=name,
                strength=strength,
                session=session(name, key, player, i) if key is not None else None,
                ready=bool(ready),
                away=bool(away),
                timed_out=away == "timeout",
            )
            for i, (name, strength, key, player, ready, away) in enumerate(seats)
        ],
        [session(name, key, player, None) for name, key, player in (more[0] if more else ())],
        host,
        int(deals_played),
    )


def _game(table: Table, match: dict[str, Any], deal: dict[str, Any] | None, actions: Any) -> Game:
    """The match so far, and its deal being played (dealt again, its actions replayed)."""
    dealer = match["dealer"] if deal is None else deal["dealer"]
    played = engine.Match.resumed(
        table.rules,
        len(table.seats),
        match_rng(table.seed),
        scores=[int(v) for v in match["scores"]],
        deals_played=int(match["deals_played"]),
        dealer=int(dealer) if dealer is not None else None,
    )
    uid, deal_no = str(match["uid"]), int(match["deal_no"])
    game = Game(table, journal=table.journal, match=played, match_uid=uid, deal_no=deal_no)
    if deal is None:
        return game
    if deal["deal_no"] != game.deal_no + 1:
        raise RestoreError(f"deal {deal['deal_no']} is journaled after deal {game.deal_no}")
    deck = [str(card) for card in deal["deck"]]
    dealt, opening = played.start(order=deck)
    salt, commitment = str(deal["salt"]), str(deal["commitment"])
    if _wire.commitment(salt, deck) != commitment:
        raise RestoreError("the deck does not match the deal's commitment")
    applied, elapsed_ms = _replay(dealt, list(actions))
    game.resume_deal(
        dealt,
        int(deal["deal_no"]),
        opening,
        salt=salt,
        commitment=commitment,
        fair=dict(deal["fair"]),
        shuffle=_shuffle(deal, dealt, table.rules.deck_for(dealt.players)),
        applied=applied,
        elapsed_ms=elapsed_ms,
        record_notes=deal["record"],
    )
    return game


def _shuffle(deal: dict[str, Any], dealt: engine.Deal, kind: str) -> Shuffle | None:
    """The deal's shuffle (fair deal 2), dealt: its seed is disclosed when the deal ends."""
    if deal["seed"] is None:
        return None
    given = deal["fair"].get("contributions") or [None] * dealt.players
    return Shuffle.restored(
        int(deal["deal_no"]),
        kind,
        dealt.players,
        dealt.dealer,
        bytes.fromhex(deal["seed"]),
        [None if c is None else bytes.fromhex(c) for c in given],
    )


def _replay(deal: engine.Deal, rows: list[Any]) -> tuple[Applied, int]:
    """Apply the journaled actions ``rows`` (``(n, ms, action)``, msgpack) to ``deal``, as
    the referee did: the actions as the referee keeps them (``Referee.applied``), and the time
    of the last, in ms from the deal's start (its times go on from there). A bot, made when
    first needed, learns the deal from them (``Game.bot_for``)."""
    applied = Applied()
    ms = 0
    for k, (n, ms, data) in enumerate(rows):
        if n != k:
            raise RestoreError(f"action {k} is missing from the journal")
        try:
            action = unpacked_action(data)
        except (ValueError, TypeError, IndexError, KeyError, RecordError, msgpack.UnpackException) as exc:
            raise RestoreError(f"action {k} cannot be read: {str(exc) or type(exc).__name__}") from None
        try:
            deal.apply(action)
        except engine.RuleViolation as exc:
            raise RestoreError(f"action {k} ({describe(action)}) is refused: {exc.reason}") from None
        applied.append(int(ms), action)
    if deal.over:
        raise RestoreError(f"the deal has ended after its {len(rows)} actions")
    deal.check_invariant()
    return applied, int(ms)
