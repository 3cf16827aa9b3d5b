"""``Connection``: bytes in, messages out, and back; no I/O (the h11 pattern).

The caller owns the socket: it feeds what it reads to ``receive_data``, takes messages from
``next_message`` until None, and writes what ``send`` returns.
"""

from __future__ import annotations

from typing import Literal

from ._codec import decode_body, encode_frame
from ._errors import ProtocolError, error
from ._limits import HEADER_SIZE, MAX_CLIENT_FRAME, MAX_ID, MAX_SERVER_FRAME
from ._messages import request_wire

Role = Literal["server", "client"]


def is_uint32(value: object) -> bool:
    """True for an int (not a bool) in 0..2**32-1."""
    return type(value) is int and 0 <= value <= MAX_ID


class Connection:
    """One end of a protocol connection.

    ``check_sent=False``: ``send`` does not walk each message to check its wire types (the
    server, whose tests turn it back on; docs/BENCHMARKS.md); incoming bytes are always checked.

    ``role="server"``: the peer is a client; frames in are at most 65,536 bytes, out at most
    1,048,576, and every message in is a request checked against its schema (``parse_request``):
    the first must be ``hello``. ``role="client"``: the reverse limits; messages in are checked
    for wire types and the envelope (``re`` for replies, ``seq`` and ``ts`` for events), and
    unknown types and fields pass through (clients ignore what they do not know).

    After a fatal ``ProtocolError`` the connection is broken: ``next_message`` raises the same
    error again and ``receive_data`` discards its input. A non-fatal one (``UNKNOWN_TYPE``)
    consumes its frame and the connection goes on.
    """

    def __init__(self, role: Role, *, check_sent: bool = True) -> None:
        if role not in ("server", "client"):
            raise ValueError(f"role must be 'server' or 'client', not {role!r}")
        self.role: Role = role
        self.check_sent = check_sent  # False: ``send`` trusts the caller's types (see ``send``)
        self.max_in = MAX_CLIENT_FRAME if role == "server" else MAX_SERVER_FRAME
        self.max_out = MAX_SERVER_FRAME if role == "server" else MAX_CLIENT_FRAME
        self._buffer = bytearray()
        self._error: ProtocolError | None = None
        self.hello_received = False

    @property
    def broken(self) -> ProtocolError | None:
        """The fatal error that broke the connection, or None."""
        return self._error

    @property
    def buffered(self) -> int:
        """Bytes received and not yet taken as messages."""
        return len(self._buffer)

    def receive_data(self, data: bytes) -> None:
        """Take bytes read from the peer (any amount, any split)."""
        if self._error is None:
            self._buffer += data

    def next_message(self) -> dict | None:
        """The next whole message from the peer, or None until more bytes arrive.

        Returns the decoded dict. Server role: the request as its class normalises it
        (``parse_request(msg).to_wire()``: known fields only, optional nil fields left out).
        Raises ``ProtocolError``: fatal ones (``BAD_FRAME``, ``FRAME_TOO_LARGE``,
        ``BAD_MESSAGE``, ``NOT_READY``) break the connection; ``UNKNOWN_TYPE`` does not.
        A length header above the limit raises as soon as its 4 bytes are in.
        """
        if self._error is not None:
            raise self._error
        if len(self._buffer) < HEADER_SIZE:
            return None
        size = int.from_bytes(self._buffer[:HEADER_SIZE], "big")
        try:
            if size == 0:
                raise error("BAD_FRAME", "a frame of length 0")
            if size > self.max_in:
                raise error("FRAME_TOO_LARGE", f"a frame of {size} bytes; the limit is {self.max_in}")
            if len(self._buffer) < HEADER_SIZE + size:
                return None
            if len(self._buffer) == HEADER_SIZE + size:  # the usual case: one whole frame
                body = self._buffer[HEADER_SIZE:]
                self._buffer.clear()
            else:
                body = self._buffer[HEADER_SIZE : HEADER_SIZE + size]
                del self._buffer[: HEADER_SIZE + size]
            msg = decode_body(body, self.max_in)
            if self.role == "server":
                return self._check_request(msg)
            return _check_server_message(msg)
        except ProtocolError as exc:
            if exc.fatal:
                self._error = exc
                self._buffer.clear()
            raise

    def _check_request(self, msg: dict) -> dict:
        t, rid = msg.get("t"), msg.get("id")
        if not is_uint32(rid):
            raise error("BAD_MESSAGE", "a request needs an id, a uint32")
        if type(t) is not str:
            raise error("BAD_MESSAGE", "a message needs t, a string", re=rid)
        if not self.hello_received and t != "hello":
            raise error("NOT_READY", "the first request must be hello", re=rid)
        request = request_wire(msg)  # parse_request(msg).to_wire(), without the object
        if t == "hello":
            self.hello_received = True
        return request

    def send(self, msg: dict, body: bytes | None = None) -> bytes:
        """The frame to write for ``msg``. ``body``: ``msg`` already msgpack-encoded by the
        caller (used as is). Raises ``LocalProtocolError`` if ``msg`` is too large for this
        role's frames or holds a non-wire value (a float, bytes, ...; only checked with
        ``check_sent``)."""
        return encode_frame(msg, self.max_out, self.check_sent, body)


def _check_server_message(msg: dict) -> dict:
    """The envelope of a message from a server: ``t`` a string; a reply has ``re`` (uint32, or
    nil on an error); an event has ``seq`` and ``ts`` (ints) and no ``re``."""
    t = msg.get("t")
    if type(t) is not str:
        raise error("BAD_MESSAGE", "a message needs t, a string")
    if "re" in msg:
        re = msg["re"]
        if not (is_uint32(re) or (re is None and t == "error")):
            raise error("BAD_MESSAGE", f"{t}: re must be a request id")
        if t == "error" and not (
            type(msg.get("code")) is str and type(msg.get("msg")) is str and type(msg.get("fatal")) is bool
        ):
            raise error("BAD_MESSAGE", "error needs code (str), msg (str) and fatal (bool)")
    elif not (type(msg.get("seq")) is int and type(msg.get("ts")) is int):
        raise error("BAD_MESSAGE", f"{t}: an event needs seq and ts (ints), a reply needs re")
    return msg
