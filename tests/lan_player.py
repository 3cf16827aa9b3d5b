"""A bot player that comes back after its network link fails, for the LAN tests: the headless
client of ``neveryu bot`` (client/botclient.py) with a resume. Run it only inside a test's
network namespace (tests/lan_netns.py).

    python tests/lan_player.py HOST PORT NAME [--matches N] [--idle S] [--delay S] [--seed N]

It takes the first waiting table with a free seat, or makes one, and plays until N matches
ended. When nothing arrived from the server for --idle seconds (the server sends a heartbeat
when it has been quiet, so silence means the link is down), or the connection broke, it says
hello again with its session token and last seen seq (docs/PROTOCOL.md, "Resume"), retrying
until the server answers. A request lost with the connection counts as refused.

Prints one line per happening, for the test to wait on: ``seat S table T``, ``lost (WHY)``,
``resumed``, ``refused CODE: MSG`` for a move the server refused, ``event TYPE`` for every
event but heartbeats (``table_update`` adds the away seats: ``event table_update away=[1]``),
and at the end ``done DEALS MATCHES``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from neveryu.client.botclient import BotPlayer, Client, ConnectionClosed

CONNECT_TIMEOUT_S = 2.0
RETRY_PAUSE_S = 0.2


def say(line: str) -> None:
    print(line, flush=True)


class ResumingClient(Client):
    """A ``Client`` that resumes its session on the same server after silence or a broken
    connection, transparently to the code reading its events."""

    def __init__(self, stream: trio.abc.Stream, **kwargs: Any) -> None:
        super().__init__(stream, **kwargs)
        self.address: tuple[str, int] = ("", 0)
        self.name = ""
        self.idle_s = 5.0
        self.outstanding: set[int] = set()
        self.last_received = trio.current_time()

    async def send(self, msg: dict[str, Any]) -> None:
        try:
            await super().send(msg)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            await self._resume(type(exc).__name__)  # the message is lost; a request of it is refused below

    async def send_request(self, t: str, **fields: Any) -> int:
        self.outstanding.add(self._ids + 1)
        return await super().send_request(t, **fields)

    async def _receive_one(self) -> dict[str, Any]:
        while True:
            try:
                with trio.fail_at(self.last_received + self.idle_s):
                    msg = await super()._receive_one()
            except (ConnectionClosed, trio.TooSlowError, OSError) as exc:
                if self.bye is not None:
                    raise  # the server said goodbye: nothing to resume
                await self._resume(type(exc).__name__)
                continue
            self.last_received = trio.current_time()
            if "re" in msg:
                self.outstanding.discard(msg["re"])
            return msg

    async def _resume(self, why: str) -> None:
        say(f"lost ({why})")
        # Shielded: a caller's deadline (the ping timer of next_event) must not cut a resume
        # in half; each attempt has its own timeout, and the loop ends when one succeeds.
        with trio.CancelScope(shield=True):
            await trio.aclose_forcefully(self.stream)
            while True:
                try:
                    with trio.fail_after(CONNECT_TIMEOUT_S):
                        fresh = await Client.connect(
                            *self.address, self.name, resume=(self.token, self.last_seq)
                        )
                    break
                except (OSError, trio.TooSlowError, ConnectionClosed):
                    await trio.sleep(RETRY_PAUSE_S)
        self.stream, self.wire, self.welcome = fresh.stream, fresh.wire, fresh.welcome
        self.events.extend(fresh.events)
        self.last_seq = max(self.last_seq, fresh.last_seq)
        for rid in self.outstanding:
            self.replies[rid] = {
                "t": "error",
                "re": rid,
                "code": "CONNECTION_LOST",
                "msg": "lost",
                "fatal": False,
            }
            self._reply_seqs[rid] = self.last_seq  # as ``_sort`` files a reply (``reply_to`` reads it)
        self.outstanding.clear()
        self.last_received = self.last_sent = trio.current_time()
        say("resumed")


class ReportingPlayer(BotPlayer):
    def _observe(self, msg: dict[str, Any]) -> None:
        super()._observe(msg)
        if msg["t"] == "table_update":
            away = [s["seat"] for s in msg["table"]["seats"] if s["away"]]
            say(f"event table_update away={away}")
        else:
            say(f"event {msg['t']}")

    async def _move(self) -> None:
        before = len(self.refused)
        await super()._move()
        for _action, code, text in self.refused[before:]:
            say(f"refused {code}: {text}")


async def main(args: argparse.Namespace) -> None:
    plain = await Client.connect(args.host, args.port, args.name)
    client = ResumingClient(plain.stream)
    client.wire, client.welcome, client.heartbeat_s = plain.wire, plain.welcome, plain.heartbeat_s
    client.address, client.name, client.idle_s = (args.host, args.port), args.name, args.idle
    tables = (await client.request("list_tables"))["tables"]
    waiting = [
        t["id"]
        for t in tables
        if t["state"] == "waiting" and any(s["name"] is None and s["bot"] is None for s in t["seats"])
    ]
    if waiting:
        joined = await client.request("join_table", table=waiting[0])
    else:
        joined = await client.request("create_table")
    say(f"seat {joined['seat']} table {joined['table']['id']}")
    player = ReportingPlayer(
        client, joined["table"], joined["seat"], "honest", rng=random.Random(args.seed), delay=args.delay
    )
    await player.play(args.matches)
    say(f"done {player.deals} {player.matches}")
    await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("name")
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--idle", type=float, default=5.0)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=None)
    trio.run(main, parser.parse_args())
