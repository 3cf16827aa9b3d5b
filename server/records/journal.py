"""The journal of live tables: what a table notes as it changes, so that a server
started again on the same database brings the table back (``_restore``).

The journal lives in the records' database (``records.database``, version 3: ``live_tables``,
``live_actions``) and is written by the records' one writer thread (``records.writer``): a table
hands it a list of entries (``put``), which never waits, and the writer commits whatever
tables handed it meanwhile in one transaction (``records.journal_rows.write``). What a table notes:

- ``opened``: its settings (a table password only as a ``_password.Digest``) and seats;
- ``changed``: its seats (names, bot strengths, player ids, the SHA-256 of each seated
  session's token, never the token; ready, away), the host's seat, and a match that ended;
- ``match_started``; ``dealt``: the deal's key (random: its actions are keyed by it, so the
  rows of two deals are never confused, whatever their match and number), number, dealer,
  deck as dealt, fair-deal material (salt, commitment, the server's seed and the
  contributions) and its record's notes;
- ``played``: every action the referee accepted since the last note, and, when the deal has
  ended, its record (``DealRecord``), the match's scores and next dealer, all in one entry: the
  writer commits an entry whole or not at all, so a deal is never both recorded and still
  journaled as being played;
- ``closed``: the table is gone (its rows are deleted);
- ``failed``: a restored table's rows did not replay; they are kept, marked, never restored.

And what a server notes of its sessions, wherever they are (``session``: its token's SHA-256,
name and player; ``sessions_gone``: forgotten), so that one in the lobby comes back too.

A killed server loses at most the entries the writer had not committed yet: those of the last
``records.writer.BATCH_S`` and the batch being written; a power cut no more (``records.database``: each commit
is synced to the disk).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from neveryu import engine

from .._password import Digest

if TYPE_CHECKING:
    from .._referee import Referee
    from .._settings import TableSettings
    from .._shuffle import Shuffle
    from .._table_protocol import Table
    from .deal_notes import Recording
    from .deal_record import DealRecord

# -- the entries (``records.journal_rows.write`` writes each) -------------------------------------


@attrs.frozen
class TableOpened:
    """A new table: its journal id (``table``), its number on the server, settings and seats."""

    table: int
    table_no: int
    settings: dict[str, Any]
    state: tuple[Any, ...]


@attrs.frozen
class StateChanged:
    """The table's seats and host (``table_state``)."""

    table: int
    state: tuple[Any, ...]


@attrs.frozen
class MatchNoted:
    """The match so far (``match_state``); None: between matches."""

    table: int
    match: dict[str, Any] | None


@attrs.frozen
class DealNoted:
    """The deal being played, keyed ``key`` (``deal_state``); None, None: none (its actions go)."""

    table: int
    key: int | None
    deal: dict[str, Any] | None


@attrs.frozen
class ActionsTaken:
    """The actions of the deal keyed ``deal_key`` from number ``n`` on: ``(ms, packed action)``."""

    table: int
    deal_key: int
    n: int
    actions: tuple[tuple[int, bytes], ...]


@attrs.frozen
class RecordKept:
    """An ended deal's record, for the records (in the same transaction as its table's notes)."""

    record: DealRecord


@attrs.frozen
class TableClosed:
    """The table is gone: its rows are deleted."""

    table: int


@attrs.frozen
class RestoreFailed:
    """The table's rows did not restore it (``why``: one line): they are kept, marked."""

    table: int
    why: str


@attrs.frozen
class SessionBegun:
    """A session: its token's ``key`` (never the token), name and player (None: a guest)."""

    key: str
    name: str
    player: str | None


@attrs.frozen
class SessionGone:
    """A session was forgotten."""

    key: str


Op = (
    TableOpened
    | StateChanged
    | MatchNoted
    | DealNoted
    | ActionsTaken
    | RecordKept
    | TableClosed
    | RestoreFailed
    | SessionBegun
    | SessionGone
)
"""One journal entry (``records.journal_rows.write``)."""

TABLE_ENTRIES = (TableOpened, StateChanged, MatchNoted, DealNoted, ActionsTaken, TableClosed, RestoreFailed)
"""The entries that write a table's rows (their ``table``: its journal id)."""

Put = Callable[..., bool]
"""``put(entries, now=False)`` hands entries to the writer, to be committed together (``now``:
at once, not with the next batch); never waits. False: not taken (the journal or the records
are off, or the writer is too far behind)."""


