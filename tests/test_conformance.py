"""The conformance kit (docs/CONFORMANCE.md) over real sockets on 127.0.0.1: the project's
example client and bot client pass the client direction, a deliberately broken client fails
exactly the cases of its faults, the server passes the server direction, and the catalogue
covers every message type of the schema."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import trio

from neveryu import protocol
from neveryu.client import cli
from neveryu.client.conformance import catalogue, report, run_client

ROOT = Path(__file__).resolve().parent.parent
BEAT_MS = 250
EXAMPLE = [
    sys.executable,
    str(ROOT / "scripts" / "example_client.py"),
    "--host",
    "{host}",
    "--port",
    "{port}",
]
BROKEN = [
    sys.executable,
    str(ROOT / "tests" / "data" / "conformance" / "broken_client.py"),
    "--port",
    "{port}",
]
BOT = [
    sys.executable,
    "-m",
    "neveryu.client.cli",
    "bot",
    "{host}:{port}",
    "--matches",
    "1",
    "--delay-ms",
    "0",
]


def test_the_catalogue_covers_every_message_type_and_the_docs_list_every_case() -> None:
    cases = catalogue.load()
    kinds = set().union(*(c.kinds for c in cases))
    assert set(protocol.REQUESTS) | set(protocol.REPLIES) | set(protocol.EVENTS) <= kinds
    docs = (ROOT / "docs" / "CONFORMANCE.md").read_text("utf-8")
    headings = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    for case in cases:
        assert f"`{case.name}`" in docs, case.name
        for part in case.section.split(" > "):
            assert re.search(rf"^#+ {re.escape(part)}", headings, re.M), (case.name, part)


def run(command: list[str]) -> dict[str, report.Result]:
    cases = catalogue.load()
    results = trio.run(
        lambda: run_client.run_cases(
            cases, command, heartbeat_ms=BEAT_MS, without=frozenset({"resume"}), jobs=3, connect_s=20
        )
    )
    return {r.case: r for r in results}


def needing_resume() -> set[str]:
    return {c.name for c in catalogue.load() if "resume" in c.needs}


@pytest.mark.parametrize("command", [EXAMPLE, BOT], ids=["example_client", "neveryu_bot"])
def test_the_projects_clients_pass(command: list[str]) -> None:
    results = run(command)
    failed = {n: (r.detail, r.frame, r.output[-500:]) for n, r in results.items() if r.status == "fail"}
    assert failed == {}
    assert {n for n, r in results.items() if r.status == "n/a"} == needing_resume()


def test_a_broken_client_fails_exactly_the_cases_of_its_faults() -> None:
    results = run(BROKEN)
    failed = {n: r.detail for n, r in results.items() if r.status == "fail"}
    lays_more = {
        "batch-end",
        "events-cheat",
        "events-hoyle",
        "events-lozh",
        "frames-split",
        "frames-together",
    }
    assert set(failed) == lays_more | {"heartbeat-idle", "unknown-kinds"}
    for name in lays_more:
        assert failed[name] == "lay of cards the hand does not hold: 2C"
        assert results[name].frame["t"] == "lay"
    assert failed["heartbeat-idle"].startswith("sent nothing for 1125 ms")
    assert failed["unknown-kinds"].startswith("expected ['lay'] within")


@pytest.fixture
def server_port():
    from neveryu import server

    config = server.ServerConfig(host="127.0.0.1", port=0).evolve(
        table={"bot_delay_ms": 0, "contribute_ms": 500}
    )
    running = server.start_in_thread(config)
    try:
        yield running.port
    finally:
        running.stop()


def test_the_server_passes_every_case(
    server_port: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "report.xml"
    status = cli.main(["conformance", "server", f"127.0.0.1:{server_port}", "--json", "--junit", str(junit)])
    out = json.loads(capsys.readouterr().out)
    assert status == 0, out
    served = [c.name for c in catalogue.load() if c.server is not None]
    assert out["totals"] == {"pass": len(served), "fail": 0, "n/a": 0}
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == str(len(served)) and suite.get("failures") == "0"
