"""Sessions: a player's identity on the server, which outlives any one connection.

A session has an unguessable token (``secrets.token_urlsafe``), the ``seq`` of its events
(strictly increasing, kept across a resume) and a bounded buffer of the events it was sent, so a
resume can replay what a dropped connection missed (docs/ARCHITECTURE.md, "Resume"). While connected it
holds a ``Link``: the sending side of its connection. Nothing here awaits: a table sends and
never waits for a slow reader (a connection that falls behind is dropped instead).
"""

from __future__ import annotations

import collections
import hashlib
import logging
import secrets
import time
from typing import Any, Protocol

from neveryu import protocol

log = logging.getLogger("neveryu.server")


class Link(Protocol):
    """The sending side of one connection, as a session sees it."""

    def send(self, frame: bytes) -> None:
        """Queue one frame (its 4-byte length, then the msgpack map) for the client; never
        waits. A client that stopped reading is dropped instead."""

    def note_error(self, code: str, msg: str) -> None:
        """A non-fatal error reply with ``code`` is about to be sent (for the log)."""


class Place(Protocol):
    """Where a session sits, as the server sees it: a table (``_table.Table``; its attributes
    read-only here, as the table alone changes them)."""

    @property
    def id(self) -> int: ...

    @property
    def summary(self) -> dict[str, Any]: ...

    def handle(self, session: Session, request: protocol.Request) -> None: ...

    def detached(self, session: Session) -> None: ...

    def attached(self, session: Session, snapshot: bool, restarted: bool = False) -> None: ...

    def remove(self, session: Session, why: str) -> None: ...


OK = protocol.Ok.wire_map()  # the same for every request (never changed: a reply copies it)


def error_frame(rid: int | None, code: str, msg: str) -> bytes:
    """The frame of a non-fatal ``error`` reply (docs/PROTOCOL.md, "Errors") to the request
    whose id is ``rid`` (None: it could not be read)."""
    return protocol.encode_frame(protocol.Error.wire_map(re=rid, code=code, msg=msg, fatal=False))


def token_key(token: str) -> str:
    """What the server may keep of a session token: its SHA-256, in lowercase hex (records note
    who held a seat by it; the token itself is never written down)."""
    return hashlib.sha256(token.encode()).hexdigest()


def forget_gone(sessions: dict[str, Session], now: float, grace_s: float) -> list[str]:
    """Forget the ``sessions`` (by any key) whose connection has been gone for ``grace_s``
    (``now``: trio's clock) and that hold no seat: a spectator stops watching (nothing is
    left to resume). Returns their ``key``s."""
    gone = []
    for k, s in list(sessions.items()):  # (each looked at as it is when its turn comes)
        if s.dropped_at is not None and s.dropped_at + grace_s <= now and s.seat is None:
            gone.append(_forget(sessions, k))
    return gone


def forget_oldest_gone(sessions: dict[str, Session], address: str, keep: int) -> list[str]:
    """Forget the oldest of ``address``'s sessions that are gone and hold no seat (those
    ``forget_gone`` forgets once their grace time ends) until at most ``keep`` are left, so that
    connecting, saying hello and closing again and again keeps no more than ``keep`` of them.
    Returns their ``key``s."""
    gone = [
        k for k, s in sessions.items() if s.address == address and s.dropped_at is not None and s.seat is None
    ]
    gone.sort(key=lambda k: sessions[k].dropped_at or 0.0)  # (stable: the older session first on a tie)
    return [_forget(sessions, k) for k in gone[: max(0, len(gone) - keep)]]


def _forget(sessions: dict[str, Session], k: str) -> str:
    """Forget ``sessions[k]`` (a spectator stops watching); its ``key``."""
    session = sessions.pop(k)
    if session.table is not None:
        session.table.remove(session, "dropped")
    return session.key


def wall_ms() -> int:
    """Unix wall-clock time in integer milliseconds (the ``ts`` of events; display only)."""
    return time.time_ns() // 1_000_000


