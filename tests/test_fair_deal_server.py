"""Fair deal 2 (docs/PROTOCOL.md, section 9.2, "how a deal's deck is made") at the server: the seed
and the dealer committed first, the deal started by the contributions or the window, no byte before
``deal_ended`` holding the seed (in-process, on trio's MockClock, sessions whose connection keeps
the raw frames); test doubles of a server that changes the deck after the contributions, which the
client's check catches; bot clients over TCP on 127.0.0.1; ``neveryu verify`` of what a client
received. The shuffle, its vectors and the client's check alone: tests/test_fair_deal.py.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from typing import Any

import msgpack
import pytest
import trio
import trio.testing

from neveryu import protocol
from neveryu.client import fairdeal
from neveryu.client.ui import model
from neveryu.client.ui.texts import Texts
from neveryu.server import _shuffle
from neveryu.server._session import Session
from neveryu.server._settings import TableSettings, table_seed
from neveryu.server._table import Table

WINDOW_MS = 1_000


# -- the server, on MockClock --------------------------------------------------------------------


class RawLink:
    """A session's connection that keeps every frame as sent (bytes) and decoded."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.msgs: list[dict[str, Any]] = []

    def send(self, frame: bytes) -> None:
        self.frames.append(frame)
        self.msgs.append(msgpack.unpackb(frame[4:]))

    def note_error(self, code: str, msg: str) -> None:
        pass


class Room:
    """A table of ``variant`` with ``players`` players (sessions), its other seats bots, and a
    spectator; requests are handled in-process, the clock is trio's MockClock."""

    def __init__(self, table: Table, players: list[Session], spectator: Session, clock: Any) -> None:
        self.table, self.players, self.spectator, self.clock = table, players, spectator, clock
        self.ids = itertools.count(100)

    def msgs(self, k: int) -> list[dict[str, Any]]:
        return self.players[k].link.msgs  # type: ignore[union-attr]

    async def send(self, session: Session, t: str, **fields: Any) -> dict[str, Any]:
        rid = next(self.ids)
        self.table.handle(session, protocol.parse_request({"t": t, "id": rid, **fields}))
        await trio.testing.wait_all_tasks_blocked()
        return next(m for m in session.link.msgs if m.get("re") == rid)  # type: ignore[union-attr]

    def events(self, k: int, t: str) -> list[dict[str, Any]]:
        return [m for m in self.msgs(k) if m.get("t") == t and "seq" in m]

    async def jump(self, seconds: float) -> None:
        self.clock.jump(seconds)
        await trio.testing.wait_all_tasks_blocked()

    async def contribute(self, k: int, contribution: str | None = None) -> tuple[str, dict[str, Any]]:
        """Player ``k`` answers the latest ``seed_committed`` as a client does."""
        committed = self.events(k, "seed_committed")[-1]
        contribution = contribution or fairdeal.new_contribution()
        reply = await self.send(
            self.players[k], "contribute", deal_no=committed["deal_no"], contribution=contribution
        )
        return contribution, reply

    async def play_out(self) -> None:
        """Jump the clock until the deal has ended (turn timers act for the players)."""
        for _ in range(4000):
            if self.events(0, "deal_ended"):
                return
            await self.jump(0.5)
        raise AssertionError("the deal did not end")


async def open_room(nursery, clock, variant="verish", seats=3, players=2, **settings: Any) -> Room:
    values: dict[str, Any] = dict(
        variant=variant,
        options={},
        seats=seats,
        bots=("honest",) * (seats - players),
        turn_ms=500,
        bot_delay_ms=0,
        deal_pause_ms=1_000,
        contribute_ms=WINDOW_MS,
        deals=1,
        seed=None,
    )
    values.update(settings)
    table = Table(1, TableSettings(**values))
    nursery.start_soon(table.run)
    sessions = []
    for i in range(players + 1):
        session = Session(f"p{i}", replay=10_000)
        session.attach(RawLink())
        sessions.append(session)
    room = Room(table, sessions[:players], sessions[players], clock)
    await trio.testing.wait_all_tasks_blocked()
    for session in room.players:
        assert (await room.send(session, "join_table", table=1))["t"] == "table_joined"
        assert (await room.send(session, "ready", ready=True))["t"] == "ok"
    assert (await room.send(room.spectator, "spectate", table=1))["t"] == "table_joined"
    assert (await room.send(room.players[0], "start"))["t"] == "ok"
    return room


