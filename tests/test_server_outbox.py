"""The outbox (server/_outbox.py), the server's one way to a client: what a client receives is
exactly what writing every frame with the stream's ``send_all`` would deliver, whatever the
socket takes at once; what one task sends before it yields leaves in one write, and frames sent
while a write is under way go out together after it; an overflow keeps the frame being written
whole and ends with the last message; a write the client does not take within ``send_ms`` drops
the connection; nothing written for ``heartbeat_ms`` brings a heartbeat."""

from __future__ import annotations

import random
import socket

import pytest
import trio
import trio.testing

from neveryu.server._outbox import Outbox


def pair(buffer: int | None = None) -> tuple[trio.SocketStream, trio.SocketStream]:
    """(the server's stream, the client's stream) over a socket pair."""
    ours, theirs = socket.socketpair()
    for sock in (ours, theirs):
        if buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffer)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer)
        sock.setblocking(False)
    return (
        trio.SocketStream(trio.socket.from_stdlib_socket(ours)),
        trio.SocketStream(trio.socket.from_stdlib_socket(theirs)),
    )


class CountingStream(trio.abc.HalfCloseableStream):
    """A socket stream that keeps the size of every ``send_all`` (the outbox's writes)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.writes: list[int] = []

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(len(data))
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        await self.stream.send_eof()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.stream.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.stream.aclose()


def counted_pair(buffer: int | None = None) -> tuple[CountingStream, trio.SocketStream]:
    stream, client = pair(buffer)
    return CountingStream(stream), client


def outbox(stream: trio.abc.HalfCloseableStream, **kw) -> Outbox:
    settings = {"limit": 10_000, "send_s": 60.0, "heartbeat_s": 3600.0, "on_idle": lambda: None}
    return Outbox(stream, on_full=lambda: None, **{**settings, **kw})


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


@pytest.mark.parametrize("seed", range(8))
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
            for frame in frames:  # in bursts, with the client reading in between
                box.send(frame)
                if rng.random() < 0.3:
                    await trio.sleep(0)
                    received += await client.receive_some(rng.choice([1, 100, 65_536]))
            received += await read_exactly(client, sum(map(len, frames)) - len(received))
            box.end()
    assert bytes(received) == await plain_delivery(frames, buffer)


async def test_what_a_task_sends_before_it_yields_leaves_in_one_write():
    stream, client = counted_pair()
    box = outbox(stream)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            for burst in range(3):
                for k in range(4):  # no checkpoint between them: one request's frames
                    box.send(bytes([burst * 4 + k]) * 10)
                assert stream.writes == [40] * burst  # nothing yet: the sender has not yielded
                await trio.testing.wait_all_tasks_blocked()
            data = await read_exactly(client, 120)
            box.end()
    assert data == b"".join(bytes([k]) * 10 for k in range(12))
    assert stream.writes == [40, 40, 40]


async def test_an_overflow_during_a_write_keeps_that_write_whole_and_says_bye():
    """The writer is in a write the socket cannot take at once; more frames than ``limit``
    follow: the queued frames are dropped, but the write under way ends before the bye."""
    stream, client = pair(4096)
    bye = b"\x00\x00\x00\x03bye"
    box = outbox(stream, limit=4)
    box.on_full = lambda: bye
    big = (200_000).to_bytes(4, "big") + b"x" * 200_000  # a frame of 200,000 bytes
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            box.send(big)
            await trio.testing.wait_all_tasks_blocked()  # the writer is in its send_all
            for k in range(5):  # the queue overflows
                box.send(bytes([k]) * 10)
            data = await read_exactly(client, len(big) + len(bye))
    assert data == big + bye
    assert box.queued == 0


async def test_frames_sent_during_a_write_go_out_together_after_it():
    stream, client = counted_pair(4096)
    box = outbox(stream)
    big = b"x" * 200_000  # more than the socket takes at once
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            box.send(big)
            await trio.testing.wait_all_tasks_blocked()
            assert box.queued == 0 and stream.writes == [len(big)]  # the writer is in its send_all
            for k in range(5):
                box.send(bytes([k]) * 10)
            assert box.queued == 5  # behind the write under way, not beside it
            data = await read_exactly(client, len(big) + 50)
            box.end()
    assert data == big + b"".join(bytes([k]) * 10 for k in range(5))
    assert stream.writes == [len(big), 50]  # the five frames, in one write after the first


async def test_a_reader_waiting_for_the_queue_to_drain_wakes_at_half_the_limit():
    stream, client = pair(4096)
    box = outbox(stream, limit=8)
    big = b"x" * 200_000
    drained = trio.Event()

    async def wait() -> None:
        await box.wait_drained()
        drained.set()

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            box.send(big)
            await trio.testing.wait_all_tasks_blocked()  # the writer is in its send_all
            for _ in range(6):
                box.send(b"y")
            nursery.start_soon(wait)
            await trio.testing.wait_all_tasks_blocked()
            assert not drained.is_set()  # six queued, more than half of eight
            await read_exactly(client, len(big) + 6)
            await drained.wait()
            box.end()


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
    writer runs again: the frame is written (whether a heartbeat goes first or not), and the
    write is not taken for one that timed out."""
    stream, client = pair()
    idle: list[float] = []
    box = outbox(stream, heartbeat_s=1.0, send_s=0.5, on_idle=lambda: idle.append(trio.current_time()))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(box.run)
        await trio.testing.wait_all_tasks_blocked()
        mock_clock.jump(2.0)  # past the heartbeat's deadline, with no checkpoint yet
        box.send(b"frame")
        await trio.testing.wait_all_tasks_blocked()
        assert box.failure is None
        assert await client.receive_some(100) == b"frame"
        box.end()
    assert box.failure is None
