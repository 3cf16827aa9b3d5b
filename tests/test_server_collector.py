"""The garbage collector as a server sets it (``server/_collector.py``): what was alive at start
is frozen, and the youngest generation is collected every ``YOUNG_THRESHOLD`` allocations."""

from __future__ import annotations

import gc

import trio

from neveryu.server import Server, ServerConfig
from neveryu.server._collector import YOUNG_THRESHOLD


async def test_a_running_server_has_frozen_its_start_and_raised_the_young_threshold():
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(Server(ServerConfig(host="127.0.0.1", port=0, db=None)).run)
            assert gc.get_threshold()[0] == YOUNG_THRESHOLD
            assert gc.get_freeze_count() > 0
            nursery.cancel_scope.cancel()
