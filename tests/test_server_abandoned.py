"""A table whose people all dropped without ``leave`` closes as ``leave`` would have closed it, once
the last of their grace times ends (docs/PROTOCOL.md, section 5, "table_closed"), so no table is
left with nobody to play it, whether a match is on or not; until then a dropped player may come back
to his seat. On trio's MockClock, so the times are exact."""

from __future__ import annotations

import msgpack
import pytest
import server_pairs
import trio
import trio.testing
from test_server_limits import HELLO, connect, limits_config

from neveryu.server import Server

GRACE = 5.0  # s
CLOSE = 60.0  # s: the table's own closing deadline, which a dropped table no longer waits for


@pytest.fixture
def autojump_clock():
    return trio.testing.MockClock(autojump_threshold=0)


def config():
    return limits_config().evolve(
        table={"grace_ms": int(GRACE * 1000), "close_ms": int(CLOSE * 1000), "bot_delay_ms": 100}
    )


class Player:
    """A connection in a nursery of its own: ``drop()`` cuts it without a ``leave``."""

    def __init__(self, peer, scope: trio.CancelScope) -> None:
        self.peer, self.scope = peer, scope

    async def drop(self) -> None:
        self.scope.cancel()
        await self.peer.stream.aclose()


async def player(nursery: trio.Nursery, server: Server, name: str, *requests: dict) -> Player:
    scope = trio.CancelScope()
    ready = trio.Event()
    box = {}

    async def run() -> None:
        with scope:
            async with trio.open_nursery() as own:
                box["peer"] = peer = await connect(own, server)
                await peer.send({**HELLO, "name": name})
                for r in requests:
                    await peer.send(r)
                await trio.testing.wait_all_tasks_blocked()
                ready.set()
                await trio.sleep_forever()

    nursery.start_soon(run)
    await ready.wait()
    return Player(box["peer"], scope)


async def closed_at(server: Server, since: float) -> float:
    """Wait until the server holds no table; the seconds since ``since``."""
    while server.tables:
        await trio.sleep(0.01)
    return trio.current_time() - since


@pytest.mark.parametrize("start", [False, True], ids=["waiting", "playing"])
async def test_a_table_whose_player_dropped_closes_when_his_grace_ends(autojump_clock, start, records_db):
    async with trio.open_nursery() as nursery:
        server = await server_pairs.started(nursery, config(), records_db)
        make = {"t": "create_table", "id": 2, "variant": "verish", "seats": 3, "bots": ["honest", "honest"]}
        go = [{"t": "ready", "id": 3, "ready": True}, {"t": "start", "id": 4}] if start else []
        ann = await player(nursery, server, "ann", make, *go)
        (table,) = server.tables.values()
        assert table.playing is start
        dropped = trio.current_time()
        await ann.drop()
        await trio.sleep(GRACE - 0.1)
        assert server.tables  # still waiting for him
        assert await closed_at(server, dropped) == pytest.approx(GRACE, abs=0.011)
        assert not server.table_address  # no longer counted against his address
        # if he comes back, his welcome has no table; during a match the table_closed he missed
        # is replayed (between matches his seat was given up first: player_left is for others)
        assert all(s.table is None for s in server.sessions.values())
        closed = [m["reason"] for m in kept(server) if m["t"] == "table_closed"]
        assert closed == (["its players left"] if start else [])
        # His session waits in the lobby a grace time from there (docs/PROTOCOL.md, "Resume").
        await trio.sleep(GRACE * 0.9)
        assert [s.name for s in server.sessions.values()] == ["ann"]
        await trio.sleep(GRACE * 0.6)
        assert not server.sessions
        nursery.cancel_scope.cancel()


def kept(server: Server) -> list[dict]:
    """The events the server kept for its sessions' resumes, decoded."""
    return [msgpack.unpackb(f[4:]) for s in server.sessions.values() for f in s.buffer]


async def test_the_last_grace_to_end_closes_it_and_a_player_back_in_time_keeps_it(autojump_clock, records_db):
    async with trio.open_nursery() as nursery:
        server = await server_pairs.started(nursery, config(), records_db)
        make = {"t": "create_table", "id": 2, "variant": "verish", "seats": 3, "bots": ["honest"]}
        ann = await player(nursery, server, "ann", make, {"t": "ready", "id": 3, "ready": True})
        (table,) = server.tables.values()
        bob = await player(
            nursery,
            server,
            "bob",
            {"t": "join_table", "id": 2, "table": table.id},
            {"t": "ready", "id": 3, "ready": True},
            {"t": "start", "id": 4},
        )
        assert table.playing
        first = trio.current_time()
        await ann.drop()
        await trio.sleep(GRACE / 2)
        await bob.drop()
        await trio.sleep(GRACE / 2 + 0.1)
        assert server.tables and table.seats[0].away  # ann's seat: a bot plays it; bob's grace runs
        assert await closed_at(server, first) == pytest.approx(GRACE * 1.5, abs=0.011)
        nursery.cancel_scope.cancel()
