"""A player for the line mode's tests (tests/test_plain_*.py): it runs ``neveryu play --plain``
as a child process, reads its lines as they come, and answers each announcement of its turn (once
the output is still, ``QUIET_S``) with a fixed policy, as a script or an ``expect`` file would:
lay the fewest cards it may (``lay N``, the rank implied, else aces), else «Не верю», else
discard quads, else go on. The transcript is every line the child wrote; with a seeded deal and
bots of fixed behaviour it is the same on every run.

Two transports: a pipe (stdin and stdout not terminals: the script's way) and a pty (python's
``pty`` module: a terminal, on ``TERM=dumb``, the prompt echoing what is typed).
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from neveryu.client.plain.words import PlainTexts, speakable

DEADLINE_S = 240.0  # the whole deal, on a loaded machine; a stuck child fails well before this
MAX_LINES = 5000
# The player answers once nothing has been written for this long (s), as a person reads before
# he types: so the transcript does not depend on whether a line the server sends at once (a
# bot's quads discarded after it took the pile) comes before or after his answer, and at a
# terminal no line lands in the middle of his echoed typing (a dumb terminal cannot redraw it).
QUIET_S = 0.2
REPO = Path(__file__).resolve().parent.parent


def golden(lang: str) -> Path:
    """The kept transcript of ``verish``, seed 1, in ``lang`` (tests/test_plain.py)."""
    return REPO / "tests" / "data" / "plain" / f"verish.{lang}.txt"


def command(variant: str, lang: str, seed: int, *more: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "neveryu.client.cli",
        "play",
        "--plain",
        "--variant",
        variant,
        "--seed",
        str(seed),
        "--bots",
        "honest",
        "--bot-delay",
        "0",
        "--deals",
        "1",
        "--no-record",
        "--window",
        "0",
        "--lang",
        lang,
        "--name",
        "ann",
        *more,
    ]


def child_env(state: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "NEVERYU_"))}
    env.update(LANG="C.UTF-8", PYTHONIOENCODING="utf-8", NEVERYU_STATE_DIR=str(state), TERM="dumb")
    return env


class Player:
    """The policy, reading the child's lines and saying what to type (or nothing)."""

    def __init__(self, lang: str) -> None:
        t = PlainTexts(lang)
        self.turn = (t("plain.turn"), t("plain.window"))
        self.which = t("plain.rank_which", ranks="").split(":")[0]
        self.over = (t("plain.again_play"), t("plain.again"))  # the last line of a match's end
        self.last_lay = ""
        self.done = False

    def answer(self, line: str) -> str | None:
        if line.startswith(self.which) and self.last_lay:
            return self.last_lay + " as A"
        if line in self.over:  # (nothing is written after it: a terminal's echo mixes with nothing)
            self.done = True
            return "quit"
        if not line.startswith(self.turn):
            return None
        options = re.findall(r"([^;:]*?)\((\w+)\)", line)
        found = {cmd: label for label, cmd in options}
        if "lay" in found:
            self.last_lay = "lay " + re.findall(r"\d+", found["lay"])[0]
            return self.last_lay
        for cmd in ("no", "quads", "keep", "yes"):
            if cmd in found:
                return cmd
        return None


def play_piped(variant: str, lang: str, seed: int, state: Path, *more: str) -> list[str]:
    """The whole transcript of a deal played through a pipe."""
    player = Player(lang)
    lines = _converse(command(variant, lang, seed, *more), player, state)
    if not player.done:
        raise AssertionError("the deal did not end:\n" + "\n".join(lines[-40:]))
    return lines


def _converse(argv: list[str], player: Player, state: Path) -> list[str]:
    """Run ``argv`` with its input and output on pipes, ``player`` answering each line it
    writes, until it ends (or writes ``MAX_LINES``); its transcript. Fails when the program
    exits with an error once its output closed."""
    child = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(state),
        cwd=REPO,
    )
    assert child.stdin is not None and child.stdout is not None
    lines: list[str] = []
    try:
        typing: list[str] = []  # the answers to send once the output is still
        for line in _lines(child.stdout.fileno(), quiet=QUIET_S):
            if line is None:
                for reply in typing:
                    child.stdin.write(reply.encode() + b"\n")
                child.stdin.flush()
                typing.clear()
                continue
            lines.append(line)
            reply = player.answer(line)
            if reply is not None:
                typing.append(reply)
            if len(lines) > MAX_LINES:
                child.kill()
                return lines
        assert child.wait(timeout=60) == 0, child.stderr.read().decode() if child.stderr else ""
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return lines


