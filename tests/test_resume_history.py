"""A snapshot keeps the deal's history (docs/PROTOCOL.md, "state: a snapshot"), in-process on trio's
MockClock: after a server restart (the table restored from its journal) each player's ``state``
holds every event of the deal he had been sent, in order, exactly as he had it; a spectator who
resumes across a snapshot, and anyone who joins during a deal, gets the deal as a spectator saw it.
Hidden information is checked on the bytes of the ``state`` frame: no card of the deck appears in it
that its receiver could not see (his own hand and what he took or drew, cards turned up).
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from server_checks import cards_on_wire
from test_journal import Played, crash, open_records, settings

from neveryu import engine, protocol
from neveryu.client.ui import model
from neveryu.client.ui.texts import Texts
from neveryu.server._restore import Restored, restore_table
from neveryu.server._session import Session
from neveryu.server._table import Table
from neveryu.server.records.replay import deal_events

PASSWORD = "пароль"  # (test_journal's tables have this password)


class RawLink:
    """A connection that keeps the frames it was sent, as bytes."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    @property
    def msgs(self) -> list[dict[str, Any]]:
        return [msgpack.unpackb(f[4:]) for f in self.frames]

    def send(self, frame: bytes) -> None:
        self.frames.append(frame)

    def note_error(self, code: str, msg: str) -> None:
        pass


