"""Frames and msgpack bodies (docs/PROTOCOL.md, "Framing" and "Types").

A frame is a 4-byte big-endian unsigned length N, then one msgpack map of exactly N bytes.
Values on the wire are nil, bool, int, str, array and map, with str keys only, each key at most
once in a map; no float, bin or ext. Decoding untrusted bytes raises ``RemoteProtocolError`` and
nothing else.
"""

from __future__ import annotations

from typing import Any, cast

import msgpack

from ._errors import LocalProtocolError, error
from ._limits import HEADER_SIZE, MAX_DEPTH, MAX_SERVER_FRAME

_INT_MIN, _INT_END = -(2**63), 2**64  # int64's least, one past uint64's greatest


def wire_problem(
    value: Any,
    *,
    max_depth: int = MAX_DEPTH,
    max_objects: int | None = None,
    arrays: tuple[type, ...] = (list,),
) -> str | None:
    """Why ``value`` cannot be a message on the wire, or None if it can.

    ``max_depth``: levels of arrays and maps (the message map is level 1; scalars add none).
    ``max_objects``: the most values (map keys and values, array items, the message map itself)
    the whole message may hold; None: any number. ``arrays``: the Python types taken as msgpack
    arrays (``(list, tuple)`` when sending). Walks without recursion.
    """
    if not isinstance(value, dict):
        return f"a message is a map, not {_kind(value)}"
    objects = 1
    containers = (dict, *arrays)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Any
        if isinstance(item, dict):
            for key in item:
                if not isinstance(key, str):
                    return f"map keys are strings, not {_kind(key)}"
            objects += len(item)
            children = item.values()
        else:
            children = item
        objects += len(children)
        if max_objects is not None and objects > max_objects:
            return f"more than {max_objects} values in one message"
        for child in children:
            if child is None or isinstance(child, (str, bool)):
                continue
            if isinstance(child, int):
                if not _INT_MIN <= child < _INT_END:
                    return "an int outside int64 and uint64"
            elif isinstance(child, containers):
                if depth == max_depth:
                    return f"arrays and maps nested more than {max_depth} levels deep"
                if child:  # an empty one holds nothing more to look at
                    stack.append((child, depth + 1))
            else:
                return f"{_kind(child)} is not a wire type (nil, bool, int, str, array, map)"
    return None


def _kind(value: Any) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "bin"
    if isinstance(value, msgpack.ExtType):
        return "ext"
    return type(value).__name__


def _unique_map(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """A decoded map, refusing a key given twice (msgpack would keep the last value)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a map holds the same key twice")
    return out


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"ext type {code} is not allowed")


def decode_body(body: bytes | bytearray, max_len: int, max_objects: int | None = None) -> dict[str, Any]:
    """Decode one frame body (the N bytes after the header) into a message dict.

    ``max_len``: the frame limit of the sender's role; it also bounds every string, array and
    map. ``max_objects``: see ``wire_problem``. Raises ``RemoteProtocolError("BAD_FRAME")`` for
    anything but exactly one map of wire types (trailing bytes, invalid UTF-8, floats, bin, ext,
    non-str or repeated keys, nesting deeper than ``MAX_DEPTH``, more than ``max_objects``
    values, not msgpack at all).
    """
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            use_list=True,
            strict_map_key=True,
            object_pairs_hook=_unique_map,
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
    problem = wire_problem(value, max_objects=max_objects)
    if problem is not None:
        raise error("BAD_FRAME", problem)
    return cast(dict[str, Any], value)  # wire_problem returned None: a map with str keys


def check_sent(msg: dict[str, Any]) -> None:
    """Raise ``LocalProtocolError`` (``BAD_MESSAGE``) if ``msg`` holds anything but wire types
    (tuples count as arrays). For a sender whose messages come from code it does not control;
    ``Connection.send`` checks every message this way."""
    problem = wire_problem(msg, arrays=(list, tuple))
    if problem is not None:
        raise LocalProtocolError("BAD_MESSAGE", f"cannot send this message: {problem}")


def encode_frame(msg: dict[str, Any], max_len: int = MAX_SERVER_FRAME) -> bytes:
    """One frame: the 4-byte big-endian length, then the msgpack map ``msg`` (tuples become
    arrays). Raises ``LocalProtocolError`` (``FRAME_TOO_LARGE``) if the body is longer than
    ``max_len`` bytes (default: the server's limit). It does not walk ``msg`` to check its wire
    types (msgpack itself refuses what it cannot pack; a float or bytes would pass): see
    ``check_sent``. The server builds its messages from typed values and sends them this way;
    its tests check every frame where it is received."""
    body: bytes = msgpack.packb(msg)
    if len(body) > max_len:
        raise LocalProtocolError("FRAME_TOO_LARGE", f"message of {len(body)} bytes; the limit is {max_len}")
    return len(body).to_bytes(HEADER_SIZE, "big") + body
