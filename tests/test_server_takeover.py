"""The bot that takes over a seat learns the deal by playing it again (``Game.bot_for``): what it
learns must be exactly what the seat was sent, event for event, in every variant.

In-process on trio's MockClock (``test_server_timing``'s harness): two people play against two
bots, the people's moves drawn by a seeded rng; midway through, each person's seat is given the
events a bot made now would learn (``records.replay.seat_events``), and they must be the deal events that
seat's session received, field for field.
"""

from __future__ import annotations

import random

import msgpack
import pytest
from server_checks import TABLE_OWN
from test_server_timing import Harness, start_table

from neveryu import engine
from neveryu.server import _wire
from neveryu.server.records.replay import seat_events

STEPS = 40  # rounds of play before the comparison (a deal that ends first is compared at its end)


async def play_some(h: Harness, people: int, rng: random.Random) -> None:
    """Up to ``STEPS`` rounds: each person whose turn it is makes a random turn action; one who
    may challenge does so one time in five; then the clock moves past the bots' delay."""
    for _ in range(STEPS):
        deal = h.deal
        if deal is None or deal.over:
            return
        for seat in range(people):
            legal = deal.legal_actions(seat)
            if deal.turn == seat and deal.held is None and (legal.lay or legal.challenge or legal.believe):
                action = engine.random_turn_action(deal.view(seat), rng)
                if isinstance(action, engine.LaySet):
                    await h.send(seat, "lay", cards=list(action.cards), rank=action.rank, count=action.count)
                else:
                    kind = "challenge" if isinstance(action, engine.Challenge) else "believe"
                    await h.send(seat, kind, set_no=action.set_no)
            elif legal.challenge is not None and rng.random() < 0.2:
                await h.send(seat, "challenge", set_no=legal.challenge)
        await h.jump(0.6)


def wire(event: engine.Event) -> dict:
    """``event`` as a receiver decodes it (arrays as lists), without the table's own fields."""
    own = TABLE_OWN.get(event.type, {})
    msg = msgpack.unpackb(msgpack.packb(_wire.event_message(event, own)))
    return {k: v for k, v in msg.items() if k not in own}


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
async def test_a_bot_made_midway_learns_exactly_what_its_seat_was_sent(nursery, mock_clock, variant):
    h = await start_table(nursery, mock_clock, variant=variant, bots=("sharp", "sharp"), bot_delay_ms=500)
    game = h.table.game
    await play_some(h, 2, random.Random(variant))
    assert len(game.referee.applied) > 3  # the deal went some way
    for seat in range(2):
        msgs = h.msgs(seat)
        start = max(i for i, m in enumerate(msgs) if m.get("t") == "deal_started")
        sent = [m for m in msgs[start:] if "seq" in m and m["t"] in engine.EVENT_TYPES]
        events = seat_events(game.deal, game.opening, game.referee.applied, seat, game.table.rules)
        learnt = [wire(e) for e in events]
        assert len(learnt) == len(sent)
        for want, got in zip(learnt, sent):
            assert want.items() <= got.items()
        assert game.bots[seat].bot is None  # nobody needed the person's bot: none was made


async def test_an_away_players_bot_is_made_when_his_time_runs_out(nursery, mock_clock):
    h = await start_table(nursery, mock_clock, variant="verish", seats=2, bots=("sharp",), turn_ms=1_000)
    seat, mine = h.table.seats[0], h.table.game.bots[0]
    assert h.deal.turn == 0 and mine.bot is None  # seed 7: the person leads
    await h.jump(1.001)  # his time runs out: the bot that plays for him chooses his move
    assert [e["seat"] for e in h.events(0, "timed_out")] == [0]
    bot = mine.bot
    assert bot is not None  # made by replay, then told what the deal sent the seat since:
    assert [type(e) for e in mine.unseen] == [engine.SetLaid, engine.Turn]  # (the kinds it observes)
    assert h.table.game.bot_for(seat) is bot and mine.unseen == []
