"""End to end: the real terminal client in tmux, read as a person reads the screen.

`neveryu play --seed S` (a server in the same process, bots in the other seats) for a whole deal,
the smallest size allowed (64×20) and 80×24 in English and Russian, a terminal that shows only
ASCII (LC_ALL=C), a resume after the client was killed with SIGKILL (a server started with
`neveryu serve --host 127.0.0.1 --port 0`), the host giving a killed player's seat to a bot,
and the CPU an idle client uses.

tmux runs on a private server socket (``tmux -L``) with a fixed size and is killed in
``finally``; kept sessions go to a folder of the test's own (NEVERYU_STATE_DIR); every wait
polls capture-pane under a deadline."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import budget
import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

ROOT = Path(__file__).resolve().parent.parent
NEVERYU = Path(sys.executable).parent / "neveryu"
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
CARD = r"(10|[2-9JQKA])[♠♥♦♣SHDC]"


class Tmux:
    def __init__(self, width: int = 100, height: int = 32) -> None:
        self.socket = f"neveryu-test-{uuid.uuid4().hex[:10]}"
        self.width, self.height = width, height

    def run(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True, timeout=10
        ).stdout

    def start(self, command: str, env: dict[str, str] | None = None) -> None:
        options = []
        for key, value in (env or UTF8).items():
            options += ["-e", f"{key}={value}"]
        self.run(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            str(self.width),
            "-y",
            str(self.height),
            *options,
            command,
        )

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", *keys)

    def wait_for(self, predicate, timeout: float = 20.0, what: str = "", settled: bool = False) -> str:
        """The screen once ``predicate`` holds for it (``settled``: on two captures in a row
        that are the same, so that a screen caught while it is drawn does not count)."""
        deadline = time.monotonic() + budget.seconds(timeout)
        last = None
        while True:
            screen = self.screen()
            if predicate(screen) and (not settled or screen == last):
                return screen
            last = screen
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
    return any(k in screen for k in ("Enter lay", "n «Не верю»", "d discard quads"))


def hand_line(screen: str) -> str:
    """The hand: the rows of cards under its rule."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if "Your hand" in line or "Ваша рука" in line:
            rows = []
            for row in lines[i + 1 :]:
                if not re.search(CARD, row) or not re.fullmatch(r"[\s\[\]*0-9JQKASHDC♠♥♦♣]+", row):
                    break
                rows.append(row)
            return "\n".join(rows)
    return ""


def log_lines(screen: str) -> list[str]:
    """The log's lines on screen (between its rule and the hand's)."""
    lines = screen.splitlines()
    start = next((i for i, x in enumerate(lines) if x.startswith(("─ Log", "─ Ход игры"))), 0)
    end = next((i for i, x in enumerate(lines) if "Your hand" in x or "Ваша рука" in x), len(lines))
    return [x.split("│")[0].rstrip() for x in lines[start + 1 : end]]


def play(tmp_path, *args: str) -> str:
    """The shell command that runs `neveryu play` with ``args`` and keeps its exit code."""
    return (
        f"cd {ROOT} && NEVERYU_STATE_DIR={tmp_path}/state {NEVERYU} play {' '.join(args)} "
        f"2> {tmp_path}/stderr; echo $? > {tmp_path}/exit; sleep 600"
    )


