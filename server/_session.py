"""Sessions: a player's identity on the server, which outlives any one connection.

A session has an unguessable token (``secrets.token_urlsafe``), the ``seq`` of its events
(strictly increasing, kept across a resume) and a bounded buffer of the events it was sent, so a
resume can replay what a dropped connection missed (DESIGN.md, "Resume"). While connected it
holds a ``Link``: the sending side of its connection. Nothing here awaits: a table pushes
messages and never waits for a slow reader (a full queue drops the connection instead).
"""

from __future__ import annotations

import collections
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol

import msgpack

if TYPE_CHECKING:
    from ._table import Table

log = logging.getLogger("neveryu.server")


class Link(Protocol):
    """The sending side of one connection, as a session sees it."""

    def push(self, msg: dict[str, Any], final: bool = False, body: bytes | None = None) -> None:
        """Send ``msg`` without waiting; a full queue drops the connection. ``body``: ``msg``
        msgpack-encoded, when the caller has it."""

    def push_event(self, msg: dict[str, Any], body: bytes) -> None:
        """``push`` an event ``msg`` whose msgpack bytes are ``body``."""

    def drop(self, reason: str) -> None:
        """Close the connection (its session may resume)."""


def wall_ms() -> int:
    """Unix wall-clock time in integer milliseconds (the ``ts`` of events; display only)."""
    return time.time_ns() // 1_000_000


class Session:
    """One player's session. ``table``/``seat``: where it sits (``seat`` None at a table: a
    spectator). ``replay``: how many events to keep for a resume."""

    def __init__(self, name: str, replay: int, address: str = "?") -> None:
        self.token = secrets.token_urlsafe(24)
        self.name = name
        self.address = address
        self.seq = 0
        # The kept events, msgpack-encoded (~100 B each, where a dict of ~10 keys is ~500 B:
        # 512 dicts were 250 KiB per session; docs/BENCHMARKS.md), oldest first.
        self.buffer: collections.deque[bytes] = collections.deque(maxlen=replay)
        self._last_evicted: bytes | None = None  # the newest event that fell out of the buffer
        self.link: Link | None = None
        self.table: Table | None = None
        self.seat: int | None = None

    def __repr__(self) -> str:
        return f"<session {self.name!r} from {self.address}>"

    @property
    def connected(self) -> bool:
        return self.link is not None

    # -- sending ------------------------------------------------------------------------------

    def event(self, body: dict[str, Any], *, keep: bool = True, ts: int | None = None) -> None:
        """Send an event: stamps ``seq`` and ``ts`` (``wall_ms()`` unless given), keeps it for
        a resume (unless ``keep`` is False: heartbeats) and pushes it to the connection, if
        any. It is msgpack-encoded once, for both."""
        self.seq += 1
        msg = {**body, "seq": self.seq, "ts": wall_ms() if ts is None else ts}
        packed = msgpack.packb(msg)
        if keep:
            if len(self.buffer) == self.buffer.maxlen:
                self._last_evicted = self.buffer[0]
            self.buffer.append(packed)
        if self.link is not None:
            self.link.push_event(msg, packed)

    def reply(self, request: dict[str, Any], body: dict[str, Any]) -> None:
        """Send the one reply to ``request`` (``re`` = its id). Replies are not kept for a
        resume: a request in flight when the connection dropped gets none."""
        if self.link is not None:
            self.link.push({**body, "re": request.get("id")})

    def ok(self, request: dict[str, Any]) -> None:
        self.reply(request, {"t": "ok"})

    def error(self, request: dict[str, Any] | None, code: str, msg: str, fatal: bool = False) -> None:
        """Reply with an error (docs/PROTOCOL.md, "Errors")."""
        re = request.get("id") if request is not None else None
        if self.link is not None:
            self.link.push({"t": "error", "re": re, "code": code, "msg": msg, "fatal": fatal})

    # -- resume -------------------------------------------------------------------------------

    def missed(self, last_seq: int) -> list[dict[str, Any]] | None:
        """The kept events after ``last_seq``, or None when some of them are no longer kept (the
        caller then sends a fresh ``state`` snapshot)."""
        if last_seq < self.evicted or last_seq > self.seq:
            return None
        kept = (msgpack.unpackb(m) for m in self.buffer)
        return [m for m in kept if m["seq"] > last_seq]

    @property
    def evicted(self) -> int:
        """The highest seq that fell out of the buffer (0: none did)."""
        return 0 if self._last_evicted is None else msgpack.unpackb(self._last_evicted)["seq"]

    def attach(self, link: Link) -> Link | None:
        """Make ``link`` this session's connection; returns the one it replaces (the caller
        drops it: a second connection with the same token replaces the first)."""
        old, self.link = self.link, link
        return old

    def detach(self, link: Link) -> bool:
        """Forget ``link`` if it is still this session's connection; True if it was."""
        if self.link is link:
            self.link = None
            return True
        return False
