"""A session frames each event with the next ``seq`` through the protocol package, keeps exactly
the frames it sent for a resume (and knows which fell out of its buffer), and answers requests
with their id."""

from __future__ import annotations

import msgpack
import pytest

from neveryu import protocol
from neveryu.server._session import Session


class FrameLink:
    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.errors: list[str] = []

    def send(self, frame: bytes) -> None:
        self.frames.append(frame)

    def note_error(self, code: str, msg: str) -> None:
        self.errors.append(code)


def decoded(frame: bytes) -> dict:
    return msgpack.unpackb(frame[4:])


@pytest.mark.parametrize("seq", [0, 126, 127, 65_535, 2**32 - 1, 2**32 + 5])
def test_an_event_is_framed_with_the_next_seq_and_kept(seq):
    body = {"t": "chat", "seat": None, "name": "ann", "text": "hi"}
    session, link = Session("ann", 8), FrameLink()
    session.attach(link)
    session.seq = seq
    session.event(protocol.Chat.wire_map(seat=None, name="ann", text="hi"))
    (frame,) = link.frames
    msg = decoded(frame)
    assert list(msg) == [*body, "seq", "ts"]
    assert msg == {**body, "seq": seq + 1, "ts": msg["ts"]}
    assert frame == protocol.encode_frame(msg)
    assert list(zip(session.buffer_seqs, session.buffer)) == [(seq + 1, frame)]
    assert session.missed(seq) == [frame]


def test_the_buffer_keeps_the_frames_and_knows_what_fell_out():
    session = Session("ann", 3)
    for k in range(5):
        session.event(protocol.Chat.wire_map(seat=None, name="ann", text=str(k)))
    assert session.evicted == 2
    assert session.missed(1) is None
    assert [decoded(f)["text"] for f in session.missed(2)] == ["2", "3", "4"]
    session.event(protocol.Heartbeat.wire_map(), keep=False)
    assert len(session.buffer) == 3 and session.seq == 6
    assert session.missed(6) == []
    assert session.missed(7) is None  # a seq the session never sent


@pytest.mark.parametrize("rid", [0, 127, 128, 70_000, 2**32 - 1])
def test_replies_carry_the_request_id(rid):
    session, link = Session("ann", 8), FrameLink()
    session.attach(link)
    session.ok(protocol.Ready(id=rid, ready=True))
    session.error(protocol.Start(id=rid), "NOT_ALL_READY", "wait")
    assert [decoded(f) for f in link.frames] == [
        {"t": "ok", "re": rid},
        {"t": "error", "re": rid, "code": "NOT_ALL_READY", "msg": "wait", "fatal": False},
    ]
    assert link.errors == ["NOT_ALL_READY"]
