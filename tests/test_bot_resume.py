"""``neveryu bot`` keeps its seat across a server restart (docs/PROTOCOL.md, "Across a server
restart"), and gives up on a peer that is not a neveryu server as ``neveryu join`` does. Real
sockets on 127.0.0.1: a ``neveryu serve`` process killed with SIGKILL and started again on the same port and
database; listeners of the test's own that say nothing, close at once, or answer something else.
"""

from __future__ import annotations

import socket
import sys

import pytest
import trio
from test_records_faults import Served

from neveryu.client.botclient import Client
from neveryu.client.botseat import play_bot
from neveryu.client.handshake import Refused

HOST = "127.0.0.1"
BOT_COMMAND = [sys.executable, "-m", "neveryu.client.cli", "bot"]
TABLE = {
    "variant": '"verish"',
    "seats": 2,
    "deals": 2,
    "turn_ms": 0,
    "quads_window_ms": 40,
    "bot_delay_ms": 5,
    "deal_pause_ms": 60,
    "contribute_ms": 300,
    "grace_ms": 20_000,
}


def free_port() -> int:
    """A port nobody listens on now (the restarted server must come back on the bot's port)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


async def test_neveryu_bot_resumes_its_seat_after_a_server_restart(tmp_path):
    port = free_port()
    config = tmp_path / "server.toml"
    config.write_text("[table]\n" + "".join(f"{k} = {v}\n" for k, v in TABLE.items()), "utf-8")
    args = ["--db", str(tmp_path / "records.sqlite3"), "--config", str(config), "--port", str(port)]
    served = [Served(args, log=tmp_path / "server0.log")]
    players = []
    try:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:

                async def in_process() -> None:
                    players.append(await play_bot(HOST, port, name="ann", matches=1, delay=0.03, seed=1))

                nursery.start_soon(in_process)
                watcher = await Client.connect(HOST, port, "watcher")
                while not (tables := (await watcher.request("list_tables"))["tables"]):
                    await trio.sleep(0.02)
                command = [*BOT_COMMAND, f"{HOST}:{port}", "--table", str(tables[0]["id"]), "--seed", "2"]
                done = []

                async def cli() -> None:
                    done.append(
                        await trio.run_process(
                            [*command, "--matches", "1", "--delay-ms", "30", "--strength", "easy"],
                            capture_stdout=True,
                            capture_stderr=True,
                            check=False,
                        )
                    )

                nursery.start_soon(cli)
                assert (await watcher.request("spectate", table=tables[0]["id"]))["t"] == "table_joined"
                laid = 0
                while laid < 12:  # the match is on, and in the journal (batched every 100 ms)
                    laid += (await watcher.next_event())["t"] == "set_laid"
                await watcher.aclose()
                served[0].proc.kill()  # SIGKILL: no bye, no shutdown
                await trio.to_thread.run_sync(served[0].proc.wait)
                again = await trio.to_thread.run_sync(lambda: Served(args, log=tmp_path / "server1.log"))
                served.append(again)
    finally:
        for s in served:
            s.kill()
    (finished,) = done
    said = finished.stderr.decode()
    assert finished.returncode == 0, said
    assert "bot: the server restarted; resuming…" in said
    assert "neveryu bot: the server closed the connection" not in said  # (what it said before)
    assert finished.stdout.decode().strip() == "neveryu bot: played 2 deals in 1 match", said
    assert [(p.matches, p.deals) for p in players] == [(1, 2)]
    log = (tmp_path / "server1.log").read_text()
    assert "is restored" in log and "BAD_RESUME" not in log


class Peer:
    """A TCP listener on 127.0.0.1 that is not a neveryu server: it answers ``reply`` to what it
    reads (None: it says nothing; b"": it closes the connection at once)."""

    def __init__(self, reply: bytes | None) -> None:
        self.reply = reply

    async def serve(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host=HOST)
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(self.handle, listeners)

    async def handle(self, stream: trio.SocketStream) -> None:
        async with stream:
            if self.reply == b"":
                return
            await stream.receive_some()
            if self.reply is not None:
                await stream.send_all(self.reply)
            await trio.sleep_forever()


async def test_neveryu_bot_gives_up_on_a_silent_peer_after_the_handshake_time():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Peer(None).serve)
            start = trio.current_time()
            with pytest.raises(Refused) as refused:
                await play_bot(HOST, port, handshake_s=0.3)
            assert 0.3 <= trio.current_time() - start < 5
            nursery.cancel_scope.cancel()
    assert str(refused.value) == f"no answer from {HOST}:{port} within 0.3 s: is it a neveryu server?"


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            b"HTTP/1.1 400 Bad Request\r\n\r\n",
            "is not a neveryu server: it answers as a web server (HTTP/1.1 400 Bad Request)",
        ),
        (b"\x00\x00\x00\x05hello", "is not a neveryu server: it answers something else"),
        (b"", "closed the connection without a word: is it a neveryu server?"),
    ],
    ids=["web", "garbage", "closes"],
)
async def test_neveryu_bot_says_a_peer_is_not_a_neveryu_server(reply, said):
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Peer(reply).serve)
            done = await trio.run_process(
                [*BOT_COMMAND, f"{HOST}:{port}"], capture_stdout=True, capture_stderr=True, check=False
            )
            nursery.cancel_scope.cancel()
    assert done.returncode == 1
    assert done.stderr.decode().strip().splitlines()[-1] == f"neveryu bot: {HOST}:{port} {said}"


async def test_a_session_the_server_no_longer_knows_is_joined_afresh():
    from neveryu.client.botseat import Server, resume_seat
    from neveryu.server import ServerConfig, serve

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, ServerConfig(host=HOST, port=0, seed=None))
            client = await resume_seat(Server(HOST, port, "bot"), "no-such-token", 40, resume_for_s=5)
            assert client.welcome["resumed"] is False and client.token != "no-such-token"
            await client.aclose()
            nursery.cancel_scope.cancel()


async def test_a_server_that_does_not_come_back_is_given_up_after_the_resume_time():
    from neveryu.client.botseat import Server, resume_seat

    port = free_port()  # nobody listens there
    with trio.fail_after(20):
        start = trio.current_time()
        with pytest.raises(OSError, match="all attempts to connect"):
            await resume_seat(Server(HOST, port, "bot"), "token", 40, resume_for_s=1.0)
        assert trio.current_time() - start >= 0.5  # tried at once, then 0.5 s later; 1 s more would pass 1 s
