"""The garbage collector: a ``Server`` leaves the process's collector alone; ``neveryu serve``
settles it for serving (``server/_collector.py``): what was alive at start is frozen, and the
youngest generation is collected every ``YOUNG_THRESHOLD`` allocations."""

from __future__ import annotations

import gc
import subprocess
import sys

import trio

from neveryu.server import Server, ServerConfig
from neveryu.server._collector import YOUNG_THRESHOLD


async def test_a_running_server_leaves_the_collector_as_it_was():
    before = gc.get_threshold(), gc.get_freeze_count()
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(Server(ServerConfig(host="127.0.0.1", port=0, db=None)).run)
            assert (gc.get_threshold(), gc.get_freeze_count()) == before
            nursery.cancel_scope.cancel()


def test_settle_freezes_what_is_alive_and_raises_the_young_threshold():
    code = (
        "import gc; from neveryu.server import settle_collector; settle_collector(); "
        "print(gc.get_threshold()[0], gc.get_freeze_count() > 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == [str(YOUNG_THRESHOLD), "True"]
