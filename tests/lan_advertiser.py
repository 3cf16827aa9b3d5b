"""A stand-in server for the discovery tests: listens on HOST:PORT (and answers nothing) while
server.advertise advertises it, driven line by line on standard input. Run it only inside a
test's network namespace (tests/lan_netns.py).

    python tests/lan_advertiser.py NAME HOST PORT

Prints ``advertising INSTANCE`` once the announcement went out (``not advertising`` at once
when there is nothing to advertise). Reads ``update TABLES FREE`` (answers ``updated`` once
the new counts were announced) and ``quit``; end of input quits too. Prints ``closed SECONDS``
after the advertisement is withdrawn, with the time the withdrawal took.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from neveryu.server.advertise import advertising


async def main(name: str, host: str, port: int) -> None:
    listeners = await trio.open_tcp_listeners(port, host=host)
    async with advertising(name, host, port, tables=1, free=3) as ad:
        if ad.addresses:
            await ad.registered.wait()
            print(f"advertising {ad.instance}", flush=True)
        else:
            print("not advertising", flush=True)
        while True:
            line = await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)
            words = line.split()
            if not words or words[0] == "quit":
                break
            if words[0] == "update":
                ad.update(tables=int(words[1]), free=int(words[2]))
                await ad.flushed()
                print("updated", flush=True)
        started = time.monotonic()
    print(f"closed {time.monotonic() - started:.2f}", flush=True)
    for listener in listeners:
        await listener.aclose()


if __name__ == "__main__":
    trio.run(main, sys.argv[1], sys.argv[2], int(sys.argv[3]))