def fair_line(state: model.State) -> model.Line:
    """The log line of the fair-deal check (the last one: other lines may follow it)."""
    return [line for line in state.log if line.key.startswith("fair_")][-1]


def client_model(room: Room, k: int, sent: dict[int, str] | None = None) -> model.State:
    """Player ``k``'s terminal-client model after everything it received, with the notes its
    network side makes about its contributions (``sent``: deal_no → contribution taken)."""
    state = model.State()
    for msg in room.msgs(k):
        state = model.reduce(state, msg)
        if msg.get("t") == "seed_committed" and sent and msg["deal_no"] in sent:
            note = {"t": "_contribution", "status": "sent", "deal_no": msg["deal_no"]}
            state = model.reduce(state, {**note, "contribution": sent[msg["deal_no"]]})
            state = model.reduce(state, {"t": "_contribution", "status": "taken"})
    return state


async def test_seed_and_dealer_are_committed_first_then_the_deal_starts_at_the_last_contribution(
    nursery, mock_clock
):
    room = await open_room(nursery, mock_clock)
    (committed,) = room.events(0, "seed_committed")
    assert not room.events(0, "deal_started") and room.table.deal is None
    assert committed["deal_no"] == 1 and committed["time_ms"] == WINDOW_MS and committed["deck"] == "36"
    bots = committed["contributions"]
    assert bots[0] is None and bots[1] is None and re.fullmatch("[0-9a-f]{64}", bots[2])
    assert [m["seed_hash"] for m in room.events(1, "seed_committed")] == [committed["seed_hash"]]
    assert [m["t"] for m in room.spectator.link.msgs][-1] == "seed_committed"  # type: ignore[union-attr]
    start = trio.current_time()
    mine0, ok0 = await room.contribute(0)
    assert ok0["t"] == "ok" and not room.events(0, "deal_started")
    mine1, ok1 = await room.contribute(1)
    assert ok1["t"] == "ok" and trio.current_time() == start  # dealt at once, no waiting
    (started,) = room.events(0, "deal_started")
    assert started["fair"] == 2 and started["seed_hash"] == committed["seed_hash"]
    assert started["dealer"] == committed["dealer"]
    assert started["contributions"] == [mine0, mine1, bots[2]]
    late = await room.send(room.players[0], "contribute", deal_no=1, contribution=mine0)
    assert (late["t"], late["code"], late["fatal"]) == ("error", "BAD_STATE", False)
    await room.play_out()
    (ended,) = room.events(0, "deal_ended")
    seed = bytes.fromhex(ended["seed"])
    assert protocol.seed_hash(seed) == committed["seed_hash"]
    assert ended["deck"] == protocol.fair_deck(
        seed, "36", [bytes.fromhex(c) for c in started["contributions"]]
    )
    for k, mine in ((0, mine0), (1, mine1)):
        state = client_model(room, k, {1: mine})
        assert state.result["fair_status"] == "fair" and state.result["fair"] is True
        assert fair_line(state).key == "fair_nobody"
        assert Texts("en").log_line(state, fair_line(state)) == (
            "Fair deal checked: the deck was shuffled fairly: nobody could choose it."
        )
        assert "выбрать её не мог никто" in Texts("ru").log_line(state, fair_line(state))
    watcher = model.reduce_all(room.spectator.link.msgs)  # type: ignore[union-attr]
    assert watcher.result["fair_status"] == "checked"


async def test_no_byte_before_deal_ended_holds_the_seed(nursery, mock_clock):
    """A contribution made last cannot steer the deck: nobody but the server knows the seed
    until the deal is over. Every frame every receiver got (two players, a spectator) before
    its ``deal_ended``, as bytes: neither the seed's 32 bytes nor its hex are in any."""
    room = await open_room(nursery, mock_clock, variant="hoyle", seats=4, players=2)
    await room.contribute(1)
    await room.contribute(0)  # the last contribution
    await room.play_out()
    await room.jump(5)  # the pause between deals: the match ends
    seed_hex = room.events(0, "deal_ended")[0]["seed"]
    seed = bytes.fromhex(seed_hex)
    for session in (*room.players, room.spectator):
        link = session.link
        ended_at = next(i for i, m in enumerate(link.msgs) if m.get("t") == "deal_ended")  # type: ignore[union-attr]
        before = b"".join(link.frames[:ended_at])  # type: ignore[union-attr]
        assert len(before) > 1000
        assert seed not in before and seed_hex.encode() not in before
        assert seed_hex.upper().encode() not in before
        assert seed_hex.encode() in link.frames[ended_at]  # type: ignore[union-attr]


