"""What a redraw costs, so that a waiting client stays cheap: a client waiting at a timed table
redraws once a second, for its countdown, and such a redraw makes again only what changed. The log,
however long, is neither put in words nor wrapped again; the terminal's size is asked once; what the
terminal is sent is the countdown's new second. In-process: the application with pipe input and a
real VT100 output into a buffer, of a fixed size; each redraw waited for by its count, and the clock
the controller reads moved by a second between them."""

from __future__ import annotations

import asyncio
import io
import time

import attrs
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from test_client_quads_window import BOB, take

from neveryu.client.ui import wrap
from neveryu.client.ui.app import build_app
from neveryu.client.ui.controller import Controller
from neveryu.client.ui.texts import Texts

REDRAWS = 5


class Counted(Texts):
    """Texts that count the log lines they put in words."""

    worded = 0

    def log_line(self, state, line):  # type: ignore[no-untyped-def]
        Counted.worded += 1
        return super().log_line(state, line)


async def _until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def test_a_countdowns_redraw_makes_again_only_what_changed():
    clock = [100.0]
    sizes: list[int] = []
    sent = io.StringIO()

    def size() -> Size:
        sizes.append(1)
        return Size(rows=32, columns=100)

    async def main() -> tuple[int, list[int], list[str]]:
        with create_pipe_input() as inp:
            c = Controller(Counted("en"), lambda r: None, clock=lambda: clock[0])
            for m in take(BOB, quads=False):
                c.receive(m)
            c.state = attrs.evolve(c.state, log=(c.state.log * 60)[-300:])  # a long deal's log
            app = build_app(c, input=inp, output=Vt100_Output(sent, size, term="xterm"))
            task = asyncio.ensure_future(app.run_async())
            await _until(lambda: app.render_counter >= 1)
            worded, wrapped = Counted.worded, wrap._wrapped.cache_info().misses
            sizes.clear()
            shown = []
            for _ in range(REDRAWS):
                clock[0] += 1.0  # the countdown's next second
                start, at = sent.tell(), app.render_counter
                app.invalidate()
                await _until(lambda at=at: app.render_counter > at)
                shown.append(sent.getvalue()[start:])
            app.exit()
            await task
            return Counted.worded - worded, [wrap._wrapped.cache_info().misses - wrapped, len(sizes)], shown

    worded, (wrapped, asked), shown = asyncio.run(main())
    assert worded == 0  # 300 lines of log, none put in words again
    assert wrapped == 0  # nor wrapped again
    assert asked <= 3 * REDRAWS  # the terminal's size: by prompt-toolkit, and once for all the parts
    assert all(len(out) < 80 for out in shown), shown  # only the new second reaches the terminal