def test_a_whole_deal_in_tmux(tmp_path):
    tmux = Tmux()
    done = tmp_path / "exit"
    try:
        tmux.start(play(tmp_path, "--seed 7 --players 2 --deals 1 --bot-delay 20 --lang en --name Tess"))
        screen = tmux.wait_for(lambda s: "Your hand" in s and re.search(CARD, hand_line(s)), what="the hand")
        assert "Tess (you)" in screen
        laid = challenged = False
        chances = 0
        deadline = time.monotonic() + budget.seconds(90)
        while True:
            screen = tmux.wait_for(
                lambda s: (
                    "Deal 1/1 over" in s
                    or "┌ Scores" in s
                    or "Claim which rank" in s
                    or ("Your turn!" in s and offered(s))
                    or ("You took the pile: quads?" in s and "k go on" in s)  # (it waits for me)
                ),
                what="my turn or the end",
            )
            if "Claim which rank" in screen:  # the rank dialog of a set being laid: confirm it
                tmux.keys("Enter")
                tmux.wait_for(lambda s: "Claim which rank" not in s, what="the claim confirmed")
                continue
            laid = laid or "(really" in screen
            challenged = challenged or "Tess (you): «Не верю!»" in screen
            if "Deal 1/1 over" in screen or "┌ Scores" in screen:
                break
            assert time.monotonic() < deadline, screen
            before = log_lines(screen)
            if "n «Не верю»" in screen:
                chances += 1
            if "d discard quads" in screen:
                tmux.keys("d")
            elif "You took the pile: quads?" in screen:
                tmux.keys("k")
            elif "n «Не верю»" in screen and ((laid and chances % 2 == 1) or "Enter lay" not in screen):
                tmux.keys("n")
            elif "Enter lay" in screen:
                tmux.keys("BSpace", "Space", "Enter")  # the card under the cursor, alone
                asked = tmux.wait_for(
                    lambda s, before=before: "Claim which rank" in s or log_lines(s) != before,
                    what="the set laid",
                )
                if "Claim which rank" in asked:
                    continue  # confirmed at the top of the loop
            # Each action of mine adds a line to the log (the bot waits for it: it is my turn).
            screen = tmux.wait_for(
                lambda s, before=before: log_lines(s) != before or "┌ Scores" in s, what="the action taken"
            )
            laid = laid or "(really" in screen
            challenged = challenged or "Tess (you): «Не верю!»" in screen
        screen = tmux.wait_for(lambda s: "┌ Scores" in s, what="the match-over page")
        assert laid, screen
        assert (
            "The match is over after 1 deal." in screen
            and "Scores count the deals each player lost" in screen
        )
        tmux.keys("Escape")
        screen = tmux.wait_for(lambda s: "┌ Scores" not in s, what="the page closed")
        assert "Out in order:" in screen and ("loses." in screen or "wins." in screen), screen
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
    try:
        tmux.start(play(tmp_path, "--seed 3 --players 2 --bot-delay 30 --lang ru --name Tess"))
        screen = tmux.wait_for(lambda s: "Терминал 50×15" in s, what="the too-small message", settled=True)
        said = "Терминал 50×15, а neveryu нужно хотя бы 64×20. Увеличьте окно или уменьшите шрифт."
        words = [w for line in screen.splitlines()[1:] for w in line.split()]
        assert words == said.split()  # every line ends at a word's end: no word is cut
        tmux.run("resize-window", "-x", "90", "-y", "28")
        screen = tmux.wait_for(
            lambda s: "Ваша рука" in s and "Ваш ход!" in s, what="the table after the resize", settled=True
        )
        assert "Терминал" not in screen
        hand = hand_line(screen)
        tmux.keys("Right", "Space")  # select the second card
        screen = tmux.wait_for(lambda s: "отмечено 1" in s and "*" in hand_line(s), what="the card selected")
        tmux.run("resize-window", "-x", "50", "-y", "15")
        tmux.wait_for(lambda s: "Терминал 50×15" in s, what="the too-small message again")
        tmux.run("resize-window", "-x", "90", "-y", "28")
        screen = tmux.wait_for(lambda s: "Ваша рука" in s, what="the table again", settled=True)
        assert "*" in hand_line(screen)
        assert re.findall(CARD, hand_line(screen)) == re.findall(CARD, hand)
        tmux.keys("?")
        tmux.wait_for(lambda s: "Помощь" in s and "«Не верю»" in s, what="the help")
    finally:
        tmux.kill()


