"""``neveryu conformance client``: every case of the catalogue against a client program, each
on its own listening socket on 127.0.0.1 (docs/CONFORMANCE.md, "The client direction").

The client is a command started afresh for each case (``{host}`` and ``{port}`` in its
arguments are replaced, and ``NEVERYU_HOST``, ``NEVERYU_PORT``, ``NEVERYU_CASE`` and
``NEVERYU_VARIANT`` are set), or, without a command, a program the author starts by himself and
points at the address printed for each case.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from typing import Any

import trio

from .catalogue import Case
from .report import Result
from .scripted import Outcome, Script

OUTPUT_TAIL = 2000  # characters of the client's output kept with a failure


async def run_cases(
    cases: list[Case],
    command: list[str] | None,
    *,
    heartbeat_ms: int = 1000,
    without: frozenset[str] = frozenset(),
    port: int = 0,
    connect_s: float = 10.0,
    jobs: int = 1,
    announce: Callable[[str], None] = print,
) -> list[Result]:
    """Each case's result, in catalogue order. ``without``: features the client lacks
    (catalogue.FEATURES): cases needing one are not applicable. ``jobs``: cases run at once
    (each on its own port; 1 when ``port`` is fixed)."""
    results: dict[str, Result] = {}
    limit = trio.CapacityLimiter(1 if port else jobs)

    async def one(case: Case) -> None:
        async with limit:
            results[case.name] = await run_case(
                case, command, heartbeat_ms, without, port, connect_s, announce
            )

    async with trio.open_nursery() as nursery:
        for case in cases:
            if case.client is not None:
                nursery.start_soon(one, case)
    return [results[c.name] for c in cases if c.name in results]


async def run_case(
    case: Case,
    command: list[str] | None,
    heartbeat_ms: int,
    without: frozenset[str],
    port: int,
    connect_s: float,
    announce: Callable[[str], None],
) -> Result:
    lacking = sorted(set(case.needs) & without)
    if lacking:
        return Result(case.name, case.section, "n/a", f"the client has no {', '.join(lacking)}")
    start = trio.current_time()
    beat = heartbeat_ms / 1000
    script = Script(case, beat, 4.5 * beat, connect_s)
    (listener,) = await trio.open_tcp_listeners(port, host="127.0.0.1")
    address = listener.socket.getsockname()
    output: list[bytes] = []
    async with listener, trio.open_nursery() as nursery:
        process = None
        if command is None:
            announce(f"case {case.name}: connect the client to {address[0]}:{address[1]}")
        else:
            process = await nursery.start(
                _client, _command(command, address), _env(case, address), output, script.exited
            )
        outcome: Outcome = await script.run(listener)
        if process is not None:
            await _stop(process)
        nursery.cancel_scope.cancel()
    tail = b"".join(output).decode("utf-8", "replace")[-OUTPUT_TAIL:]
    seconds = trio.current_time() - start
    return Result(
        case.name, case.section, outcome.status, outcome.detail, outcome.frame, round(seconds, 3), tail
    )


def _command(command: list[str], address: tuple[str, int]) -> list[str]:
    return [a.replace("{host}", address[0]).replace("{port}", str(address[1])) for a in command]


def _env(case: Case, address: tuple[str, int]) -> dict[str, str]:
    return {
        **os.environ,
        "NEVERYU_HOST": address[0],
        "NEVERYU_PORT": str(address[1]),
        "NEVERYU_CASE": case.name,
        "NEVERYU_VARIANT": (case.table or {}).get("variant", "verish"),
    }


async def _client(
    command: list[str],
    env: dict[str, str],
    output: list[bytes],
    exited: Callable[[int | None], None],
    task_status: Any = trio.TASK_STATUS_IGNORED,
) -> None:
    """Start the client; keep what it prints until it ends, then tell ``exited`` its status."""
    process = await trio.lowlevel.open_process(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    task_status.started(process)
    assert process.stdout is not None
    async with process.stdout:
        while data := await process.stdout.receive_some(65_536):
            output.append(bytes(data))
            if len(output) > 64:
                output[:] = [b"".join(output)[-OUTPUT_TAIL:]]
    await process.wait()
    exited(process.returncode)


async def _stop(process: trio.Process) -> None:
    """End the client: terminate, then kill after a second."""
    if process.returncode is None:
        process.terminate()
        with trio.move_on_after(1):
            await process.wait()
        if process.returncode is None:
            process.kill()
    await process.wait()
