"""Framing and codec of protocol v1: every case whole, one byte at a time, and with trailing data
(the h11 test_io pattern); each hostile kind of input; arbitrary and mutated bytes (hypothesis)."""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neveryu.protocol import (
    ERRORS,
    MAX_CLIENT_FRAME,
    MAX_DEPTH,
    MAX_SERVER_FRAME,
    Connection,
    Error,
    LocalProtocolError,
    ProtocolError,
    check_sent,
    decode_body,
)

HELLO = {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "t", "version": "0"}, "name": "ann"}


def take(conn: Connection) -> dict | None:
    """The next message: a server's request as its wire dict (``Request.to_wire``), a
    client's message as it is."""
    if conn.role == "client":
        return conn.next_message()
    request = conn.next_request()
    return None if request is None else msgpack.unpackb(msgpack.packb(request.to_wire()))


def frame_of_body(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def frame(msg) -> bytes:
    return frame_of_body(msgpack.packb(msg, use_bin_type=True))


def drain(conn: Connection) -> list:
    """Every message (dict) or error (ProtocolError) the buffered bytes give, in order."""
    out: list = []
    while True:
        try:
            msg = take(conn)
        except ProtocolError as exc:
            out.append(exc)
            if exc.fatal:
                return out
            continue
        if msg is None:
            return out
        out.append(msg)


def feed_whole(data: bytes, role="server", prefix=(HELLO,)) -> list:
    conn = Connection(role)
    for m in prefix:
        conn.receive_data(frame(m))
        assert take(conn) == m
    conn.receive_data(data)
    return drain(conn)


def feed_bytewise(data: bytes, role="server", prefix=(HELLO,)) -> list:
    conn = Connection(role)
    for m in prefix:
        conn.receive_data(frame(m))
        assert take(conn) == m
    out: list = []
    for i in range(len(data)):
        conn.receive_data(data[i : i + 1])
        got = drain(conn)
        out.extend(got)
        if got and isinstance(got[-1], ProtocolError) and got[-1].fatal:
            break
    return out


def summary(results: list) -> list:
    return [(r.code, r.fatal, r.re) if isinstance(r, ProtocolError) else r for r in results]


PING = {"t": "ping", "id": 7}
LAY = {"t": "lay", "id": 4294967295, "cards": ["TS", "QH"], "rank": "Q"}

# (name, bytes, expected summary) for a server-role connection after hello
GOOD = [
    ("ping", frame(PING), [PING]),
    ("lay_max_id", frame(LAY), [LAY]),
    ("two_frames", frame(PING) + frame(LAY), [PING, LAY]),
    (
        "unknown_type_goes_on",
        frame({"t": "dance", "id": 3}) + frame(PING),
        [("UNKNOWN_TYPE", False, 3), PING],
    ),
]

_too_deep = {"t": "ping", "id": 1, "x": []}
_cur = _too_deep["x"]
for _ in range(40):
    _cur.append([])
    _cur = _cur[0]

BAD = [
    ("huge_length_header", b"\xff\xff\xff\xff", ("FRAME_TOO_LARGE", True, None)),
    ("one_over_the_limit", struct.pack(">I", MAX_CLIENT_FRAME + 1), ("FRAME_TOO_LARGE", True, None)),
    ("zero_length", b"\x00\x00\x00\x00" + frame(PING), ("BAD_FRAME", True, None)),
    ("deep_nesting", frame(_too_deep), ("BAD_FRAME", True, None)),
    (
        "deeper_than_msgpack_stack",
        frame_of_body(b"\x81\xa1x" + b"\x91" * 5000 + b"\xc0"),
        ("BAD_FRAME", True, None),
    ),
    ("int_key", frame({"t": "ping", "id": 1, 5: 1}), ("BAD_FRAME", True, None)),
    ("bytes_key", frame({"t": "ping", "id": 1, b"k": 1}), ("BAD_FRAME", True, None)),
    ("empty_bytes_key", frame({"t": "ping", "id": 1, b"": 1}), ("BAD_FRAME", True, None)),
    ("bytes_for_str", frame({"t": b"ping", "id": 1}), ("BAD_FRAME", True, None)),
    ("empty_bytes_for_str", frame({"t": b"", "id": 1}), ("BAD_FRAME", True, None)),
    ("bool_for_int", frame({"t": "ping", "id": True}), ("BAD_MESSAGE", True, None)),
    ("float_for_int", frame({"t": "ping", "id": 1.0}), ("BAD_FRAME", True, None)),
    ("float32", frame_of_body(b"\x82\xa1t\xa4ping\xa2id\xca\x3f\x80\x00\x00"), ("BAD_FRAME", True, None)),
    ("ext", frame({"t": "ping", "id": 1, "x": msgpack.ExtType(1, b"ab")}), ("BAD_FRAME", True, None)),
    ("empty_ext", frame_of_body(b"\x83\xa1t\xa4ping\xa2id\x01\xa1x\xc7\x00\x05"), ("BAD_FRAME", True, None)),
    (
        "timestamp_ext",
        frame_of_body(b"\x83\xa1t\xa4ping\xa2id\x01\xa1x\xd6\xff\x00\x00\x00\x00"),
        ("BAD_FRAME", True, None),
    ),
    ("invalid_utf8", frame_of_body(b"\x82\xa1t\xa4p\xffng\xa2id\x01"), ("BAD_FRAME", True, None)),
    ("body_is_array", frame(["ping", 1]), ("BAD_FRAME", True, None)),
    ("body_is_int", frame(5), ("BAD_FRAME", True, None)),
    ("body_is_nil", frame(None), ("BAD_FRAME", True, None)),
    ("http_text", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", ("FRAME_TOO_LARGE", True, None)),
    ("text_in_a_frame", frame_of_body(b"hello there, server"), ("BAD_FRAME", True, None)),
    ("reserved_byte", frame_of_body(b"\xc1"), ("BAD_FRAME", True, None)),
    ("trailing_bytes_in_frame", frame_of_body(msgpack.packb(PING) + b"\x00"), ("BAD_FRAME", True, None)),
    ("two_maps_in_one_frame", frame_of_body(msgpack.packb(PING) * 2), ("BAD_FRAME", True, None)),
    ("map_shorter_than_its_header", frame_of_body(b"\x83\xa1t\xa4ping"), ("BAD_FRAME", True, None)),
    ("no_id", frame({"t": "ping"}), ("BAD_MESSAGE", True, None)),
    ("id_negative", frame({"t": "ping", "id": -1}), ("BAD_MESSAGE", True, None)),
    ("id_too_big", frame({"t": "ping", "id": 2**32}), ("BAD_MESSAGE", True, None)),
    ("id_uint64", frame({"t": "ping", "id": 2**64 - 1}), ("BAD_MESSAGE", True, None)),
    ("t_not_str", frame({"t": 5, "id": 9}), ("BAD_MESSAGE", True, 9)),
    ("t_missing", frame({"id": 9}), ("BAD_MESSAGE", True, 9)),
]


@pytest.mark.parametrize(("name", "data", "expected"), GOOD, ids=[c[0] for c in GOOD])
@pytest.mark.parametrize("feed", [feed_whole, feed_bytewise])
def test_good_frames(name, data, expected, feed):
    assert summary(feed(data)) == expected


@pytest.mark.parametrize(("name", "data", "expected"), GOOD, ids=[c[0] for c in GOOD])
def test_good_frames_with_trailing_partial_frame(name, data, expected):
    # the start of the next frame is buffered, not lost and not an error
    conn = Connection("server")
    conn.receive_data(frame(HELLO) + data + frame(PING)[:5])
    assert summary(drain(conn)) == [HELLO, *expected]
    assert conn.buffered == 5
    conn.receive_data(frame(PING)[5:])
    assert take(conn) == PING


@pytest.mark.parametrize(("name", "data", "expected"), BAD, ids=[c[0] for c in BAD])
@pytest.mark.parametrize("feed", [feed_whole, feed_bytewise])
def test_hostile_frames_are_fatal(name, data, expected, feed):
    got = summary(feed(data))
    assert got[-1] == expected
    assert all(isinstance(g, dict) for g in got[:-1])


@pytest.mark.parametrize(("name", "data", "expected"), BAD, ids=[c[0] for c in BAD])
def test_hostile_frame_then_good_data_stays_broken(name, data, expected):
    conn = Connection("server")
    conn.receive_data(frame(HELLO) + data + frame(PING))
    assert take(conn) == HELLO
    with pytest.raises(ProtocolError) as first:
        while take(conn) is not None:
            pass
    conn.receive_data(frame(PING))
    with pytest.raises(ProtocolError) as again:
        take(conn)
    assert again.value is first.value
    assert conn.broken is first.value
    assert (first.value.code, first.value.fatal) == expected[:2]
    assert ERRORS[first.value.code][0] is True


def test_huge_header_raises_before_any_body():
    conn = Connection("server")
    conn.receive_data(b"\x7f\xff\xff\xff")
    with pytest.raises(ProtocolError) as exc:
        take(conn)
    assert exc.value.code == "FRAME_TOO_LARGE"
    assert conn.buffered == 0


def test_frame_of_exactly_the_client_limit_is_accepted():
    msg = {"t": "ping", "id": 1, "pad": ""}
    base = len(msgpack.packb(msg))
    msg["pad"] = "x" * (MAX_CLIENT_FRAME - base - 2)  # str8 -> str16 header adds 2 bytes
    data = frame(msg)
    assert len(data) == 4 + MAX_CLIENT_FRAME
    assert feed_whole(data) == [{"t": "ping", "id": 1}]  # unknown fields are dropped


def test_request_before_hello_is_not_ready():
    assert summary(feed_whole(frame(PING), prefix=())) == [("NOT_READY", True, 7)]


def test_unknown_type_before_hello_is_not_ready():
    assert summary(feed_whole(frame({"t": "dance", "id": 2}), prefix=())) == [("NOT_READY", True, 2)]


def test_a_t_that_is_no_string_is_a_bad_message_before_hello_too():
    assert summary(feed_whole(frame({"t": 5, "id": 3}), prefix=())) == [("BAD_MESSAGE", True, 3)]


def test_error_of_an_exception():
    exc = ProtocolError("UNKNOWN_TYPE", "no", False, re=4)
    assert Error.of(exc).to_wire() == {
        "t": "error",
        "re": 4,
        "code": "UNKNOWN_TYPE",
        "msg": "no",
        "fatal": False,
    }


# -- client role ----------------------------------------------------------------------------

WELCOME = {"t": "welcome", "re": 1, "proto": 1, "server": {"name": "s", "version": "0"}, "session": "x" * 32}
EVENT = {
    "t": "turn",
    "seq": 5,
    "ts": 1_700_000_000_000,
    "seat": 0,
    "ranks": ["Q"],
    "set_no": None,
    "new_field": {"a": [1]},
}


@pytest.mark.raw_messages
def test_client_reads_replies_and_unknown_events():
    data = frame(WELCOME) + frame(EVENT) + frame({"t": "brand_new", "seq": 6, "ts": 0})
    for feed in (feed_whole, feed_bytewise):
        assert feed(data, role="client", prefix=()) == [WELCOME, EVENT, {"t": "brand_new", "seq": 6, "ts": 0}]


@pytest.mark.parametrize(
    "msg",
    [
        {"t": "turn", "seq": 5},
        {"t": "turn", "seq": True, "ts": 0},
        {"t": "ok", "re": None},
        {"t": "error", "re": None, "code": "X", "msg": "m"},
        {"seq": 1, "ts": 1},
    ],
)
def test_client_refuses_bad_envelopes(msg):
    assert summary(feed_whole(frame(msg), role="client", prefix=()))[-1][:2] == ("BAD_MESSAGE", True)


@pytest.mark.raw_messages
def test_client_accepts_frames_up_to_the_server_limit():
    msg = {"t": "state", "seq": 1, "ts": 1, "pad": "x" * (MAX_CLIENT_FRAME * 4)}
    assert feed_whole(frame(msg), role="client", prefix=()) == [msg]
    assert summary(feed_whole(struct.pack(">I", MAX_SERVER_FRAME + 1), role="client", prefix=())) == [
        ("FRAME_TOO_LARGE", True, None)
    ]


# -- sending ----------------------------------------------------------------------------------


@pytest.mark.raw_messages
def test_send_round_trip_with_tuples():
    conn = Connection("server")
    data = conn.send({"t": "turn", "seq": 1, "ts": 2, "ranks": ("A", "K"), "set_no": None})
    client = Connection("client")
    client.receive_data(data)
    assert client.next_message() == {"t": "turn", "seq": 1, "ts": 2, "ranks": ["A", "K"], "set_no": None}


@pytest.mark.parametrize("bad", [1.5, b"x", bytearray(b"x"), {1: 2}, {"x"}, object()])
def test_send_refuses_non_wire_values(bad):
    with pytest.raises(LocalProtocolError) as exc:
        check_sent({"t": "x", "v": [bad]})
    assert exc.value.code == "BAD_MESSAGE"
    with pytest.raises(LocalProtocolError) as exc:
        Connection("client").send({"t": "ping", "id": 1, "v": [bad]})
    assert exc.value.code == "BAD_MESSAGE"


def test_send_refuses_oversize_for_its_role():
    msg = {"t": "chat", "id": 1, "text": "x" * MAX_CLIENT_FRAME}
    with pytest.raises(LocalProtocolError) as exc:
        Connection("client").send(msg)
    assert exc.value.code == "FRAME_TOO_LARGE"
    assert len(Connection("server").send(msg)) > MAX_CLIENT_FRAME


# -- property tests: only ProtocolError comes out ----------------------------------------------

VALID_STREAM = frame(HELLO) + frame(PING) + frame(LAY) + frame({"t": "chat", "id": 9, "text": "hi"})


def only_protocol_errors(role: str, data: bytes, chunk: int) -> None:
    conn = Connection(role)
    for i in range(0, len(data), chunk):
        conn.receive_data(data[i : i + chunk])
        try:
            while take(conn) is not None:
                pass
        except ProtocolError as exc:
            assert exc.code in ERRORS
            if exc.fatal:
                return


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None, derandomize=True)
@given(st.binary(max_size=300), st.sampled_from(["server", "client"]), st.integers(1, 64))
def test_arbitrary_bytes_raise_only_protocol_error(data, role, chunk):
    only_protocol_errors(role, data, chunk)
    only_protocol_errors(role, frame_of_body(data), chunk)
    only_protocol_errors(role, frame(HELLO) + frame_of_body(data), chunk)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None, derandomize=True)