async def test_a_missing_contribution_does_not_stall_the_deal(nursery, mock_clock):
    room = await open_room(nursery, mock_clock)
    start = trio.current_time()
    mine, _ = await room.contribute(0)  # player 1 (a client of before fair deal 2) sends nothing
    await room.jump(WINDOW_MS / 1000 - 0.001)
    assert not room.events(0, "deal_started")
    await room.jump(0.001)
    (started,) = room.events(0, "deal_started")
    assert trio.current_time() - start == pytest.approx(WINDOW_MS / 1000)
    assert started["contributions"][:2] == [mine, None]
    _, late = await room.contribute(1)
    assert (late["t"], late["code"]) == ("error", "BAD_STATE")
    await room.play_out()
    assert client_model(room, 0, {1: mine}).result["fair_status"] == "fair"
    silent = client_model(room, 1)
    assert silent.result["fair_status"] == "unprotected" and fair_line(silent).key == "fair_unprotected"


async def test_a_dropped_player_is_not_waited_for(nursery, mock_clock):
    room = await open_room(nursery, mock_clock, deals=2)
    await room.contribute(0)
    await room.contribute(1)
    gone = room.players[1]
    gone.detach(gone.link, trio.current_time())  # type: ignore[arg-type]
    room.table.detached(gone)
    await room.play_out()
    for _ in range(20):
        if len(room.events(0, "seed_committed")) == 2:
            break
        await room.jump(0.25)
    committed_at = trio.current_time()
    await room.contribute(0)
    assert len(room.events(0, "deal_started")) == 2 and trio.current_time() == committed_at
    assert room.events(0, "deal_started")[1]["contributions"][1] is None


async def test_a_player_who_drops_while_the_deal_waits_for_contributions_is_not_waited_for(
    nursery, mock_clock
):
    room = await open_room(nursery, mock_clock)
    start = trio.current_time()
    mine, _ = await room.contribute(0)
    assert not room.events(0, "deal_started")
    gone = room.players[1]
    gone.detach(gone.link, trio.current_time())  # type: ignore[arg-type]
    room.table.detached(gone)
    await trio.testing.wait_all_tasks_blocked()
    (started,) = room.events(0, "deal_started")
    assert trio.current_time() == start  # dealt when the drop was seen, not when the window closed
    assert started["contributions"][:2] == [mine, None]


async def test_contributions_the_server_does_not_take(nursery, mock_clock):
    room = await open_room(nursery, mock_clock)
    c = fairdeal.new_contribution()
    watcher = await room.send(room.spectator, "contribute", deal_no=1, contribution=c)
    assert (watcher["code"], watcher["fatal"]) == ("NOT_PLAYING", False)
    other = await room.send(room.players[0], "contribute", deal_no=2, contribution=c)
    assert other["code"] == "BAD_STATE"
    assert (await room.send(room.players[0], "contribute", deal_no=1, contribution=c))["t"] == "ok"
    twice = await room.send(
        room.players[0], "contribute", deal_no=1, contribution=fairdeal.new_contribution()
    )
    assert twice["code"] == "BAD_STATE"
    with pytest.raises(protocol.RemoteProtocolError) as bad:
        protocol.parse_request({"t": "contribute", "id": 1, "deal_no": 1, "contribution": c.upper()})
    assert (bad.value.code, bad.value.fatal) == ("BAD_MESSAGE", True)


async def test_a_spectator_who_comes_during_the_window_is_told_the_commitment(nursery, mock_clock):
    room = await open_room(nursery, mock_clock)
    await room.jump(0.25)
    late = Session("late", replay=1000)
    late.attach(RawLink())
    await room.send(late, "spectate", table=1)
    (committed,) = [m for m in late.link.msgs if m.get("t") == "seed_committed"]  # type: ignore[union-attr]
    assert committed["time_ms"] == WINDOW_MS - 250
    assert committed["seed_hash"] == room.events(0, "seed_committed")[0]["seed_hash"]


