"""Fixed numbers of protocol v1 (docs/PROTOCOL.md, "Limits" and "Timeouts").

Sizes are bytes, times milliseconds. The three times are the defaults; a server may be
configured otherwise and says so in ``welcome`` (``heartbeat_ms``, ``limits.idle_ms``).
"""

from __future__ import annotations

PROTOCOL_VERSION = 1
"""The protocol version this package speaks (``hello.proto`` is a [min, max] range of these)."""

DEFAULT_PORT = 7420
"""The TCP port a server listens on unless told otherwise."""

HEADER_SIZE = 4
"""Every frame starts with a 4-byte big-endian unsigned length N of the msgpack map that follows."""

MAX_CLIENT_FRAME = 65_536
"""Largest N of a frame a client sends (bytes)."""

MAX_SERVER_FRAME = 1_048_576
"""Largest N of a frame a server sends (bytes)."""

MAX_DEPTH = 32
"""Most levels of arrays and maps in one message: the message map is level 1, a map or array in
it level 2, and so on; values that are not arrays or maps add no level."""

MAX_CLIENT_OBJECTS = 512
"""Most values in one frame from a client: the message map, every key and value of every map
and every item of every array (a real request holds fewer than 100)."""

MAX_CHAT_LEN = 500
"""Longest ``chat.text`` (characters)."""

MAX_NAME_LEN = 32
"""Longest player name (characters)."""

MAX_ID = 2**32 - 1
"""Request ids are uint32: 0..MAX_ID."""

HELLO_TIMEOUT_MS = 5_000
"""A connection that has not sent ``hello`` this long after opening is closed."""

HEARTBEAT_MS = 10_000
"""The server sends a ``heartbeat`` event after this long without sending anything; a client
should send ``ping`` after this long without sending anything."""

IDLE_TIMEOUT_MS = 45_000
"""A peer from which nothing arrived this long is dropped (a player can resume)."""
