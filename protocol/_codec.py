"""Frames and msgpack bodies (docs/PROTOCOL.md, "Framing" and "Types").

A frame is a 4-byte big-endian unsigned length N, then one msgpack map of exactly N bytes.
Values on the wire are nil, bool, int, str, array and map, with str keys only; no float, bin or
ext. Decoding untrusted bytes raises ``ProtocolError`` and nothing else.
"""

from __future__ import annotations

from typing import Any

import msgpack

from ._errors import LocalProtocolError, error
from ._limits import HEADER_SIZE, MAX_DEPTH, MAX_SERVER_FRAME


def wire_problem(value: Any, *, max_depth: int = MAX_DEPTH, arrays: tuple[type, ...] = (list,)) -> str | None:
    """Why ``value`` cannot be a message on the wire, or None if it can.

    Walks without recursion and stops at ``max_depth`` (the top map is depth 1). ``arrays``: the
    Python types taken as msgpack arrays (``(list, tuple)`` when sending). Scalars are taken as
    they come, in the loop over their container (most values are; a stack entry for each was a
    third of the walk's cost).
    """
    if not isinstance(value, dict):
        return f"a message is a map, not {_kind(value)}"
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Any
        if isinstance(item, dict):
            for k in item:
                if type(k) is not str and not isinstance(k, str):
                    return f"map keys are strings, not {_kind(k)}"
            children = item.values()
        elif isinstance(item, arrays):
            children = item
        else:
            return f"{_kind(item)} is not a wire type (nil, bool, int, str, array, map)"
        if not children:
            continue
        if depth >= max_depth:
            return f"nesting deeper than {max_depth}"
        for child in children:
            kind = type(child)
            if kind is str or kind is bool or child is None:
                continue
            if kind is int or isinstance(child, int):
                if not _INT_MIN <= child < _INT_END:
                    return "an int outside int64 and uint64"
                continue
            if isinstance(child, str):
                continue
            stack.append((child, depth + 1))
    return None


_INT_MIN, _INT_END = -(2**63), 2**64  # int64's least, one past uint64's greatest

# The bytes that can begin a msgpack value ``wire_problem`` could refuse in what the decoder
# gives (a float, bin or ext; any int it decodes fits int64 or uint64), or a map or an array.
_CONTAINERS = bytes([*range(0x80, 0xA0), 0xDC, 0xDD, 0xDE, 0xDF])
_REFUSABLE = bytes([*range(0xC4, 0xCC), *range(0xD4, 0xD9)])
# Each byte's class for ``_plainly_wire``: 1 can begin a map or an array, 2 a float, bin or ext
_CLASSES = bytes(1 if b in _CONTAINERS else 2 if b in _REFUSABLE else 0 for b in range(256))


def _plainly_wire(body: bytes | bytearray) -> bool:
    """True when ``body``'s bytes alone show that what it decodes to holds wire types only: no
    byte that could begin a float, bin (so no key but a str) or ext, and fewer that could begin
    a map or an array than ``MAX_DEPTH`` (so nothing nests that deep). False tells nothing: the
    value is walked (``wire_problem``). Most requests are a flat map of ASCII strings and small
    ints: for them this is three passes in C instead of a walk in Python."""
    classes = body.translate(_CLASSES)
    return 2 not in classes and classes.count(1) < MAX_DEPTH


def _kind(value: Any) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "bin"
    if isinstance(value, msgpack.ExtType):
        return "ext"
    return type(value).__name__


def decode_body(body: bytes, max_len: int) -> dict:
    """Decode one frame body (the N bytes after the header) into a message dict.

    ``max_len``: the frame limit of the sender's role; it also bounds every string, array and
    map. Raises ``ProtocolError("BAD_FRAME")`` for anything but exactly one map of wire types
    (trailing bytes, invalid UTF-8, floats, bin, ext, non-str keys, nesting deeper than
    ``MAX_DEPTH``, not msgpack at all).
    """
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_str_len=max_len,
            max_bin_len=0,
            max_ext_len=0,
            max_array_len=max_len,
            max_map_len=max_len // 2,
            ext_hook=_refuse_ext,
            timestamp=0,
        )
    except Exception as exc:  # untrusted bytes: every failure of the decoder is the peer's
        raise error(
            "BAD_FRAME", f"the body is not one msgpack map ({type(exc).__name__}: {exc})"[:200]
        ) from None
    if type(value) is dict and _plainly_wire(body):
        return value
    problem = wire_problem(value)
    if problem is not None:
        raise error("BAD_FRAME", problem)
    return value


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"ext type {code} is not allowed")


def encode_body(msg: dict, check: bool = True) -> bytes:
    """The msgpack bytes of ``msg`` (tuples become arrays). Raises ``LocalProtocolError`` if it
    holds anything but wire types. ``check=False`` skips that walk over the message (a sender
    whose messages are checked in its tests: the server); msgpack then encodes what it can."""
    if check:
        _check_sent(msg)
    return msgpack.packb(msg, use_bin_type=True)


def _check_sent(msg: dict) -> None:
    problem = wire_problem(msg, arrays=(list, tuple))
    if problem is not None:
        raise LocalProtocolError("BAD_MESSAGE", f"cannot send this message: {problem}")


def encode_frame(
    msg: dict, max_len: int = MAX_SERVER_FRAME, check: bool = True, body: bytes | None = None
) -> bytes:
    """One frame: the 4-byte big-endian length, then the msgpack map ``msg``.

    ``body``: the msgpack bytes of ``msg`` when the caller already has them (``msgpack.packb``
    of the same dict): used as they are, only ``msg``'s types are checked (with ``check``).
    Raises ``LocalProtocolError`` (code ``FRAME_TOO_LARGE``) if the body is longer than
    ``max_len`` bytes (default: the server's limit, 1,048,576), or (``BAD_MESSAGE``) if ``msg``
    holds anything but wire types (not checked with ``check=False``: see ``encode_body``).
    """
    if body is None:
        body = encode_body(msg, check)
    elif check:
        _check_sent(msg)
    if len(body) > max_len:
        raise LocalProtocolError("FRAME_TOO_LARGE", f"message of {len(body)} bytes; the limit is {max_len}")
    return len(body).to_bytes(HEADER_SIZE, "big") + body
