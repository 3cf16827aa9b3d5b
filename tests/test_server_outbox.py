"""The outbox (server/_outbox.py), the server's one way to a client: what a client receives is
exactly what writing every frame with the stream's ``send_all`` would deliver, whether a batch's
frames are written at once (it found the server idle) or at its end (busy), and whether the
socket takes a write at once, in part, or not at all; frames sent while a write is under way go
out together after it; a write the client does not take within ``send_ms`` drops the
connection; nothing written for ``heartbeat_ms`` brings a heartbeat."""

from __future__ import annotations

import random
import socket

import pytest
import trio
import trio.testing

from neveryu.server._outbox import Outbox, end_batch, flusher


def pair(buffer: int | None = None) -> tuple[trio.SocketStream, socket.socket, trio.SocketStream]:
    """(the server's stream, its socket, the client's stream) over a socket pair."""
    ours, theirs = socket.socketpair()
    for sock in (ours, theirs):
        if buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffer)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer)
        sock.setblocking(False)
    stream = trio.SocketStream(trio.socket.from_stdlib_socket(ours))
    return (
        stream,
        socket.socket(fileno=ours.fileno()),
        trio.SocketStream(trio.socket.from_stdlib_socket(theirs)),
    )


def outbox(stream: trio.SocketStream, sock: socket.socket, **kw) -> Outbox:
    settings = {"limit": 10_000, "send_s": 60.0, "heartbeat_s": 3600.0, "on_idle": lambda: None}
    return Outbox(stream, sock, on_full=lambda: None, **{**settings, **kw})


def begin_batch(idle: bool) -> None:
    """A batch begins, the server ``idle`` (frames at once) or busy (frames at its end)."""
    flusher().idle = idle
    flusher().begin()