class Game(Protocol):
    """What the journal reads of a table's match (``_game.Game``), and the deal's records too
    (``_game_records.DealNotes`` is made from it)."""

    table: Table[object]
    match: engine.Match
    match_uid: str
    deal_no: int
    deal: engine.Deal | None
    referee: Referee | None
    shuffle: Shuffle | None
    recording: Recording | None
    salt: str
    commitment: str
    fair: dict[str, Any]


class _Notes:
    """What the journal holds of one table: its ``id`` in the journal, the ``state`` last noted,
    the deal whose actions it holds (``deal``: its key, random, made when it was dealt: no two
    deals share one, whatever their table, match and number; 0: none) and how many (``n``),
    the match (``match``: its uid, None between matches)."""

    __slots__ = ("deal", "id", "match", "n", "state")

    def __init__(self, jid: int, state: tuple[Any, ...], match: str | None = None, deal: int = 0, n: int = 0):
        self.id = jid
        self.state = state
        self.deal = deal
        self.n = n
        self.match = match

    def changed(self, state: tuple[Any, ...]) -> bool:
        """The table's ``state`` now; whether it differs from the one last noted."""
        changed, self.state = state != self.state, state
        return changed

    def match_begun(self, uid: str | None) -> None:
        """A match begins (``uid``), or ended (None): no deal is held."""
        self.match, self.deal, self.n = uid, 0, 0

    def dealt(self) -> int:
        """A deal was dealt: its new key (no action of it is held yet)."""
        self.deal, self.n = secrets.randbits(62) + 1, 0
        return self.deal

    def taken(self, n: int) -> None:
        """The first ``n`` actions of the deal are held."""
        self.n = n

    def deal_ended(self) -> None:
        """The deal ended: its actions are no longer held."""
        self.deal, self.n = 0, 0


class Journal:
    """The journal of a server's live tables; ``put`` hands entries to the writer. ``off``: no
    table is noted any more (the writer fell too far behind, or the database failed); a deal's
    record then goes to the records alone (``keep``)."""

    def __init__(self, put: Put, keep: Callable[[DealRecord], None]) -> None:
        self.put = put
        self.keep = keep
        self.off = False
        self._notes: dict[int, _Notes] = {}  # by table id

    def __repr__(self) -> str:
        return f"<journal of {len(self._notes)} tables{' (off)' if self.off else ''}>"

    def turn_off(self) -> None:
        """No table is noted any more (the writer fell too far behind, or records are off)."""
        self.off = True
        self._notes.clear()

    def _take(self, ops: list[Op], now: bool = False) -> None:
        if ops and not self.off and not self.put(ops, now):
            self.turn_off()

    def journaled(self, table: Table[object]) -> int | None:
        """The journal's id of ``table`` (None: not journaled)."""
        notes = self._notes.get(table.id)
        return notes.id if notes is not None else None

    # -- what tables note --------------------------------------------------------------------------

    def opened(self, table: Table[object]) -> None:
        """A new table: its settings and seats."""
        if self.off:
            return
        notes = self._notes[table.id] = _Notes(secrets.randbits(62) + 1, table_state(table))
        self._take([TableOpened(notes.id, table.id, settings_json(table.settings), notes.state)])

    def adopt(self, table: Table[object], jid: int, match: str | None, deal: int, n: int) -> None:
        """``table`` was restored from the journal's rows ``jid``: its notes go on there (``n``
        actions of the deal keyed ``deal`` are held)."""
        if self.off:
            return
        notes = self._notes[table.id] = _Notes(jid, table_state(table), match, deal, n)
        self._take([StateChanged(jid, notes.state)])

    def failed(self, jid: int, why: str) -> None:
        """The journal's rows ``jid`` did not restore their table (``why``: one line): they are
        kept, marked with ``why``, for someone to look at; no server restores them again."""
        self._take([RestoreFailed(jid, why)])

    def session(self, key: str, name: str, player: str | None) -> None:
        """A session began (``key``: its token's ``_session.token_key``, never the token)."""
        self._take([SessionBegun(key, name, player)])

    def sessions_gone(self, keys: list[str]) -> None:
        """Sessions were forgotten (their ``key``s): nothing is left to resume."""
        self._take([SessionGone(key) for key in keys])

    def changed(self, table: Table[object]) -> None:
        """The table's summary changed: its seats, if they did, and the end of its match."""
        notes = self._notes.get(table.id)
        if notes is None:
            return
        ops: list[Op] = []
        if notes.changed(table_state(table)):
            ops.append(StateChanged(notes.id, notes.state))
        if notes.match is not None and table.game is None:  # the match ended
            notes.match_begun(None)
            ops += [MatchNoted(notes.id, None), DealNoted(notes.id, None, None)]
        self._take(ops)

    def match_started(self, game: Game) -> None:
        notes = self._notes.get(game.table.id)
        if notes is None:
            return
        notes.match_begun(game.match_uid)
        self._take([MatchNoted(notes.id, match_state(game)), DealNoted(notes.id, None, None)])

    def dealt(self, game: Game) -> None:
        """A deal was dealt (before its opening events are published)."""
        notes = self._notes.get(game.table.id)
        if notes is None:
            return
        self._take([DealNoted(notes.id, notes.dealt(), deal_state(game))])

    def played(self, game: Game, record: DealRecord | None) -> None:
        """After every batch of the game's events: the actions the referee accepted since the
        last note; when the deal ended (``record``: its record, None when records are off),
        the record and the match so far, in the same entry."""
        notes = self._notes.get(game.table.id)
        referee, deal = game.referee, game.deal
        if notes is None or referee is None or deal is None:
            if record is not None:
                self.keep(record)
            return
        applied = referee.applied
        done = notes.n
        if not deal.over:  # (after nearly every action: kept short)
            if len(applied) > done:
                notes.taken(len(applied))
                if not self.put([ActionsTaken(notes.id, notes.deal, done, applied.rows(done))]):
                    self.turn_off()
            return
        ops: list[Op] = []
        if len(applied) > done:
            ops.append(ActionsTaken(notes.id, notes.deal, done, applied.rows(done)))
        if record is not None:
            ops.append(RecordKept(record))
        ops += [MatchNoted(notes.id, match_state(game)), DealNoted(notes.id, None, None)]
        notes.deal_ended()
        self._take(ops, now=True)  # (a deal's end: written at once)
        if self.off and record is not None:
            self.keep(record)

    def closed(self, table: Table[object]) -> None:
        """The table closed: the journal forgets it."""
        notes = self._notes.pop(table.id, None)
        if notes is not None:
            self._take([TableClosed(notes.id)])


