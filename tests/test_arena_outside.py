"""Outside bots in ``neveryu arena`` (client/commands/_arena_outside.py): a program that speaks the
protocol takes its seat in every rotation of a duplicate group, at a seeded table of a server of
the arena's own on 127.0.0.1 (port 0); a broken one (crash, hang, garbage) loses only its seat to
the server's away bot, is reported, and the deals end. Real sockets, the real clock, small turn
times, each group under a ``trio.fail_after`` deadline.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import trio

from neveryu.client.commands import _arena_outside

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "data" / "arena_broken_bot.py"


def check_group(played: list, lineup: list[str]) -> None:
    """Three deals, ended, each entry at every seat once, and one deck per group: the same
    first dealer in every rotation."""
    names = _arena_outside.names(lineup)
    assert [d.rotation for d in played] == [0, 1, 2] and all(d.ended and len(d.out) == 2 for d in played)
    for seat in range(3):
        assert sorted(d.bots[seat] for d in played) == sorted(names)
    assert len({d.dealer for d in played}) == 1


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
async def test_the_example_javascript_bot_plays_its_seat_in_every_rotation():
    entry = (
        f"cmd:node {ROOT / 'scripts' / 'example_bot.js'} --host {{host}} --port {{port}} --table {{table}}"
    )
    lineup = ["sharp", "sharp", entry]
    with trio.fail_after(300):
        played, lost = await _arena_outside.play_group("verish", lineup, 5, 0, 10_000, 0)
    check_group(played, lineup)
    assert lost == []


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("crash", "exited with code 3"),
        ("hang", "no action within its turn time"),
        ("garbage", "its connection closed (a message the server refused, or it left)"),
    ],
)
async def test_a_broken_outside_bot_loses_only_its_seat(mode, why):
    lineup = ["sharp", "sharp", f"cmd:{sys.executable} {BROKEN} {mode} {{host}} {{port}} {{table}}"]
    with trio.fail_after(300):
        played, lost = await _arena_outside.play_group("verish", lineup, 5, 0, 300, 0)
    check_group(played, lineup)
    assert [(x.name, x.rotation, x.seat, x.why) for x in lost] == [
        ("cmd1", 0, 2, why),
        ("cmd1", 1, 1, why),
        ("cmd1", 2, 0, why),
    ]
