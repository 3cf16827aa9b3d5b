"""End to end: the real terminal client in tmux against `neveryu play --seed S` (a server in the
same process, bots in the other seats). The test reads the screen as a person would: the hand is
on screen, a set is laid, a challenge is made, the deal ends with the fair-deal check.

tmux runs on a private server socket (``tmux -L``), with LANG=C.UTF-8 and a fixed size, and is
killed in ``finally``; every wait polls capture-pane under a deadline."""

from __future__ import annotations

import os
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
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True,
                              timeout=10).stdout

    def start(self, command: str) -> None:
        self.run("-f", "/dev/null", "new-session", "-d", "-x", str(self.width), "-y", str(self.height),
                 "-e", "LANG=C.UTF-8", "-e", "LC_ALL=C.UTF-8", "-e", "TERM=xterm-256color", command)

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
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def hand_line(screen: str) -> str:
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if "Your hand" in line:
            return lines[i + 1]
    return ""


def test_a_whole_deal_in_tmux(tmp_path):
    tmux = Tmux()
    done = tmp_path / "exit"
    command = (f"cd {ROOT} && {NEVERYU} play --seed 7 --players 3 --turn 0 --deals 1 --bot-delay 30 "
               f"--lang en --name Tess 2> {tmp_path}/stderr; echo $? > {done}; sleep 600")
    try:
        tmux.start(command)
        screen = tmux.wait_for(lambda s: "Your hand" in s and any(x in hand_line(s) for x in "♠♥♦♣"),
                               what="the hand")
        assert "Tess (you)" in screen
        laid = challenged = False
        deadline = time.monotonic() + 90
        while True:
            screen = tmux.wait_for(lambda s: "Deal over" in s or "Your turn!" in s, what="my turn or the end")
            if "Deal over" in screen:
                break
            assert time.monotonic() < deadline, screen
            if "n «Не верю»" in screen and not challenged and laid:
                tmux.keys("n")
                tmux.wait_for(lambda s: "Tess (you): «Не верю!»" in s or "Deal over" in s, what="the challenge")
                challenged = True
                continue
            if "Enter lay" in screen:
                before = hand_line(screen)
                tmux.keys("Space", "Enter")
                screen = tmux.wait_for(lambda s: "Claim which rank" in s or hand_line(s) != before
                                       or "Deal over" in s, what="the set laid")
                if "Claim which rank" in screen:
                    tmux.keys("Enter")
                    tmux.wait_for(lambda s: hand_line(s) != before or "Deal over" in s, what="the set laid")
                laid = True
                continue
            if "n «Не верю»" in screen:  # only a challenge is possible
                tmux.keys("n")
                tmux.wait_for(lambda s: "Tess (you): «Не верю!»" in s or "Deal over" in s, what="the challenge")
                challenged = True
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
