"""The framing of DESIGN.md ("Framing": 4-byte big-endian length, then one msgpack map), kept
minimal so that the floor server and every measuring client pay the same, smallest, price.

The measuring clients use this module against both the floor and the real server, so a
difference between the two measurements is the server's alone.
"""

from __future__ import annotations

import struct

import msgpack
import trio

_LEN = struct.Struct(">I")
RECEIVE_BYTES = 65536


def encode(msg: dict) -> bytes:
    """One frame: the 4-byte big-endian length of the msgpack body, then the body."""
    body = msgpack.packb(msg)
    return _LEN.pack(len(body)) + body


class FrameStream:
    """Frames over a trio stream: ``send(msg)`` and ``receive() -> dict`` (raises EOFError when
    the peer closed). No validation: both ends are ours."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self._buf = bytearray()
        self._frames: list[dict] = []

    async def send(self, msg: dict) -> None:
        await self.stream.send_all(encode(msg))

    async def receive(self) -> dict:
        while not self._frames:
            data = await self.stream.receive_some(RECEIVE_BYTES)
            if not data:
                raise EOFError("the peer closed the connection")
            self._buf += data
            self._split()
        return self._frames.pop(0)

    def _split(self) -> None:
        buf = self._buf
        pos = 0
        while len(buf) - pos >= 4:
            (n,) = _LEN.unpack_from(buf, pos)
            if len(buf) - pos - 4 < n:
                break
            self._frames.append(msgpack.unpackb(bytes(buf[pos + 4 : pos + 4 + n])))
            pos += 4 + n
        del buf[:pos]


async def connect(port: int) -> FrameStream:
    """A FrameStream to 127.0.0.1:``port`` with TCP_NODELAY (trio sets it by default)."""
    return FrameStream(await trio.open_tcp_stream("127.0.0.1", port))
