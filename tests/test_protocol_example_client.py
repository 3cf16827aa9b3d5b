"""scripts/example_client.py (standard library + msgpack, written from docs/PROTOCOL.md) plays a
whole deal against a real server over TCP on 127.0.0.1, in a subprocess under a deadline, and
checks the fair deal: its fair deal 2 shuffle gives the test vectors of docs/PROTOCOL.md, and
against a server without a fixed seed it contributes and finds the deck fairly shuffled."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import budget
import pytest

from neveryu import server

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "example_client.py"


def test_example_client_imports_nothing_of_ours():
    tree = ast.parse(SCRIPT.read_text("utf-8"))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert modules - {"__future__"} <= set(sys.stdlib_module_names) | {"msgpack"}


def example_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("example_client", SCRIPT)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


def test_example_client_shuffles_as_the_test_vectors_say():
    from test_fair_deal import VECTORS

    example = example_module()
    assert len(VECTORS) == 3
    for v in VECTORS:
        assert example.fair_deck(v["seed"], v["kind"], v["contributions"]) == v["deck"]


@pytest.fixture(scope="module")
def fair_server_port():
    """A server without a fixed seed: every deal is a fair deal 2 with contributions."""
    from neveryu import server

    config = server.ServerConfig(host="127.0.0.1", port=0, seed=None).evolve(
        table={"bot_delay_ms": 0, "challenge_window_ms": 30, "tie_window_ms": 5, "contribute_ms": 30_000},
        limits={"max_tables_per_address": 64},
    )
    running = server.start_in_thread(config)
    try:
        yield running.port
    finally:
        running.stop()


@pytest.mark.parametrize("variant", ["verish", "hoyle-three"])
def test_example_client_contributes_and_checks_fair_deal_2(fair_server_port, variant):
    """The window is 30 s and the bots are the server's: the deal starts at once only because
    the example client contributes."""
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--port",
            str(fair_server_port),
            "--variant",
            variant,
            "--timeout",
            str(round(budget.seconds(25))),
            *bot_args(),
        ],
        capture_output=True,
        text=True,
        timeout=budget.seconds(60),
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.splitlines()[-2:] == [
        "fair deal: the commitment matches",
        "fair deal 2: the deck was shuffled fairly: nobody could choose it",
    ]


@pytest.fixture(scope="module")
def server_port():
    config = server.ServerConfig(host="127.0.0.1", port=0, seed=3).evolve(
        table={"bot_delay_ms": 0, "challenge_window_ms": 30, "tie_window_ms": 5},
        limits={"max_tables_per_address": 64},  # every test here makes a table from 127.0.0.1
    )
    running = server.start_in_thread(config)
    try:
        yield running.port
    finally:
        running.stop()


def bot_args() -> list[str]:
    """The bots' strength, where the server's welcome does not name one (null then works too)."""
    from neveryu.server._bots import strengths

    return ["--bot", strengths()[0]]


@pytest.mark.parametrize(
    "variant", ["verish", "veryu", "lozh", "hoyle", "hoyle-three", "cheat", "cheat-free"]
)
def test_example_client_plays_a_whole_deal(server_port, variant):
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--host",
            "127.0.0.1",
            "--port",
            str(server_port),
            "--variant",
            variant,
            "--timeout",
            str(round(budget.seconds(40))),
            *bot_args(),
        ],
        capture_output=True,
        text=True,
        timeout=budget.seconds(60),
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "connected to neveryu (protocol 1.2)"
    assert lines[1].startswith("table ") and f": {variant}, you at seat 0 with " in lines[1]
    assert any(line.startswith("the deal is over: ") for line in lines)
    assert lines[-2:] == [
        "fair deal: the commitment matches",
        "fair deal 2: the deck is the one the table's fixed seed makes (whoever knows that seed knew it)",
    ]


@pytest.mark.parametrize("variant", ["veryu", "hoyle-three"])
@pytest.mark.parametrize("fair", [False, True], ids=["seeded", "fair2"])
def test_every_frame_the_server_sends_matches_the_schema(request, variant, fair, monkeypatch, capsys):
    """The contract, checked on the server: run the example client in-process, keep every
    message it receives, validate each against the schema of its type (at a seeded table, and
    at one that takes contributions: ``seed_committed``)."""
    import jsonschema

    from neveryu import protocol

    server_port = request.getfixturevalue("fair_server_port" if fair else "server_port")
    example = example_module()
    received: list[dict] = []
    receive = example.Client.receive
    monkeypatch.setattr(
        example.Client, "receive", lambda self: received.append(receive(self)) or received[-1]
    )
    assert (
        example.main(
            [
                "--port",
                str(server_port),
                "--variant",
                variant,
                "--timeout",
                str(round(budget.seconds(40))),
                *bot_args(),
            ]
        )
        == 0
    )
    defs = protocol.build_schema()["$defs"]
    validators: dict[str, jsonschema.Draft202012Validator] = {}
    for msg in received:
        key = f"{'reply' if 're' in msg else 'event'}.{msg['t']}"
        assert key in defs, key
        if key not in validators:
            validators[key] = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{key}", "$defs": defs})
        validators[key].validate(msg)
    assert {"reply.welcome", "event.deal_started", "event.legal", "event.deal_ended"} <= set(validators)
    assert ("event.seed_committed" in validators) == fair