# -- what is noted, as plain values (the writer encodes them) ------------------------------------


def table_state(table: Table[object]) -> tuple[Any, ...]:
    """``(host seat, deals played, seats, spectators)``, each seat ``(name, bot strength,
    session key, player, ready, away)`` (``player``: the ``players.key`` of the person whose
    session holds the seat, None for a guest: ``Session.player``; ``away``: "timeout" when it
    is since a turn timeout), each spectator ``(name, session key, player)``."""
    host = table.host.seat if table.host is not None else None
    seats = tuple(
        (
            s.name,
            s.strength,
            s.session.key if s.session is not None else None,
            s.session.player if s.session is not None else None,
            s.ready,
            "timeout" if s.timed_out else s.away,
        )
        for s in table.seats
    )
    spectators = tuple((s.name, s.key, s.player) for s in table.spectators)
    return (host, table.deals_played, seats, spectators)


def settings_json(settings: TableSettings) -> dict[str, Any]:
    """The table's settings as JSON values; a password only as its ``Digest``."""
    values = attrs.asdict(settings, recurse=False)
    password = values["password"]
    if isinstance(password, str):
        password = Digest.of(password)
    values["password"] = attrs.asdict(password) if password is not None else None
    values["bots"] = list(settings.bots)
    values["options"] = dict(settings.options)
    return values


def match_state(game: Game) -> dict[str, Any]:
    """The match so far: its uid, deals dealt and ended, scores, the next deal's dealer (None:
    not chosen yet)."""
    match = game.match
    return {
        "uid": game.match_uid,
        "deal_no": game.deal_no,
        "deals_played": match.deals_played,
        "scores": tuple(match.scores),
        "dealer": match.dealer if match.deals_played else None,
    }


def deal_state(game: Game) -> dict[str, Any]:
    """The deal being played: its number, dealer, deck as dealt, fair-deal material, and its
    record's notes (None when records are off)."""
    deal, shuffle, recording = game.deal, game.shuffle, game.recording
    assert deal is not None
    return {
        "deal_no": game.deal_no,
        "dealer": deal.dealer,
        "deck": tuple(deal.deck_order or ()),
        "salt": game.salt,
        "commitment": game.commitment,
        "fair": dict(game.fair),
        "seed": shuffle.seed.hex() if shuffle is not None else None,
        "record": recording.notes() if recording is not None else None,
    }
