"""A live table brought back from the journal (``records.journal``) when a server starts again on the
same database (docs/PROTOCOL.md, "Across a server restart").

``restore_table`` rebuilds the table from its journaled rows: its settings and seats, the match
so far, and the current deal, dealt again from the journaled deck and dealer and replayed
action by action through the engine (as ``records.replay`` replays a record; the bots at its seats
learn every event their seat was sent, as they did). Each seated player's session comes back
with its token's key only (``Session.restored``), dropped: he resumes it with the token his
client kept; until then his seat waits the grace time, then a bot plays it, as after any drop.
The deadlines start afresh, each with its whole time (``Referee.resume``; the pause before the
next deal, the grace times, the table's closing when nobody comes back).

Anything that does not replay (a journal of a changed rules version, a bug) raises
``RestoreError`` with one line saying why: the server drops that table and restores the others.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import msgpack
import trio

from neveryu import engine

from . import _wire
from ._game import Game
from ._password import Digest
from ._session import Session, token_key
from ._settings import TableSettings
from ._shuffle import Shuffle
from ._table import Table
from .records.deal_notes import Recording
from .records.deal_record import RecordError, unpacked_action
from .records.journal import Journal
from .records.journal_rows import Journaled
from .records.replay import describe

log = logging.getLogger("neveryu.server")


class RestoreError(Exception):
    """The journal of a table does not restore it: the message says why (one line)."""


class Restored:
    """The sessions of the seats restored from the journal, by their token's key, until their
    players resume them with the token (``reclaim``)."""

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}

    def reclaim(self, token: str, last_seq: int) -> Session | None:
        """The restored session ``token`` holds, now the server's again (``token`` set), its
        ``seq`` going on after ``last_seq``: its events before the restart are gone, so the
        client gets a snapshot. None: the token holds no restored seat (any more)."""
        session = self.sessions.pop(token_key(token), None)
        if session is None or session.table is None:
            return None
        session.token = token
        session.seq = max(session.seq, last_seq)
        session.buffer.clear()
        session.buffer_seqs.clear()
        session.evicted = session.seq
        return session

    def forget_gone(self) -> None:
        """Forget the sessions whose seat is gone (the table closed, the seat was given up)."""
        for key, session in list(self.sessions.items()):
            if session.table is None:
                del self.sessions[key]


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
    ``start(table.run)`` each. A table whose journal does not replay is dropped, with one log
    line naming it."""
    journal, journaled = records.journal, records.journaled
    records.journaled = []
    if journal is None:
        return
    for j in journaled:
        number = j.table_no if j.table_no not in tables else max(tables) + 1
        try:
            table, sessions = restore_table(
                j, table_id=number, journal=journal, replay=replay, records=records, on_close=on_close
            )
        except RestoreError as exc:
            log.warning("journal: table %d is not restored: %s", j.table_no, exc)
            journal.drop(j.id)
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
        game.deal_no if game is not None else 0,
        len(referee.applied) if referee is not None else 0,
    )
    for session in sessions:
        table.detached(session)  # the grace time, then a bot plays the seat
    if game is not None and game.deal is None and game.match.deals_played >= settings.deals:
        table.match_over()  # its last deal had ended
    elif game is not None and game.deal is None:
        table.timers.start("next_deal", settings.deal_pause_ms)
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


def _seat(table: Table, state: list[Any], replay: int) -> list[Session]:
    """The seats as journaled; a session for each seated player."""
    host, deals_played, seats = state
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
    _replay(game, dealt, [a for a in actions if a[0] == game.deal_no])
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
    """Apply the journaled actions ``rows`` (``(deal_no, n, ms, action)``, msgpack) to ``deal``, as
    the referee did (a bot, made when first needed, learns the deal from them: ``Game.bot_for``)."""
    referee = game.referee
    assert referee is not None
    ms = 0
    for k, (_deal_no, n, ms, data) in enumerate(rows):
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
