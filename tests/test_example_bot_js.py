"""scripts/example_bot.js (Node.js, no packages: its own msgpack subset), written from
docs/PROTOCOL.md and docs/BOTS.md, plays a whole deal of every variant against a real server over
TCP on 127.0.0.1, in a subprocess under a deadline, as the example client does."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import budget
import pytest

from neveryu import engine

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "example_bot.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="node (Node.js) is not installed: the JS example bot cannot run"
)


def test_example_bot_needs_no_packages():
    required = set(re.findall(r"require\(\"([^\"]+)\"\)", SCRIPT.read_text("utf-8")))
    assert required == {"net", "crypto"}  # Node's own modules


@pytest.fixture(scope="module")
def server_port():
    from neveryu import server

    config = server.ServerConfig(host="127.0.0.1", port=0, seed=3).evolve(
        table={"bot_delay_ms": 0, "challenge_window_ms": 30, "tie_window_ms": 5},
        limits={"max_tables_per_address": 64},
    )
    running = server.start_in_thread(config)
    try:
        yield running.port
    finally:
        running.stop()


@needs_node
@pytest.mark.parametrize("variant", list(engine.VARIANTS))
def test_example_bot_plays_a_whole_deal(server_port, variant):
    limit = budget.seconds(60)  # (a hoyle-three deal runs to a couple of thousand sets)
    result = subprocess.run(
        [
            NODE,
            str(SCRIPT),
            "--port",
            str(server_port),
            "--variant",
            variant,
            "--timeout",
            str(round(limit)),
            "--bot",
            "sharp",
        ],
        capture_output=True,
        text=True,
        timeout=limit + 30,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "connected to neveryu (protocol 1.2)"
    assert lines[1].startswith("table ") and f": {variant}, you at seat 0 with " in lines[1]
    assert lines[-1].startswith("the deal is over: seat ")
