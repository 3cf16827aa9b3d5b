"""A restarted server and client keep the deal's log, end to end in a real terminal (tmux):
`neveryu serve` and Ann's `neveryu join` are both killed with SIGKILL during a deal of `cheat`; the server is
started again on the same port and database, and so is Ann's client (it resumes the kept session).
Her log shows the deal as it had it, every claim in order, and the pile's claimed count is right,
before and after one more claim. Two `neveryu bot`s hold the other seats and take them back by
themselves. The server and the bots are seeded, so every run plays the same deal: the pile holds
claims when Ann's second turn comes (unseeded, her first set was sometimes caught and she led an
empty pile).

tmux runs on a private server socket and is killed in ``finally``, as are the processes."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time

from test_client_tmux import NEVERYU, ROOT, Tmux, client_pid, log_lines

HOST = "127.0.0.1"
CONFIG = """seed = 5

[table]
variant = "cheat"
seats = 3
deals = 1
turn_ms = 0
challenge_window_ms = 150
tie_window_ms = 50
bot_delay_ms = 100
grace_ms = 60000
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def serve(tmp_path, port: int, log: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "neveryu.client.cli", "serve", "--host", HOST, "--port", str(port)]
    command += [
        "--no-advertise",
        "--db",
        str(tmp_path / "db.sqlite3"),
        "--config",
        str(tmp_path / "server.toml"),
    ]
    server = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=open(tmp_path / log, "w"),  # noqa: SIM115 (closed with the process)
        text=True,
    )
    assert f"port {port}" in server.stdout.readline()
    return server


def bot(tmp_path, port: int, name: str, seed: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "neveryu.client.cli", "bot", f"{HOST}:{port}", "--name", name]
    command += ["--delay-ms", "300", "--seed", str(seed), "--strength", "normal"]
    log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)


def join(tmp_path, port: int) -> str:
    return (
        f"cd {ROOT} && NEVERYU_STATE_DIR={tmp_path}/state {NEVERYU} join {HOST}:{port} --name Ann --lang en; "
        "echo exit $?; sleep 600"
    )


def journal_settled(db) -> None:
    """Wait until the journal's actions stop changing (the writer commits at most every 100 ms):
    what the screen shows is then all in the database."""
    deadline, seen = time.monotonic() + 15, []
    while time.monotonic() < deadline:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            seen.append(conn.execute("SELECT count(*) FROM live_actions").fetchone()[0])
        finally:
            conn.close()
        if len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3] > 0:
            return
        time.sleep(0.1)
    raise AssertionError(f"the journal did not settle: {seen}")


def the_deal(screen: str) -> list[str]:
    """The log's lines of the deal (from its start), without the connection's."""
    lines = [x for x in log_lines(screen) if x]
    start = max(i for i, x in enumerate(lines) if x.startswith("Deal 1/1"))
    skip = ("The server restarted", "While you were away", "Connection", "Resuming", "The connection")
    return [x for x in lines[start:] if not x.startswith(skip)]


def claimed(lines: list[str]) -> int:
    """The cards claimed on the pile, from the deal's log: the claims since the last take."""
    total = 0
    for line in lines:
        if "takes the pile" in line or "discard" in line:
            total = 0
        found = re.search(r"(?:claims |\(you\): )(\d+) ", line)
        total += int(found.group(1)) if found else 0
    return total


def lay_one(tmux: Tmux) -> None:
    """Ann lays the card under the cursor, claiming one card (of the rank offered first, when she
    leads), and waits until her set is in the log."""
    laid = tmux.screen().count("(really")
    tmux.keys("Space", "Enter")
    asked = tmux.wait_for(lambda s: "Claim how many cards?" in s or "Claim which rank?" in s, what="a claim")
    if "Claim which rank?" in asked:  # a lead (the pile was taken meanwhile): the rank is hers to say
        tmux.keys("Enter")
        tmux.wait_for(lambda s: "Claim how many cards?" in s, what="the claim's count")
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "Claim how many" not in s and s.count("(really") > laid, what="Ann's set laid")


def test_a_client_and_its_server_killed_mid_deal_come_back_with_the_deals_history(tmp_path):
    port = free_port()
    (tmp_path / "server.toml").write_text(CONFIG, "utf-8")
    processes = [serve(tmp_path, port, "server0.log")]
    tmux = Tmux(100, 32)
    try:
        tmux.start(join(tmp_path, port))
        tmux.wait_for(lambda s: "No tables yet" in s, what="the lobby")
        processes.append(bot(tmp_path, port, "Bot1", 1))  # it makes the table
        tmux.wait_for(lambda s: "1/3  waiting" in s, what="Bot1's table")
        processes.append(bot(tmp_path, port, "Bot2", 2))
        tmux.wait_for(lambda s: "2/3  waiting" in s, what="Bot2 at it")
        tmux.keys("Enter")
        tmux.wait_for(lambda s: "You sit at table 1" in s, what="Ann's seat")
        tmux.keys("s")
        tmux.wait_for(lambda s: "Your turn!" in s and "Enter lay" in s, what="Ann's first turn")
        lay_one(tmux)
        before = tmux.wait_for(lambda s: "Your turn!" in s and "Enter lay" in s, what="Ann's second turn")
        journal_settled(tmp_path / "db.sqlite3")
        pile = re.search(r"Pile: (\d+) claimed", before)
        assert pile and int(pile.group(1)) == claimed(the_deal(before)) > 0, before

        processes[0].kill()  # SIGKILL: no bye, nothing flushed
        processes[0].wait(timeout=10)
        os.kill(client_pid(tmux), signal.SIGKILL)
        processes[0] = serve(tmp_path, port, "server1.log")
        tmux.run("respawn-pane", "-k", join(tmp_path, port))
        after = tmux.wait_for(lambda s: "While you were away" in s and "Your turn!" in s, what="Ann back")
        assert the_deal(after) == the_deal(before), after
        lines = [x for x in log_lines(after) if x]
        assert lines[0] == "The server restarted; resuming…"
        assert lines[-1] == "While you were away: nothing happened."
        assert f"Pile: {pile.group(1)} claimed" in after

        lay_one(tmux)  # one more claim of one card: the pile's count goes on from there
        screen = tmux.screen()
        now = re.search(r"Pile: (\d+) claimed", screen)
        assert now and now.group(1) == str(claimed(the_deal(screen))), screen
        assert "Ann (you): 1 " in the_deal(screen)[len(the_deal(before))]
    finally:
        tmux.kill()
        for process in processes:
            process.kill()
            process.wait(timeout=10)
