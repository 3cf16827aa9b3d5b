"""A server restart loses no game (docs/PROTOCOL.md, "Across a server restart"): ``neveryu serve``
in a process of its own, on 127.0.0.1, killed with SIGKILL at seeded moments of a match (a bounded
number of times) and started again on the same database; its players' clients, finding their
connection gone, resume with their kept tokens, to the same seat, and play the match to its end.
(The moments come once the table is in the journal: a table younger than one batch of the writer,
100 ms, dies with the server.)

Checked for every variant (seeded tables) and for a table of fair deal 2 (no fixed seed: the
shuffle takes the players' contributions): after each restart every client was welcomed back
(``resumed``, ``restarted``, the same seat); every snapshot it got conserves the cards (hands,
pile, discard, stock, hidden and set-aside cards make the deck, where the variant shows the
counts); both deals of the match end, each recorded once, and every record replays through the
rules (tests/records_checks.py: the card invariant, the result, the commitment). And
``--fresh`` starts without the tables: the players' tokens are then unknown (``BAD_RESUME``).
A full disk costs the journal and the records, never a game. The terminal client says that the
server restarted, and a snapshot tells it which of its sets is held. A spectator and a session
in the lobby resume too; a table whose journal does not replay tells its players why
(``table_closed``), in the lobby. A resume whose ``last_seq`` no session reaches costs only its
connection.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import budget
import pytest
import trio
from records_checks import check_database
from test_records_faults import Served, mount_namespaces

from neveryu import engine
from neveryu.client.botclient import BotPlayer, Client, ConnectionClosed, ServerError
from neveryu.client.ui import model
from neveryu.client.ui.texts import Texts

HOST = "127.0.0.1"
DEALS = 2
KILLS = 3
TABLE = {
    "turn_ms": 0,
    "challenge_window_ms": 40,
    "tie_window_ms": 10,
    "quads_window_ms": 40,
    "bot_delay_ms": 5,
    "deal_pause_ms": 60,
    "contribute_ms": 300,
    "grace_ms": 20_000,
}
DROPPED = (ConnectionClosed, OSError, trio.BrokenResourceError, trio.ClosedResourceError)


def write_config(folder: Path) -> Path:
    path = folder / "server.toml"
    table = "".join(f"{k} = {v}\n" for k, v in TABLE.items())
    path.write_text(f"[table]\n{table}[limits]\nrate = 10000\nburst = 10000\n", "utf-8")
    return path


class Control:
    """Where the server listens now; ``back`` is set each time it has started again."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.generation = 0
        self.back = trio.Event()

    def restarted(self, port: int) -> None:
        self.port, self.generation = port, self.generation + 1
        back, self.back = self.back, trio.Event()
        back.set()


class Player:
    """A player's client: an ``honest`` bot through the protocol that, when its connection is
    gone, waits for the server to be back and resumes with its token and last seq."""

    def __init__(self, client: Client, table: dict[str, Any], seat: int, rng: random.Random) -> None:
        self.client, self.table, self.seat, self.rng = client, table, seat, rng
        self.token = client.token
        self.clients = [client]
        self.welcomes: list[dict[str, Any]] = []
        self.done = False

    @property
    def seen(self) -> int:
        return sum(len(c.received or ()) for c in self.clients)

    async def run(self, control: Control) -> None:
        generation = 0
        while not self.done:
            try:
                await BotPlayer(self.client, self.table, self.seat, "honest", rng=self.rng).play(1)
                self.done = True
                return
            except DROPPED:
                pass
            while control.generation == generation:
                await control.back.wait()
            generation = control.generation
            last_seq = self.client.last_seq
            self.client = await Client.connect(
                HOST, control.port, "x", resume=(self.token, last_seq), keep=True
            )
            self.clients.append(self.client)
            welcome = self.client.welcome
            self.welcomes.append(welcome)
            self.table = welcome["table"]
            if self.table["state"] == "waiting" and self.table["deal_no"] == DEALS:
                self.done = True  # the match had ended when the server was killed


