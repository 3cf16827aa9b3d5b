"""Playing across hosts: `neveryu serve` in one network namespace, clients in two others that
find it with DNS-SD and play through the real TCP stack; a client whose cable is pulled
mid-deal loses its seat to a bot after the heartbeat timeout and takes it back when the cable
is plugged in again (issue 10). Every packet stays inside namespaces this file creates
(tests/lan_netns.py); skipped without root or iproute2."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from lan_netns import Lan, Lines, skip_reason, wait_for

_why_not = skip_reason()
pytestmark = pytest.mark.skipif(_why_not is not None, reason=_why_not or "")

PORT = 7420
IDLE_MS = 1000  # the server drops a silent peer after this ([limits] idle_ms)
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
LIMITS = f"[limits]\nheartbeat_ms = 250\nidle_ms = {IDLE_MS}\n"


@pytest.fixture
def lan():
    with Lan() as lan:
        yield lan


def start_server(lan: Lan, host, tmp_path, deals: int, limits: str = "") -> tuple[subprocess.Popen, Lines, Lines]:
    config = tmp_path / "server.toml"
    config.write_text(CONFIG.format(deals=deals, limits=limits))
    proc = lan.neveryu(host, "serve", "--config", str(config), "--port", str(PORT))
    out, log = Lines(proc.stdout), Lines(proc.stderr)
    wait_for("the server to advertise", lambda: log.find(r"advertising 'lan game'"), 15)
    return proc, out, log


def browse(lan: Lan, host) -> list[dict]:
    done = lan.run(host, [sys.executable, "-m", "client.cli", "servers", "--json", "--timeout", "2"], timeout=20)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_two_hosts_find_the_server_and_play_a_whole_deal(lan, tmp_path):
    server, ann_host, bob_host = lan.add_host("server"), lan.add_host("ann"), lan.add_host("bob")
    proc, out, log = start_server(lan, server, tmp_path, deals=1)
    assert out.lines[:3] == [
        f"Listening on every interface, port {PORT}. Others on the network can join with:",
        f"  neveryu join 10.77.0.1:{PORT}    (eth0)",
        f"(a firewall on this machine must let in TCP port {PORT})",
    ]

    [found] = browse(lan, ann_host)
    assert (found["name"], found["address"], found["port"], found["proto"]) == ("lan game", "10.77.0.1", PORT, 1)
    assert (found["tables"], found["free"]) == (0, 0)

    bot = ("bot", "--host", found["address"], "--port", str(found["port"]), "--matches", "1", "--delay-ms", "0")
    ann = lan.neveryu(ann_host, *bot, "--name", "ann", "--seed", "1")
    ann_log = Lines(ann.stderr)
    wait_for("ann to sit down", lambda: ann_log.find(r"ann sits at seat 0 of table 1"), 15)

    # Bob's host sees the table ann made, with its free seat, once the server re-announced.
    seen = wait_for("the new counts", lambda: [s for s in browse(lan, bob_host) if (s["tables"], s["free"]) == (1, 1)], 15)
    assert seen[0]["address"] == "10.77.0.1"

    bob = lan.neveryu(bob_host, *bot, "--name", "bob", "--seed", "2")
    assert ann.wait(timeout=60) == 0, Lines(ann.stdout).text() + ann_log.text()
    assert bob.wait(timeout=10) == 0
    assert ann.stdout.read().strip() == "neveryu bot: played 1 deals in 1 matches"
    assert bob.stdout.read().strip() == "neveryu bot: played 1 deals in 1 matches"
    assert proc.poll() is None  # the server is still up


def test_a_cut_link_loses_the_seat_to_a_bot_and_the_player_resumes(lan, tmp_path):
    server, ann_host, bob_host = lan.add_host("server"), lan.add_host("ann"), lan.add_host("bob")
    _, _, log = start_server(lan, server, tmp_path, deals=2, limits=LIMITS)

    errors: dict[str, Lines] = {}

    def player(host, name: str, seed: int):
        argv = [sys.executable, "tests/lan_player.py", "10.77.0.1", str(PORT), name,
                "--idle", str(IDLE_MS / 1000), "--delay", "0.05", "--seed", str(seed)]
        proc = lan.popen(host, argv)
        errors[name] = Lines(proc.stderr)
        return proc, Lines(proc.stdout)

    ann, ann_out = player(ann_host, "ann", 1)
    bob_out = Lines(iter(()))

    def both() -> str:
        err = "".join(f"\n{name} stderr:\n{lines.text()}" for name, lines in errors.items())
        return f"ann:\n{ann_out.text()}\nbob:\n{bob_out.text()}{err}\nserver:\n{log.text()}"

    wait_for("ann to sit down", lambda: ann_out.find(r"^seat 0 table 1$"), 15, detail=both)
    bob, bob_out = player(bob_host, "bob", 2)
    wait_for("the deal to be under way", lambda: ann_out.lines.count("event legal") >= 2, 15, detail=both)

    lan.cut(ann_host)
    cut_at = time.monotonic()
    wait_for("ann's seat to go away", lambda: bob_out.find(r"^event table_update away=\[0\]$"), 10, detail=both)
    away_after = time.monotonic() - cut_at
    assert IDLE_MS / 1000 - 0.1 <= away_after < IDLE_MS / 1000 + 3
    wait_for("ann to notice", lambda: ann_out.find(r"^lost "), 10, detail=both)
    away_line = bob_out.lines.index("event table_update away=[0]")
    # The deal goes on: bob keeps getting the table's moves, the bot playing ann's seat.
    wait_for("moves while ann is away", lambda: len(_moves(bob_out.lines[away_line:])) >= 2, 15, detail=both)
    assert "done" not in " ".join(bob_out.lines)

    lan.mend(ann_host)
    wait_for("ann to resume", lambda: "resumed" in ann_out.lines, 15, detail=both)
    wait_for("ann's seat to come back", lambda: "event table_update away=[]" in bob_out.lines[away_line:], 10, detail=both)
    wait_for("the match to end", lambda: ann.poll() is not None and bob.poll() is not None, 60, detail=both)
    assert (ann.returncode, bob.returncode) == (0, 0), ann_out.text() + "\n---\n" + bob_out.text()
    assert ann_out.lines[-1] == bob_out.lines[-1] == "done 2 1"
    assert [line for line in ann_out.lines if line.startswith(("lost", "resumed"))] == ["lost (TooSlowError)", "resumed"]


def _moves(lines: list[str]) -> list[str]:
    return [line for line in lines if line in ("event set_laid", "event challenged", "event believed", "event pile_taken")]
