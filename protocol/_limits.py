"""Fixed numbers of protocol v1 (docs/PROTOCOL.md, "Limits" and "Timeouts").

Sizes are bytes, times milliseconds. The three times are the defaults; a server may be
configured otherwise and says so in ``welcome`` (``heartbeat_ms``, ``limits.idle_ms``).
"""

from __future__ import annotations

PROTOCOL_VERSION = 1
"""The protocol version this package speaks (``hello.proto`` is a [min, max] range of these)."""

PROTOCOL_MINOR = 2
"""The minor version within ``PROTOCOL_VERSION``: what was added since 1.0 (docs/PROTOCOL.md,
"Versioning" and the changelog). A server says it in ``welcome.minor``; absent means 1.0."""

DEFAULT_PORT = 7420
"""The TCP port a server listens on unless told otherwise."""

HEADER_SIZE = 4
"""Every frame starts with a 4-byte big-endian unsigned length N of the msgpack map that follows."""

MAX_CLIENT_FRAME = 16_384
"""Largest N of a frame a client sends (bytes). v1.0 allowed 65,536; no request comes near
either: the largest a real client sends is a ``chat`` of 500 characters (about 1 KiB in
Cyrillic, 2 KiB in 4-byte characters) or a ``create_table`` with every option (under 1.5 KiB),
and the largest any request's types allow, every string at its longest in 4-byte characters,
is a ``create_table`` of about 10 KiB (tests/test_protocol_framing.py measures both)."""

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

MAX_SEQ = 2**53 - 1
"""Largest ``hello.resume.last_seq``: the largest integer every JSON number holds exactly, far
above any ``seq`` a session reaches. After a server restart a session's ``seq`` goes on after
the ``last_seq`` its client gives; this bound keeps it within what msgpack carries."""

HELLO_TIMEOUT_MS = 5_000
"""A connection that has not sent ``hello`` this long after opening is closed."""

HEARTBEAT_MS = 10_000
"""The server sends a ``heartbeat`` event after this long without sending anything; a client
should send ``ping`` after this long without sending anything."""

IDLE_TIMEOUT_MS = 45_000
"""A peer from which nothing arrived this long is dropped (a player can resume)."""