def deal_seen(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the last deal among ``msgs`` that a history holds, without seq and ts."""
    start = max(i for i, m in enumerate(msgs) if m["t"] == "deal_started")
    drop = ("seq", "ts")
    return [
        {k: v for k, v in m.items() if k not in drop}
        for m in msgs[start:]
        if m["t"] in protocol.HISTORY_EVENTS and "seq" in m
    ]


def visible(table: Table, seat: int | None) -> set[str]:
    """Every card ``seat`` (None: a spectator) could see of the deal so far, from the deal's own
    events (not from their projection): its dealt hand, the piles it took and the cards it drew,
    every set turned up, the draws for the dealer."""
    game = table.game
    events = deal_events(game.deal, game.opening, game.referee.applied, table.rules)
    seen: set[str] = set()
    for e in events:
        if isinstance(e, engine.DealStarted) and seat is not None:
            seen.update(e.hands[seat])
        elif isinstance(e, engine.SetRevealed) or (
            isinstance(e, (engine.PileTaken, engine.StockDrawn)) and e.seat == seat
        ):
            seen.update(e.cards)
        elif isinstance(e, engine.DealerDrawn):
            seen.update(card for draw in e.draws for _seat, card in draw)
    return seen


def hidden_cards_in(data: bytes, table: Table, allowed: set[str]) -> list[str]:
    """The cards of the deck other than ``allowed`` that are a string in the msgpack ``data``
    (a frame's body)."""
    return cards_on_wire(data, set(table.deal.deck_order or ()) - allowed)


async def play_until(played: Played, actions: int, rng: random.Random) -> None:
    for _ in range(3_000):
        if played.actions >= actions:
            return
        await played.step()
    raise AssertionError(f"only {played.actions} actions")


@pytest.mark.parametrize("variant", ["cheat", "verish", "hoyle-three", "lozh"])
async def test_after_a_restart_each_player_gets_the_deal_as_he_saw_it(nursery, mock_clock, tmp_path, variant):
    rng = random.Random(variant)
    records = open_records(tmp_path / "records.sqlite3")
    table = Table(
        1,
        settings(variant, seats=4, bots=("sharp", "random"), seed=11),
        records=records,
        journal=records.journal,
    )
    records.journal.opened(table)
    nursery.start_soon(table.run)
    sessions = [Session(f"p{i}", replay=10_000) for i in range(2)]
    for session in sessions:
        session.attach(RawLink())
    played = Played(table, sessions, mock_clock, random.Random(1))
    await trio.testing.wait_all_tasks_blocked()
    for k in range(2):
        assert (await played.send(k, "join_table", table=1, password=PASSWORD))["seat"] == k
        await played.send(k, "ready", ready=True)
    await played.send(0, "start")
    await play_until(played, rng.randint(12, 30), rng)
    before = [deal_seen(s.link.msgs) for s in sessions]
    crash(records)

    again = open_records(tmp_path / "records.sqlite3")
    restored, back = restore_table(again.journaled[0], table_id=1, journal=again.journal, replay=10_000)
    nursery.start_soon(restored.run)
    reclaim = Restored()
    reclaim.add(back)
    for k, old in enumerate(sessions):
        session = reclaim.reclaim(old.token, old.seq)
        session.attach(RawLink())
        restored.attached(session, snapshot=True, restarted=True)
        frame = next(f for f in session.link.frames if msgpack.unpackb(f[4:])["t"] == "state")
        state = msgpack.unpackb(frame[4:])
        protocol.State.from_wire(state)
        assert state["history"] == before[k]  # every event of the deal, in order, as he had it
        assert state["history"][0]["t"] == "deal_started"
        assert hidden_cards_in(frame[4:], restored, visible(restored, k)) == []

        # His client's log of the deal is as it was, and it says that nothing happened meanwhile.
        welcome = {"t": "welcome", "re": 1, "session": old.token, "minor": 1, "server": {"name": "test"}}
        client = model.reduce_all([{**welcome, "resumed": False}, *old.link.msgs])
        lost = {"t": "_connection", "status": "lost", "reason": "reset"}
        welcome |= {"resumed": True, "restarted": True, "table": restored.summary, "seat": k}
        back = [lost, welcome, *session.link.msgs, {"t": "_replayed"}]
        later = model.reduce_all(back, client)
        assert later.log[: len(client.log)] == client.log
        assert [x.key for x in later.log[len(client.log) :]] == ["conn_lost", "server_restarted", "recap"]
        assert Texts("en").log_line(later, later.log[-1]) == "While you were away: nothing happened."
        assert later.pile_claimed == client.pile_claimed
    again.close()


@pytest.mark.parametrize("variant", ["cheat", "veryu"])
async def test_a_spectator_and_a_newcomer_get_the_deal_as_a_spectator_saw_it(nursery, mock_clock, variant):
    table = Table(1, settings(variant, seats=4, bots=("sharp", "honest"), seed=5, password=None))
    nursery.start_soon(table.run)
    sessions = [Session(f"p{i}", replay=10_000) for i in range(2)]
    watcher = Session("eve", replay=8)  # keeps fewer events than it misses: a snapshot
    other = Session("ivan", replay=10_000)  # watches it all
    for session in (*sessions, watcher, other):
        session.attach(RawLink())
    played = Played(table, sessions, mock_clock, random.Random(2))
    await trio.testing.wait_all_tasks_blocked()
    for k in range(2):
        await played.send(k, "join_table", table=1)
        await played.send(k, "ready", ready=True)
    table.handle(watcher, protocol.Spectate(id=1, table=1))
    table.handle(other, protocol.Spectate(id=1, table=1))
    await played.send(0, "start")
    await play_until(played, 10, random.Random(3))
    link = watcher.link
    watcher.detach(link, trio.current_time())
    await play_until(played, played.actions + 8, random.Random(4))
    assert watcher.missed(link.msgs[-1]["seq"]) is None  # too much missed to replay
    watcher.attach(RawLink())
    table.attached(watcher, snapshot=True)
    (frame,) = [f for f in watcher.link.frames if msgpack.unpackb(f[4:])["t"] == "state"]
    state = msgpack.unpackb(frame[4:])
    assert state["history"] == deal_seen(other.link.msgs)
    assert hidden_cards_in(frame[4:], table, visible(table, None)) == []

    # A newcomer at a seat during the deal (seat 1's player left) saw none of it: a spectator's
    # view of the history, and only his hand holds the seat's cards.
    await played.send(1, "leave")
    newcomer = Session("zoe", replay=100)
    newcomer.attach(RawLink())
    table.handle(newcomer, protocol.JoinTable(id=2, table=1))
    (joined,) = [m for m in newcomer.link.msgs if m["t"] == "state"]
    assert joined["seat"] == 1
    assert joined["history"] == deal_seen(other.link.msgs)
    data = msgpack.packb(joined["history"])
    assert hidden_cards_in(data, table, visible(table, None)) == []


async def test_between_deals_the_history_discloses_the_ended_deals_seed_only(nursery, mock_clock):
    table = Table(1, settings("verish", seats=3, bots=("sharp",), seed=None, password=None))
    nursery.start_soon(table.run)
    sessions = [Session(f"p{i}", replay=10_000) for i in range(2)]
    for session in sessions:
        session.attach(RawLink())
    played = Played(table, sessions, mock_clock, random.Random(6))
    await trio.testing.wait_all_tasks_blocked()
    for k in range(2):
        await played.send(k, "join_table", table=1)
        await played.send(k, "ready", ready=True)
    await played.send(0, "start")
    game = table.game
    for _ in range(5_000):  # until the next deal's seed is committed, its cards not dealt yet
        if game.shuffle is not None and game.shuffle.deal_no == 2 and not game.shuffle.dealt:
            break
        await played.step()
    assert game.deal.over and game.shuffle.deal_no == 2
    (ended,) = [m for m in sessions[0].link.msgs if m["t"] == "deal_ended"]
    watcher = Session("eve", replay=100)
    watcher.attach(RawLink())
    table.handle(watcher, protocol.Spectate(id=1, table=1))
    (frame,) = [f for f in watcher.link.frames if msgpack.unpackb(f[4:])["t"] == "state"]
    state = msgpack.unpackb(frame[4:])
    assert state["history"][-1] == {k: v for k, v in ended.items() if k not in ("seq", "ts")}
    assert game.shuffle.seed.hex().encode() not in frame  # the next deal's seed, never before it ends
