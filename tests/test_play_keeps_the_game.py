"""Ctrl-C in ``neveryu play`` keeps the game, as a kill does, so the player can go on later: its
server stops keeping its tables in the journal (``RunningServer.stop(keep_tables=True)``), and a
server started again on the same records brings the table back, where the player's kept session
resumes his seat with his hand; a server stopped as before (``q``: the game is given up) ends its
tables. Real servers in threads on 127.0.0.1, port 0, a records file in tmp_path; every wait
bounded."""

from __future__ import annotations

import pytest
import trio

from neveryu.client.botclient import Client, ServerError
from neveryu.server import ServerConfig, start_in_thread

HOST = "127.0.0.1"


def config(db: str) -> ServerConfig:
    return ServerConfig(host=HOST, port=0, name="neveryu play", db=db).evolve(
        table={"bot_delay_ms": 5, "deal_pause_ms": 50, "grace_ms": 600_000}
    )


def sit_down(port: int) -> tuple[str, int, list[str]]:
    """Ann makes an untimed table of three with two bots and starts the match: her session's
    token, the last seq she saw, and her hand."""

    async def main() -> tuple[str, int, list[str]]:
        with trio.fail_after(20):
            client = await Client.connect(HOST, port, "ann")
            await client.request(
                "create_table", variant="verish", seats=3, bots=["sharp", "sharp"], turn_ms=0
            )
            await client.request("ready", ready=True)
            await client.request("start")
            while (dealt := await client.next_event())["t"] != "deal_started":
                pass
            await client.aclose()
            return client.token, client.last_seq, sorted(dealt["hand"])

    return trio.run(main)


def come_back(port: int, token: str, seq: int) -> list[str]:
    """Ann's session resumed: her hand in the snapshot the server sends (docs/PROTOCOL.md,
    "Across a server restart")."""

    async def main() -> list[str]:
        with trio.fail_after(20):
            client = await Client.connect(HOST, port, "ann", resume=(token, seq))
            assert client.welcome["resumed"] is True
            while (msg := await client.next_event())["t"] != "state":
                pass
            await client.aclose()
            return sorted(msg["hand"])

    return trio.run(main)


def test_a_server_stopped_keeping_its_tables_brings_them_back(records_db):
    first = start_in_thread(config(records_db))
    token, seq, hand = sit_down(first.port)
    first.stop(keep_tables=True)  # neveryu play after Ctrl-C
    again = start_in_thread(config(records_db))
    try:
        assert come_back(again.port, token, seq) == hand
    finally:
        again.stop()


def test_a_server_stopped_as_before_ends_its_tables(records_db):
    first = start_in_thread(config(records_db))
    token, seq, _ = sit_down(first.port)
    first.stop()  # q: the game is given up
    again = start_in_thread(config(records_db))
    try:
        with pytest.raises(ServerError) as refused:
            come_back(again.port, token, seq)
        assert refused.value.code == "BAD_RESUME"
    finally:
        again.stop()


def test_the_commands_named_are_those_the_player_can_type():
    """Through scripts/play (as called: from the project, from elsewhere, from its folder) the
    script and the project's .venv/bin/neveryu; otherwise the installed ``neveryu``."""
    from neveryu.client.commands.play import PLAY_SCRIPT, Commands, commands

    assert commands({}) == Commands("neveryu play", "neveryu")
    assert commands({PLAY_SCRIPT: "scripts/play"}) == Commands("scripts/play", ".venv/bin/neveryu")
    assert commands({PLAY_SCRIPT: "/home/ann/my games/scripts/play"}) == Commands(
        "'/home/ann/my games/scripts/play'", "'/home/ann/my games/.venv/bin/neveryu'"
    )
    assert commands({PLAY_SCRIPT: "./play"}) == Commands("./play", "../.venv/bin/neveryu")
