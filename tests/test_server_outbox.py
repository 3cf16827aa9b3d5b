"""The outbox (server/_outbox.py), the server's one way to a client: what a client receives is
exactly what writing every frame with the stream's ``send_all`` would deliver (the plain way),
whether frames are sent in batches or outside any, and whether the socket takes a write at
once, in part, or not at all; what a batch sends a client leaves at its end, written by the
batch's own task (``send_now``: at once); a batch's write to a closed stream writes nothing;
frames sent while a write is under way go out together after it; a write the client does not
take within ``send_ms`` drops the connection; nothing written for ``heartbeat_ms`` brings a
heartbeat."""

from __future__ import annotations

import os
import random
import socket

import pytest
import trio
import trio.testing

from neveryu.server._outbox import Outbox, batch, send_now


def pair(buffer: int | None = None) -> tuple[trio.SocketStream, trio.SocketStream]:
    """(the server's stream, the client's stream) over a socket pair."""
    ours, theirs = socket.socketpair()
    for sock in (ours, theirs):
        if buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffer)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer)
        sock.setblocking(False)
    stream = trio.SocketStream(trio.socket.from_stdlib_socket(ours))
    return stream, trio.SocketStream(trio.socket.from_stdlib_socket(theirs))


def outbox(stream: trio.SocketStream, **kw) -> Outbox:
    settings = {"limit": 10_000, "send_s": 60.0, "heartbeat_s": 3600.0, "on_idle": lambda: None}
    return Outbox(stream, on_full=lambda: None, **{**settings, **kw})


def arrived(client: trio.SocketStream) -> bytes:
    """What has reached the client's socket, read without waiting. A test task that does not
    yield in between sees only what was written by itself: the outbox's direct writes, never
    the writer task's."""
    try:
        return os.read(client.socket.fileno(), 65_536)
    except BlockingIOError:
        return b""


