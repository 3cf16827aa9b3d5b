"""Bad records databases and broken disks cost records, never a game (docs/RECORDS.md, "Where
records go"): a database from a newer neveryu, a file that is no database, a read-only file and a
full disk each turn records off, said once in the log (and at start-up on the terminal), while the
server goes on serving whole matches; a server killed with SIGKILL leaves a database that opens and
holds every deal that ended before the kill.

Real servers on 127.0.0.1 (in-process, or ``neveryu serve`` in a process of its own), real files
in a temporary folder; the full disk is a real tmpfs of a few hundred KiB in a mount namespace of
the test's own (where the system allows one: root and ``unshare``).
"""

from __future__ import annotations

import logging
import os
import random
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from records_checks import check_database

from neveryu.client.botclient import BotPlayer, Client
from neveryu.server import Server, ServerConfig, connect_records
from neveryu.server.records.database import SCHEMA_VERSION

HOST = "127.0.0.1"
FAST = {"turn_ms": 0, "challenge_window_ms": 0, "tie_window_ms": 0, "bot_delay_ms": 0, "deal_pause_ms": 0}


async def play(port: int, deals: int, variant: str = "verish", seed: int = 3) -> BotPlayer:
    """A player makes a table with two bots and plays a match of ``deals`` deals."""
    client = await Client.connect(HOST, port, "ann", keep=True)
    joined = await client.request(
        "create_table", variant=variant, seats=3, bots=["honest", "honest"], deals=deals, seed=seed
    )
    player = BotPlayer(client, joined["table"], 0, "honest", rng=random.Random(seed))
    await player.play(1)
    return player


def off_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("records are off")]


@pytest.mark.parametrize("fault", ["newer", "not a database"])
async def test_a_database_it_cannot_use_costs_the_records_not_the_games(tmp_path, caplog, fault):
    db = tmp_path / "records.sqlite3"
    if fault == "newer":
        conn = sqlite3.connect(db)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        conn.close()
        why = (
            f"{db} was written by a newer neveryu (records schema {SCHEMA_VERSION + 1};"
            f" this one knows up to {SCHEMA_VERSION})"
        )
    else:
        db.write_bytes(b"\x00garbage" * 512)
        why = f"{db} is not a records database (or it is damaged)"
    before = db.read_bytes()
    caplog.set_level(logging.INFO, logger="neveryu.server")
    server = Server(ServerConfig(host=HOST, port=0, db=str(db)).evolve(table=FAST))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.run)
            player = await play(port, deals=2)
            assert (player.deals, player.matches) == (2, 1)
            assert player.client.welcome["records"] is False
            nursery.cancel_scope.cancel()
    assert (server.records.on, server.records.off) == (False, why)
    assert off_lines(caplog) == [f"records are off: {why}; games go on without them"]
    assert db.read_bytes() == before  # left as it was found


# -- neveryu serve in a process of its own ------------------------------------------------------------


def write_config(folder: Path, top: str = "") -> Path:
    path = folder / "server.toml"
    path.write_text(top + "[table]\n" + "".join(f"{k} = {v}\n" for k, v in FAST.items()), "utf-8")
    return path


class Served:
    """``neveryu serve`` on 127.0.0.1, port 0 (``args``: more of its options), read until it said
    where it listens and what becomes of the records. ``setup``: shell commands run first, in a
    mount namespace of its own (``unshare -m``), the server then taking their place."""

    def __init__(self, args: list[str], *, log: Path, setup: str = "") -> None:
        command = [sys.executable, "-m", "neveryu.client.cli", "serve", "--host", HOST, "--port", "0"]
        command += ["--no-advertise", *args]
        if setup:
            command = ["unshare", "-m", "sh", "-c", f"{setup} && exec {shlex.join(command)}"]
        self.log = log
        self.proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=open(log, "w"),  # noqa: SIM115 (closed with the process)
            text=True,
        )
        first = self.proc.stdout.readline()
        found = re.search(r"port (\d+)", first)
        assert found, (first, log.read_text())
        self.port = int(found.group(1))
        self.records = self.proc.stdout.readline().strip()

    def stop(self) -> str:
        """SIGTERM; returns what it printed after its start."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=20)
        return out

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate(timeout=20)


def mount_namespaces() -> bool:
    """A mount namespace of the test's own is possible (root, ``unshare -m``)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


def said_off(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if "records are off" in line]


