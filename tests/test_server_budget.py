"""The byte budget (docs/PROTOCOL.md, section 8, ``byte_rate`` and ``byte_burst``): the server
decodes a connection's frames no faster than its budget allows, each counting as its length plus
256 bytes; the client gets no error, only waits, and the wait costs it no deadline. In-process on
trio's MockClock, so the times are exact."""

from __future__ import annotations

import pytest
import server_pairs
import trio
import trio.testing
from test_server_limits import HELLO, connect, limits_config

from neveryu import protocol
from neveryu.server._config import FRAME_BYTES, Limits

RATE = BURST = protocol.MAX_CLIENT_FRAME + FRAME_BYTES  # one largest frame a second, one at once


@pytest.fixture
def autojump_clock():
    return trio.testing.MockClock(autojump_threshold=0)


def padded_ping(rid: int, size: int) -> dict:
    """A ``ping`` whose body is exactly ``size`` bytes (an ignored field pads it)."""
    msg = {"t": "ping", "id": rid, "pad": ""}
    msg["pad"] = "x" * (size - len(protocol.encode_frame(msg)) + protocol.HEADER_SIZE - 2)
    assert len(protocol.encode_frame(msg)) - protocol.HEADER_SIZE == size
    return msg


def body(msg: dict) -> int:
    return len(protocol.encode_frame(msg)) - protocol.HEADER_SIZE


async def test_frames_over_the_byte_budget_wait_for_it_and_get_no_error(autojump_clock, records_db):
    config = limits_config(byte_rate=RATE, byte_burst=BURST, frame_ms=100, idle_ms=10_000)
    async with trio.open_nursery() as nursery:
        server = await server_pairs.started(nursery, config, records_db)
        peer = await connect(nursery, server)
        start = trio.current_time()
        await peer.send(HELLO)
        pings = [padded_ping(10 + k, protocol.MAX_CLIENT_FRAME) for k in range(3)]
        await peer.stream.send_all(b"".join(protocol.encode_frame(p) for p in pings))
        await trio.sleep(5)
        await peer.send({"t": "ping", "id": 20})
        await trio.testing.wait_all_tasks_blocked()
        got = {m["re"]: when - start for when, m in peer.msgs if "re" in m}
        assert [m["t"] for _, m in peer.msgs] == ["welcome", "pong", "pong", "pong", "pong"]
        # hello took its share at once; each largest frame takes the whole bucket: the first
        # waits for hello's share to come back, each next one a second more.
        first = (body(HELLO) + FRAME_BYTES) / RATE
        assert got[1] == 0
        assert got[10] == pytest.approx(first)
        assert got[11] == pytest.approx(first + 1)
        assert got[12] == pytest.approx(first + 2)
        assert got[20] == pytest.approx(5)  # a small frame after a pause: at once
        assert not server.connections or all(c.reason is None for c in server.connections)
        nursery.cancel_scope.cancel()


async def test_small_frames_count_their_fixed_share_too(autojump_clock, records_db):
    """A flood of the smallest frames is paced as well: each costs 256 bytes besides its length."""
    rate, burst = 20_000, BURST
    async with trio.open_nursery() as nursery:
        server = await server_pairs.started(
            nursery,
            limits_config(byte_rate=rate, byte_burst=burst, rate=1_000_000, burst=1_000_000),
            records_db,
        )
        peer = await connect(nursery, server)
        start = trio.current_time()
        await peer.send(HELLO)
        n = 400
        pings = [{"t": "ping", "id": 100 + k} for k in range(n)]
        await peer.stream.send_all(b"".join(protocol.encode_frame(p) for p in pings))
        with trio.fail_after(60):
            while sum(1 for _, m in peer.msgs if m["t"] == "pong") < n:
                await trio.sleep(0.01)
        last = max(when for when, m in peer.msgs if m["t"] == "pong") - start
        spent = body(HELLO) + FRAME_BYTES + sum(body(p) + FRAME_BYTES for p in pings)
        assert last == pytest.approx((spent - burst) / rate, abs=0.001)  # what the burst did not cover
        nursery.cancel_scope.cancel()


def test_the_byte_burst_holds_a_largest_frame():
    with pytest.raises(ValueError, match="byte_burst"):
        Limits(byte_burst=protocol.MAX_CLIENT_FRAME)
    assert Limits().byte_burst >= protocol.MAX_CLIENT_FRAME + FRAME_BYTES
