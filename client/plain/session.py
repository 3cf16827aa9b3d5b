"""The line mode's loop: the connection (client/ui/net.py), the controller fed by it, the
narrator printing what changed, and the commands typed or piped in.

``run_plain(...)`` takes the arguments of the full-screen ``run_client`` (client/ui/app.py)
and runs until the player quits (``quit``, ``q``, Ctrl-C or Ctrl-D, the end of piped input).
With a terminal on stdin the commands are typed at a prompt-toolkit prompt, with completion and
history; on ``TERM=dumb`` (or no ``TERM``) they are read as the terminal's own lines, with GNU
readline's completion and history, and nothing but text is written; without a terminal, they
are read line by line from stdin. Every line of output is written whole and flushed at once: a
script reads it as it comes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import attrs

from neveryu.client.ui.controller import Controller
from neveryu.client.ui.net import Net
from neveryu.client.ui.session import Keeper
from neveryu.client.ui.session_run import SessionRun

from .actions import PlainController
from .commands import NAMES, Refusal, parse
from .narrator import Narrator
from .orders import perform
from .replay import PlainReplay
from .words import speakable

Msg = dict[str, Any]
PROMPT = "> "


class Lines:
    """Output: whole lines, flushed; the bell as a BEL character where the player asked."""

    def __init__(self, stream: Callable[[], TextIO]) -> None:
        self.stream = stream

    def __call__(self, line: str) -> None:
        out = self.stream()
        out.write(line + "\n")
        out.flush()

    def bell(self) -> None:
        out = self.stream()
        out.write("\a")
        out.flush()


async def _typed_lines(queue: asyncio.Queue[str | None]) -> None:
    """Commands typed at a prompt (completion from the command names, history in memory)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    session: PromptSession[str] = PromptSession(
        completer=WordCompleter(list(NAMES), sentence=True), complete_while_typing=False
    )
    while True:
        try:
            line = await session.prompt_async(PROMPT)
        except (EOFError, KeyboardInterrupt):
            await queue.put(None)
            return
        await queue.put(line)


async def _piped_lines(queue: asyncio.Queue[str | None], stdin: TextIO, welcomed: asyncio.Event) -> None:
    """Commands read line by line from a pipe or a file (its end is the end), or from a dumb
    terminal, which echoes them itself: there, GNU readline (where Python has it) completes the
    command names and keeps the history, and no escape sequence is ever written. The reading
    is a daemon thread's: a line still awaited when the player quits keeps nobody waiting.
    At a terminal it starts once the server has ``welcomed`` the client: a server that refuses
    the password ends the run, and the password asked for next must not be read (and echoed)
    by a line still awaited here."""
    loop = asyncio.get_running_loop()
    read: Callable[[], str] = stdin.readline
    if stdin.isatty():
        await welcomed.wait()
        _readline_completion()
        read = _input_line

    def reader() -> None:
        while True:
            line = read()
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\r\n") if line else None)
            except RuntimeError:  # the loop has closed: the player has quit
                return
            if not line:
                return

    threading.Thread(target=reader, name="neveryu-plain-input", daemon=True).start()


def _input_line() -> str:
    try:
        return input() + "\n"
    except (EOFError, KeyboardInterrupt):
        return ""


def _readline_completion() -> None:
    try:
        import readline
    except ImportError:  # no GNU readline here: lines are read all the same
        return

    def complete(text: str, state: int) -> str | None:
        found = [n + " " for n in NAMES if n.startswith(text)]
        return found[state] if state < len(found) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


def _full_prompt() -> bool:
    """prompt-toolkit's prompt: on a terminal that is not ``TERM=dumb``."""
    return sys.stdin.isatty() and os.environ.get("TERM", "") not in ("dumb", "")


def run_plain(host: str, port: int, **options: Any) -> int:
    """Run the line mode against ``host``:``port`` with ``run_client``'s other arguments
    (client/ui/app.py) but ``color_depth``; ``texts`` are ``PlainTexts``. Returns 0, or 1 when
    the connection could never be made (the reason is printed). Raises ``PasswordRefused``
    (client/ui/session_run.py) when the server refused the password, or its absence."""
    run = _PlainRun(host=host, port=port, **options)
    with _terminal_kept(sys.stdin):
        return run.run(lambda line: run.out(speakable(line, run.texts.lang)))


@contextlib.contextmanager
def _terminal_kept(stdin: TextIO) -> Iterator[None]:
    """The terminal's modes on the way out as they were on the way in. readline switches echo
    and line editing off while it reads a line, and puts them back when the line ends; the
    player who quits leaves it reading one (in the input thread), so nobody would: the shell,
    or the next question (a password asked again), would get a terminal that shows nothing
    typed. Not a terminal (or no ``termios``, as on Windows): nothing to keep."""
    try:
        import termios
    except ImportError:
        yield
        return
    try:
        fd = stdin.fileno()
        modes = termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError):  # not a terminal, or no descriptor at all
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSADRAIN, modes)