async def journaled(db: Path) -> None:
    """Wait until the journal holds a live table."""
    while True:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            if conn.execute("SELECT count(*) FROM live_tables").fetchone()[0]:
                return
        finally:
            conn.close()
        await trio.sleep(0.01)


def conserved(state: dict[str, Any], rules: engine.Rules, players: int) -> bool | None:
    """Whether a ``state`` snapshot's cards make the deck (None: the variant hides counts)."""
    if state["hand_counts"] is None or state["pile"] is None:
        return None
    held = sum(state["hand_counts"]) + state["pile"] + state["discard"]
    held += state["stock"] + state["hidden"] + state["set_aside"]
    return held == len(engine.new_deck(rules.deck_for(players)))


CASES = [(variant, True) for variant in engine.VARIANTS] + [("verish", False)]


@pytest.mark.parametrize(
    ("variant", "seeded"), CASES, ids=[f"{v}-{'seeded' if s else 'fair'}" for v, s in CASES]
)
async def test_a_server_killed_at_any_moment_loses_no_game(tmp_path, variant, seeded):
    rng = random.Random(f"{variant} {seeded}")
    db = tmp_path / "records.sqlite3"
    args = ["--db", str(db), "--config", str(write_config(tmp_path))]
    served = [Served(args, log=tmp_path / "server0.log")]
    rules = engine.variant(variant)
    try:
        with trio.fail_after(budget.seconds(120)):
            ann = await Client.connect(HOST, served[0].port, "ann", keep=True)
            seed = {"seed": rng.randrange(1 << 30)} if seeded else {}
            made = await ann.request(
                "create_table", variant=variant, seats=3, bots=["sharp"], deals=DEALS, **seed
            )
            bob = await Client.connect(HOST, served[0].port, "bob", keep=True)
            joined = await bob.request("join_table", table=made["table"]["id"])
            players = [
                Player(ann, made["table"], made["seat"], random.Random(1)),
                Player(bob, joined["table"], joined["seat"], random.Random(2)),
            ]
            control = Control(served[0].port)
            await journaled(db)  # (a table younger than one batch of the writer dies with the server)
            async with trio.open_nursery() as nursery:
                for player in players:
                    nursery.start_soon(player.run, control)
                for kill in range(1, KILLS + 1):
                    moment = sum(p.seen for p in players) + rng.randint(5, 90)  # the seeded moment
                    while sum(p.seen for p in players) < moment and not any(p.done for p in players):
                        await trio.sleep(0.001)
                    if any(p.done for p in players):
                        break
                    served[-1].proc.kill()  # SIGKILL: no shutdown, no flush
                    await trio.to_thread.run_sync(served[-1].proc.wait)
                    again = await trio.to_thread.run_sync(
                        lambda kill=kill: Served(args, log=tmp_path / f"server{kill}.log")
                    )
                    served.append(again)
                    control.restarted(again.port)
                    while not all(len(p.welcomes) == kill or p.done for p in players):
                        await trio.sleep(0.001)
        served[-1].stop()  # SIGTERM: the last deal's record is written (it is batched)
    finally:
        for s in served:
            s.kill()
    kills = len(served) - 1
    assert kills >= 1, "the match ended before the first seeded moment"
    for player, seat in zip(players, (made["seat"], joined["seat"])):
        assert player.done
        assert [(w["resumed"], w.get("restarted"), w["seat"]) for w in player.welcomes] == [
            (True, True, seat)
        ] * len(player.welcomes)
        assert len(player.welcomes) in (kills, kills - 1)  # (none after a kill at the match's end)
        for client in player.clients[1:]:
            for state in (m for m in client.received or () if m["t"] == "state"):
                assert conserved(state, rules, 3) in (True, None)
    records = check_database(db)  # every deal recorded replays: card invariant, result, commitment
    assert sorted(r.deal_no for r in records) == list(range(1, DEALS + 1))
    assert len({r.match for r in records}) == 1
    assert [s.name for s in records[0].seats][:2] == ["ann", "bob"]
    for k in range(1, kills + 1):
        log = (tmp_path / f"server{k}.log").read_text()
        assert "is not restored" not in log
        assert re.search(r"journal: table \d+ is restored", log), log


