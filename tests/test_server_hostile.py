"""Broken, slow and hostile clients cost only themselves: each, while another table plays a deal,
gets its documented error or close, the deal ends, and the server stays up.

Real TCP on 127.0.0.1 with small limits; every wait is under a ``fail_after`` deadline.
"""

from __future__ import annotations

import random
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

import budget
import pytest
import trio
from server_checks import check_frames

from neveryu import engine, protocol
from neveryu.client.botclient import BotPlayer, Client, ServerError
from neveryu.server import Server, ServerConfig
from neveryu.server._outbox import MAX_BACKLOG

HOST = "127.0.0.1"

LIMITS = dict(
    handshake_ms=300,
    heartbeat_ms=100,
    idle_ms=500,
    send_ms=300,
    outbox=64,
    rate=50,
    burst=40,
    max_per_address=12,
    shutdown_ms=500,
)


def hostile_config(**limits: Any) -> ServerConfig:
    return ServerConfig(host=HOST, port=0).evolve(
        table={
            "bot_delay_ms": 0,
            "challenge_window_ms": 0,
            "tie_window_ms": 0,
            "deal_pause_ms": 0,
            "deals": 1,
        },
        limits={**LIMITS, **limits},
    )


async def raw(port: int, hello: bool = False) -> trio.SocketStream:
    stream = await trio.open_tcp_stream(HOST, port)
    if hello:
        await stream.send_all(
            protocol.encode_frame(
                {
                    "t": "hello",
                    "id": 1,
                    "proto": [1, 1],
                    "client": {"name": "raw", "version": "0"},
                    "name": "raw",
                }
            )
        )
    return stream


async def read_until_closed(stream: trio.SocketStream) -> list[dict[str, Any]]:
    """Every message the server sends until it closes the connection."""
    wire = protocol.Connection("client")
    out: list[dict[str, Any]] = []
    while True:
        try:
            data = await stream.receive_some(65_536)
        except trio.BrokenResourceError:
            return out
        if not data:
            return out
        wire.receive_data(data)
        while (msg := wire.next_message()) is not None:
            out.append(msg)


async def with_a_deal_playing(
    config: ServerConfig, attack: Callable[[int, Server], Awaitable[None]]
) -> Server:
    """Run ``attack(port, server)`` while a table of one bot client and two server bots plays a
    whole deal; then check the deal ended and a new client is served."""
    server = Server(config)
    with trio.fail_after(budget.seconds(20)):  # (a hang, not a speed: grows with the load)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            owner = await Client.connect(HOST, port, "owner")
            joined = await owner.request(
                "create_table", variant="verish", seats=3, bots=["honest", "honest"], seed=15
            )
            player = BotPlayer(owner, joined["table"], 0, "honest", rng=random.Random(1))
            async with trio.open_nursery() as both:
                both.start_soon(player.play, 1)
                await attack(port, server)
            assert player.deals == 1
            after = await Client.connect(HOST, port, "after")
            assert (await after.request("ping"))["t"] == "pong"
            nursery.cancel_scope.cancel()
    return server


def fatal_codes(msgs: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    return [(m["code"], m["fatal"]) for m in msgs if m["t"] == "error"]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (struct.pack(">I", 7) + b"garbage", "BAD_FRAME"),
        (b"GET / HTTP/1.1\r\nHost: neveryu\r\n\r\n", "FRAME_TOO_LARGE"),
        (struct.pack(">I", protocol.MAX_CLIENT_FRAME + 1), "FRAME_TOO_LARGE"),
        (struct.pack(">I", 0), "BAD_FRAME"),
        (protocol.encode_frame({"t": "list_tables", "id": 1}), "NOT_READY"),
    ],
    ids=["garbage", "http", "oversize", "zero_length", "before_hello"],
)
async def test_bad_bytes_get_a_fatal_error_and_a_close(data, code):
    async def attack(port: int, server: Server) -> None:
        stream = await raw(port)
        await stream.send_all(data)
        msgs = await read_until_closed(stream)
        assert fatal_codes(msgs) == [(code, True)]
        assert msgs[-1]["t"] == "error"

    await with_a_deal_playing(hostile_config(), attack)


async def test_stalled_half_frame_gets_hello_timeout():
    async def attack(port: int, server: Server) -> None:
        stream = await raw(port)
        await stream.send_all(struct.pack(">I", 40) + b"\x85\xa1t")
        msgs = await read_until_closed(stream)
        assert fatal_codes(msgs) == [("HELLO_TIMEOUT", True)]
        assert msgs[0]["re"] is None

    # the half frame must arrive before the handshake time ends: on a loaded machine the server,
    # in this process, may run late, so the time grows with the load
    await with_a_deal_playing(hostile_config(handshake_ms=round(budget.seconds(0.3) * 1000)), attack)


async def test_silent_peer_gets_heartbeats_then_bye_idle():
    async def attack(port: int, server: Server) -> None:
        stream = await raw(port, hello=True)
        msgs = await read_until_closed(stream)
        kinds = [m["t"] for m in msgs]
        assert kinds[0] == "welcome" and kinds[-1] == "bye" and "heartbeat" in kinds
        assert msgs[-1]["reason"] == "idle"

    await with_a_deal_playing(hostile_config(), attack)