@given(
    st.lists(st.tuples(st.integers(0, len(VALID_STREAM) - 1), st.integers(0, 255)), min_size=1, max_size=8),
    st.integers(1, 64),
)
def test_mutated_frames_raise_only_protocol_error(mutations, chunk):
    data = bytearray(VALID_STREAM)
    for pos, byte in mutations:
        data[pos] = byte
    only_protocol_errors("server", bytes(data), chunk)


wire_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=20)
    | st.floats()
    | st.binary(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5) | st.integers(-5, 5), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["t", "id", "cards", "rank", "text", "x"]), wire_values, max_size=5))
def test_arbitrary_maps_raise_only_protocol_error(msg):
    only_protocol_errors("server", frame(HELLO) + frame(msg), 7)


# -- the nesting limit, counted in levels of arrays and maps -----------------------------------


def decode_verdict(body: bytes) -> object:
    """What ``decode_body`` makes of ``body``: the value, or the error's code and message."""
    try:
        return decode_body(body, MAX_CLIENT_FRAME)
    except ProtocolError as exc:
        return (exc.code, exc.msg)


TOO_DEEP = ("BAD_FRAME", f"arrays and maps nested more than {MAX_DEPTH} levels deep")


@pytest.mark.parametrize("levels", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
@pytest.mark.parametrize("innermost", ["TS", 7, None, [], {}])
def test_nesting_counts_levels_of_arrays_and_maps_only(levels, innermost):
    """The message map is level 1; each array or map inside another is one level more; a
    value that is neither (the innermost "TS") adds none, an empty array or map does."""
    value: object = innermost
    containers = levels - 1 - (1 if isinstance(innermost, (list, dict)) else 0)
    for k in range(containers):
        value = [value] if k % 2 else {"k": value}
    body = msgpack.packb({"t": value})
    assert decode_verdict(body) == ({"t": value} if levels <= MAX_DEPTH else TOO_DEEP)
