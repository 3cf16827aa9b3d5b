"""Hidden information, in-process on MockClock: whole matches of every variant played by the
server's bots (a player whose turn time ran out is away and played by a bot too), and every
message his seat and a spectator were sent checked for cards (and hidden counts) they may not
see, against the protocol's message classes and the fair-deal disclosure."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from server_checks import check_frames
from test_server_timing import ListLink

from neveryu import engine, protocol
from neveryu.server._session import Session
from neveryu.server._settings import TableSettings
from neveryu.server._table import Table


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
@pytest.mark.parametrize("seed", [1, 2])
async def test_whole_match_sends_each_seat_only_what_it_may_see(nursery, autojump_clock, variant, seed):
    players = max(4, engine.VARIANTS[variant].players[0])
    table = Table(
        1,
        TableSettings(
            variant=variant,
            options={},
            seats=players,
            bots=("honest", "sharp", "random")[: players - 1],
            turn_ms=10,
            challenge_window_ms=300,
            tie_window_ms=50,
            bot_delay_ms=0,
            deal_pause_ms=100,
            deals=2,
            seed=seed,
        ),
    )
    nursery.start_soon(table.run)
    player, watcher = Session("ann", 10_000), Session("eve", 10_000)
    player.attach(ListLink())
    watcher.attach(ListLink())
    table.handle(player, protocol.JoinTable(id=1, table=1))
    table.handle(watcher, protocol.Spectate(id=2, table=1))
    table.handle(player, protocol.Ready(id=3, ready=True))
    table.handle(player, protocol.Start(id=4))
    await trio.testing.wait_all_tasks_blocked()
    assert table.playing
    for _ in range(100_000):
        if not table.playing:
            break
        await trio.sleep(0.05)
    assert not table.playing
    rules = engine.variant(variant)
    assert check_frames(player.link.msgs, 0, rules, players) == 2
    assert check_frames(watcher.link.msgs, None, rules, players) == 2
    assert [m["t"] for m in player.link.msgs if m["t"] == "match_ended"] == ["match_ended"]
