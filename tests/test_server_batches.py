"""The batch end (docs/PROTOCOL.md, section 6, "legal: what you may do"), so a client knows when to
act: every batch that brings a seated player an event of the deal, or changes what he may do, ends,
for him, with his ``legal``, even when it did not change; a ``state`` holds its own. A batch is what
one request, or one deadline of the table, sends. In-process on trio's MockClock, seeded deals of
the variants with windows (held sets, challenge and quads windows) and without."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
import trio
import trio.testing
from test_server_timing import TIE, WINDOW, start_table

from neveryu import engine
from neveryu.server._table import Table

DEAL_EVENTS = frozenset(engine.EVENT_TYPES) - {"dealer_drawn"}  # dealer_drawn comes before the deal
COMPLETE = frozenset({"legal", "state"})


class BatchLink:
    """A session's connection that tags each message with the batch it was sent in."""

    def __init__(self, batch: dict[str, int]) -> None:
        self.batch = batch
        self.msgs: list[dict[str, Any]] = []
        self.tags: list[int] = []  # the batch of each message

    def send(self, frame: bytes) -> None:
        self.msgs.append(msgpack.unpackb(frame[4:]))
        self.tags.append(self.batch["n"])

    def note_error(self, code: str, msg: str) -> None:
        pass


def batches(link: BatchLink) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for n, m in zip(link.tags, link.msgs):
        out.setdefault(n, []).append(m)
    return out


def unfinished(batch: list[dict[str, Any]]) -> bool:
    """The batch brought an event of the deal and its last message of the deal is not a legal."""
    deal = [m["t"] for m in batch if m.get("t") in DEAL_EVENTS | COMPLETE and "seq" in m]
    return bool(deal) and deal[-1] not in COMPLETE


@pytest.mark.parametrize(
    ("variant", "seats", "options"),
    [
        ("hoyle", 4, {}),
        ("verish", 4, {}),
        ("veryu", 3, {}),
        ("cheat", 3, {}),
        ("hoyle", 4, {"declare_none": True}),
    ],
)
async def test_every_batch_of_the_deal_ends_with_the_seats_legal(
    nursery, mock_clock, monkeypatch, variant, seats, options
):
    batch = {"n": 0}
    fire = Table._fire

    def counted_fire(self: Table, key: str) -> None:
        batch["n"] += 1  # each deadline of the table is a batch of its own
        fire(self, key)

    monkeypatch.setattr(Table, "_fire", counted_fire)
    h = await start_table(
        nursery, mock_clock, variant=variant, seats=seats, options=options, quads_window_ms=500, deals=3
    )
    links = []
    for s in h.sessions:
        s.attach(link := BatchLink(batch))
        links.append(link)
    rng = random.Random(19)
    unchanged = 0
    for _ in range(400):
        deal = h.deal
        if h.table.game is None:
            break
        if deal is None or deal.over:
            await h.jump(1.0)
            continue
        batch["n"] += 1
        acting = [i for i in range(seats) if deal.legal_actions(i)]
        choice = rng.random()
        if acting and choice < 0.75:
            seat = rng.choice(acting)
            legal = deal.legal_actions(seat)
            if legal.challenge is not None and (legal.lay is None or rng.random() < 0.3):
                await h.send(seat, "challenge", set_no=legal.challenge)
            elif legal.discard_quads:
                await h.send(seat, "discard_quads", ranks=list(legal.discard_quads[:1]))
            elif legal.declare_none is not None and rng.random() < 0.3:
                await h.send(seat, "declare_none")
            elif legal.lay is not None:
                await h.lay_something(seat)
            elif legal.believe is not None:
                await h.send(seat, "believe", set_no=legal.believe)
            elif legal.decline_quads:
                await h.send(seat, "decline_quads")
        else:
            await h.jump(rng.choice([TIE / 2, WINDOW / 2, WINDOW]))
    for seat, link in enumerate(links):
        last_legal = None
        for n, batch_msgs in batches(link).items():
            assert not unfinished(batch_msgs), (seat, n, [m["t"] for m in batch_msgs])
            for m in batch_msgs:
                if m.get("t") == "legal":
                    unchanged += m == {**(last_legal or {}), "seq": m["seq"], "ts": m["ts"]}
                    last_legal = m
    assert unchanged > 0  # batches that changed nothing a seat may do ended with its legal too


async def test_a_resume_that_replayed_ends_with_the_turn_and_the_seats_legal(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="hoyle", seats=4)
    seat = h.deal.turn
    session = h.sessions[seat]
    session.detach(session.link, trio.current_time())
    h.table.detached(session)
    batch = {"n": 0}
    session.attach(link := BatchLink(batch))
    h.table.attached(session, snapshot=False)  # the replayed events went out before this
    await trio.testing.wait_all_tasks_blocked()
    assert [m["t"] for m in link.msgs] == ["turn", "legal"]  # (back at once: his drop was not told)
    assert link.msgs[1]["lay"] is not None
