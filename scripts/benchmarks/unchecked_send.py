"""An experiment, not the server: ``protocol.Connection.send`` without the walk over every
outgoing message that checks its types (``protocol._codec.wire_problem``)
(``neveryu_server --unchecked-send``).

The server builds its messages from typed engine records, so the check finds nothing in play;
cProfile puts it at about a tenth of the server's CPU (docs/BENCHMARKS.md). This encodes as
``encode_frame`` does (``msgpack.packb``, the 4-byte big-endian length) and keeps the size limit.
"""

from __future__ import annotations

import msgpack

import protocol


def _send(self, msg: dict) -> bytes:
    body = msgpack.packb(msg)
    if len(body) > self.max_out:
        raise protocol.LocalProtocolError("FRAME_TOO_LARGE", f"message of {len(body)} bytes; the limit is {self.max_out}")
    return len(body).to_bytes(protocol.HEADER_SIZE, "big") + body


def install() -> None:
    """Replace ``protocol.Connection.send`` with the unchecked one (in this process only)."""
    protocol.Connection.send = _send
