"""Playing across hosts: `neveryu serve` in one network namespace, clients in two others that find
it with DNS-SD and play a whole deal through the real TCP stack between hosts. Every packet stays
inside namespaces this file creates (tests/lan_netns.py); skipped without root or iproute2.
tests/test_lan_resume.py pulls a cable mid-deal."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from lan_netns import Lan, Lines, skip_reason, wait_for

_why_not = skip_reason()
pytestmark = pytest.mark.skipif(_why_not is not None, reason=_why_not or "")

PORT = 7420
CONFIG = """\
name = "lan game"
[table]
variant = "verish"
seats = 2
deals = {deals}
bot_delay_ms = 50
deal_pause_ms = 200
grace_ms = 0
{limits}"""


@pytest.fixture
def lan():
    with Lan() as lan:
        yield lan


def start_server(
    lan: Lan, host, tmp_path, deals: int, limits: str = ""
) -> tuple[subprocess.Popen, Lines, Lines]:
    config = tmp_path / "server.toml"
    config.write_text(CONFIG.format(deals=deals, limits=limits))
    proc = lan.neveryu(host, "serve", "--config", str(config), "--port", str(PORT))
    out, log = Lines(proc.stdout), Lines(proc.stderr)
    wait_for("the server to advertise", lambda: log.find(r"advertising 'lan game'"), 15)
    return proc, out, log


def browse(lan: Lan, host) -> list[dict]:
    done = lan.run(
        host, [sys.executable, "-m", "neveryu.client.cli", "servers", "--json", "--timeout", "2"], timeout=20
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_two_hosts_find_the_server_and_play_a_whole_deal(lan, tmp_path):
    server, ann_host, bob_host = lan.add_host("server"), lan.add_host("ann"), lan.add_host("bob")
    proc, out, _log = start_server(lan, server, tmp_path, deals=1)
    assert out.lines[:3] == [
        f"Listening on every interface, port {PORT}. Others on the network can join with:",
        f"  neveryu join 10.77.0.1:{PORT}    (eth0)",
        f"(a firewall on this machine must let in TCP port {PORT})",
    ]

    [found] = browse(lan, ann_host)
    assert (found["name"], found["address"], found["port"], found["proto"]) == (
        "lan game",
        "10.77.0.1",
        PORT,
        1,
    )
    assert (found["tables"], found["free"]) == (0, 0)

    bot = (
        "bot",
        "--host",
        found["address"],
        "--port",
        str(found["port"]),
        "--matches",
        "1",
        "--delay-ms",
        "0",
    )
    ann = lan.neveryu(ann_host, *bot, "--name", "ann", "--seed", "1")
    ann_log = Lines(ann.stderr)
    wait_for("ann to sit down", lambda: ann_log.find(r"ann sits at seat 1 of table 1"), 15)

    # Bob's host sees the table ann made, with its free seat, once the server re-announced.
    seen = wait_for(
        "the new counts", lambda: [s for s in browse(lan, bob_host) if (s["tables"], s["free"]) == (1, 1)], 15
    )
    assert seen[0]["address"] == "10.77.0.1"

    bob = lan.neveryu(bob_host, *bot, "--name", "bob", "--seed", "2")
    assert ann.wait(timeout=60) == 0, Lines(ann.stdout).text() + ann_log.text()
    assert bob.wait(timeout=10) == 0
    assert ann.stdout.read().strip() == "neveryu bot: played 1 deal in 1 match"
    assert bob.stdout.read().strip() == "neveryu bot: played 1 deal in 1 match"
    assert proc.poll() is None  # the server is still up
