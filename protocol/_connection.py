"""``Connection``: bytes in, messages out, and back; no I/O (the h11 pattern).

The caller owns the socket: it feeds what it reads to ``receive_data``, takes messages until
None (``next_request`` on a server, ``next_message`` on a client), and writes what ``send``
returns.
"""

from __future__ import annotations

from typing import Any, Literal

from ._codec import check_sent, decode_body, encode_frame
from ._errors import RemoteProtocolError, error
from ._limits import HEADER_SIZE, MAX_CLIENT_FRAME, MAX_CLIENT_OBJECTS, MAX_ID, MAX_SERVER_FRAME
from ._message import Request, parse_request

Role = Literal["server", "client"]


def is_uint32(value: object) -> bool:
    """True for an int (not a bool) in 0..2**32-1."""
    return type(value) is int and 0 <= value <= MAX_ID


class Connection:
    """One end of a protocol connection.

    ``role="server"``: the peer is a client; frames in are at most ``MAX_CLIENT_FRAME`` bytes
    and ``MAX_CLIENT_OBJECTS`` values, out at most ``MAX_SERVER_FRAME``; every message in is a
    request checked against its message class (``next_request``), and the first must be
    ``hello``. ``role="client"``: the reverse limits; messages in are checked for wire types
    and the envelope (``re`` for replies, ``seq`` and ``ts`` for events) and passed on as dicts
    (``next_message``): unknown types and fields pass through (clients ignore what they do not
    know).

    After a fatal ``RemoteProtocolError`` the connection is broken: the next call raises the
    same error again and ``receive_data`` discards its input. A non-fatal one (``UNKNOWN_TYPE``,
    ``ILLEGAL_ACTION``) consumes its frame and the connection goes on.
    """

    def __init__(self, role: Role) -> None:
        if role not in ("server", "client"):
            raise ValueError(f"role must be 'server' or 'client', not {role!r}")
        self.role: Role = role
        self.max_in = MAX_CLIENT_FRAME if role == "server" else MAX_SERVER_FRAME
        self.max_out = MAX_SERVER_FRAME if role == "server" else MAX_CLIENT_FRAME
        self._max_objects = MAX_CLIENT_OBJECTS if role == "server" else None
        self._buffer = bytearray()
        self._error: RemoteProtocolError | None = None
        self.hello_received = False

    @property
    def broken(self) -> RemoteProtocolError | None:
        """The fatal error that broke the connection, or None."""
        return self._error

    @property
    def buffered(self) -> int:
        """Bytes received and not yet taken as messages."""
        return len(self._buffer)

    def whole_frame(self) -> int | None:
        """The length N of the next frame when all of it is buffered and N is within this
        role's limit (it will be decoded by the next ``next_request``/``next_message``), else
        None. Lets a caller pace the frames it decodes (the server's byte budget)."""
        if self._error is not None or len(self._buffer) < HEADER_SIZE:
            return None
        size = int.from_bytes(self._buffer[:HEADER_SIZE], "big")
        if not 0 < size <= self.max_in or len(self._buffer) < HEADER_SIZE + size:
            return None
        return size

    def receive_data(self, data: bytes) -> None:
        """Take bytes read from the peer (any amount, any split)."""
        if self._error is None:
            self._buffer += data

    def next_request(self) -> Request | None:
        """Server role: the next whole request from the client, or None until more bytes
        arrive. Raises ``RemoteProtocolError``: fatal ones (``BAD_FRAME``, ``FRAME_TOO_LARGE``,
        ``BAD_MESSAGE``, ``NOT_READY``) break the connection; ``UNKNOWN_TYPE`` and
        ``ILLEGAL_ACTION`` do not. A length header above the limit raises as soon as its 4
        bytes are in."""
        if self.role != "server":
            raise RuntimeError("next_request is the server's: a client calls next_message")
        msg = self._next_body()
        if msg is None:
            return None
        try:
            return self._check_request(msg)
        except RemoteProtocolError as exc:
            self._failed(exc)
            raise

    def next_message(self) -> dict[str, Any] | None:
        """Client role: the next whole message from the server as a dict, or None until more
        bytes arrive. Raises ``RemoteProtocolError`` (always fatal here)."""
        if self.role != "client":
            raise RuntimeError("next_message is the client's: a server calls next_request")
        msg = self._next_body()
        if msg is None:
            return None
        try:
            return _check_server_message(msg)
        except RemoteProtocolError as exc:
            self._failed(exc)
            raise

    def _next_body(self) -> dict[str, Any] | None:
        """The next whole frame's body, decoded; None until it is all in."""
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
            body = bytes(self._buffer[HEADER_SIZE : HEADER_SIZE + size])
            del self._buffer[: HEADER_SIZE + size]
            return decode_body(body, self.max_in, self._max_objects)
        except RemoteProtocolError as exc:
            self._failed(exc)
            raise

    def _failed(self, exc: RemoteProtocolError) -> None:
        """A fatal error breaks the connection: it is raised again from now on."""
        if exc.fatal:
            self._error = exc
            self._buffer.clear()

    def _check_request(self, msg: dict[str, Any]) -> Request:
        rid = msg.get("id")
        if not is_uint32(rid):
            raise error("BAD_MESSAGE", "a request needs an id, a uint32")
        t = msg.get("t")
        if not self.hello_received and t != "hello" and type(t) is str:  # (no string t: BAD_MESSAGE)
            raise error("NOT_READY", "the first request must be hello", re=rid)
        request = parse_request(msg)
        if request.t == "hello":
            self.hello_received = True
        return request

    def send(self, msg: dict[str, Any]) -> bytes:
        """The frame to write for ``msg``. Raises ``LocalProtocolError`` if ``msg`` holds a
        non-wire value (a float, bytes, ...) or is too large for this role's frames."""
        check_sent(msg)
        return encode_frame(msg, self.max_out)


def _check_server_message(msg: dict[str, Any]) -> dict[str, Any]:
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