async def test_fresh_starts_without_the_tables(tmp_path):
    db = tmp_path / "records.sqlite3"
    args = ["--db", str(db), "--config", str(write_config(tmp_path))]
    first = Served(args, log=tmp_path / "first.log")
    try:
        with trio.fail_after(budget.seconds(60)):
            ann = await Client.connect(HOST, first.port, "ann", keep=True)
            await ann.request("create_table", variant="cheat", seats=3, bots=["sharp", "sharp"], deals=1)
            await ann.request("ready", ready=True)
            await ann.request("start")
            while not any(m["t"] == "deal_started" for m in ann.received or ()):
                await ann.next_event()
            first.proc.kill()
            await trio.to_thread.run_sync(first.proc.wait)
            fresh = await trio.to_thread.run_sync(
                lambda: Served([*args, "--fresh"], log=tmp_path / "fresh.log")
            )
            try:
                with pytest.raises(ServerError) as refused:
                    await Client.connect(HOST, fresh.port, "ann", resume=(ann.token, ann.last_seq))
                assert refused.value.code == "BAD_RESUME"
                lobby = await Client.connect(HOST, fresh.port, "cyril")
                assert (await lobby.request("list_tables"))["tables"] == []
            finally:
                fresh.stop()
    finally:
        first.kill()
    assert (
        "journal: 1 tables of the last run are not restored (--fresh)" in (tmp_path / "fresh.log").read_text()
    )


