"""The table's host (docs/PROTOCOL.md, "Lobby requests": seat_bot, seat_free), in-process on
MockClock: only the player who made the table changes its seats; a free seat or an absent
player's seat goes to a bot; a bot seat is freed, or a player removed, between matches; everyone
is told who did it, and the removed player is back in the lobby."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from test_server_timing import ListLink

from neveryu import protocol
from neveryu.server._session import Session
from neveryu.server._settings import TableSettings
from neveryu.server._table import Table


class Room:
    """A table of ``seats`` seats and one session per person, each joined in turn."""

    def __init__(self, table: Table, people: int) -> None:
        self.table = table
        self.people = [Session(name, replay=1000) for name in ("host", "bob", "cat", "dan")[:people]]
        for person in self.people:
            person.attach(ListLink())
        self.ids = 100

    def send(self, who: int, t: str, **fields: Any) -> dict[str, Any]:
        self.ids += 1
        self.table.handle(self.people[who], protocol.parse_request({"t": t, "id": self.ids, **fields}))
        return next(m for m in self.msgs(who) if m.get("re") == self.ids)

    def msgs(self, who: int) -> list[dict[str, Any]]:
        link = self.people[who].link
        assert isinstance(link, ListLink)
        return link.msgs

    def events(self, who: int, t: str) -> list[dict[str, Any]]:
        return [m for m in self.msgs(who) if m.get("t") == t and "seq" in m]

    def seats(self) -> list[tuple[str | None, str | None]]:
        return [(s["name"], s["bot"]) for s in self.table.summary["seats"]]


@pytest.fixture
async def room(nursery, mock_clock):
    table = Table(1, TableSettings(variant="verish", options={}, seats=3, turn_ms=0, grace_ms=5_000, seed=3))
    nursery.start_soon(table.run)
    r = Room(table, 2)
    for who in range(2):
        assert r.send(who, "join_table", table=1)["seat"] == who
    return r


async def test_the_first_to_sit_is_the_host_and_only_he_changes_seats(room):
    assert room.table.summary["host"] == 0
    refused = room.send(1, "seat_bot", seat=2)
    assert (refused["t"], refused["code"]) == ("error", "NOT_HOST")
    assert room.send(0, "seat_bot", seat=0)["code"] == "BAD_OPTION"  # not his own seat
    assert room.send(0, "seat_bot", seat=1)["code"] == "SEAT_TAKEN"  # bob is here
    assert room.seats() == [("host", None), ("bob", None), (None, None)]


async def test_a_free_seat_goes_to_a_bot_and_a_bot_seat_is_freed_before_a_match(room):
    assert room.send(0, "seat_bot", seat=2, strength="honest")["t"] == "ok"
    for who in (0, 1):
        (changed,) = room.events(who, "seat_changed")
        assert changed == {**changed, "seat": 2, "by": 0, "action": "bot", "name": None, "strength": "honest"}
    assert room.seats() == [("host", None), ("bob", None), ("bot 3", "honest")]
    assert room.send(0, "seat_free", seat=2)["t"] == "ok"
    assert room.events(1, "seat_changed")[-1]["action"] == "bot_removed"
    assert room.seats() == [("host", None), ("bob", None), (None, None)]
    assert room.send(0, "seat_free", seat=2)["code"] == "BAD_OPTION"  # free already


async def test_a_player_removed_between_matches_is_told_and_back_in_the_lobby(room):
    bob = room.people[1]
    assert room.send(0, "seat_free", seat=1)["t"] == "ok"
    (left,) = room.events(1, "player_left")
    assert (left["seat"], left["reason"], left["by"]) == (1, "removed", 0)
    assert bob.table is None and bob.seat is None
    (changed,) = room.events(0, "seat_changed")
    assert (changed["action"], changed["name"]) == ("removed", "bob")
    assert room.seats() == [("host", None), (None, None), (None, None)]
    assert room.events(1, "table_update")[-1]["table"]["seats"][1]["name"] == "bob"  # nothing after


async def test_during_a_match_only_an_absent_players_seat_goes_to_a_bot(room, mock_clock):
    assert room.send(0, "seat_bot", seat=2, strength="sharp")["t"] == "ok"
    for who in (0, 1):
        room.send(who, "ready", ready=True)
    assert room.send(0, "start")["t"] == "ok"
    assert room.send(0, "seat_bot", seat=1)["code"] == "SEAT_TAKEN"  # bob is here
    assert room.send(0, "seat_free", seat=2)["code"] == "ALREADY_PLAYING"
    bob = room.people[1]
    link = bob.link
    bob.detach(link, trio.current_time())
    room.table.detached(bob)
    assert room.send(0, "seat_bot", seat=1)["t"] == "ok"  # absent: it need not wait for his grace
    assert room.seats()[1] == ("bot 2", "sharp") and bob.table is None
    assert link.msgs[-1]["t"] != "player_left"  # he was not connected to hear it ...
    kept = [msgpack.unpackb(frame[4:]) for frame in bob.buffer]
    assert [m["reason"] for m in kept if m["t"] == "player_left"] == ["removed"]  # ... it waits for him


async def test_the_host_passes_on_when_he_leaves(room):
    room.send(0, "leave")
    assert room.table.summary["host"] == 1
    assert room.send(1, "seat_bot", seat=2)["t"] == "ok"
