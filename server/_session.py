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
import struct
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

    def push_frame(self, frame: bytes) -> None:
        """``push`` a message already framed: the 4-byte length, then its msgpack bytes."""

    def flush(self, now: float | None = None) -> None:
        """Write now what was pushed (``Server.flush``: a batch's first event, early); never
        waits. ``now``: trio's clock, if the caller has it."""

    def drop(self, reason: str) -> None:
        """Close the connection (its session may resume)."""


def wall_ms() -> int:
    """Unix wall-clock time in integer milliseconds (the ``ts`` of events; display only)."""
    return time.time_ns() // 1_000_000


# One packer for every message (``msgpack.packb`` makes a new one per call: half its cost). It
# is only used between two awaits, and a pack holds the GIL: threads cannot interleave in it.
_pack = msgpack.Packer().pack
_SEQ = b"\xa3seq"  # the msgpack str "seq" (4 bytes: ``event_packed`` counts them)
_LENGTH = struct.Struct(">I").pack  # a frame's 4-byte length header
_TS = b"\xa2ts"  # the msgpack str "ts"
_OK = b"\x82\xa1t\xa2ok\xa2re"  # a map of 2 pairs, "t": "ok", then the key "re"


def _map_header(n: int) -> bytes:
    """The msgpack header of a map of ``n`` pairs (fixmap, map16 or map32)."""
    if n < 16:
        return bytes((0x80 | n,))
    return (b"\xde" + n.to_bytes(2, "big")) if n < 65_536 else (b"\xdf" + n.to_bytes(4, "big"))


_FIXMAP = tuple(bytes((0x80 | n,)) for n in range(16))  # the headers of maps of 0..15 pairs


def event_prefix(body: dict[str, Any]) -> bytes:
    """The msgpack bytes of an event ``body`` (no ``seq``/``ts``) as the start of a map that
    also holds ``seq`` and ``ts`` (``Session.event_packed`` appends them): a map is a header
    with its count of pairs, then the pairs, so the pairs packed once serve every receiver.
    Raises ValueError if ``body`` has a ``seq`` or ``ts`` of its own."""
    if "seq" in body or "ts" in body:
        raise ValueError("an event body gets its seq and ts from its session")
    n = len(body)
    packed = _pack(body)
    if n < 14:  # a fixmap either way: its header byte counts two pairs more
        return _FIXMAP[n + 2] + packed[1:]
    return _map_header(n + 2) + packed[len(_map_header(n)) :]


def ts_pair(ts: int | None = None) -> bytes:
    """The packed pair ``"ts": ts`` that ends an event (``Session.event_packed``); ``ts``
    defaults to ``wall_ms()``."""
    return _TS + _pack(wall_ms() if ts is None else ts)


class Session:
    """One player's session. ``table``/``seat``: where it sits (``seat`` None at a table: a
    spectator). ``replay``: how many events to keep for a resume."""

    def __init__(self, name: str, replay: int, address: str = "?") -> None:
        self.token = secrets.token_urlsafe(24)
        self.name = name
        self.address = address
        self.seq = 0
        # The kept events as framed (~100 B each, where a dict of ~10 keys is ~500 B: 512 dicts
        # were 250 KiB per session; docs/BENCHMARKS.md), oldest first.
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
        any (``event_packed``)."""
        self.event_packed(event_prefix(body), ts_pair(wall_ms() if ts is None else ts), keep=keep)

    def event_packed(self, prefix: bytes, ts: bytes, *, keep: bool = True) -> None:
        """``event`` for a body packed by ``event_prefix`` (a table packs each event once for
        every seat that sees the same copy) and a ``ts_pair``: the frame is the prefix, then
        ``"seq": seq``, then ``ts``. The frame, exactly the bytes sent, is what is kept."""
        self.seq = seq = self.seq + 1
        packed_seq = _pack(seq)
        frame = b"".join((_LENGTH(len(prefix) + len(packed_seq) + len(ts) + 4), prefix, _SEQ, packed_seq, ts))
        if keep:
            buffer = self.buffer
            if len(buffer) == buffer.maxlen:
                self._last_evicted = buffer[0]
            buffer.append(frame)
        link = self.link
        if link is not None:
            link.push_frame(frame)

    def reply(self, request: dict[str, Any], body: dict[str, Any]) -> None:
        """Send the one reply to ``request`` (``re`` = its id). Replies are not kept for a
        resume: a request in flight when the connection dropped gets none."""
        if self.link is not None:
            self.link.push({**body, "re": request.get("id")})

    def ok(self, request: dict[str, Any]) -> None:
        """``reply(request, {"t": "ok"})``, framed without building the message."""
        if self.link is not None:
            rid = request.get("id")
            if type(rid) is not int:
                self.reply(request, {"t": "ok"})
                return
            packed_id = _pack(rid)
            self.link.push_frame((len(_OK) + len(packed_id)).to_bytes(4, "big") + _OK + packed_id)

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
        kept = (msgpack.unpackb(memoryview(m)[4:]) for m in self.buffer)
        return [m for m in kept if m["seq"] > last_seq]

    @property
    def evicted(self) -> int:
        """The highest seq that fell out of the buffer (0: none did)."""
        return 0 if self._last_evicted is None else msgpack.unpackb(memoryview(self._last_evicted)[4:])["seq"]

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
