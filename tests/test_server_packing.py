"""Events packed once per copy (``_session.event_prefix``) then stamped per receiver
(``Session.event_packed``) are byte for byte what packing the whole message makes, whatever the
number of fields (a map header grows at 16 pairs) and the size of ``seq`` and ``ts``; the
replay buffer keeps exactly the frames sent; ``ok`` is framed as ``packb`` frames it."""

from __future__ import annotations

import msgpack
import pytest
from neveryu.server._session import Session, event_prefix, ts_pair


class FrameLink:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def push(self, msg, final=False, body=None) -> None:
        raise AssertionError("framed messages only")

    def push_frame(self, frame: bytes) -> None:
        self.frames.append(frame)

    def drop(self, reason: str) -> None:
        raise AssertionError(reason)


def framed(msg: dict) -> bytes:
    body = msgpack.packb(msg)
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize("fields", [0, 1, 13, 14, 15, 16, 30])
@pytest.mark.parametrize("seq", [0, 126, 127, 254, 255, 65_535, 2**32 - 1, 2**32 + 5])
def test_a_packed_event_is_the_whole_message_packed(fields, seq):
    body = {"t": "chat", **{f"f{i}": [i, None, "x" * i] for i in range(fields)}}
    session, link = Session("ann", 8), FrameLink()
    session.attach(link)
    session.seq = seq
    ts = 1_764_460_000_000
    session.event_packed(event_prefix(body), ts_pair(ts))
    session.event(body, ts=5)
    expected = [framed({**body, "seq": seq + 1, "ts": ts}), framed({**body, "seq": seq + 2, "ts": 5})]
    assert link.frames == expected
    assert list(session.buffer) == expected
    assert session.missed(seq) == [{**body, "seq": seq + 1, "ts": ts}, {**body, "seq": seq + 2, "ts": 5}]


def test_the_buffer_keeps_the_frames_and_knows_what_fell_out():
    session = Session("ann", 3)
    for k in range(5):
        session.event({"t": "chat", "text": str(k)}, ts=k)
    assert session.evicted == 2
    assert session.missed(1) is None
    assert [m["text"] for m in session.missed(2)] == ["2", "3", "4"]
    session.event({"t": "heartbeat"}, keep=False)
    assert len(session.buffer) == 3 and session.seq == 6


def test_an_event_body_may_not_bring_its_own_seq_or_ts():
    with pytest.raises(ValueError, match="gets its seq and ts from its session"):
        event_prefix({"t": "chat", "seq": 1})
    with pytest.raises(ValueError, match="gets its seq and ts from its session"):
        event_prefix({"t": "chat", "ts": 1})


@pytest.mark.parametrize("rid", [0, 127, 128, 70_000, 2**32 - 1])
def test_ok_is_framed_as_packb_frames_it(rid):
    session, link = Session("ann", 8), FrameLink()
    session.attach(link)
    session.ok({"t": "ready", "id": rid})
    assert link.frames == [framed({"t": "ok", "re": rid})]