@pytest.mark.skipif(
    os.geteuid() == 0 and not mount_namespaces(), reason="root writes any file: needs a read-only mount"
)
async def test_a_read_only_database_is_said_at_start_up_and_games_go_on(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "records.sqlite3"
    sqlite3.connect(db).close()  # a database the server may read and not write
    db.chmod(0o444)
    # Root writes any file whatever its mode: the folder is then mounted read-only for the server.
    setup = (
        f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}" if os.geteuid() == 0 else ""
    )
    config = write_config(tmp_path)
    served = Served(["--db", str(db), "--config", str(config)], log=tmp_path / "log", setup=setup)
    try:
        assert served.records == f"Records are off: {db} is read-only."
        with trio.fail_after(60):
            player = await play(served.port, deals=2)
        assert (player.deals, player.matches) == (2, 1)
    finally:
        served.stop()
    said = said_off(tmp_path / "log")
    assert len(said) == 1 and said[0].endswith(
        f"records are off: {db} is read-only; games go on without them"
    )


# The records alone: the journal of live tables writes pages to the write-ahead log many times a
# second and fills 128 KiB before a deal ends (tests/test_journal_restart.py fills a disk with it on).
RECORDS_ALONE = "journal = false\n"


@pytest.mark.skipif(not mount_namespaces(), reason="a tmpfs of the test's own needs root and unshare -m")
async def test_a_full_disk_turns_records_off_once_and_the_match_goes_on(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    db = disk / "records.sqlite3"
    # A 256 KiB tmpfs over ``disk`` (a new file with its schema and WAL takes 130 KiB), the server
    # on it; once it stopped, a look at what it holds.
    check = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]);"
        " print('integrity', c.execute('PRAGMA integrity_check').fetchone()[0]);"
        " print('deals', c.execute('SELECT count(*) FROM deals').fetchone()[0])"
    )
    script = (
        f"mount -t tmpfs -o size=256k tmpfs {disk} || exit 9\n"
        f"{sys.executable} -m neveryu.client.cli serve --host {HOST} --port 0 --no-advertise --db {db}"
        f" --config {write_config(tmp_path, RECORDS_ALONE)} 2> {tmp_path / 'log'} &\n"
        f"echo $! > {tmp_path / 'pid'}\n"
        "wait\n"
        f"{sys.executable} -c {shlex.quote(check)} {db}\n"
    )
    proc = subprocess.Popen(["unshare", "-m", "sh", "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"port (\d+)", proc.stdout.readline()).group(1))
        assert (
            proc.stdout.readline().strip()
            == f"Deals are recorded in {db} (neveryu history --db {db} lists them)."
        )
        with trio.fail_after(120):
            player = await play(port, deals=20)
        assert (player.deals, player.matches) == (20, 1)  # every deal played, the disk full or not
        os.kill(int((tmp_path / "pid").read_text()), signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    said = said_off(tmp_path / "log")
    assert len(said) == 1, said
    assert said[0].endswith(f"records are off: the disk holding {db} is full; games go on without them")
    found = dict(line.split(" ", 1) for line in out.splitlines())
    assert found["integrity"] == "ok"
    assert 0 < int(found["deals"]) < 20  # the deals recorded before the disk filled


@pytest.mark.parametrize("seed", [1, 2])
async def test_a_server_killed_with_sigkill_leaves_every_ended_deal(tmp_path, seed):
    rng = random.Random(seed)
    db = tmp_path / "records.sqlite3"
    served = Served(["--db", str(db), "--config", str(write_config(tmp_path))], log=tmp_path / "server.log")
    kill_after, extra_ms = rng.randint(2, 6), rng.randint(0, 40)  # the seeded moment
    seen: list[int] = []
    committed: list[int] = []
    try:
        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                client = await Client.connect(HOST, served.port, "ann", keep=True)
                joined = await client.request(
                    "create_table", variant="verish", seats=3, bots=["sharp", "sharp"], deals=100, seed=seed
                )
                player = BotPlayer(client, joined["table"], 0, "honest", rng=random.Random(seed))

                async def playing() -> None:
                    try:
                        await player.play(1)
                    except Exception:  # the server is gone
                        pass

                nursery.start_soon(playing)
                while player.deals < kill_after:
                    await trio.sleep(0.001)
                # The records are written a moment after the players are told a deal ended (a
                # table never waits on the disk): wait until the server lists all but the last
                # one (bounded by the deadline above), then kill it at the seeded moment after.
                lister = await Client.connect(HOST, served.port, "lister")  # (the player's is busy)
                while True:
                    listed = await lister.request("list_records", limit=100)
                    if len(listed["records"]) >= kill_after - 1:
                        break
                    await trio.sleep(0.01)
                await trio.sleep(extra_ms / 1000)
                seen.append(player.deals)
                committed.append(len(listed["records"]))
                served.proc.kill()  # SIGKILL: no shutdown, no flush
                nursery.cancel_scope.cancel()
    finally:
        served.kill()
    records = check_database(db)  # it opens, is whole, and every deal in it replays
    held = [r.deal_no for r in records]
    assert held == list(range(1, len(held) + 1))
    # Every deal the server had listed is there, and none that the player had not yet seen end
    # but for the one he was about to.
    assert committed[0] <= len(held) <= seen[0] + 1, (committed, seen, held)
    conn = connect_records(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
