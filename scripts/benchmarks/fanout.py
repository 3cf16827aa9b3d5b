"""The latency measurement shared by the floor and neveryu: one client of a table sends a
request; the time from the send until every client of the table has decoded the event it causes.

Each client has a reader task that decodes every frame as it arrives, one at a time and in
order (and hands it to the caller's ``on_message``, where game state is kept); the sample ends
when the last client has decoded the event, timed by that client's reader (not when the
measuring task wakes up, after the readers have also gone through the frames that came with the
event: ``turn``, ``legal``). The four clients share this process's one CPU, where four players'
programs each have their own machine: a reader that has decoded the event and has more frames
already received (``FrameStream.pending``) yields to the other readers before it goes on, so
that what one client does with the frames that came after the event (neveryu's ``turn`` and
``legal``) is not counted against another client's decoding of the event itself. Samples
follow each other at once: ``act`` waits until the table is ready for the next one (neveryu:
the next seat has its ``legal`` event and every client its ``turn``). Pausing between samples
instead (``quiet`` s with every task idle) lets both processes' CPUs go idle, and on this VM
waking them adds ~0.5 ms to every sample, the same for the floor and neveryu
(docs/BENCHMARKS.md).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import trio
import trio.testing

from .stats import summary_us
from .wire import FrameStream

Predicate = Callable[[dict], bool]
# act(i) -> (the client that sends, the request, which message is "the event"), or None to stop
Act = Callable[[int], Awaitable[tuple[FrameStream, dict, Predicate] | None]]


async def measure(
    conns: list[FrameStream],
    act: Act,
    samples: int,
    seconds: float,
    on_message: Callable[[int, dict], None] = lambda k, m: None,
    quiet: float | None = None,
) -> dict:
    """Take up to ``samples`` samples for at most ``seconds`` s; returns ``summary_us`` of them
    plus ``"samples"``: the list of durations in seconds, and ``"frames"``: how many frames the
    clients decoded in all (set-up included).
    ``quiet``: pause before each sample until every task has been idle this long (s).
    ``on_message(k, msg)`` sees every frame client ``k`` decodes, in order."""
    out: list[float] = []
    state = {"pred": None, "seen": 0, "done": trio.Event(), "frames": 0, "t1": 0.0}

    async def reader(k: int, conn: FrameStream) -> None:
        while True:
            try:
                msg = await conn.receive()
            except (EOFError, trio.ClosedResourceError, trio.BrokenResourceError):
                return
            on_message(k, msg)
            state["frames"] += 1
            pred = state["pred"]
            if pred is not None and pred(msg):
                state["seen"] += 1
                if state["seen"] == len(conns):
                    state["t1"] = time.perf_counter()  # the last of them has decoded it: the sample ends
                    state["done"].set()
                elif conn.pending:  # the others decode the event before this one goes on (module docstring)
                    await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        for k, c in enumerate(conns):
            nursery.start_soon(reader, k, c)
        deadline = time.perf_counter() + seconds
        with trio.move_on_after(seconds + 10):
            for i in range(samples):
                if time.perf_counter() > deadline:
                    break
                if quiet is not None:
                    await trio.testing.wait_all_tasks_blocked(quiet)
                step = await act(i)
                if step is None:
                    break
                conn, request, pred = step
                state.update(pred=pred, seen=0, done=trio.Event())
                t0 = time.perf_counter()
                await conn.send(request)
                await state["done"].wait()
                out.append(state["t1"] - t0)
                state["pred"] = None
        for c in conns:
            await c.stream.aclose()
        nursery.cancel_scope.cancel()
    return {**summary_us(out), "samples": out, "frames": state["frames"]}