async def read_exactly(stream: trio.SocketStream, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = await stream.receive_some(65_536)
        assert chunk, "closed early"
        data += chunk
    return bytes(data)


async def plain_delivery(frames: list[bytes], buffer: int) -> bytes:
    """The reference: every frame written in order with ``send_all``, read by the client."""
    stream, client = pair(buffer)
    async with trio.open_nursery() as nursery:

        async def write() -> None:
            for frame in frames:
                await stream.send_all(frame)

        nursery.start_soon(write)
        return await read_exactly(client, sum(map(len, frames)))


@pytest.mark.parametrize("seed", range(12))
async def test_a_client_receives_what_send_all_would_deliver(seed):
    rng = random.Random(seed)
    buffer = rng.choice([2048, 4096, 65_536])
    frames = [bytes([k % 256]) * rng.randint(1, 9000) for k in range(60)]
    stream, client = pair(buffer)
    box = outbox(stream)
    received = bytearray()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            left = list(frames)
            while left:  # in batches, some frames outside any, with the client reading between
                n = rng.randint(1, 6)
                taken, left = left[:n], left[n:]
                if rng.random() < 0.7:
                    with batch():
                        for frame in taken:
                            box.send(frame)
                else:
                    for frame in taken:
                        box.send(frame)
                await trio.sleep(0)
                received += await client.receive_some(rng.choice([1, 100, 65_536]))
            received += await read_exactly(client, sum(map(len, frames)) - len(received))
            box.end()
    assert bytes(received) == await plain_delivery(frames, buffer)


async def test_what_a_batch_sends_a_client_goes_out_at_its_end():
    stream, client = pair()
    box = outbox(stream)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            for n in range(2):
                with batch():
                    for k in range(4):
                        box.send(bytes([n * 4 + k]) * 10)
                    assert arrived(client) == b""  # nothing yet: the batch is under way
                assert arrived(client) == b"".join(bytes([n * 4 + k]) * 10 for k in range(4))
            for k in range(4):  # outside any batch: the writer task writes them once this task yields
                box.send(bytes([8 + k]) * 10)
            assert arrived(client) == b""
            data = await read_exactly(client, 40)
            box.end()
    assert data == b"".join(bytes([k]) * 10 for k in range(8, 12))


async def test_a_batch_is_the_sending_tasks_own():
    """What another task sends while a batch is under way is not held until the batch's end: it
    wakes the writer task, which writes everything queued, in order."""
    stream, client = pair()
    box = outbox(stream)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            with batch():
                box.send(b"a" * 10)

                async def send_b() -> None:  # a task started inside the batch: not part of it
                    box.send(b"b" * 10)

                async with trio.open_nursery() as other:
                    other.start_soon(send_b)
                assert await read_exactly(client, 20) == b"a" * 10 + b"b" * 10
            assert arrived(client) == b""  # the batch's end found nothing left to write
            box.end()


async def test_an_overflow_after_a_frame_begun_keeps_that_frame_whole_and_says_bye():
    """The socket takes part of a batch; more frames than ``limit`` follow before the writer
    runs: the queued frames are dropped, but the frame begun is finished before the bye."""
    stream, client = pair(4096)
    bye = b"\x00\x00\x00\x03bye"
    box = outbox(stream, limit=4)
    box.on_full = lambda: bye
    big = (200_000).to_bytes(4, "big") + b"x" * 200_000  # a frame of 200,000 bytes
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            with batch():
                box.send(big)
            # the batch's end wrote a part of it; in the same task, the queue overflows
            for k in range(5):
                box.send(bytes([k]) * 10)
            data = await read_exactly(client, len(big) + len(bye))
    assert data == big + bye


async def test_frames_sent_during_a_write_go_out_together_after_it():
    stream, client = pair(4096)
    box = outbox(stream)
    writes: list[int] = []
    send_all = stream.send_all

    async def counting(data) -> None:
        writes.append(len(data))
        await send_all(data)

    stream.send_all = counting  # type: ignore[method-assign]
    big = b"x" * 200_000  # more than the socket takes at once: the writer writes the rest
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            box.send(big)
            await trio.testing.wait_all_tasks_blocked()
            assert box.queued == 0 and len(writes) == 1  # the writer is in its send_all
            for k in range(5):
                box.send(bytes([k]) * 10)
            assert box.queued == 5  # behind the write under way, not beside it
            data = await read_exactly(client, len(big) + 50)
            box.end()
    assert data == big + b"".join(bytes([k]) * 10 for k in range(5))
    assert writes[1] == 50  # the five frames, in one write after the first


async def test_a_write_not_taken_within_send_ms_ends_the_writer(autojump_clock):
    stream, _client = pair(4096)  # the client never reads
    box = outbox(stream, send_s=0.5)
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(box.run)
        box.send(b"x" * 200_000)
    assert box.failure == "send_timeout"
    assert trio.current_time() - start == pytest.approx(0.5)


async def test_nothing_written_for_heartbeat_s_asks_for_a_heartbeat(autojump_clock):
    stream, client = pair()
    idle: list[float] = []
    box = outbox(stream, heartbeat_s=2.0, on_idle=lambda: (idle.append(trio.current_time()), box.send(b"h")))
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(box.run)
        await trio.sleep(1.5)
        box.send(b"a")  # a write at 1.5 s moves the next heartbeat to 3.5 s
        await trio.sleep(4.1)  # (past the second heartbeat, at 5.5 s)
        box.end()
    assert [round(t - start, 3) for t in idle] == [3.5, 5.5]
    assert await client.receive_some(100) == b"ahh"


async def test_a_frame_queued_as_the_heartbeat_falls_due_is_written_not_timed_out(mock_clock):
    """The heartbeat's deadline passes while the writer waits, and a frame is queued before the
    writer runs again: the frame is written (a heartbeat first, as one was due), and the write
    is not taken for one that timed out."""
    stream, client = pair()
    idle: list[float] = []
    box = outbox(
        stream,
        heartbeat_s=1.0,
        send_s=0.5,
        on_idle=lambda: (idle.append(trio.current_time()), box.send(b"h")),
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(box.run)
        await trio.testing.wait_all_tasks_blocked()
        start = trio.current_time()
        mock_clock.jump(2.0)  # past the heartbeat's deadline, with no checkpoint yet
        box.send(b"frame")
        await trio.testing.wait_all_tasks_blocked()
        assert box.failure is None
        assert await client.receive_some(100) == b"frameh"
        box.end()
    assert box.failure is None
    assert idle == [start + 2.0]


async def test_send_now_writes_what_the_batch_sent_so_far_and_the_rest_at_its_end():
    stream, client = pair()
    box = outbox(stream)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            with batch():
                box.send(b"a" * 10)  # the reply
                box.send(b"b" * 10)  # the events
                send_now()
                assert arrived(client) == b"a" * 10 + b"b" * 10
                box.send(b"c" * 10)  # what follows them (turn, legal)
                assert arrived(client) == b""
            assert arrived(client) == b"c" * 10
            box.end()


async def test_a_batch_writing_to_a_closed_stream_writes_nothing_and_ends_the_writer():
    """The direct write goes to the stream's socket as it is then: once closed, to none."""
    stream, client = pair()
    box = outbox(stream)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            await stream.aclose()
            with batch():
                box.send(b"a" * 10)
    assert box.failure == "broken"
    assert await client.receive_some(100) == b""  # closed, and nothing came
