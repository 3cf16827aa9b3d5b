"""A client whose cable is pulled mid-deal (`ip link set ... down` on its bridge port) loses its
seat to a bot after the heartbeat timeout while the deal goes on, and takes the seat back when the
cable is plugged in again, across real network interfaces. Every packet stays inside namespaces this
file creates (tests/lan_netns.py); skipped without root or iproute2."""

from __future__ import annotations

import sys
import time

import pytest
from lan_netns import Lan, Lines, skip_reason, wait_for
from test_lan_game import PORT, start_server

_why_not = skip_reason()
pytestmark = pytest.mark.skipif(_why_not is not None, reason=_why_not or "")

IDLE_MS = 1000  # the server drops a silent peer after this ([limits] idle_ms)
LIMITS = f"[limits]\nheartbeat_ms = 250\nidle_ms = {IDLE_MS}\n"


@pytest.fixture
def lan():
    with Lan() as lan:
        yield lan


def test_a_cut_link_loses_the_seat_to_a_bot_and_the_player_resumes(lan, tmp_path):
    server, ann_host, bob_host = lan.add_host("server"), lan.add_host("ann"), lan.add_host("bob")
    _, _, log = start_server(lan, server, tmp_path, deals=2, limits=LIMITS)

    errors: dict[str, Lines] = {}

    def player(host, name: str, seed: int):
        argv = [
            sys.executable,
            "tests/lan_player.py",
            "10.77.0.1",
            str(PORT),
            name,
            "--idle",
            str(IDLE_MS / 1000),
            "--delay",
            "0.05",
            "--seed",
            str(seed),
        ]
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
    wait_for(
        "ann's seat to go away", lambda: bob_out.find(r"^event table_update away=\[0\]$"), 10, detail=both
    )
    away_after = time.monotonic() - cut_at
    assert IDLE_MS / 1000 - 0.1 <= away_after < IDLE_MS / 1000 + 3
    wait_for("ann to notice", lambda: ann_out.find(r"^lost "), 10, detail=both)
    away_line = bob_out.lines.index("event table_update away=[0]")
    # The deal goes on: bob keeps getting the table's moves, the bot playing ann's seat.
    wait_for("moves while ann is away", lambda: len(_moves(bob_out.lines[away_line:])) >= 2, 15, detail=both)
    assert "done" not in " ".join(bob_out.lines)

    lan.mend(ann_host)
    wait_for("ann to resume", lambda: "resumed" in ann_out.lines, 15, detail=both)
    wait_for(
        "ann's seat to come back",
        lambda: "event table_update away=[]" in bob_out.lines[away_line:],
        10,
        detail=both,
    )
    wait_for("the match to end", lambda: ann.poll() is not None and bob.poll() is not None, 60, detail=both)
    assert (ann.returncode, bob.returncode) == (0, 0), ann_out.text() + "\n---\n" + bob_out.text()
    assert ann_out.lines[-1] == bob_out.lines[-1] == "done 2 1"
    assert [line for line in ann_out.lines if line.startswith(("lost", "resumed"))] == [
        "lost (TooSlowError)",
        "resumed",
    ]


def _moves(lines: list[str]) -> list[str]:
    return [
        line
        for line in lines
        if line in ("event set_laid", "event challenged", "event believed", "event pile_taken")
    ]
