"""The headless client (client/botclient.py) against a real server on 127.0.0.1."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path

import budget
import pytest
import trio

from neveryu.client.botclient import BotPlayer, Client, ServerError
from neveryu.server import ServerConfig, serve

HOST = "127.0.0.1"


async def test_a_full_server_is_reported_as_server_full_not_as_a_closed_connection():
    config = ServerConfig(host=HOST, port=0, seed=None).evolve(limits={"max_connections": 1})
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            first = await Client.connect(HOST, port, "ann")
            with pytest.raises(ServerError) as caught:
                await Client.connect(HOST, port, "bob")
            assert (caught.value.code, caught.value.fatal) == ("SERVER_FULL", True)
            assert (await first.request("ping"))["t"] == "pong"
            await first.aclose()
            nursery.cancel_scope.cancel()


BOT_COMMAND = [sys.executable, "-m", "neveryu.client.cli", "bot"]


async def test_neveryu_bot_takes_host_port_as_join_does(records_db):
    config = ServerConfig(host=HOST, port=0, seed=3, db=records_db).evolve(
        table={"deals": 1, "bot_delay_ms": 0, "deal_pause_ms": 0, "turn_ms": 0}
    )
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            owner = await Client.connect(HOST, port, "ann")
            joined = await owner.request("create_table", variant="verish", seats=2, bots=[], seed=3)
            nursery.start_soon(BotPlayer(owner, joined["table"], 0, "honest", rng=random.Random(1)).play, 1)
            done = await trio.run_process(
                [*BOT_COMMAND, f"{HOST}:{port}", "--matches", "1", "--delay-ms", "0", "--strength", "easy"],
                capture_stdout=True,
                capture_stderr=True,
            )
            assert done.returncode == 0, done.stderr
            assert done.stdout.decode().strip() == "neveryu bot: played 1 deal in 1 match"
            nursery.cancel_scope.cancel()


async def test_ctrl_c_stops_neveryu_bot_with_a_word_on_how_to_start_it_again():
    with trio.fail_after(budget.seconds(60)):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, ServerConfig(host=HOST, port=0, seed=3))
            process = await trio.lowlevel.open_process(
                [*BOT_COMMAND, f"{HOST}:{port}"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                # as from a terminal: a test run started in the background (`scripts/test &`)
                # ignores SIGINT, and a process keeps an ignored SIGINT across exec
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
            )
            watcher = await Client.connect(HOST, port, "watcher")
            while not (await watcher.request("list_tables"))["tables"]:  # the bot made its table
                await trio.sleep(0.05)
            said, read = bytearray(), trio.Event()

            async def read_stderr() -> None:  # all along: a full pipe would stall the bot
                while chunk := await process.stderr.receive_some():
                    said.extend(chunk)
                read.set()

            nursery.start_soon(read_stderr)
            process.send_signal(signal.SIGINT)
            with trio.move_on_after(budget.seconds(20)):
                assert await process.wait() == 130
            if process.returncode is None:  # say why (blocked or ignored signals?), then fail
                status = Path(f"/proc/{process.pid}/status").read_text()
                masks = [line for line in status.splitlines() if line.startswith(("State", "Sig"))]
                process.kill()
                pytest.fail(f"neveryu bot did not stop on SIGINT; {masks}; stderr: {bytes(said)!r}")
            await read.wait()
            assert (
                said.decode()
                .strip()
                .endswith(f"neveryu bot: stopped (Ctrl-C). To start it again: neveryu bot {HOST}:{port}")
            )
            nursery.cancel_scope.cancel()