async def test_a_seeded_table_asks_for_nothing_and_deals_the_same_decks(nursery, mock_clock):
    decks = []
    for _ in range(2):
        room = await open_room(nursery, mock_clock, seed=7)
        assert not room.events(0, "seed_committed")
        (started,) = room.events(0, "deal_started")
        assert started["fair"] == 2 and started["contributions"] == [None, None, None]
        await room.play_out()
        (ended,) = room.events(0, "deal_ended")
        seed = table_seed(7, room.table.id)  # the table's own, from its maker's seed
        assert bytes.fromhex(ended["seed"]) == protocol.seeded_deal_seed(seed, 1)
        assert protocol.seed_hash(bytes.fromhex(ended["seed"])) == started["seed_hash"]
        decks.append(ended["deck"])
        state = client_model(room, 0)
        assert state.result["fair_status"] == "seeded" and fair_line(state).key == "fair_seeded"
        room.table.close("test")
        await trio.testing.wait_all_tasks_blocked()
    assert decks[0] == decks[1] == protocol.fair_deck(protocol.seeded_deal_seed(seed, 1), "36", [None] * 3)
    # the vector of docs/PROTOCOL.md, 9.6 (seed 7, table 1, verish at 3 seats): what a third party computes
    assert (room.table.id, started["dealer"]) == (1, 1)
    assert " ".join(decks[0]).startswith("8C KS KD 8H 9H TS AH 7H 7C AD")


# -- test doubles of a cheating server: the client's check catches each -----------------------------


def cheat_reseeds(shuffle: _shuffle.Shuffle) -> list[str]:
    """Seen the contributions, it draws a new seed (and discloses that one)."""
    shuffle.dealt = True
    shuffle.seed = bytes(32)
    return protocol.fair_deck(shuffle.seed, shuffle.kind, shuffle.contributions)


def cheat_stacks(shuffle: _shuffle.Shuffle) -> list[str]:
    """It deals a deck of its choice (two cards swapped), committing to it as scheme 1 asks."""
    shuffle.dealt = True
    deck = protocol.fair_deck(shuffle.seed, shuffle.kind, shuffle.contributions)
    deck[0], deck[-1] = deck[-1], deck[0]
    return deck


def cheat_replaces(shuffle: _shuffle.Shuffle) -> list[str]:
    """It puts a contribution of its own choosing in player 0's place."""
    shuffle.contributions[0] = b"\x07" * 32
    shuffle.dealt = True
    return protocol.fair_deck(shuffle.seed, shuffle.kind, shuffle.contributions)


def cheat_drops(shuffle: _shuffle.Shuffle) -> list[str]:
    """It leaves player 0's accepted contribution out."""
    shuffle.contributions[0] = None
    shuffle.dealt = True
    return protocol.fair_deck(shuffle.seed, shuffle.kind, shuffle.contributions)


@pytest.mark.parametrize(
    ("cheat", "problem"),
    [
        (cheat_reseeds, "seed"),
        (cheat_stacks, "deck"),
        (cheat_replaces, "mine_replaced"),
        (cheat_drops, "mine_dropped"),
    ],
)
async def test_a_server_that_changes_the_deck_after_the_contributions_is_caught(
    nursery, mock_clock, monkeypatch, cheat, problem
):
    monkeypatch.setattr(_shuffle.Shuffle, "deck", cheat)
    room = await open_room(nursery, mock_clock)
    mine, _ = await room.contribute(0)
    await room.contribute(1)
    await room.play_out()
    state = client_model(room, 0, {1: mine})
    assert state.result["fair"] is False and state.result["fair_status"] == "bad"
    assert problem in state.result["fair_problems"]
    assert fair_line(state) == model.Line(
        "fair_bad", {"problem": state.result["fair_problems"][0]}, state.names
    )
    for lang in ("en", "ru"):
        line = Texts(lang).log_line(state, fair_line(state))
        assert (
            line.startswith(("Fair deal check FAILED: ", "Проверка честности НЕ прошла: "))
            and "{" not in line
        )
    ended = room.events(0, "deal_ended")[0]
    started = room.events(0, "deal_started")[0]
    digest = hashlib.sha256((ended["salt"] + ":" + ",".join(ended["deck"])).encode()).hexdigest()
    assert digest == started["commitment"]  # the commitment of scheme 1 alone would not see it


# -- over TCP on 127.0.0.1: the headless bot client, and a client of before fair deal 2 ------------


