"""The client's network side (client/ui/net.py): trio as a guest on an asyncio loop, against a
real server on 127.0.0.1 (its own thread): hello, requests and replies, and resume after a drop.

Sync tests that run their own asyncio loop (pytest-trio claims async tests)."""

from __future__ import annotations

import asyncio
import time

import budget
import pytest

from neveryu.client.ui import model
from neveryu.client.ui.net import Net
from neveryu.client.ui.session import hello_fields


@pytest.fixture
def server():
    from neveryu.server import ServerConfig, start_in_thread

    config = ServerConfig(host="127.0.0.1", port=0, name="net-test", seed=5).evolve(
        table={"bot_delay_ms": 20, "turn_ms": 0, "deal_pause_ms": 100}
    )
    running = start_in_thread(config)
    try:
        yield running
    finally:
        running.stop()


async def _until(condition, timeout=10.0, what=lambda: ""):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met in time {what()}")
        await asyncio.sleep(0.01)


def test_a_dropped_connection_resumes_at_the_same_seat_with_the_same_hand(server):
    received: list[dict] = []
    states: list[model.State] = [model.State()]

    def deliver(msg):
        received.append(msg)
        states[0] = model.reduce(states[0], msg)

    async def main():
        net = Net("127.0.0.1", server.port, hello_fields("Ann", None), deliver)
        net.start()
        try:
            net.send(
                {
                    "t": "create_table",
                    "variant": "verish",
                    "options": {},
                    "seats": 3,
                    "bots": ["honest"] * 2,
                    "turn_ms": 0,
                }
            )
            await _until(lambda: states[0].table is not None)  # ready goes to the table once seated
            net.send({"t": "ready", "ready": True})
            net.send({"t": "start"})
            await _until(
                lambda: states[0].legal is not None and states[0].my_turn,
                what=lambda: [m["t"] for m in received],
            )
            before = states[0]
            net.drop()
            await _until(lambda: any(m.get("t") == "welcome" and m.get("resumed") for m in received))
            await _until(lambda: states[0].connection == "connected")
            after = states[0]
            assert after.seat == before.seat == 0
            assert after.hand == before.hand and after.my_turn
            keys = [line.key for line in after.log]
            assert keys.index("conn_lost") < keys.index("conn_resumed")
            # still playing: lay one card and see it land
            card = after.hand[0]
            net.send({"t": "lay", "cards": [card], "rank": after.legal["lay"]["ranks"][0]})
            await _until(lambda: card not in (states[0].hand or ()))
        finally:
            await net.aclose()
        assert net.error is None

    asyncio.run(main())


def test_no_server_is_said_plainly():
    received: list[dict] = []

    async def main():
        import socket

        with socket.socket() as s:  # a port with nobody listening
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        net = Net("127.0.0.1", port, hello_fields("Ann", None), received.append)
        net.start()
        await _until(lambda: received)
        await net.aclose()

    asyncio.run(main())
    assert received[0]["t"] == "_connection" and received[0]["status"] == "closed"
    assert "127.0.0.1" in received[0]["reason"]


def test_a_crash_on_the_network_side_reaches_the_done_callback_as_a_group():
    """The guest run's outcome may hold an exception group; ``on_done`` gets it, ``error`` keeps it."""
    done: list = []

    def deliver(msg):
        if msg.get("t") == "_connection":
            raise RuntimeError("boom in deliver")

    async def main():
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        net = Net("127.0.0.1", port, hello_fields("Ann", None), deliver, on_done=done.append)
        net.start()
        await _until(lambda: done)
        await net.aclose()
        return net

    net = asyncio.run(main())
    assert done[0] is net.error
    from neveryu.client.ui.session_run import describe

    assert describe(net.error) == "RuntimeError: boom in deliver"


class FakePeer:
    """A TCP listener on 127.0.0.1 that is not a neveryu server: it answers ``reply`` to the
    first bytes it gets (None: it never answers). Runs in a thread; ``close()`` stops it."""

    def __init__(self, reply: bytes | None) -> None:
        import socket
        import threading

        self.reply = reply
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.conns: list = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            while True:
                conn, _ = self.sock.accept()
                self.conns.append(conn)
                if self.reply is not None:
                    conn.recv(1024)
                    conn.sendall(self.reply)
        except OSError:
            return

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
        self.sock.close()


def connect_once(port: int) -> tuple[list[dict], float]:
    """Run a Net against 127.0.0.1:``port`` until it reports; (messages, seconds it took)."""
    received: list[dict] = []

    async def main() -> float:
        start = time.monotonic()
        net = Net("127.0.0.1", port, hello_fields("Ann", None), received.append)
        net.start()
        await _until(lambda: any(m.get("status") == "closed" for m in received), timeout=15)
        took = time.monotonic() - start
        await net.aclose()
        return took

    return received, asyncio.run(main())