async def test_half_close_and_reset_mid_burst():
    async def attack(port: int, server: Server) -> None:
        stream = await raw(port, hello=True)
        await stream.send_all(b"".join(protocol.encode_frame({"t": "ping", "id": i}) for i in range(2, 12)))
        await stream.send_eof()  # half-close: the server answers everything, then closes
        msgs = await read_until_closed(stream)
        assert [m["t"] for m in msgs if "re" in m] == ["welcome"] + ["pong"] * 10
        stream = await raw(port, hello=True)
        burst = b"".join(protocol.encode_frame({"t": "ping", "id": i}) for i in range(2, 30))
        await stream.send_all(burst[: len(burst) // 2])
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        await stream.aclose()  # a reset, in the middle of a frame

    await with_a_deal_playing(hostile_config(), attack)


async def test_reader_that_stops_reading_is_dropped_and_its_queue_stays_bounded():
    """In frames and in bytes: a request of a few bytes (``schema``) asks for a reply of tens of
    kB, and the server holds at most ``MAX_BACKLOG`` bytes of a client's own replies unwritten,
    and the one reply that passed it."""
    reply = len(protocol.encode_frame({"t": "schema", "re": 2, "schema": protocol.load_schema()}))

    async def attack(port: int, server: Server) -> None:
        stream = await raw(port, hello=True)
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        big = protocol.encode_frame({"t": "schema", "id": 2})
        peak = peak_bytes = 0
        with trio.move_on_after(10):
            for _ in range(2000):  # each reply is the whole JSON Schema, tens of kB
                try:
                    await stream.send_all(big)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    break
                peak = max([peak, *(c.queued for c in server.connections)])
                peak_bytes = max([peak_bytes, *(c.outbox.backlog for c in server.connections)])
                await trio.sleep(0.002)
        assert peak <= LIMITS["outbox"]
        assert reply < peak_bytes <= MAX_BACKLOG + reply
        assert not any(c.session is not None and c.session.name == "raw" for c in server.connections)

    await with_a_deal_playing(hostile_config(rate=100_000, burst=100_000), attack)


async def test_request_flood_is_rate_limited_and_answered_in_order():
    async def attack(port: int, server: Server) -> None:
        flood = await Client.connect(HOST, port, "flood", keep=True)
        await flood.request("create_table", variant="verish", seats=2)
        burst = b"".join(protocol.encode_frame({"t": "chat", "id": i, "text": "x"}) for i in range(10, 110))
        await flood.stream.send_all(burst)
        while len([r for r in flood.replies if r >= 10]) < 100:
            await flood._receive_one()
        codes = [
            flood.replies[r]["t"] if flood.replies[r]["t"] == "ok" else flood.replies[r]["code"]
            for r in range(10, 110)
        ]
        assert "RATE_LIMITED" in codes and "ok" in codes
        # The table handles each request at once: every one is answered, in request order.
        assert [m["re"] for m in flood.received if m.get("re", 0) >= 10] == list(range(10, 110))
        await trio.sleep(1 / LIMITS["rate"])  # the bucket may be empty: one token refills in 1/rate s
        assert (await flood.request("ping"))["t"] == "pong"  # non-fatal: still connected

    await with_a_deal_playing(hostile_config(), attack)


async def test_too_many_connections_from_one_address_get_server_full():
    async def attack(port: int, server: Server) -> None:
        streams = [await raw(port) for _ in range(LIMITS["max_per_address"] + 3)]
        refused = 0
        for stream in streams[-5:]:
            with trio.move_on_after(2):
                msgs = await read_until_closed(stream)
                refused += fatal_codes(msgs) == [("SERVER_FULL", True)]
        assert refused >= 3
        for stream in streams:
            await stream.aclose()

    await with_a_deal_playing(hostile_config(), attack)


REPEAT_RATE = 1_000  # requests/s the repeated-challenge test allows


class RepeatChallenger(BotPlayer):
    """A seat that challenges whenever it may, sending each challenge ``times`` times at once."""

    times = 30

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rounds: list[list[str]] = []  # per challenge: the reply to each copy, in order

    async def _move(self) -> None:
        legal = self.tracker.legal
        if not self.tracker.active or not legal or legal.challenge is None:
            return await super()._move()
        ids = [await self.client.send_request("challenge", set_no=legal.challenge) for _ in range(self.times)]
        replies = []
        for rid in ids:
            try:
                replies.append((await self.client.reply_to(rid))["t"])
            except ServerError as exc:
                replies.append(exc.code)
        self.rounds.append(replies)
        # Let the token bucket refill before its next move: a RATE_LIMITED lay is not retried
        # (BotPlayer waits for a new ``legal``, and an unchanged one is not sent again).
        await trio.sleep(self.times / REPEAT_RATE)


# A copy that comes after the first: the set is settled (stale), the turn moved on, the deal or
# match ended, the copies came too fast (rate); in an `anyone` variant also: this seat already
# challenged it (tie window).
REFUSED_COPIES = {
    "STALE_SET",
    "NOT_YOUR_TURN",
    "DEAL_OVER",
    "NOT_PLAYING",
    "ILLEGAL_ACTION",
    "CHALLENGE_BARRED",
    "RATE_LIMITED",
}


@pytest.mark.parametrize("variant", ["verish", "hoyle"])
async def test_a_repeated_challenge_gets_errors_and_the_table_plays_on(variant):
    async def attack(port: int, server: Server) -> None:
        other = await Client.connect(HOST, port, "other", keep=True)
        joined = await other.request("create_table", variant=variant, seats=3, bots=["honest"], seed=4)
        hostile = await Client.connect(HOST, port, "again")
        hjoined = await hostile.request("join_table", table=joined["table"]["id"])
        players = [
            BotPlayer(other, joined["table"], 0, "honest", rng=random.Random(2)),
            RepeatChallenger(hostile, hjoined["table"], 1, "honest", rng=random.Random(3)),
        ]
        async with trio.open_nursery() as game:
            for p in players:
                game.start_soon(p.play, 1)
        challenger = players[1]
        assert challenger.rounds and players[0].deals == 1
        done = [r for r in challenger.rounds if "ok" in r]  # (another seat may come first)
        assert done and (variant != "verish" or done == challenger.rounds)
        for replies in challenger.rounds:  # at most one copy is done, every other one refused
            # (under load the rate limit may refuse the first copies, so the one done may come later)
            assert replies.count("ok") <= 1 and set(replies) - {"ok"} <= REFUSED_COPIES, replies
            assert variant != "verish" or "ILLEGAL_ACTION" not in replies
        seen = other.received
        # The other seat's own moves go through, but for the races of any table: BotPlayer may
        # send discard_quads twice when two ``legal`` events come before its reply, and where
        # anyone challenges its challenge or set may come just after another seat's. Never a
        # refusal the flood caused (RATE_LIMITED, INTERNAL_ERROR), never a fatal error.
        # (CHALLENGE_PENDING: its set came while another seat's challenge was being settled.)
        races = {
            "STALE_SET",
            "NOT_YOUR_TURN",
            "ILLEGAL_ACTION",
            "DEAL_OVER",
            "NOT_PLAYING",
            "CHALLENGE_PENDING",
        }
        for action, code, msg in players[0].refused:
            assert code in races, (action, code, msg)
            assert variant != "verish" or isinstance(action, engine.DiscardQuads), (action, code, msg)
        assert check_frames(seen, 0, engine.variant(variant), 3) == 1
        # each challenge happened once: one challenged event per round, and one set revealed
        challenged = [m["set_no"] for m in seen if m["t"] == "challenged" and 1 in (m["seat"], *m["tied"])]
        assert len(challenged) == len(set(challenged)) == len(done)
        revealed = [m["set_no"] for m in seen if m["t"] == "set_revealed"]
        assert len(revealed) == len(set(revealed))

    await with_a_deal_playing(hostile_config(rate=REPEAT_RATE, burst=100), attack)


async def test_refused_connections_do_not_keep_other_addresses_out():
    async def attack(port: int, server: Server) -> None:
        held = [await raw(port, hello=True) for _ in range(3)]  # with the owner: 4 from 127.0.0.1
        flood = [await raw(port) for _ in range(40)]  # each refused; none read their refusal
        while len(server.connections) < 4:
            await trio.sleep(0.01)
        assert len(server.connections) == 4
        stream = await trio.open_tcp_stream(HOST, port, local_address="127.0.0.2")
        other = Client(stream)
        welcome = await other.request(
            "hello", proto=[1, 1], client={"name": "t", "version": "0"}, name="elsewhere"
        )
        assert welcome["t"] == "welcome"
        assert fatal_codes(await read_until_closed(flood[-1])) == [("SERVER_FULL", True)]
        for s in [*held, *flood, stream]:
            await s.aclose()

    await with_a_deal_playing(hostile_config(max_per_address=4, max_connections=6), attack)


async def test_connections_opened_and_closed_at_once_leave_nothing_behind():
    """200 connections, each closed at once: before a byte, after ``hello``, halfway through it,
    or reset right after making a table. Then only the owner's connection, session and table
    remain (the others' sessions and tables go when their grace time ends)."""
    hello = protocol.encode_frame(
        {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "raw", "version": "0"}, "name": "raw"}
    )
    make = protocol.encode_frame({"t": "create_table", "id": 2, "variant": "verish", "seats": 2})
    sent = [b"", hello, hello[:7], hello + make]

    async def attack(port: int, server: Server) -> None:
        for k in range(200):
            stream = await raw(port)
            if sent[k % 4]:
                await stream.send_all(sent[k % 4])
            if k % 4 == 3:
                stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            await stream.aclose()
        while len(server.connections) > 1 or len(server.sessions) > 1 or len(server.tables) > 1:
            await trio.sleep(0.01)
        assert dict(server.per_address) == {HOST: 1}
        assert [s.name for s in server.sessions.values()] == ["owner"]

    await with_a_deal_playing(hostile_config().evolve(table={"grace_ms": 100}), attack)
