"""The conformance kit (docs/CONFORMANCE.md) over real sockets on 127.0.0.1: the project's
example client and bot client pass the client direction, a deliberately broken client
(tests/data/conformance/broken_client.py) fails exactly the cases of its faults, ``neveryu serve``
passes the server direction, and the catalogue covers every message type of the schema."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import trio

from neveryu import protocol
from neveryu.client import cli
from neveryu.client.conformance import answers, catalogue, patterns, probe, report, run_client

ROOT = Path(__file__).resolve().parent.parent
BEAT_MS = 300  # welcome.heartbeat_ms told; idle_ms is 4.5 times it
DEADLINE_S = 120  # a whole run of the catalogue, on a loaded machine
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


def run(command: list[str], without: frozenset[str] = frozenset()) -> dict[str, report.Result]:
    cases = catalogue.load()

    async def bounded() -> list[report.Result]:
        with trio.fail_after(DEADLINE_S):
            return await run_client.run_cases(
                cases, command, heartbeat_ms=BEAT_MS, without=without, jobs=3, connect_s=20
            )

    return {r.case: r for r in trio.run(bounded)}


def failures(results: dict[str, report.Result]) -> dict[str, tuple[str, object, str]]:
    return {n: (r.detail, r.frame, r.output[-500:]) for n, r in results.items() if r.status == "fail"}


def test_the_example_client_passes_every_case() -> None:
    results = run(EXAMPLE)
    assert failures(results) == {}
    assert set(results) == {c.name for c in catalogue.load() if c.client is not None}
    assert {r.status for r in results.values()} == {"pass"}


@pytest.mark.raw_messages
async def test_the_bot_client_passes_every_case() -> None:
    """The bot of ``neveryu bot`` (``play_bot``), connecting by itself to each address the kit
    prints, and coming back after a drop as it does."""
    from neveryu.client.botclient import ConnectionClosed
    from neveryu.client.botseat import play_bot

    async def bot(port: int) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):  # the case's end closes the connection
            await play_bot("127.0.0.1", port, matches=1, resume_for_s=2.0)

    with trio.fail_after(DEADLINE_S):
        async with trio.open_nursery() as nursery:

            def announce(line: str) -> None:
                nursery.start_soon(bot, int(re.search(r":(\d+)$", line).group(1)))

            found = await run_client.run_cases(
                catalogue.load(),
                None,
                heartbeat_ms=BEAT_MS,
                jobs=3,
                announce=announce,
            )
    results = {r.case: r for r in found}
    assert failures(results) == {}
    assert {r.status for r in results.values()} == {"pass"}


def test_a_client_that_exits_before_its_hello_fails_at_once_with_its_status() -> None:
    (case,) = [c for c in catalogue.load() if c.name == "handshake"]
    command = [sys.executable, "-c", "import sys; print('no module here'); sys.exit(3)"]

    async def bounded() -> list[report.Result]:
        with trio.fail_after(DEADLINE_S):  # the connect time below is longer: it is not waited for
            wait_s = 10 * DEADLINE_S
            return await run_client.run_cases([case], command, heartbeat_ms=BEAT_MS, connect_s=wait_s)

    (result,) = trio.run(bounded)
    assert result.status == "fail"
    assert result.detail == "the client exited (status 3) before it connected and said hello"
    assert result.output.strip() == "no module here"


def test_a_broken_client_fails_exactly_the_cases_of_its_faults() -> None:
    results = run(BROKEN)
    failed = {n: r.detail for n, r in results.items() if r.status == "fail"}
    assert set(failed) == {"events-cheat", "heartbeat-idle", "unknown-kinds", "resume-overlap"}
    assert failed["events-cheat"] == "lay of cards the hand does not hold: 2C"
    assert results["events-cheat"].frame["cards"][-1] == "2C"
    assert failed["heartbeat-idle"].startswith(
        f"sent nothing for {4.5 * BEAT_MS:.0f} ms (welcome.limits.idle_ms)"
    )
    assert failed["unknown-kinds"].startswith(f"expected ['lay'] within {6 * BEAT_MS} ms")
    assert failed["resume-overlap"] == "lay of cards the hand does not hold: KD"
    assert list(results["resume-overlap"].frame["cards"]) == ["KC", "KD", "KD"]


@pytest.fixture
def server_port(tmp_path: Path, records_db: str):
    """``neveryu serve`` on 127.0.0.1, port 0, its bots without delay."""
    config = tmp_path / "server.toml"
    config.write_text("[table]\nbot_delay_ms = 0\ncontribute_ms = 500\n", encoding="utf-8")
    command = ["serve", "--host", "127.0.0.1", "--port", "0", "--no-advertise", "--config", str(config)]
    with (tmp_path / "server.log").open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "neveryu.client.cli", *command, "--db", records_db],
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
    try:
        assert server.stdout is not None
        yield int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_neveryu_serve_passes_every_case(
    server_port: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "report.xml"
    address = f"127.0.0.1:{server_port}"
    status = cli.main(["conformance", "server", address, "--timeout", "10", "--json", "--junit", str(junit)])
    out = json.loads(capsys.readouterr().out)
    assert status == 0, out
    served = [c.name for c in catalogue.load() if c.server is not None]
    assert [c["case"] for c in out["cases"]] == served
    assert out["totals"] == {"pass": len(served), "fail": 0, "n/a": 0}
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == str(len(served)) and suite.get("failures") == "0"


async def watch(port: int) -> None:
    """A client that only watches: hello, spectate, then reads (and pings) until the end."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    wire = protocol.Connection("client")
    hello = {
        "t": "hello",
        "id": 1,
        "proto": [1, 1],
        "client": {"name": "watcher", "version": "1"},
        "name": "w",
    }
    await stream.send_all(wire.send(hello) + wire.send({"t": "spectate", "id": 2, "table": 1}))
    ids, sent = 2, trio.current_time()
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        while True:
            with trio.move_on_at(sent + BEAT_MS / 1000):
                if not await stream.receive_some(65_536):
                    return
            if trio.current_time() >= sent + BEAT_MS / 1000:
                ids, sent = ids + 1, trio.current_time()
                await stream.send_all(wire.send({"t": "ping", "id": ids}))


