"""Which refusal comes first when several apply (docs/PROTOCOL.md, section 7, "Which refusal comes
first"): game requests sent to a real table in-process, on trio's MockClock, each answered by the
first refusal of the documented order, and nothing changed."""

from __future__ import annotations

from test_server_timing import ListLink, start_table

from neveryu import protocol
from neveryu.server._session import Session


async def refused(h, seat: int, t: str, **fields) -> str:
    actions = h.deal.actions
    reply = await h.send(seat, t, **fields)
    assert h.deal.actions == actions  # a refusal changes nothing
    return reply["code"] if reply["t"] == "error" else reply["t"]


async def test_a_challenge_from_a_seat_that_is_not_next(nursery, mock_clock):
    """verish (only the next seat challenges): of its own last set ILLEGAL_ACTION, of a covered
    set STALE_SET, of a set not laid yet PREMATURE, of another seat's last set NOT_YOUR_TURN."""
    h = await start_table(nursery, mock_clock, variant="verish", seats=3)
    layer = h.deal.turn
    nxt, other = (layer + 1) % 3, (layer + 2) % 3
    assert (await h.lay_something(layer))["t"] == "ok"  # set 1; nxt is to answer it
    assert await refused(h, other, "challenge", set_no=1) == "NOT_YOUR_TURN"
    assert await refused(h, layer, "challenge", set_no=1) == "ILLEGAL_ACTION"  # its own set
    assert await refused(h, other, "challenge", set_no=2) == "PREMATURE"  # before NOT_YOUR_TURN
    assert await refused(h, other, "believe", set_no=1) == "ILLEGAL_ACTION"  # verish has no «верю»
    assert await refused(h, other, "lay", cards=["AS"], rank="A") == "NOT_YOUR_TURN"  # before the cards
    assert (await h.lay_something(nxt))["t"] == "ok"  # set 2 covers set 1
    assert await refused(h, layer, "challenge", set_no=1) == "STALE_SET"  # before its own set
    assert await refused(h, layer, "challenge", set_no=2) == "NOT_YOUR_TURN"  # other is next


async def test_refusals_where_anyone_challenges(nursery, mock_clock):
    """hoyle: a challenge of the next set, not laid yet, is done (ok, challenge_void) and bars its
    sender; a second one is CHALLENGE_BARRED; one further ahead ILLEGAL_ACTION; a layer's
    challenge of its own set ILLEGAL_ACTION; a spectator's NOT_PLAYING before anything else."""
    h = await start_table(nursery, mock_clock, variant="hoyle", seats=4)
    layer = h.deal.turn
    other = (layer + 2) % 4
    assert (await h.lay_something(layer))["t"] == "ok"  # set 1
    assert await refused(h, other, "challenge", set_no=3) == "ILLEGAL_ACTION"
    actions = h.deal.actions
    assert (await h.send(other, "challenge", set_no=2))["t"] == "ok"  # premature: void
    assert h.deal.actions == actions + 1
    assert await refused(h, other, "challenge", set_no=2) == "CHALLENGE_BARRED"
    assert await refused(h, layer, "challenge", set_no=1) == "ILLEGAL_ACTION"
    watcher = Session("w", replay=100)
    watcher.attach(ListLink())
    h.table.handle(watcher, protocol.parse_request({"t": "spectate", "id": 1, "table": 1}))
    h.table.handle(watcher, protocol.parse_request({"t": "challenge", "id": 2, "set_no": 1}))
    assert [m.get("code") for m in watcher.link.msgs if m.get("re") == 2] == ["NOT_PLAYING"]