class Session:
    """One player's session. ``key``: the token's ``token_key``. ``player``: the
    ``players.key`` of the person whose player key came in ``hello`` (``records.players.person_key``;
    None: a guest). ``table``/``seat``: where it sits (``seat`` None at a table: a spectator).
    ``replay``: how many events to keep for a resume. ``dropped_at``: when its connection went
    (trio's clock), None while connected."""

    def __init__(self, name: str, replay: int, address: str = "?", player: str | None = None) -> None:
        self.token = secrets.token_urlsafe(24)
        self.key = token_key(self.token)
        self.player = player
        self.name = name
        self.address = address
        self.seq = 0
        # The kept frames, oldest first, and their seqs: two deques, not a tuple per event (each
        # would be one more object for the garbage collector to look at, 13 per action).
        self.buffer: collections.deque[bytes] = collections.deque(maxlen=replay)
        self.buffer_seqs: collections.deque[int] = collections.deque(maxlen=replay)
        self.link: Link | None = None
        self._table: Place | None = None
        self._seat: int | None = None
        self.dropped_at: float | None = None
        self.evicted = 0  # the seq of the newest event that fell out of the buffer (0: none)

    @classmethod
    def restored(
        cls,
        name: str,
        key: str,
        player: str | None,
        replay: int,
        now: float,
        *,
        table: Place | None = None,
        seat: int | None = None,
    ) -> Session:
        """A session brought back from the journal of live tables (``_restore``: a seated
        player's, at ``table`` in ``seat``; a spectator's, at ``table`` with no seat; one in the
        lobby), dropped since ``now``: the server knows only its token's ``key`` (and
        ``player``) until it resumes with the token (``reclaimed``; ``token`` is "" until then)."""
        session = cls(name, replay, "journal", player)
        session.token, session.key, session.dropped_at = "", key, now
        session._table, session._seat = table, seat
        return session

    def reclaimed(self, token: str, last_seq: int) -> None:
        """A restored session (``restored``) is resumed with its ``token``: its ``seq`` goes on
        after ``last_seq``, the client's last; the events it kept are forgotten (none of them
        reached that client)."""
        self.token = token
        self.seq = self.evicted = last_seq
        self.buffer.clear()
        self.buffer_seqs.clear()

    def __repr__(self) -> str:
        return f"<session {self.name!r} from {self.address}>"

    @property
    def connected(self) -> bool:
        return self.link is not None

    @property
    def table(self) -> Place | None:
        """The table it is at (None: in the lobby); changed by ``sit`` and ``leave`` only."""
        return self._table

    @property
    def seat(self) -> int | None:
        """Its seat at ``table`` (None: in the lobby, or a spectator)."""
        return self._seat

    # -- sending ------------------------------------------------------------------------------

    def event(self, body: dict[str, Any], *, keep: bool = True) -> None:
        """Send an event (``body``: its wire map, ``protocol.<Event>.wire_map``): stamps the
        next ``seq`` and ``ts`` after its fields, keeps the frame for a resume (unless ``keep``
        is False: heartbeats, ``bye``) and sends it, if connected."""
        frame = self.frame_event(body)
        if keep:
            if len(self.buffer) == self.buffer.maxlen:
                self.evicted = self.buffer_seqs[0]
            self.buffer.append(frame)
            self.buffer_seqs.append(self.seq)
        if self.link is not None:
            self.link.send(frame)

    def frame_event(self, body: dict[str, Any]) -> bytes:
        """``body`` framed as this session's next event (``seq`` taken), not sent."""
        self.seq += 1
        return protocol.encode_frame({**body, "seq": self.seq, "ts": wall_ms()})

    def reply(self, request: protocol.Request, body: dict[str, Any]) -> None:
        """Send the one reply to ``request`` (``body``: its wire map,
        ``protocol.<Reply>.wire_map``; ``re`` = the request's id, after its fields). Replies are
        not kept for a resume: a request in flight when the connection dropped gets none."""
        if self.link is not None:
            self.link.send(protocol.encode_frame({**body, "re": request.id}))

    def ok(self, request: protocol.Request) -> None:
        """Reply ``ok``: the request was done."""
        self.reply(request, OK)

    def error(self, request: protocol.Request | None, code: str, msg: str) -> None:
        """Reply with a non-fatal error (docs/PROTOCOL.md, "Errors"): nothing changed."""
        self.reply_error(request.id if request is not None else None, code, msg)

    def reply_error(self, rid: int | None, code: str, msg: str) -> None:
        """``error`` for the request whose id is ``rid``."""
        if self.link is not None:
            self.link.note_error(code, msg)
            self.link.send(error_frame(rid, code, msg))

    # -- resume -------------------------------------------------------------------------------

    def missed(self, last_seq: int) -> list[bytes] | None:
        """The frames of the kept events after ``last_seq``, or None when some of them are no
        longer kept (the caller then sends a fresh ``state`` snapshot)."""
        if last_seq < self.evicted or last_seq > self.seq:
            return None
        return [frame for seq, frame in zip(self.buffer_seqs, self.buffer) if seq > last_seq]

    # -- where it sits ------------------------------------------------------------------------

    def sit(self, table: Place, seat: int | None) -> None:
        """It takes seat ``seat`` at ``table`` (None: it watches, a spectator)."""
        self._table, self._seat = table, seat

    def leave(self, now: float | None = None) -> None:
        """It leaves its table and is back in the lobby. ``now`` (trio's clock): when its
        connection is gone, its grace time in the lobby (``forget_gone``) starts then; None: it
        keeps the time its connection went."""
        self._table, self._seat = None, None
        if now is not None and not self.connected:
            self.dropped_at = now

    # -- its connection -----------------------------------------------------------------------

    def attach(self, link: Link) -> Link | None:
        """Make ``link`` this session's connection; returns the one it replaces (the caller
        closes it: a second connection with the same token replaces the first)."""
        old, self.link = self.link, link
        self.dropped_at = None
        return old

    def detach(self, link: Link, now: float) -> bool:
        """Forget ``link`` if it is still this session's connection; True if it was."""
        if self.link is link:
            self.link = None
            self.dropped_at = now
            return True
        return False
