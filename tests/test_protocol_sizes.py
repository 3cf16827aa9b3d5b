"""How large a client's request can be (docs/PROTOCOL.md, section 8, "frame from a client"): the
largest request a real client sends, and the largest any request's types allow, measured here
and held to the frame limit, so the limit never refuses a valid request."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from neveryu import engine, protocol
from neveryu.protocol import _types as T

WIDE = "\U0001d11e"  # 𝄞: four bytes in UTF-8, the most a character takes
PATTERNED = {
    T.RANK_PATTERN: "A",
    T.CARD_PATTERN: "AS",
    "^[0-9a-f]{64}$": "f" * 64,
    "^[A-Za-z0-9_-]+$": "K" * 128,  # hello.player_key, at its longest
}


def largest(ty: T.Type) -> Any:
    """The value of wire type ``ty`` whose msgpack form is longest: every string at its most
    characters, each of four bytes; every array and map at its most items; ints at the bound
    that packs longest."""
    if isinstance(ty, (T.Ref, T.Nullable)):
        return largest(ty.inner)
    if isinstance(ty, T.Int):
        bounds = [v for v in (ty.lo, ty.hi) if v is not None]
        bounds += [2**63 - 1] if ty.hi is None else []
        return max(bounds, key=lambda v: len(msgpack.packb(v)))
    if isinstance(ty, T.Bool):
        return True
    if isinstance(ty, T.Str):
        if ty.choices is not None:
            return max(ty.choices, key=lambda c: len(c.encode()))
        return PATTERNED[ty.pattern] if ty.pattern is not None else WIDE * ty.max_len
    if isinstance(ty, T.Array):
        return [largest(ty.items)] * ty.max_items
    if isinstance(ty, T.Map):
        return {name: largest(f.type) for name, f in ty.fields.items()}
    if isinstance(ty, T.MapOf):
        return {WIDE * (ty.max_key - 3) + f"{i:03}": largest(ty.values) for i in range(ty.max_items)}
    if isinstance(ty, T.OneOf):
        return max((largest(c) for c in ty.choices), key=lambda v: len(msgpack.packb(v)))
    raise TypeError(f"no largest value for {ty!r}")


def largest_request(t: str) -> dict[str, Any]:
    fields = protocol.REQUESTS[t].wire_fields()
    return {"t": t, **{name: largest(f.type) for name, f in fields.items()}}


def body_size(msg: dict[str, Any]) -> int:
    return len(protocol.encode_frame(msg)) - protocol.HEADER_SIZE


@pytest.mark.parametrize("t", sorted(protocol.REQUESTS))
def test_the_largest_request_of_each_type_is_valid_and_fits_a_frame(t):
    msg = largest_request(t)
    protocol.parse_request(msg)  # valid: nothing out of range
    assert body_size(msg) <= protocol.MAX_CLIENT_FRAME
    assert protocol.wire_problem(msg, max_objects=protocol.MAX_CLIENT_OBJECTS) is None
    server = protocol.Connection("server")
    server.receive_data(protocol.encode_frame(largest_request("hello")) + protocol.encode_frame(msg))
    assert server.next_request().t == "hello"
    assert server.next_request().t == t


def test_the_largest_requests_are_the_ones_docs_name():
    sizes = {t: body_size(largest_request(t)) for t in protocol.REQUESTS}
    biggest = max(sizes, key=sizes.__getitem__)
    assert (biggest, sizes[biggest]) == ("create_table", 10_194)
    assert sizes["chat"] == 2_024 and sizes["hello"] == 2_428


def test_a_real_clients_largest_requests():
    """A chat of 500 Cyrillic characters; a create_table of the variant with the most options,
    each at its longest choice, every field given, a password of 256 Cyrillic characters."""
    chat = {"t": "chat", "id": 2**32 - 1, "text": "ж" * protocol.MAX_CHAT_LEN}
    assert body_size(chat) == 1_024
    rules = max(engine.VARIANTS.values(), key=lambda r: len(r.options))
    create = {
        "t": "create_table",
        "id": 2**32 - 1,
        "variant": rules.name,
        "options": {"deck": "2x52", "packet_size": 3, "declare_none": True, "scoring": "chips_per_player"},
        "seats": 12,
        "bots": ["random"] * 11,
        "turn_ms": 2**31 - 1,
        "challenge_window_ms": 2**31 - 1,
        "tie_window_ms": 2**31 - 1,
        "quads_window_ms": 2**31 - 1,
        "password": "ж" * 256,
        "seed": 2**63 - 1,
        "deals": 100,
        "reveal_after_deal": True,
    }
    assert set(create["options"]) == set(rules.options)
    protocol.parse_request(chat)
    protocol.parse_request(create)
    assert body_size(create) < 1_536
    assert 16 * body_size(chat) <= protocol.MAX_CLIENT_FRAME
