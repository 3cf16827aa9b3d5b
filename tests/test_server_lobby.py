"""The lobby, the handshake and the settings, over TCP on 127.0.0.1; ``neveryu serve`` as a
process (SIGTERM: bye, exit, the port free again)."""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from neveryu import engine, protocol
from neveryu.client.botclient import Client, ConnectionClosed, ServerError
from neveryu.protocol._message import EVENTS, REPLIES
from neveryu.protocol._types import MAX_SEATS
from neveryu.server import ServerConfig, load_config, serve

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent


def config(**table: Any) -> ServerConfig:
    return ServerConfig(host=HOST, port=0).evolve(table={"close_ms": 100, "bot_delay_ms": 0, **table})


async def refused(client: Client, t: str, **fields: Any) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await client.request(t, **fields)
    return caught.value


async def test_handshake_lobby_replies_are_valid_protocol():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config())
            c = await Client.connect(HOST, port, "ann", keep=True)
            assert c.welcome["proto"] == protocol.PROTOCOL_VERSION and c.welcome["resumed"] is False
            variants = await c.request("variants")
            assert [v["name"] for v in variants["variants"]] == list(engine.VARIANTS)
            hoyle = next(v for v in variants["variants"] if v["name"] == "hoyle")
            assert hoyle["options"]["scoring"] == {
                "default": "chips_per_player",
                "choices": ["chips_per_player", "chips_per_card"],
            }
            schema = (await c.request("schema"))["schema"]
            assert schema["$defs"]["protocol"]["const"]["version"] == protocol.PROTOCOL_VERSION
            assert (await c.request("list_tables"))["tables"] == []
            joined = await c.request(
                "create_table",
                variant="veryu",
                seats=3,
                bots=["sharp"],
                password="pw",
                options={"deck": "52"},
            )
            assert joined["seat"] == 0
            table = joined["table"]
            assert table["password"] is True and table["options"] == {"deck": "52"}
            assert [s["bot"] for s in table["seats"]] == [None, None, "sharp"]
            listed = (await c.request("list_tables"))["tables"]
            assert [t["id"] for t in listed] == [table["id"]]
            assert (await c.request("ping"))["t"] == "pong"
            for msg in c.received:
                (REPLIES if "re" in msg else EVENTS)[msg["t"]].from_wire(msg)
            nursery.cancel_scope.cancel()


async def test_bots_that_leave_no_seat_for_a_player_are_a_refused_option():
    """``bots`` as many as the seats (the server's default seats when ``seats`` is absent) is of
    the schema's shape, an option the server refuses: the non-fatal ``BAD_OPTION``, the
    connection stays. More entries than any table has seats (``MAX_SEATS - 1``) breaks the
    schema: the fatal ``BAD_MESSAGE`` (docs/PROTOCOL.md, section 7, "Which layer answers what")."""
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config())
            ann = await Client.connect(HOST, port, "ann")
            full = await refused(ann, "create_table", variant="verish", seats=4, bots=["honest"] * 4)
            assert (full.code, full.fatal, full.msg) == (
                "BAD_OPTION",
                False,
                "4 bots leave no seat of 4 for a player",
            )
            default = ServerConfig().table.seats
            full = await refused(ann, "create_table", variant="verish", bots=[None] * default)
            assert (full.code, full.fatal) == ("BAD_OPTION", False)
            assert (await ann.request("ping"))["t"] == "pong"
            joined = await ann.request("create_table", variant="verish", seats=4, bots=["honest"] * 3)
            assert [s["bot"] for s in joined["table"]["seats"]] == [None, "honest", "honest", "honest"]
            nursery.cancel_scope.cancel()
    with pytest.raises(protocol.RemoteProtocolError) as caught:
        protocol.parse_request({"t": "create_table", "id": 1, "bots": ["honest"] * MAX_SEATS})
    assert caught.value.code == "BAD_MESSAGE" and caught.value.fatal