def test_a_web_server_is_said_to_be_no_neveryu_server(monkeypatch):
    from neveryu.client.ui import net_link as net_module

    handshake = budget.seconds(30.0)
    monkeypatch.setattr(net_module, "HANDSHAKE_S", handshake)
    peer = FakePeer(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    try:
        received, took = connect_once(peer.port)
    finally:
        peer.close()
    assert received[-1]["reason"] == (
        f"127.0.0.1:{peer.port} is not a neveryu server: "
        "it answers as a web server (HTTP/1.1 400 Bad Request)"
    )
    assert took < handshake  # told by the bytes, not by the handshake's time running out


def test_a_silent_port_is_said_to_give_no_answer_within_the_handshake_time(monkeypatch):
    from neveryu.client.ui import net_link as net_module

    monkeypatch.setattr(net_module, "HANDSHAKE_S", 0.5)
    peer = FakePeer(None)
    try:
        received, took = connect_once(peer.port)
    finally:
        peer.close()
    assert received[-1]["reason"] == (
        f"no answer from 127.0.0.1:{peer.port} within 0.5 s: is it a neveryu server?"
    )
    assert 0.5 <= took < 0.5 + budget.seconds(2.5)


def test_a_session_the_server_no_longer_knows_starts_afresh(server):
    received: list[dict] = []

    async def main():
        net = Net(
            "127.0.0.1", server.port, hello_fields("Ann", None), received.append, session="gone", last_seq=9
        )
        net.start()
        try:
            await _until(lambda: any(m.get("t") == "welcome" for m in received))
        finally:
            await net.aclose()
        return net

    net = asyncio.run(main())
    kinds = [m["t"] for m in received]
    assert kinds[: kinds.index("welcome") + 1] == ["_fresh", "welcome"]
    assert received[kinds.index("welcome")]["resumed"] is False and net.session != "gone"


def test_a_resume_says_when_the_replayed_events_are_all_in(server):
    received: list[dict] = []

    async def main():
        net = Net("127.0.0.1", server.port, hello_fields("Ann", None), received.append)
        net.start()
        try:
            net.send(
                {"t": "create_table", "variant": "verish", "seats": 3, "bots": ["honest"] * 2, "turn_ms": 0}
            )
            net.send({"t": "ready", "ready": True})
            net.send({"t": "start"})
            await _until(lambda: any(m.get("t") == "legal" and m.get("lay") for m in received))
            seen = net.last_seq
            net.drop()
            await _until(lambda: any(m.get("t") == "_replayed" for m in received))
        finally:
            await net.aclose()
        return seen

    seen = asyncio.run(main())
    kinds = [m["t"] for m in received]
    welcome = max(i for i, k in enumerate(kinds) if k == "welcome")
    replayed = kinds.index("_replayed")
    assert received[welcome]["resumed"] is True and welcome < replayed
    # every event before the marker that the server replayed comes after what was seen
    assert all(m["seq"] > seen for m in received[welcome + 1 : replayed] if "seq" in m)


def test_a_resume_on_ones_own_turn_counts_down_the_time_left_not_the_whole_turn(server):
    """The server tells the turn again after its replay, with the time left now (docs/PROTOCOL.md,
    "Resume"): the model takes that time, and not the replayed turn's, which was counted when it was
    first sent."""
    states: list[model.State] = [model.State()]

    def deliver(msg):
        states[0] = model.reduce(states[0], msg, time.monotonic())

    async def main():
        net = Net("127.0.0.1", server.port, hello_fields("Ann", None), deliver)
        net.start()
        try:
            net.send(
                {
                    "t": "create_table",
                    "variant": "verish",
                    "seats": 3,
                    "bots": ["honest"] * 2,
                    "turn_ms": 60_000,
                }
            )
            await _until(lambda: states[0].table is not None)
            net.send({"t": "ready", "ready": True})
            net.send({"t": "start"})
            await _until(lambda: states[0].legal is not None and states[0].my_turn)
            started = states[0].turn_deadline
            net.drop()
            await _until(lambda: states[0].recap is not None)  # the replay is in
            return started, states[0].turn_deadline
        finally:
            await net.aclose()

    started, resumed = asyncio.run(main())
    assert started is not None and resumed is not None
    assert resumed <= started + 0.05  # the time left now, not a whole new turn
    assert states[0].my_turn and not states[0].recapping
