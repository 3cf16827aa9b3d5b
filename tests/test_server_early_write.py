"""The first event of an action is written before the rest of its batch is worked out
(``Table._publish`` calls its ``flush`` for each receiver as soon as that receiver's copy of the
event is framed), when no other connection waits to be read (``Server.flush``, asked once per
batch); what each connection gets, and in which order, is the same."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
import trio.testing
from neveryu import engine
from neveryu.server import ServerConfig
from neveryu.server._server import Server
from neveryu.server._session import Session
from neveryu.server._settings import TableSettings
from neveryu.server._table import Table


@pytest.fixture
def autojump_clock():
    return trio.testing.MockClock(autojump_threshold=0)


class LogLink:
    """A connection that writes what it is pushed, in order, to a log shared by the table's
    connections (``flush`` writes a marker naming it into the log)."""

    def __init__(self, name: str, log: list[tuple[str, Any]]) -> None:
        self.name, self.log = name, log

    def push(self, msg: dict[str, Any], final: bool = False, body: bytes | None = None) -> None:
        self.log.append((self.name, msg))

    def push_frame(self, frame: bytes) -> None:
        self.log.append((self.name, msgpack.unpackb(frame[4:])))

    def drop(self, reason: str) -> None:
        raise AssertionError(f"dropped: {reason}")


def seated_table(log: list[tuple[str, Any]]) -> tuple[Table, list[Session]]:
    table = Table(
        1,
        TableSettings(variant="verish", options={}, seats=4, bots=(), turn_ms=0, deals=1, seed=5),
        flush=lambda link: log.append(("flush", link.name)),
    )
    sessions = []
    for k in range(4):
        session = Session(f"p{k}", 1000)
        session.attach(LogLink(f"p{k}", log))
        table.handle("join_table", session, {"id": 1})
        table.handle("ready", session, {"id": 2, "ready": True})
        sessions.append(session)
    table.handle("start", sessions[0], {"id": 3})
    return table, sessions


def lay_request(deal: engine.Deal, seat: int, rid: int) -> dict[str, Any]:
    action = engine.random_turn_action(deal.view(seat), random.Random(rid))
    assert isinstance(action, engine.LaySet)
    req: dict[str, Any] = {"t": "lay", "id": rid, "cards": list(action.cards), "rank": action.rank}
    if action.count is not None:
        req["count"] = action.count
    return req


async def test_a_lay_is_flushed_to_each_seat_once_its_set_laid_is_framed_and_before_the_rest(autojump_clock):
    log: list[tuple[str, Any]] = []
    table, sessions = seated_table(log)
    deal = table.deal
    assert deal is not None
    actor = deal.turn
    del log[:]
    table.handle("lay", sessions[actor], lay_request(deal, actor, 7))
    flushes = [i for i, (who, _) in enumerate(log) if who == "flush"]
    assert len(flushes) == 4  # once per seat, for the batch's first event only
    before, after = log[: flushes[-1] + 1], log[flushes[-1] + 1 :]
    expected = [(f"p{actor}", "ok")]  # the reply is pushed first (and written with the actor's event)
    for k in range(4):  # then each seat in turn: its set_laid, then its flush
        expected += [(f"p{k}", "set_laid"), ("flush", f"p{k}")]
    assert [(who, m["t"] if who != "flush" else m) for who, m in before] == expected
    assert next(m for who, m in before if who == f"p{actor}")["re"] == 7
    assert {m["t"] for _, m in after} <= {"turn", "legal"}
    assert {who for who, m in after if m["t"] == "turn"} == {f"p{k}" for k in range(4)}
    # each connection's own order: the reply, the event, then the rest, seq without a gap
    for k in range(4):
        mine = [m for who, m in log if who == f"p{k}"]
        assert [m["t"] for m in mine][: 2 if k == actor else 1] == (
            ["ok", "set_laid"] if k == actor else ["set_laid"]
        )
        seqs = [m["seq"] for m in mine if "seq" in m]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))


async def test_a_refused_lay_flushes_nothing_early(autojump_clock):
    log: list[tuple[str, Any]] = []
    table, sessions = seated_table(log)
    deal = table.deal
    assert deal is not None
    other = (deal.turn + 1) % 4
    del log[:]
    table.handle("lay", sessions[other], {"t": "lay", "id": 9, "cards": [], "rank": "A"})
    assert [who for who, _ in log] == [f"p{other}"]
    assert log[0][1]["t"] == "error" and log[0][1]["re"] == 9


class FakeConnection:
    def __init__(self) -> None:
        self.flushed = 0

    def flush(self, now: float | None = None) -> None:
        self.flushed += 1


class FakeWaiting:
    def __init__(self, ready: list[tuple[int, int]]) -> None:
        self.ready = ready
        self.polls = 0

    def poll(self, timeout: float, maxevents: int) -> list[tuple[int, int]]:
        assert timeout == 0  # never waits
        self.polls += 1
        return self.ready[:maxevents]


@pytest.mark.parametrize(
    ("waiting", "written"),
    [(FakeWaiting([]), True), (FakeWaiting([(7, 1)]), False), (None, False)],
    ids=["idle", "a connection waits to be read", "no epoll"],
)
async def test_server_flush_writes_early_only_when_no_connection_waits(autojump_clock, waiting, written):
    server = Server(ServerConfig())
    server._waiting = waiting
    first, second = FakeConnection(), FakeConnection()
    server._batching = 1
    server._dirty = [first, second]  # type: ignore[list-item]
    server.flush(first)  # type: ignore[arg-type]
    server.flush(second)  # type: ignore[arg-type]
    assert (first.flushed, second.flushed) == ((1, 1) if written else (0, 0))
    if waiting is not None:
        assert waiting.polls == 1  # asked once per batch
    server.end_batch()  # the batch's end writes every connection it touched (again: a no-op when written)
    assert (first.flushed, second.flushed) == ((2, 2) if written else (1, 1)) and server._dirty == []
    assert server._early is None  # the next batch asks again


async def test_server_flush_outside_a_batch_does_nothing(autojump_clock):
    server = Server(ServerConfig())
    server._waiting = FakeWaiting([])
    conn = FakeConnection()
    server.flush(conn)  # type: ignore[arg-type]
    assert conn.flushed == 0 and server._early is None