async def test_lobby_errors():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config())
            ann = await Client.connect(HOST, port, "ann")
            bob = await Client.connect(HOST, port, "bob")
            cy = await Client.connect(HOST, port, "cy")
            assert (await refused(ann, "create_table", variant="nope")).code == "BAD_OPTION"
            assert (await refused(ann, "create_table", variant="verish", seats=7)).code == "BAD_OPTION"
            assert (
                await refused(ann, "create_table", variant="verish", options={"deck": "52"})
            ).code == "BAD_OPTION"
            assert (
                await refused(ann, "create_table", variant="verish", bots=["nobody"])
            ).code == "BAD_OPTION"
            assert (await refused(ann, "join_table", table=99)).code == "NO_SUCH_TABLE"
            assert (await refused(ann, "lay", cards=["AS"])).code == "NOT_PLAYING"
            assert (await refused(ann, "ready", ready=True)).code == "BAD_STATE"
            joined = await ann.request("create_table", variant="verish", seats=2, password="pw")
            tid = joined["table"]["id"]
            assert (await refused(ann, "create_table")).code == "BAD_STATE"
            dee = await Client.connect(HOST, port, "dee")
            assert (await refused(dee, "join_table", table=tid)).code == "WRONG_TABLE_PASSWORD"
            assert (
                await refused(dee, "join_table", table=tid, password="pw")
            ).code == "RATE_LIMITED"  # a second
            assert (await refused(bob, "join_table", table=tid, seat=0, password="pw")).code == "SEAT_TAKEN"
            assert (await bob.request("join_table", table=tid, password="pw"))["seat"] == 1
            assert (await refused(cy, "join_table", table=tid, password="pw")).code == "TABLE_FULL"
            assert (await refused(ann, "start")).code == "NOT_ALL_READY"
            await ann.request("ready", ready=True)
            assert (await refused(ann, "lay", cards=["AS"])).code == "NOT_PLAYING"
            await ann.request("chat", text="привет")
            chats = []
            while len(chats) < 1:
                msg = await bob.next_event()
                if msg["t"] == "chat":
                    chats.append(msg)
            assert chats == [{**chats[0], "seat": 0, "name": "ann", "text": "привет"}]
            nursery.cancel_scope.cancel()


async def test_server_password_and_versions():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config().evolve(password="s3cret"))
            with pytest.raises(ServerError) as caught:
                await Client.connect(HOST, port, "eve")
            assert (caught.value.code, caught.value.fatal) == ("WRONG_PASSWORD", True)
            ok = await Client.connect(HOST, port, "ann", password="s3cret")
            assert ok.welcome["server"]["name"] == "neveryu"
            stream = await trio.open_tcp_stream(HOST, port)
            wire = protocol.Connection("client")
            await stream.send_all(
                wire.send(
                    {
                        "t": "hello",
                        "id": 1,
                        "proto": [7, 9],
                        "client": {"name": "x", "version": "1"},
                        "name": "x",
                        "password": "s3cret",
                    }
                )
            )
            reply = None
            while reply is None:
                wire.receive_data(await stream.receive_some(4096))
                reply = wire.next_message()
            assert (reply["code"], reply["fatal"], reply["re"]) == ("UNSUPPORTED_VERSION", True, 1)
            nursery.cancel_scope.cancel()


async def test_table_closes_after_its_humans_left():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config(close_ms=50))
            ann = await Client.connect(HOST, port, "ann")
            await ann.request("create_table", variant="verish", seats=2, bots=["random"])
            await ann.request("leave")
            lobby = await Client.connect(HOST, port, "lobby")
            while (await lobby.request("list_tables"))["tables"]:
                await trio.sleep(0.02)
            nursery.cancel_scope.cancel()


def test_config_file(tmp_path):
    path = tmp_path / "neveryu.toml"
    path.write_text(
        'name = "dorm"\nport = 7500\n[table]\nturn_ms = 30000\nvariant = "cheat"\n[limits]\nmax_tables = 3\n'
    )
    cfg = load_config(path)
    assert (cfg.name, cfg.port, cfg.table.turn_ms, cfg.table.variant, cfg.limits.max_tables) == (
        "dorm",
        7500,
        30000,
        "cheat",
        3,
    )
    assert cfg.table.tie_window_ms == 250 and cfg.host == ""
    path.write_text("[table]\nturn_time = 3\n")
    with pytest.raises(ValueError, match="turn_time"):
        load_config(path)
    path.write_text("[limits]\nheartbeat_ms = 20000\nidle_ms = 15000\n")
    with pytest.raises(ValueError, match=r"idle_ms \(15000\) must be above heartbeat_ms \(20000\)"):
        load_config(path)