async def read_exactly(stream: trio.SocketStream, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = await stream.receive_some(65_536)
        assert chunk, "closed early"
        data += chunk
    return bytes(data)


async def plain_delivery(frames: list[bytes], buffer: int) -> bytes:
    """The reference: every frame written in order with ``send_all``, read by the client."""
    stream, sock, client = pair(buffer)
    sock.detach()
    async with trio.open_nursery() as nursery:

        async def write() -> None:
            for frame in frames:
                await stream.send_all(frame)

        nursery.start_soon(write)
        return await read_exactly(client, sum(map(len, frames)))


@pytest.mark.parametrize("idle", [True, False])
@pytest.mark.parametrize("seed", range(6))
async def test_a_client_receives_what_send_all_would_deliver(seed, idle):
    rng = random.Random(seed)
    buffer = rng.choice([2048, 4096, 65_536])
    frames = [bytes([k % 256]) * rng.randint(1, 9000) for k in range(60)]
    stream, sock, client = pair(buffer)
    box = outbox(stream, sock)
    received = bytearray()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            begin_batch(idle)
            for frame in frames:  # in batches, some outside any, with the client reading in between
                box.send(frame)
                if rng.random() < 0.3:
                    if rng.random() < 0.7:
                        end_batch()
                    await trio.sleep(0)
                    received += await client.receive_some(rng.choice([1, 100, 65_536]))
                    if rng.random() < 0.7:
                        begin_batch(idle)
            end_batch()
            received += await read_exactly(client, sum(map(len, frames)) - len(received))
            box.end()
    sock.detach()
    assert bytes(received) == await plain_delivery(frames, buffer)


class CountingSocket(socket.socket):
    """A socket that keeps the size of every ``send`` (the outbox's direct writes)."""

    sends: list[int]

    def send(self, data, *args) -> int:  # type: ignore[override]
        self.sends.append(len(data))
        return super().send(data, *args)


def counted_outbox() -> tuple[Outbox, CountingSocket, trio.SocketStream]:
    """An outbox whose socket counts its sends, and the client's stream."""
    stream, sock, client = pair()
    counting = CountingSocket(fileno=sock.detach())
    counting.sends = []
    return outbox(stream, counting), counting, client


async def test_what_a_batch_of_a_busy_server_sends_a_client_goes_out_in_one_send_at_its_end():
    box, counting, client = counted_outbox()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            for batch in range(2):
                begin_batch(idle=False)
                for k in range(4):
                    box.send(bytes([batch * 4 + k]) * 10)
                assert counting.sends == [40] * batch  # nothing yet: the batch is under way
                end_batch()
            for k in range(4):  # outside any batch: written once this task yields
                box.send(bytes([8 + k]) * 10)
            await trio.testing.wait_all_tasks_blocked()
            data = await read_exactly(client, 120)
            box.end()
    counting.detach()
    assert data == b"".join(bytes([k]) * 10 for k in range(12))
    assert counting.sends == [40, 40, 40]


async def test_a_batch_that_found_the_server_idle_writes_each_frame_at_once():
    box, counting, client = counted_outbox()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            begin_batch(idle=True)
            for k in range(4):  # no checkpoint between them: each is written before send returns
                box.send(bytes([k]) * 10)
                assert counting.sends == [10] * (k + 1) and box.queued == 0
            end_batch()
            data = await read_exactly(client, 40)
            box.end()
    counting.detach()
    assert data == b"".join(bytes([k]) * 10 for k in range(4))
    assert counting.sends == [10] * 4


async def test_the_server_is_idle_once_trio_waits_for_io_with_nothing_to_run():
    flusher().begin()  # a batch, as a request's
    assert not flusher().idle
    await trio.sleep(0)  # (trio polls, with tasks to run: still busy)
    await trio.testing.wait_all_tasks_blocked()
    assert not flusher().idle
    await trio.sleep(0.01)  # trio waits for I/O, with nothing to run
    assert flusher().idle
    flusher().begin()
    assert flusher().at_once and not flusher().idle
    end_batch()
    assert not flusher().at_once


async def test_an_overflow_after_a_frame_begun_keeps_that_frame_whole_and_says_bye():
    """The socket takes part of a batch; more frames than ``limit`` follow before the writer
    runs: the queued frames are dropped, but the frame begun is finished before the bye."""
    stream, sock, client = pair(4096)
    bye = b"\x00\x00\x00\x03bye"
    box = outbox(stream, sock, limit=4)
    box.on_full = lambda: bye
    big = (200_000).to_bytes(4, "big") + b"x" * 200_000  # a frame of 200,000 bytes
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.run)
            begin_batch(idle=False)
            box.send(big)
            end_batch()  # the socket takes a part of it
            for k in range(5):  # the same batch: the queue overflows
                box.send(bytes([k]) * 10)
            data = await read_exactly(client, len(big) + len(bye))
    sock.detach()
    assert data == big + bye


async def test_frames_sent_during_a_write_go_out_together_after_it():
    stream, sock, client = pair(4096)
    box = outbox(stream, sock)
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
    sock.detach()
    assert data == big + b"".join(bytes([k]) * 10 for k in range(5))
    assert writes[1] == 50  # the five frames, in one write after the first


async def test_a_write_not_taken_within_send_ms_ends_the_writer(autojump_clock):
    stream, sock, _client = pair(4096)  # the client never reads
    box = outbox(stream, sock, send_s=0.5)
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(box.run)
        box.send(b"x" * 200_000)
    sock.detach()
    assert box.failure == "send_timeout"
    assert trio.current_time() - start == pytest.approx(0.5)


async def test_nothing_written_for_heartbeat_s_asks_for_a_heartbeat(autojump_clock):
    stream, sock, client = pair()
    idle: list[float] = []
    box = outbox(
        stream, sock, heartbeat_s=2.0, on_idle=lambda: (idle.append(trio.current_time()), box.send(b"h"))
    )
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(box.run)
        await trio.sleep(1.5)
        box.send(b"a")  # a write at 1.5 s moves the next heartbeat to 3.5 s
        await trio.sleep(4.1)  # (past the second heartbeat, at 5.5 s)
        box.end()
    sock.detach()
    assert [round(t - start, 3) for t in idle] == [3.5, 5.5]
    assert await client.receive_some(100) == b"ahh"