@pytest.mark.parametrize(
    ("size", "lang", "turn", "claim", "help", "quit"),
    [
        ((64, 20), "en", "▶ Your turn!", "lead with", "? help", "q quit"),
        ((80, 24), "en", "▶ Your turn!", "lead with", "? help", "q quit"),
        ((64, 20), "ru", "▶ Ваш ход!", "заход:", "? помощь", "q выйти"),
    ],
)
def test_whose_turn_the_claim_the_timer_and_the_keys_are_always_on_screen(
    tmp_path, size, lang, turn, claim, help, quit
):
    tmux = Tmux(*size)
    try:
        tmux.start(play(tmp_path, f"--seed 5 --players 6 --turn 90 --bot-delay 20 --lang {lang} --name Tess"))
        screen = tmux.wait_for(lambda s: turn in s, what="my turn")
        status = screen.splitlines()[1]
        assert status.startswith(turn) and (claim in status or "·" in status), screen
        assert re.search(r"\d:\d\d", status), screen  # the time left
        bar = "\n".join(screen.splitlines()[-3:])
        assert help in bar and quit in bar, screen
        assert len(screen.splitlines()) <= size[1]
        for seat in range(2, 7):  # every seat of six on screen
            assert (f"Bot {seat}" if lang == "en" else f"Бот {seat}") in screen, screen
    finally:
        tmux.kill()


def test_an_ascii_terminal_gets_ascii_and_english(tmp_path):
    tmux = Tmux(80, 24)
    try:
        tmux.start(
            play(tmp_path, "--seed 7 --players 2 --lang ru --name Аня"),
            env={"LANG": "C", "LC_ALL": "C", "TERM": "xterm"},
        )
        screen = tmux.wait_for(lambda s: "> Your turn!" in s, what="my turn")
        assert screen.isascii(), [ch for ch in screen if not ch.isascii()]
        assert "Anya (you)" in screen and re.search(r"\b(10|[2-9JQKA])[SHDC]\b", hand_line(screen))
        shown = " ".join(screen.split())
        assert "English texts: this terminal cannot show Cyrillic (for Russian, a UTF-8 locale:" in shown
    finally:
        tmux.kill()


def start_server(tmp_path) -> tuple[subprocess.Popen, int]:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "neveryu.client.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-advertise",
        ],
        stdout=subprocess.PIPE,
        stderr=open(tmp_path / "server.log", "w"),  # noqa: SIM115 (closed with the process)
        text=True,
    )
    line = server.stdout.readline()
    port = int(re.search(r"port (\d+)", line).group(1))
    return server, port


def client_pid(tmux: Tmux) -> int:
    """The client's own process: the pane's shell runs it."""
    shell = int(tmux.run("display-message", "-p", "#{pane_pid}").strip())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        children = subprocess.run(["pgrep", "-P", str(shell)], capture_output=True, text=True).stdout.split()
        if children:
            return int(children[0])
        time.sleep(0.05)
    raise AssertionError("no client process")


def join(tmp_path, port: int, *args: str) -> str:
    return (
        f"cd {ROOT} && NEVERYU_STATE_DIR={tmp_path}/state {NEVERYU} join 127.0.0.1:{port} {' '.join(args)}; "
        f"echo exit $?; sleep 600"
    )


def test_a_client_killed_with_sigkill_comes_back_to_its_seat(tmp_path):
    server, port = start_server(tmp_path)
    tmux = Tmux(80, 24)
    try:
        tmux.start(join(tmp_path, port, "--name Ann --lang en"))
        tmux.wait_for(lambda s: "No tables yet" in s, what="the lobby")
        # a table of two: seats 4 -> 2 (the bot stays), untimed, one deal
        tmux.keys("c")
        tmux.wait_for(lambda s: "New table" in s, what="the form")
        tmux.keys("Down", "Left", "Left", "Down", "Down", "Down", "Left", "Left", "Left", "Left", "Enter")
        tmux.wait_for(lambda s: "You sit at table 1" in s, what="the table")
        tmux.keys("s")
        tmux.wait_for(lambda s: "s starts the match" in s, what="ready")
        tmux.keys("s")
        screen = tmux.wait_for(lambda s: re.search(CARD, hand_line(s)), what="the hand")
        hand = sorted(re.findall(CARD, hand_line(screen)))
        os.kill(client_pid(tmux), signal.SIGKILL)
        tmux.run("respawn-pane", "-k", join(tmp_path, port, "--name Ann --lang en"))
        screen = tmux.wait_for(lambda s: "While you were away:" in s, what="the recap")
        assert "You are back where you left off." in screen  # (a client started anew)
        assert sorted(re.findall(CARD, hand_line(screen))) == hand
        assert "Ann (you)" in screen and "Your hand" in screen
        tmux.keys("C-c")  # and it says how to come back
        screen = tmux.wait_for(lambda s: "exit 0" in s, what="the client to stop")
        assert (
            f"Your seat at table 1 is kept. To come back: neveryu join 127.0.0.1:{port} --name Ann"
            in " ".join(screen.split())
        )
    finally:
        tmux.kill()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)