def _lines(fd: int, raw: bytearray | None = None, quiet: float | None = None) -> Iterator[str | None]:
    """The lines written on ``fd`` until it closes, each without its ending (``raw``: every
    byte read is added to it); with ``quiet``, also None whenever nothing came for ``quiet``
    seconds."""
    started = time.monotonic()
    buffer = b""
    while time.monotonic() - started < DEADLINE_S:
        ready, _, _ = select.select([fd], [], [], 1.0 if quiet is None else quiet)
        if not ready:
            if quiet is not None:
                yield None
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # a pty's end: EIO once the child has gone
            data = b""
        if not data:
            break
        buffer += data
        if raw is not None:
            raw += data
        while b"\n" in buffer:
            raw, buffer = buffer.split(b"\n", 1)
            yield raw.decode("utf-8").rstrip("\r")
    if buffer:
        yield buffer.decode("utf-8").rstrip("\r")


def speakable_lines(lines: list[str], lang: str) -> list[str]:
    """The lines that ``speakable`` would change: symbols left for a synthesizer to mangle."""
    return [line for line in lines if speakable(line, lang) != line]


def play_pty(variant: str, lang: str, seed: int, state: Path, *more: str) -> tuple[list[str], bytes, bool]:
    """The whole transcript of a deal played at a terminal (a pty, ``TERM=dumb``): the lines
    as read, the raw bytes the terminal received, and whether the terminal's modes (echo, line
    editing: ``termios``) were as before once the client had gone."""
    import pty
    import termios

    player = Player(lang)
    main, side = pty.openpty()
    modes = termios.tcgetattr(side)
    child = subprocess.Popen(
        command(variant, lang, seed, *more),
        stdin=side,
        stdout=side,
        stderr=subprocess.PIPE,
        env=child_env(state),
        cwd=REPO,
        start_new_session=True,
    )
    os.close(side)
    lines: list[str] = []
    raw = bytearray()
    typing: list[str] = []  # the answers to type once the output is still
    try:
        for line in _lines(main, raw, quiet=QUIET_S):
            if line is None:
                for reply in typing:
                    os.write(main, reply.encode() + b"\r")
                typing.clear()
                continue
            lines.append(line)
            reply = player.answer(line)
            if reply is not None:
                typing.append(reply)
            if len(lines) > MAX_LINES:
                break
        if not player.done:
            raise AssertionError("the deal did not end:\n" + "\n".join(lines[-40:]))
        assert child.wait(timeout=60) == 0, child.stderr.read().decode() if child.stderr else ""
        kept = termios.tcgetattr(main) == modes
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(main)
    return lines, bytes(raw), kept


if __name__ == "__main__":  # write the kept transcripts again (tests/test_plain.py says when)
    import tempfile

    for lang in ("en", "ru"):
        with tempfile.TemporaryDirectory() as state:
            lines = play_piped("verish", lang, 1, Path(state))
        golden(lang).parent.mkdir(parents=True, exist_ok=True)
        golden(lang).write_text("\n".join(lines) + "\n", encoding="utf-8")


class LobbyPlayer(Player):
    """The player of ``neveryu join --plain``: from the lobby, a table of bots (``create``),
    ready and started, the deal played, then back to the lobby and out."""

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        t = PlainTexts(lang)
        self.t = t
        self.asks = 0
        self.left = False

    def answer(self, line: str) -> str | None:
        t = self.t
        if line.startswith(t("plain.tables_none")[:12]):
            return "quit" if self.left else "create verish 4 bots deals 1 turn 0"
        if line in (t("plain.wait_you"), t("plain.wait_start")):  # as the line mode tells
            return "ready"
        if line.startswith(t("plain.may", options="")[:8]):
            if t("plain.option", label=t("keys.start"), command="ready") in line:
                return "ready"
            self.asks += 1
            return ("ready\nlegal" if self.asks == 1 else "legal") if self.asks < 200 else None
        if line == t("log.left_table"):
            self.left = True
            return "tables"
        reply = super().answer(line)
        return "leave" if reply == "quit" else reply


def join_piped(address: str, lang: str, state: Path) -> list[str]:
    """The transcript of ``neveryu join --plain address`` played by ``LobbyPlayer``."""
    player = LobbyPlayer(lang)
    args = ["join", "--plain", address, "--lang", lang, "--name", "bob"]
    lines = _converse([sys.executable, "-m", "neveryu.client.cli", *args], player, state)
    if not player.left:
        raise AssertionError("the lobby's game did not end:\n" + "\n".join(lines[-40:]))
    return lines