@pytest.mark.skipif(not mount_namespaces(), reason="a tmpfs of the test's own needs root and unshare -m")
async def test_a_full_disk_costs_the_journal_never_a_game(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    db = disk / "records.sqlite3"
    args = ["--db", str(db), "--config", str(write_config(tmp_path))]
    served = Served(args, log=tmp_path / "log", setup=f"mount -t tmpfs -o size=128k tmpfs {disk}")
    try:
        with trio.fail_after(budget.seconds(120)):
            ann = await Client.connect(HOST, served.port, "ann", keep=True)
            made = await ann.request(
                "create_table", variant="verish", seats=3, bots=["sharp", "sharp"], deals=20
            )
            player = BotPlayer(ann, made["table"], made["seat"], "honest", rng=random.Random(5))
            await player.play(1)
        assert (player.deals, player.matches) == (20, 1)  # every deal played, the disk full or not
    finally:
        served.stop()
    said = [line for line in (tmp_path / "log").read_text().splitlines() if "records are off" in line]
    assert len(said) == 1, said
    assert said[0].endswith(f"records are off: the disk holding {db} is full; games go on without them")


def test_the_client_says_the_server_restarted():
    welcome = {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"}
    state = model.reduce_all([welcome, {"t": "_connection", "status": "lost", "reason": "reset"}])
    table = {"id": 1, "variant": "verish", "seats": [], "state": "playing"}
    back = {**welcome, "resumed": True, "restarted": True, "table": table, "seat": 0}
    state = model.reduce(state, back)
    assert state.connection == "connected" and state.screen == "table"
    assert Texts("en").log_line(state, state.log[-1]) == "The server restarted; resuming…"
    assert Texts("ru").log_line(state, state.log[-1]) == "Сервер перезапустился; возвращаю за стол…"
    again = model.reduce(state, {**back, "restarted": None})
    assert Texts("en").log_line(again, again.log[-1]) == "The connection is back."


def test_a_snapshot_says_which_set_of_yours_is_held():
    snap = {
        "t": "state", "seq": 9, "ts": 0, "variant": "hoyle", "seat": 1, "players": 3, "deck": "52",
        "dealer": 0, "hand": ["QS", "QH", "6H"], "hand_counts": [17, 3, 17], "pile": 15, "discard": 0,
        "stock": 0, "hidden": 0, "set_aside": 0, "ranks": ["Q"], "turn": 1, "set_no": 4,
        "last": {"set_no": 4, "seat": 0, "rank": "K", "count": 2, "size": 2, "none": False},
        "window_open": True, "out": [], "waiting": [], "over": False, "loser": None, "winner": None,
        "legal": {"challenge": 4}, "deal_no": 1, "commitment": "0" * 64, "match_scores": [0, 0, 0],
        "time_ms": None, "held": {"cards": ["QS", "QH"], "rank": "Q", "count": 2},
    }  # fmt: skip
    state = model.reduce(model.State(screen="table", seat=1), snap)
    assert state.held == {"cards": ("QS", "QH"), "rank": "Q", "count": 2}
    assert state.playable_hand == ("6H",)
    returned = model.reduce(
        state, {"t": "set_returned", "seq": 10, "ts": 0, "seat": 1, "cards": ["QS", "QH"]}
    )
    assert returned.held is None and sorted(returned.hand) == ["6H", "QH", "QS"]  # never twice


async def wait_for_rows(db: Path, query: str, done: Any) -> None:
    """Wait until ``done(rows of query)`` holds in the journal (its writer commits every 100 ms)."""
    while True:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            if done(conn.execute(query).fetchall()):
                return
        finally:
            conn.close()
        await trio.sleep(0.01)


async def ann_plays(port: int, deals: int) -> tuple[Client, dict[str, Any]]:
    """Ann's client at a table of ``cheat`` with two ``sharp`` bots whose match of ``deals`` she
    started; and her ``table_joined``."""
    ann = await Client.connect(HOST, port, "ann", keep=True)
    made = await ann.request("create_table", variant="cheat", seats=3, bots=["sharp", "sharp"], deals=deals)
    await ann.request("ready", ready=True)
    await ann.request("start")
    return ann, made


async def kill_and_restart(tmp_path: Path, first: Served, args: list[str]) -> Served:
    first.proc.kill()  # SIGKILL: no shutdown, no flush
    await trio.to_thread.run_sync(first.proc.wait)
    return await trio.to_thread.run_sync(lambda: Served(args, log=tmp_path / "again.log"))


async def test_a_spectator_and_a_session_in_the_lobby_come_back_too(tmp_path):
    db = tmp_path / "records.sqlite3"
    args = ["--db", str(db), "--config", str(write_config(tmp_path))]
    first = Served(args, log=tmp_path / "first.log")
    again = None
    try:
        with trio.fail_after(60):
            ann, made = await ann_plays(first.port, deals=3)
            eve = await Client.connect(HOST, first.port, "eve", keep=True)
            await eve.request("spectate", table=made["table"]["id"])
            zoe = await Client.connect(HOST, first.port, "zoe", keep=True)
            await wait_for_rows(
                db, "SELECT state FROM live_tables", lambda rows: rows and "eve" in rows[0][0]
            )
            await wait_for_rows(db, "SELECT name FROM live_sessions", lambda rows: len(rows) == 3)
            again = await kill_and_restart(tmp_path, first, args)
            back = {}
            for who in (ann, eve, zoe):
                back[who] = await Client.connect(
                    HOST, again.port, "x", resume=(who.token, who.last_seq), keep=True
                )
            welcomes = {name: back[who].welcome for name, who in (("ann", ann), ("eve", eve), ("zoe", zoe))}
            assert {n: (w["resumed"], w.get("restarted"), w["seat"]) for n, w in welcomes.items()} == {
                "ann": (True, True, 0),
                "eve": (True, True, None),
                "zoe": (True, True, None),
            }
            assert welcomes["eve"]["table"]["id"] == made["table"]["id"] and welcomes["zoe"]["table"] is None
            # The snapshot: during a deal its state, between deals the next deal's commitment.
            seen = [(await back[eve].next_event())["t"] for _ in range(2)]
            assert seen in (["table_update", "state"], ["table_update", "seed_committed"]), seen
            assert (await back[zoe].request("list_tables"))["tables"][0]["spectators"] == 1
    finally:
        first.kill()
        if again is not None:
            again.stop()


async def test_a_table_that_does_not_restore_tells_its_players_why(tmp_path):
    db = tmp_path / "records.sqlite3"
    args = ["--db", str(db), "--config", str(write_config(tmp_path))]
    first = Served(args, log=tmp_path / "first.log")
    again = None
    try:
        with trio.fail_after(60):
            ann = await Client.connect(HOST, first.port, "ann", keep=True)
            await ann.request("create_table", variant="cheat", seats=3, bots=["sharp", "sharp"], deals=3)
            await ann.request("ready", ready=True)
            await ann.request("start")
            await wait_for_rows(db, "SELECT deal FROM live_tables", lambda rows: rows and rows[0][0])
            first.proc.kill()
            await trio.to_thread.run_sync(first.proc.wait)
            conn = sqlite3.connect(db)  # rules this server does not know, as after a downgrade
            conn.execute("UPDATE live_tables SET settings = json_set(settings, '$.variant', 'nonesuch')")
            conn.commit()
            conn.close()
            again = await kill_and_restart(tmp_path, first, args)
            back = await Client.connect(HOST, again.port, "x", resume=(ann.token, ann.last_seq), keep=True)
            assert (back.welcome["resumed"], back.welcome.get("restarted"), back.welcome["table"]) == (
                True,
                True,
                None,
            )
            closed = await back.next_event()
            assert (closed["t"], closed["table"], closed["seq"]) == ("table_closed", 1, ann.last_seq + 1)
            assert closed["reason"] == "the server restarted and could not bring this table back"
    finally:
        first.kill()
        if again is not None:
            again.stop()
    said = [line for line in (tmp_path / "again.log").read_text().splitlines() if "not restored" in line]
    assert (
        len(said) == 1 and "journal: table 1 is not restored (its rows are kept): the journal" in said[0]
    ), said
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT failure IS NOT NULL FROM live_tables").fetchall() == [(1,)]
    conn.close()


async def test_a_resume_with_an_absurd_last_seq_costs_only_its_connection(tmp_path):
    """After a restart a session's ``seq`` goes on after the ``last_seq`` its client gives: one
    past what msgpack can carry is the fatal ``BAD_MESSAGE``, and the table plays on for the
    other player and for the same session resumed as it should be."""
    db = tmp_path / "records.sqlite3"
    args = ["--db", str(db), "--config", str(write_config(tmp_path))]
    first = Served(args, log=tmp_path / "first.log")
    again = None
    try:
        with trio.fail_after(budget.seconds(60)):
            ann = await Client.connect(HOST, first.port, "ann", keep=True)
            made = await ann.request("create_table", variant="verish", seats=3, bots=["honest"], deals=1)
            bob = await Client.connect(HOST, first.port, "bob", keep=True)
            await bob.request("join_table", table=made["table"]["id"])
            for who in (ann, bob):
                await who.request("ready", ready=True)
            await ann.request("start")
            while not any(m["t"] == "deal_started" for m in ann.received or ()):
                await ann.next_event()
            await wait_for_rows(
                db, "SELECT state FROM live_tables", lambda rows: rows and "bob" in rows[0][0]
            )
            again = await kill_and_restart(tmp_path, first, args)
            with pytest.raises(ServerError) as refused:
                await Client.connect(HOST, again.port, "ann", resume=(ann.token, 2**64 - 1))
            assert (refused.value.code, refused.value.reply["fatal"]) == ("BAD_MESSAGE", True)
            players = []
            for who, seat in ((ann, 0), (bob, 1)):
                back = await Client.connect(
                    HOST, again.port, "x", resume=(who.token, who.last_seq), keep=True
                )
                assert (back.welcome["restarted"], back.welcome["seat"]) == (True, seat)
                players.append(
                    BotPlayer(back, back.welcome["table"], seat, "honest", rng=random.Random(seat))
                )
            async with trio.open_nursery() as both:
                for player in players:
                    both.start_soon(player.play, 1)
            assert [p.deals for p in players] == [1, 1]
    finally:
        first.kill()
        if again is not None:
            again.kill()  # (a server this breaks may not stop on SIGTERM)