def test_the_host_gives_a_killed_players_seat_to_a_bot_and_he_comes_back_to_the_lobby(tmp_path):
    """The host gives an absent player's seat to a bot, end to end: Ann makes a table of three (Bob,
    a bot), Bob's client is killed with SIGKILL mid-deal; before his grace runs out Ann gives his
    seat to a bot (the summary cannot say his client dropped: the server decides); Bob starts the
    client again and lands in the lobby, told why."""
    server, port = start_server(tmp_path)
    (tmp_path / "ann").mkdir()
    (tmp_path / "bob").mkdir()
    ann, bob = Tmux(80, 24), Tmux(64, 20)
    try:
        ann.start(join(tmp_path / "ann", port, "--name Ann --lang en"))
        ann.wait_for(lambda s: "No tables yet" in s, what="Ann's lobby")
        ann.keys("c")
        ann.wait_for(lambda s: "New table" in s, what="the form")
        # three seats (one bot), untimed
        ann.keys("Down", "Left", "Down", "Down", "Down", "Left", "Left", "Left", "Left", "Enter")
        ann.wait_for(lambda s: "You sit at table 1" in s, what="Ann's table")
        bob.start(join(tmp_path / "bob", port, "--name Bob --lang en"))
        bob.wait_for(lambda s: "verish" in s and "waiting" in s, what="Bob's lobby")
        bob.keys("Enter")
        bob.wait_for(lambda s: "You sit at table 1, seat 2" in s, what="Bob's seat")
        ann.keys("s")
        bob.keys("s")
        bob.wait_for(lambda s: "s starts the match" in s, what="everyone ready")
        bob.keys("s")
        bob.wait_for(lambda s: re.search(CARD, hand_line(s)), what="Bob's hand")
        os.kill(client_pid(bob), signal.SIGKILL)
        ann.keys("m")
        ann.wait_for(lambda s: "Seats" in s and "2. Bob" in s, what="the seats dialog")
        ann.keys("Down", "b")
        ann.wait_for(lambda s: "b yes, a bot plays it" in s, what="the host asked to confirm")
        ann.keys("b")
        ann.wait_for(lambda s: "Bot 2" in s, what="a bot in Bob's seat")
        ann.keys("Escape")
        screen = ann.wait_for(lambda s: "gave seat 2 to a bot" in s, what="the log")
        assert "Ann (you) gave seat 2 to a bot (hard)." in log_lines(screen)
        bob.run("respawn-pane", "-k", join(tmp_path / "bob", port, "--name Bob --lang en"))
        told = "the table's host took your seat, and you are in the lobby."
        # the whole recap, not its first words: the screen may be caught while it is drawn
        screen = bob.wait_for(lambda s: "Server " in s and told in " ".join(s.split()), what="Bob's lobby")
        assert "Your hand" not in screen and "Watching" not in screen
    finally:
        ann.kill()
        bob.kill()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of ``pid`` so far (/proc/PID/stat), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_an_idle_client_in_the_lobby_uses_almost_no_cpu(tmp_path):
    """An idle client in the lobby redraws nothing unless something changed, so it uses almost
    no CPU (measured here over 10 s)."""
    server, port = start_server(tmp_path)
    tmux = Tmux(80, 24)
    try:
        tmux.start(join(tmp_path, port, "--name Ann --lang en"))
        tmux.wait_for(lambda s: "No tables yet" in s, what="the lobby")
        pid = client_pid(tmux)
        time.sleep(1.0)  # (a measurement window, not a wait for something to happen)
        before, start = cpu_seconds(pid), time.monotonic()
        time.sleep(10.0)
        used = (cpu_seconds(pid) - before) / (time.monotonic() - start)
        assert used < 0.01, f"{used:.2%} of a core"
    finally:
        tmux.kill()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)
