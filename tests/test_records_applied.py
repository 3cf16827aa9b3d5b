"""``Applied``, a deal's accepted actions kept packed (server/records/deal_record.py): what it gives back is
exactly what was appended, in seeded deals of every variant and for one action of every kind,
and its journal rows are the same actions packed."""

from __future__ import annotations

import msgpack
import pytest
from records_deals import played_deals

from neveryu import engine
from neveryu.server.records.deal_record import ACTIONS, KIND_OF, Applied, action_from_fields, unpacked_action


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
def test_what_is_appended_comes_back_the_same(variant):
    kinds = set()
    for record, _events in played_deals(variant, 3, seed=11):
        applied = Applied()
        for ms, action in record.actions:
            applied.append(ms, action)
            kinds.add(KIND_OF[type(action)])
        assert list(applied) == list(record.actions)
        assert len(applied) == len(record.actions)
        assert applied[-1] == record.actions[-1] and applied[0] == record.actions[0]
        half = len(applied) // 2
        rows = applied.rows(half)
        assert [ms for ms, _ in rows] == [ms for ms, _ in record.actions[half:]]
        for (_, data), (_, action) in zip(rows, record.actions[half:]):
            packed = msgpack.unpackb(data)
            assert action_from_fields(packed[0], packed[1:]) == action == unpacked_action(data)
    assert "lay" in kinds and kinds & {"challenge", "challenges"}


EVERY_KIND = [
    engine.LaySet(0, ("QS", "QH"), "Q", None),
    engine.LaySet(1, ("2C",), "K", 3),
    engine.Challenge(2, 5),
    engine.Believe(3, 5),
    engine.DeclareNone(1),
    engine.DiscardQuads(0, ("Q", "7")),
    engine.DeclineQuads(2),
    engine.Challenges((1, 3), 9),
    engine.CloseWindow(4),
    engine.OpenQuadsWindow(3),
    engine.CloseQuadsWindow(3),
    engine.Timeout(0, engine.Challenge(0, 2)),
]


def test_one_action_of_every_kind_comes_back_the_same():
    assert {KIND_OF[type(a)] for a in EVERY_KIND} == set(ACTIONS)
    applied = Applied()
    for ms, action in enumerate(EVERY_KIND):
        applied.append(ms * 10, action)
    assert list(applied) == [(ms * 10, a) for ms, a in enumerate(EVERY_KIND)]
    assert [unpacked_action(data) for _, data in applied.rows(0)] == EVERY_KIND


def test_a_timeouts_own_action_is_packed_inside_it():
    timeout = engine.Timeout(2, engine.LaySet(2, ("QS", "QH"), "Q", None))
    applied = Applied()
    applied.append(1500, timeout)
    assert applied[0] == (1500, timeout)
    assert msgpack.unpackb(applied.rows(0)[0][1]) == ["timeout", 2, ["lay", 2, ["QS", "QH"], "Q", None]]