def test_serve_command_stops_on_sigterm_with_bye():
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "neveryu.client.cli",
            "serve",
            "--host",
            HOST,
            "--port",
            "0",
            "--no-advertise",
            "--name",
            "t",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = None
        for line in proc.stderr:
            found = re.search(r"listening on 127\.0\.0\.1 port (\d+)", line)
            if found:
                port = int(found.group(1))
                break
        assert port is not None

        async def client_sees_bye() -> dict:
            with trio.fail_after(10):
                c = await Client.connect(HOST, port, "ann")
                proc.send_signal(signal.SIGTERM)
                with pytest.raises(ConnectionClosed):
                    while True:
                        await c.next_event()
                return c.bye

        bye = trio.run(client_sees_bye)
        assert bye is not None and bye["reason"] == "shutdown"
        assert proc.wait(timeout=10) == 0

        async def bind_again() -> None:  # the port is free at once
            listeners = await trio.open_tcp_listeners(port, host=HOST)
            for listener in listeners:
                await listener.aclose()

        trio.run(bind_again)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


EXAMPLE_CLIENT = ROOT / "scripts" / "example_client.py"


@pytest.mark.skipif(not EXAMPLE_CLIENT.exists(), reason="the protocol's example client is not there")
def test_example_client_plays_a_whole_deal_against_the_server():
    from neveryu.server import start_in_thread

    cfg = ServerConfig(host=HOST, port=0, seed=52).evolve(
        table={
            "bot_delay_ms": 0,
            "challenge_window_ms": 20,
            "tie_window_ms": 5,
            "deal_pause_ms": 0,
            "deals": 1,
        }
    )
    with start_in_thread(cfg) as running:
        done = subprocess.run(
            [
                sys.executable,
                str(EXAMPLE_CLIENT),
                "--host",
                HOST,
                "--port",
                str(running.port),
                "--variant",
                "verish",
                "--timeout",
                "60",
            ],
            capture_output=True,
            text=True,
            timeout=90,
        )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "the commitment matches" in done.stdout


def test_serve_command_exits_at_once_on_a_second_signal(tmp_path):
    """A client that reads nothing keeps the first shutdown waiting (its bye cannot be
    written); a second signal ends the process at once."""
    path = tmp_path / "slow.toml"
    path.write_text("[limits]\nsend_ms = 30000\nshutdown_ms = 30000\n")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "neveryu.client.cli",
            "serve",
            "--host",
            HOST,
            "--port",
            "0",
            "--no-advertise",
            "--config",
            str(path),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = None
        for line in proc.stderr:
            if found := re.search(r"listening on 127\.0\.0\.1 port (\d+)", line):
                port = int(found.group(1))
                break
        assert port is not None
        sock = socket.create_connection((HOST, port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(
            protocol.encode_frame(
                {
                    "t": "hello",
                    "id": 1,
                    "proto": [1, 1],
                    "client": {"name": "stuck", "version": "0"},
                    "name": "stuck",
                }
            )
        )
        request = protocol.encode_frame({"t": "schema", "id": 2})
        sock.settimeout(0.2)
        try:
            for _ in range(400):  # until the server stops reading us (its queue for us is full)
                sock.sendall(request)
        except TimeoutError:
            pass
        proc.send_signal(signal.SIGTERM)
        for line in proc.stderr:
            if "saying bye" in line:
                break
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=5) == 130
        sock.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_the_log_counts_seats_from_1_as_the_screens_do(caplog):
    """People read seats from 1 (the server's log, the client's screens); the protocol's ``seat``
    fields count from 0 (docs/PROTOCOL.md, "seat")."""
    caplog.set_level(logging.INFO, logger="neveryu.server")
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config())
            ann = await Client.connect(HOST, port, "ann")
            bob = await Client.connect(HOST, port, "bob")
            joined = await ann.request("create_table", variant="verish", seats=3)
            assert (await bob.request("join_table", table=joined["table"]["id"]))["seat"] == 1
            nursery.cancel_scope.cancel()
    said = [r.getMessage() for r in caplog.records if "takes seat" in r.getMessage()]
    assert said == ["table 1: ann takes seat 1", "table 1: bob takes seat 2"]
    hands = [["9S", "9H"], ["8S", "8H"], ["9C", "JS"]]
    deal = engine.Deal(engine.variant("verish"), deck="36", dealer=1, turn=2, hands=hands)
    with pytest.raises(engine.RuleViolation) as caught:
        deal.apply(engine.LaySet(0, ("9S",), "9", None))
    assert (caught.value.seat, caught.value.reason) == (0, "it is seat 3's turn")
    assert str(caught.value).startswith("seat 1: it is seat 3's turn (")
