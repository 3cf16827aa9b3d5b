"""End to end: the real terminal client in tmux against `neveryu play --seed S` (a server in the
same process, bots in the other seats). The test reads the screen as a person would: the hand is
on screen, a set is laid, a challenge is made, the deal ends with the fair-deal check.

tmux runs on a private server socket (``tmux -L``), with LANG=C.UTF-8 and a fixed size, and is
killed in ``finally``; every wait polls capture-pane under a deadline."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

ROOT = Path(__file__).resolve().parent.parent
NEVERYU = Path(sys.executable).parent / "neveryu"


class Tmux:
    def __init__(self, width: int = 100, height: int = 32) -> None:
        self.socket = f"neveryu-test-{uuid.uuid4().hex[:10]}"
        self.width, self.height = width, height

    def run(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True, timeout=10
        ).stdout

    def start(self, command: str) -> None:
        self.run(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            str(self.width),
            "-y",
            str(self.height),
            "-e",
            "LANG=C.UTF-8",
            "-e",
            "LC_ALL=C.UTF-8",
            "-e",
            "TERM=xterm-256color",
            command,
        )

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", *keys)

    def wait_for(self, predicate, timeout: float = 20.0, what: str = "") -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if predicate(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}")
            time.sleep(0.1)

    def kill(self) -> None:
        path = subprocess.run(
            ["tmux", "-L", self.socket, "display-message", "-p", "#{socket_path}"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if path:
            Path(path).unlink(missing_ok=True)


def offered(screen: str) -> bool:
    """Some game action is offered at the bottom (the client shows only what ``legal`` allows, and
    takes it down once acted on until the server says what now)."""
    return any(k in screen for k in ("Enter lay", "n «Не верю»", "d discard quad"))


def hand_line(screen: str) -> str:
    """The hand's box: the cards on screen, all rows."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if "Your hand" in line or "Ваша рука" in line:
            rows = []
            for row in lines[i + 1 :]:
                if row.startswith("└"):
                    break
                rows.append(row)
            return "\n".join(rows)
    return ""


def test_a_whole_deal_in_tmux(tmp_path):
    tmux = Tmux()
    done = tmp_path / "exit"
    command = (
        f"cd {ROOT} && {NEVERYU} play --seed 7 --players 2 --turn 0 --deals 1 --bot-delay 20 "
        f"--lang en --name Tess 2> {tmp_path}/stderr; echo $? > {done}; sleep 600"
    )
    try:
        tmux.start(command)
        screen = tmux.wait_for(
            lambda s: "Your hand" in s and any(x in hand_line(s) for x in "♠♥♦♣"), what="the hand"
        )
        assert "Tess (you)" in screen
        laid = challenged = False
        chances = 0
        deadline = time.monotonic() + 90
        while True:
            screen = tmux.wait_for(
                lambda s: "Deal over" in s or ("Your turn!" in s and offered(s)), what="my turn or the end"
            )
            laid = laid or "(really" in screen
            challenged = challenged or "Tess (you): «Не верю!»" in screen
            if "Deal over" in screen:
                break
            assert time.monotonic() < deadline, screen
            if "d discard quad" in screen:
                tmux.keys("d")
            elif "n «Не верю»" in screen and ((laid and chances % 2 == 0) or "Enter lay" not in screen):
                tmux.keys("n")
            elif "Enter lay" in screen:
                if "*" not in hand_line(screen):  # nothing selected yet: the card under the cursor
                    tmux.keys("Space")
                tmux.keys("Enter")
                asked = tmux.wait_for(lambda s, before=screen: s != before, what="the set laid")
                if "Claim which rank" in asked:
                    tmux.keys("Enter")
                    screen = asked
            if "n «Не верю»" in screen:
                chances += 1
            # Every action changes the screen (the offer goes, the hand or the log changes).
            screen = tmux.wait_for(lambda s, before=screen: s != before, what="the action taken")
            laid = laid or "(really" in screen
            challenged = challenged or "Tess (you): «Не верю!»" in screen
        assert laid, screen
        assert "Out in order:" in screen and ("Loser:" in screen or "Winner:" in screen), screen
        assert "Fair deal: verified ✓" in screen, screen
        if not challenged:
            pytest.fail(f"the deal ended before a challenge was possible:\n{screen}")
        tmux.keys("q")
        tmux.wait_for(lambda s: done.exists(), timeout=10, what="the client to exit")
        assert done.read_text().strip() == "0"
    finally:
        tmux.kill()


def test_too_small_then_resized_keeps_the_game_in_russian(tmp_path):
    tmux = Tmux(width=50, height=15)
    command = (
        f"cd {ROOT} && {NEVERYU} play --seed 3 --players 2 --turn 0 --bot-delay 30 --lang ru "
        f"--name Tess 2> {tmp_path}/stderr; sleep 600"
    )
    try:
        tmux.start(command)
        tmux.wait_for(lambda s: "Терминал слишком мал: 50×15" in s, what="the too-small message")
        tmux.run("resize-window", "-x", "90", "-y", "28")
        screen = tmux.wait_for(
            lambda s: "Ваша рука" in s and "Ваш ход!" in s, what="the table after the resize"
        )
        assert "слишком мал" not in screen
        hand = hand_line(screen)
        tmux.keys("Right", "Space")  # select the second card
        screen = tmux.wait_for(lambda s: "*" in hand_line(s), what="the card selected")
        tmux.run("resize-window", "-x", "50", "-y", "15")
        tmux.wait_for(lambda s: "Терминал слишком мал" in s, what="the too-small message again")
        tmux.run("resize-window", "-x", "90", "-y", "28")
        screen = tmux.wait_for(lambda s: "Ваша рука" in s, what="the table again")
        assert "*" in hand_line(screen)
        assert hand_line(screen).splitlines()[0].replace("*", " ") == hand.splitlines()[0]
        tmux.keys("?")
        tmux.wait_for(lambda s: "Клавиши" in s and "«Не верю»" in s, what="the help")
    finally:
        tmux.kill()
