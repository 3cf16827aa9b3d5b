"""DNS-SD discovery across hosts: a server advertised in one network namespace is found by `neveryu
servers --json` in another, as on a real LAN. Every packet stays inside namespaces this file creates
(tests/lan_netns.py); skipped without root or iproute2."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time

import budget
import pytest
from lan_netns import Lan, Lines, skip_reason, wait_for

_why_not = skip_reason()
pytestmark = pytest.mark.skipif(_why_not is not None, reason=_why_not or "")

BROWSE_S = 1.5  # each `neveryu servers` browses this long
PORT = 7420


@pytest.fixture
def lan():
    with Lan() as lan:
        yield lan


def servers(lan: Lan, host, *extra: str) -> tuple[int, list[dict], str]:
    """Run `neveryu servers --json` on *host*: exit status, the parsed servers, stderr."""
    argv = [
        sys.executable,
        "-m",
        "neveryu.client.cli",
        "servers",
        "--json",
        "--timeout",
        str(BROWSE_S),
        *extra,
    ]
    done = lan.run(host, argv, timeout=BROWSE_S + 15)
    return done.returncode, json.loads(done.stdout), done.stderr


def advertiser(lan: Lan, host, name: str, bind: str) -> tuple[subprocess.Popen, Lines]:
    proc = lan.popen(
        host, [sys.executable, "tests/lan_advertiser.py", name, bind, str(PORT)], stdin=subprocess.PIPE
    )
    return proc, Lines(proc.stdout)


def say(proc: subprocess.Popen, line: str) -> None:
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def test_servers_finds_a_server_advertised_on_another_host_with_its_counts(lan):
    server, client = lan.add_host("server"), lan.add_host("client")
    _proc, out = advertiser(lan, server, "Dorm 4.2 «Верю»", "0.0.0.0")
    wait_for("the announcement", lambda: out.find(r"^advertising "), 15)

    status, found, _ = servers(lan, client)

    assert status == 0
    assert found == [
        {
            "name": "Dorm 4.2 «Верю»",
            "address": "10.77.0.1",
            "port": PORT,
            "tables": 1,
            "free": 3,
            "proto": 1,
            "addresses": ["10.77.0.1"],
            "instance": "Dorm 4 2 «Верю»",
        }
    ]

    # `neveryu join` without a host (in a terminal: a pty) shows the same server to pick from.
    terminal, its_end = pty.openpty()
    join = lan.popen(
        client,
        [sys.executable, "-m", "neveryu.client.cli", "join"],
        stdin=its_end,
        stdout=its_end,
        stderr=its_end,
    )
    os.close(its_end)
    shown = read_until(terminal, "Join this server?", 20)
    os.write(terminal, b"q\n")
    assert join.wait(timeout=10) == 1
    os.close(terminal)
    assert shown.replace("\r\n", "\n").splitlines() == [
        "Looking for servers on the local network (3 s)...",
        "#  NAME             ADDRESS         TABLES  FREE SEATS  PROTOCOL",
        "1  Dorm 4.2 «Верю»  10.77.0.1:7420  1       3           1",
        "Join this server? [Enter: yes, q: quit] ",
    ]


def read_until(fd: int, text: str, timeout: float) -> str:
    """What a program wrote on the terminal *fd* up to and including *text* (UTF-8), read
    within *timeout* seconds."""
    got = b""
    deadline = time.monotonic() + timeout
    while text.encode() not in got:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(left, 0))
        if not ready:
            raise AssertionError(
                f"{text!r} not shown within {timeout} s; shown: {got.decode(errors='replace')!r}"
            )
        got += os.read(fd, 4096)
    return got.decode()


def test_new_counts_reach_browsers_and_a_goodbye_removes_the_server(lan):
    server, client = lan.add_host("server"), lan.add_host("client")
    proc, out = advertiser(lan, server, "dorm", "10.77.0.1")
    wait_for("the announcement", lambda: out.find(r"^advertising "), 15)
    say(proc, "update 2 0")
    wait_for("the update", lambda: out.find(r"^updated$"), 10)

    status, found, _ = servers(lan, client, "--interface", "eth0")
    assert status == 0
    assert [(s["name"], s["tables"], s["free"]) for s in found] == [("dorm", 2, 0)]

    say(proc, "quit")
    closed = wait_for("the withdrawal", lambda: out.find(r"^closed ([\d.]+)$"), 10)
    assert float(closed.group(1)) <= budget.seconds(1.5)  # CLOSE_TIMEOUT and a little, on an idle machine
    assert proc.wait(timeout=10) == 0

    status, found, hint = servers(lan, client)
    assert (status, found) == (1, [])
    assert "neveryu join HOST[:PORT]" in hint
    assert "firewall" in hint and "subnet" in hint and "multicast" in hint


def test_a_server_on_loopback_or_told_not_to_advertise_sends_nothing_and_is_not_found(lan):
    server, client = lan.add_host("server"), lan.add_host("client")
    serves = [
        lan.neveryu(server, "serve", "--name", "hidden", "--host", "127.0.0.1", "--port", "7421"),
        lan.neveryu(server, "serve", "--name", "quiet", "--no-advertise", "--port", "7422"),
    ]
    for proc, port in zip(serves, (7421, 7422)):
        out = Lines(proc.stdout)
        wait_for("the server to listen", lambda out=out, port=port: out.find(f"port {port}"), 15)

    status, found, _ = servers(lan, client)

    assert (status, found) == (1, [])
    assert lan.sent_packets(server) == 0
    assert [proc.poll() for proc in serves] == [None, None]


def test_servers_on_an_unknown_interface_says_so(lan):
    client = lan.add_host("client")
    done = lan.run(
        client, [sys.executable, "-m", "neveryu.client.cli", "servers", "--interface", "wlan9"], timeout=15
    )
    assert done.returncode == 2
    assert "no network interface named 'wlan9' (there are: eth0, lo)" in done.stderr
