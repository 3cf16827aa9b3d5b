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
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from neveryu.client.ui.net import Net
from neveryu.client.ui.session import RECENT_DEALS, Keeper, exit_note, hello_fields, resumed_state, seat_kept

from .actions import PlainController
from .commands import NAMES, Refusal, parse
from .narrator import Narrator
from .orders import perform
from .replay import PlainReplay
from .words import PlainTexts, speakable

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


async def _piped_lines(queue: asyncio.Queue[str | None], stdin: TextIO) -> None:
    """Commands read line by line from a pipe or a file (its end is the end), or from a dumb
    terminal, which echoes them itself: there, GNU readline (where Python has it) completes the
    command names and keeps the history, and no escape sequence is ever written. The reading
    is a daemon thread's: a line still awaited when the player quits keeps nobody waiting."""
    loop = asyncio.get_running_loop()
    read: Callable[[], str] = stdin.readline
    if stdin.isatty():
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


def run_plain(
    host: str,
    port: int,
    *,
    name: str,
    texts: PlainTexts,
    password: str | None = None,
    script: Callable[[Net, Msg], None] | None = None,
    leave_quits: bool = False,
    prefs: Any = None,
    slot: Any = None,
    notes: tuple[str, ...] = (),
    come_back: str = "",
    player_key: str | None = None,
) -> int:
    """Run the line mode against ``host``:``port`` (``run_client``'s arguments: client/ui/app.py).
    Returns 0, or 1 when the connection could never be made (the reason is printed)."""
    out = Lines(lambda: sys.stdout)
    failure: list[str] = []
    said: list[str] = []

    async def main() -> None:
        kept = slot.kept if slot is not None else None
        state = resumed_state(name, kept)
        c = PlainController(texts, lambda request: None, leave_quits=leave_quits, prefs=prefs, state=state)
        c.prefs.confirm_calls = False  # a typed command is its own confirmation
        loop = asyncio.get_running_loop()
        narrator = Narrator(c, out, lambda seconds, fn: loop.call_later(seconds, fn))
        done = asyncio.Event()
        viewing: list[PlainReplay] = []
        keeper = Keeper.of(slot, name, match_only=leave_quits)

        def attention(kind: str) -> None:
            if c.prefs.bell:
                out.bell()

        def open_replay(deal: Any, seat: int | None) -> None:
            replay = PlainReplay(deal, seat, texts, out)
            viewing[:] = [replay]
            replay.start()

        c.on_quit = done.set
        c.on_attention = attention
        c.on_open_replay = open_replay

        def welcome(msg: Msg, resumed: bool) -> None:
            c.records = bool(msg.get("records"))
            if script is None:
                if not resumed or msg.get("table") is None:
                    c.asked.add("tables")
                    net.send({"t": "list_tables"})
                    if c.records:
                        net.send({"t": "list_records", "limit": RECENT_DEALS})
                net.send({"t": "variants"})

        # neveryu play seats the player by itself: what he types (or a script pipes) waits until
        # he is at the table and its deal is dealt, so that the first line is not answered "not
        # at a table".
        seated = asyncio.Event()
        if script is None:
            seated.set()

        def deliver(msg: Msg) -> None:
            if script is not None:
                script(net, msg)
            never_connected = not net.welcomed
            c.receive(msg)
            if c.state.screen == "table" and c.state.seat is not None and c.state.playing:
                seated.set()
            if keeper is not None:
                keeper.follow(msg, c.state)
            if never_connected and msg.get("t") == "_connection" and msg.get("status") == "closed":
                failure.append(str(msg.get("reason") or f"cannot connect to {host}:{port}"))
                done.set()
                return
            narrator.told(msg, c.take_notices())

        net = Net(
            host,
            port,
            hello_fields(name, password, player_key),
            deliver,
            session=kept.token if kept is not None else None,
            last_seq=kept.replay_from if kept is not None else 0,
            on_welcome=welcome,
            on_done=lambda exc: (
                None
                if exc is None
                else deliver(
                    {"t": "_connection", "status": "closed", "reason": f"{type(exc).__name__}: {exc}"}
                )
            ),
        )
        c.send = net.send
        c.address = net.address
        narrator.say(texts("plain.hello"))
        for note in notes:
            narrator.say(texts(note))
        net.start()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        reader = _typed_lines(queue) if _full_prompt() else _piped_lines(queue, sys.stdin)
        tasks = [asyncio.ensure_future(reader)]

        async def commands() -> None:
            await seated.wait()
            while True:
                line = await queue.get()
                if line is None:
                    c.quit()
                    return
                _command(c, line, viewing, out, narrator)

        tasks.append(asyncio.ensure_future(commands()))
        try:
            if _full_prompt():  # lines printed above the prompt, which is drawn again below
                from prompt_toolkit.patch_stdout import patch_stdout

                with patch_stdout(raw=True):
                    await done.wait()
            else:
                await done.wait()
        finally:
            for task in tasks:
                task.cancel()
            await net.aclose()
            if not failure:
                last = exit_note(c, net.address, come_back)
                if last:
                    said.append(last)
                if keeper is not None:
                    keeper.end(c.state, gone=not seat_kept(c))

    try:
        asyncio.run(main())
    finally:
        if slot is not None:
            slot.close()
    if failure:
        print(f"neveryu: {failure[0]}", file=sys.stderr)
        return 1
    for line in said:
        out(speakable(line, texts.lang))
    return 0


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