@pytest.mark.raw_messages
async def test_a_client_that_only_watches_gets_the_cases_of_a_seat_not_applicable() -> None:
    cases = catalogue.load(["bye-shutdown", "events-lozh"])
    with trio.fail_after(DEADLINE_S):
        async with trio.open_nursery() as nursery:

            def announce(line: str) -> None:
                nursery.start_soon(watch, int(re.search(r":(\d+)$", line).group(1)))

            found = await run_client.run_cases(cases, None, heartbeat_ms=BEAT_MS, announce=announce)
    assert [(r.case, r.status, r.detail) for r in found] == [
        ("bye-shutdown", "pass", ""),
        ("events-lozh", "n/a", "the client watches (spectate): the case needs a seat"),
    ]
    suite = ET.fromstring(report.junit(found, "client"))
    assert suite.get("skipped") == "1" and suite.find("testcase[@name='events-lozh']/skipped") is not None


def test_a_broken_case_file_is_refused() -> None:
    with pytest.raises(catalogue.CaseError, match="unknown keys"):
        catalogue.parse(
            "x", {"section": "1. Transport and framing", "about": "a", "client": [{"quiet": 1}], "z": 1}
        )
    with pytest.raises(catalogue.CaseError, match="exactly one of"):
        catalogue.parse(
            "x", {"section": "1. Transport and framing", "about": "a", "client": [{"quiet": 1, "drop": 1}]}
        )
    with pytest.raises(catalogue.CaseError, match="unknown features"):
        catalogue.parse("x", {"section": "s", "about": "a", "needs": ["chat"], "server": [{"drop": 1}]})


def test_the_probe_finds_a_card_shown_to_the_wrong_seat() -> None:
    laid = {"t": "set_laid", "seq": 9, "ts": 0, "seat": 1, "set_no": 2, "rank": "K", "count": 1, "size": 1}
    assert probe.hidden_problem({**laid, "cards": None}, 0) is None
    assert probe.hidden_problem({**laid, "cards": ["KS"]}, 1) is None
    assert probe.hidden_problem({**laid, "cards": ["KS"]}, 0) == (
        "set_laid.cards of another seat reached this one (6. Who sees what)"
    )
    assert probe.hidden_problem({**laid, "cards": ["KS"]}, None) is not None
    state = {"t": "state", "seq": 10, "ts": 0, "seat": None, "hand": ["AS"]}
    assert (
        probe.hidden_problem(state, None)
        == "a spectator got a state with a hand or a legal (6. Who sees what)"
    )


def test_the_scripted_server_speaks_as_a_server_of_version_1_2() -> None:
    """``welcome.minor`` 2, and every seat summary with its ``absent``; ``players`` seats other
    players after the client, and ``$table.absent.N`` shows one of them absent."""
    assert answers.welcome(1, 1000, 4500)["minor"] == 2
    spec = {"variant": "verish", "seats": 3, "players": ["ann"]}
    seats = answers.table(spec, "me", ready=True, playing=True)["seats"]
    assert [(s["name"], s["bot"], s["absent"]) for s in seats] == [
        ("me", None, False),
        ("ann", None, False),
        ("bot 3", "sharp", False),
    ]
    known = patterns.Known({}, {}, 0, "token", answers.table(spec, "me", ready=True, playing=True))
    absent = patterns.fill({"t": "table_update", "table": "$table.absent.1"}, known)["table"]
    assert [s["absent"] for s in absent["seats"]] == [False, True, False]
    assert [s["absent"] for s in known.table["seats"]] == [False, False, False]  # (a copy changed)
    with pytest.raises(catalogue.CaseError, match="no seat for the client"):
        catalogue.parse(
            "x",
            {
                "section": "s",
                "about": "a",
                "table": {"variant": "verish", "seats": 2, "players": ["a", "b"]},
                "client": [{"quiet": 1}],
            },
        )


def test_a_pattern_matches_a_list_item_by_item() -> None:
    seats = [{"seat": 0, "name": "a", "absent": False}, {"seat": 1, "name": "b", "absent": True}]
    assert patterns.mismatch([{"name": "a"}, {"absent": True}], seats) is None
    assert patterns.mismatch([{}, {"absent": False}], seats) == "[1].absent should be False, not True"
    assert patterns.mismatch({"seats": [{}, {"absent": False}]}, {"seats": seats}) == (
        "seats[1].absent should be False, not True"
    )
    assert patterns.mismatch({"seats": [{}]}, {"seats": seats}).startswith("seats should be [{}], not [")
    assert patterns.mismatch([1, 2], [1, 2]) is None and patterns.mismatch([1, 2], [2, 1]) is not None
