"""A ``declare_none`` made during another set's challenge window is held as a set is
(docs/PROTOCOL.md, "Game events": ``set_held`` with ``cards`` [] and ``count`` 0, the rank due); it
becomes ``none_declared`` when the window closes, or comes back as ``set_returned`` with ``cards``
[] when a challenge comes first (the declaration was not made). In-process on MockClock."""

from __future__ import annotations

import pytest
from test_server_timing import TIE, WINDOW, start_table


def owned(h, seat: int, t: str) -> list[dict]:
    return [{k: m[k] for k in m if k not in ("seq", "ts")} for m in h.events(seat, t)]


@pytest.mark.parametrize("challenged", [False, True], ids=["window_closes", "challenge_first"])
async def test_an_early_declare_none_is_held_with_no_cards(nursery, mock_clock, challenged):
    h = await start_table(nursery, mock_clock, variant="hoyle", seats=4, options={"declare_none": True})
    layer = h.deal.turn
    nxt, other = (layer + 1) % 4, (layer + 2) % 4
    assert (await h.lay_something(layer))["t"] == "ok"  # set 1: its window is open
    rank = h.deal.legal_actions(nxt).declare_none
    assert rank is not None
    assert (await h.send(nxt, "declare_none"))["t"] == "ok"
    assert owned(h, nxt, "set_held") == [
        {"t": "set_held", "seat": nxt, "cards": [], "rank": rank, "count": 0}
    ]
    assert owned(h, other, "set_held") == []  # only the declarer is told
    if challenged:
        assert (await h.send(other, "challenge", set_no=1))["t"] == "ok"
        await h.jump(TIE)
        assert owned(h, nxt, "set_returned") == [{"t": "set_returned", "seat": nxt, "cards": []}]
        assert owned(h, nxt, "none_declared") == []
    else:
        await h.jump(WINDOW)
        assert [(m["seat"], m["rank"], m["set_no"]) for m in h.events(other, "none_declared")] == [
            (nxt, rank, 2)
        ]
        assert owned(h, nxt, "set_returned") == []