async def test_bot_clients_contribute_and_find_every_deal_fair():
    import random

    from neveryu.client.botclient import BotPlayer, Client
    from neveryu.server import ServerConfig, serve

    config = ServerConfig(host="127.0.0.1", port=0, seed=None).evolve(
        table={
            "deals": 2,
            "bot_delay_ms": 0,
            "deal_pause_ms": 0,
            "turn_ms": 0,
            "challenge_window_ms": 20,
            "tie_window_ms": 5,
            "contribute_ms": 60_000,
        }
    )
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            ann = await Client.connect("127.0.0.1", port, "ann", keep=True)
            bob = await Client.connect("127.0.0.1", port, "bob", keep=True)
            joined = await ann.request("create_table", variant="hoyle", seats=3, bots=["honest"])
            players = [BotPlayer(ann, joined["table"], 0, "honest", rng=random.Random(1))]
            bob_joined = await bob.request("join_table", table=joined["table"]["id"])
            players.append(BotPlayer(bob, bob_joined["table"], 1, "honest", rng=random.Random(2)))
            async with trio.open_nursery() as game:  # a minute's window: only the contributions start it
                for p in players:
                    game.start_soon(p.play, 1)
            assert [p.fair for p in players] == [["fair", "fair"], ["fair", "fair"]]
            started = [m for m in ann.received if m["t"] == "deal_started"]  # type: ignore[union-attr]
            assert all(None not in m["contributions"] for m in started)
            nursery.cancel_scope.cancel()


async def test_a_client_that_does_not_contribute_delays_the_deal_by_the_window_only():
    """A client written before fair deal 2 ignores ``seed_committed``: its table's deals start
    ``contribute_ms`` later, and it checks the commitment of scheme 1 as before."""
    from neveryu.client.botclient import Client
    from neveryu.server import ServerConfig, serve

    config = ServerConfig(host="127.0.0.1", port=0, seed=None).evolve(table={"contribute_ms": 300})
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            old = await Client.connect("127.0.0.1", port, "old", keep=True)
            await old.request("create_table", variant="verish", seats=2, bots=["honest"])
            await old.request("ready", ready=True)
            asked = trio.current_time()  # (before the request: the window opens as the server takes it)
            await old.request("start")
            while (event := await old.next_event())["t"] != "deal_started":
                pass
            assert trio.current_time() - asked >= 0.3
            assert event["contributions"][0] is None and event["contributions"][1] is not None
            nursery.cancel_scope.cancel()


# -- neveryu verify -------------------------------------------------------------------------------


def with_notes(msgs: list[dict[str, Any]], sent: dict[int, str]) -> list[dict[str, Any]]:
    """``msgs`` with the ``_contribution`` notes a terminal client adds after ``seed_committed``."""
    out = []
    for msg in msgs:
        out.append(msg)
        if msg.get("t") == "seed_committed" and msg["deal_no"] in sent:
            out.append({"t": "_contribution", "status": "sent", "deal_no": msg["deal_no"]})
            out[-1]["contribution"] = sent[msg["deal_no"]]
            out.append({"t": "_contribution", "status": "taken"})
    return out


async def test_neveryu_verify_checks_what_a_client_received(
    nursery, mock_clock, tmp_path, capsys, monkeypatch
):
    import json

    from neveryu.client import cli

    room = await open_room(nursery, mock_clock, deals=2)
    mine = {}
    for deal_no in (1, 2):
        for _ in range(40):
            if len(room.events(0, "seed_committed")) == deal_no:
                break
            await room.jump(0.25)
        mine[deal_no], _ = await room.contribute(0)
        await room.contribute(1)
        for _ in range(4000):
            if len(room.events(0, "deal_ended")) == deal_no:
                break
            await room.jump(0.5)
    record = tmp_path / "seen.json"
    record.write_text(json.dumps({"messages": with_notes(room.msgs(0), mine)}))
    assert cli.main(["verify", str(record)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "deal 1: fair deal 2: the deck was shuffled fairly: nobody could choose it",
        "deal 2: fair deal 2: the deck was shuffled fairly: nobody could choose it",
    ]
    tampered = room.msgs(1)
    ended = next(m for m in tampered if m.get("t") == "deal_ended")
    ended["deck"][0], ended["deck"][1] = ended["deck"][1], ended["deck"][0]
    record.write_text(json.dumps(tampered))
    assert cli.main(["verify", str(record)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("deal 1: FAILED: the deck disclosed is not the one committed to")
    assert out[1] == (
        "deal 2: fair deal 2 holds, but the recorder's contribution is not in the deck:"
        " the server could have chosen it"
    )
