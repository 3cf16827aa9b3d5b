"""The framing of docs/ARCHITECTURE.md ("Framing": 4-byte big-endian length, then one msgpack map), kept
minimal so that the floor server and every measuring client pay the same, smallest, price.

The measuring clients use this module against both the floor and the real server, so a
difference between the two measurements is the server's alone.
"""

from __future__ import annotations

import collections
import struct

import msgpack
import trio

_LEN = struct.Struct(">I")
RECEIVE_BYTES = 65536
_unpackb = msgpack.unpackb


def encode(msg: dict) -> bytes:
    """One frame: the 4-byte big-endian length of the msgpack body, then the body."""
    body = msgpack.packb(msg)
    return _LEN.pack(len(body)) + body


class FrameStream:
    """Frames over a trio stream: ``send(msg)`` and ``receive() -> dict`` (raises EOFError when
    the peer closed). A read may bring several frames: ``receive`` decodes one at a time, so a
    frame is decoded before the frames that came after it. No validation: both ends are ours."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self._buf = bytearray()
        self._bodies: collections.deque[bytes] = collections.deque()  # received, not yet decoded

    @property
    def pending(self) -> int:
        """Frames received and not yet taken by ``receive``."""
        return len(self._bodies)

    async def send(self, msg: dict) -> None:
        await self.stream.send_all(encode(msg))

    async def receive(self) -> dict:
        while not self._bodies:
            data = await self.stream.receive_some(RECEIVE_BYTES)
            if not data:
                raise EOFError("the peer closed the connection")
            self._buf += data
            self._split()
        return _unpackb(self._bodies.popleft())

    def _split(self) -> None:
        buf, bodies = self._buf, self._bodies
        pos, end = 0, len(buf)
        while end - pos >= 4:
            (n,) = _LEN.unpack_from(buf, pos)
            if end - pos - 4 < n:
                break
            bodies.append(bytes(buf[pos + 4 : pos + 4 + n]))
            pos += 4 + n
        del buf[:pos]

    def take_buffered(self) -> tuple[list[dict], bytearray]:
        """The frames received and not yet taken, decoded, and the bytes read of the next frame,
        for a reader that takes the stream over (both are cleared here)."""
        frames, rest = [_unpackb(b) for b in self._bodies], self._buf
        self._bodies, self._buf = collections.deque(), bytearray()
        return frames, rest

    def detach(self) -> tuple[int, list[dict], bytearray]:
        """Hand the connection over: its file descriptor (the stream no longer owns it) and
        ``take_buffered()``."""
        return (self.stream.socket.detach(), *self.take_buffered())


def split(buf: bytearray, skip: tuple[bytes, ...] = ()) -> list[dict]:
    """Decode and remove every complete frame at the start of ``buf``; an incomplete frame's
    bytes stay in it. ``skip``: frames whose body starts, after its map header, with one of
    these byte strings are removed undecoded (``peek``)."""
    frames = []
    pos, end = 0, len(buf)
    while end - pos >= 4:
        (n,) = _LEN.unpack_from(buf, pos)
        stop = pos + 4 + n
        if stop > end:
            break
        if not (skip and buf.startswith(skip, pos + 5)):
            frames.append(_unpackb(buf[pos + 4 : stop]))
        pos = stop
    del buf[:pos]
    return frames


def peek(*types: str) -> tuple[bytes, ...]:
    """``split``'s ``skip`` for messages of these types: the first key of every message the
    server sends is ``t`` (a map header byte, then ``t`` and the type as short strings)."""
    return tuple(b"\xa1t" + msgpack.packb(t) for t in types)


async def connect(port: int) -> FrameStream:
    """A FrameStream to 127.0.0.1:``port`` with TCP_NODELAY (trio sets it by default)."""
    return FrameStream(await trio.open_tcp_stream("127.0.0.1", port))