@attrs.define(kw_only=True)
class _PlainRun(SessionRun):
    """One run of ``run_plain``: the shared session (client/ui/session_run.py) in printed lines
    and typed commands."""

    out: Lines = attrs.Factory(lambda: Lines(lambda: sys.stdout))
    viewing: list[PlainReplay] = attrs.Factory(list)  # the replay shown, if any
    done: asyncio.Event = attrs.field(init=False)  # the player quits
    # neveryu play seats the player by itself: what he types (or a script pipes) waits until he
    # is at the table and its deal is dealt, so that the first line is not answered "not at a table".
    seated: asyncio.Event = attrs.field(init=False)
    welcomed: asyncio.Event = attrs.field(init=False)  # the server took the password, if any
    narrator: Narrator = attrs.field(init=False)

    async def main(self) -> None:
        """The connection and the commands, until the player quits."""
        self.done, self.seated, self.welcomed = asyncio.Event(), asyncio.Event(), asyncio.Event()
        c = self._controller()
        loop = asyncio.get_running_loop()
        narrator = self.narrator = Narrator(
            c, self.out, lambda seconds, fn: loop.call_later(seconds, fn), waiting=self.script is None
        )
        keeper = self.keeper()
        net = self.connect(c, keeper)
        narrator.say(self.texts("plain.hello"))
        for note in self.notes:
            narrator.say(self.texts(note))
        net.start()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        reader = _typed_lines(queue) if _full_prompt() else _piped_lines(queue, sys.stdin, self.welcomed)
        tasks = [asyncio.ensure_future(reader), asyncio.ensure_future(self._commands(c, queue))]
        try:
            if _full_prompt():  # lines printed above the prompt, which is drawn again below
                from prompt_toolkit.patch_stdout import patch_stdout

                with patch_stdout(raw=True):
                    await self.done.wait()
            else:
                await self.done.wait()
        finally:
            for task in tasks:
                task.cancel()
            await net.aclose()
            self.end(c, keeper, net.address)

    def _controller(self) -> PlainController:
        """The controller, its bell, quitting and replays printed."""
        c = self.controller(PlainController)
        c.prefs.confirm_calls = False  # a typed command is its own confirmation
        if self.script is None:
            self.seated.set()

        def attention(kind: str) -> None:
            if c.prefs.bell:
                self.out.bell()

        def open_replay(deal: Any, seat: int | None) -> None:
            replay = PlainReplay(deal, seat, self.texts, self.out)
            self.viewing[:] = [replay]
            replay.start()

        c.on_quit = self.done.set
        c.on_attention = attention
        c.on_open_replay = open_replay
        return c

    async def _commands(self, c: PlainController, queue: asyncio.Queue[str | None]) -> None:
        """The lines typed or piped in, once seated; their end quits."""
        await self.seated.wait()
        while True:
            line = await queue.get()
            if line is None:
                c.quit()
                return
            _command(c, line, self.viewing, self.out, self.narrator)

    def asking_tables(self, controller: Controller) -> None:
        self.narrator.c.asked.add("tables")

    def received(self, controller: Controller, msg: Msg, before: bool) -> None:
        """Seated once at the table with a deal on; then what changed, printed."""
        s = controller.state
        if msg.get("t") == "welcome":
            self.welcomed.set()
        if before and s.screen == "table" and s.seat is not None and s.playing:
            self.seated.set()
        if not before:
            self.narrator.told(msg, self.narrator.c.take_notices())

    def lost(self, net: Net, controller: Controller, keeper: Keeper | None, exc: BaseException) -> None:
        reason = f"{type(exc).__name__}: {exc}"
        self.deliver(net, controller, keeper, {"t": "_connection", "status": "closed", "reason": reason})


def _command(
    c: PlainController, line: str, viewing: list[PlainReplay], out: Lines, narrator: Narrator
) -> None:
    """One typed line: a replay's order while one is shown, else a command."""
    if viewing and viewing[0].order(line):
        return
    try:
        cmd = parse(line)
    except Refusal as exc:
        narrator.say(c.t(exc.key, **exc.args_))
        return
    if viewing and cmd.name in ("enter", "quit"):
        if cmd.name == "enter" and not viewing[0].done:
            viewing[0].step()
        else:
            narrator.say(c.t("plain.replay_end", id=viewing[0].player.deal.id))
            viewing.clear()
        return
    if cmd.name == "enter":
        return
    perform(c, cmd, out, c.clock())
    for text in c.take_notices():
        narrator.say(text)
