"""neveryu's fan-out latency: the floor's measurement (``fanout``) through the real server.

Four clients hold the four seats of a `verish` table (no challenge window delays a set there).
The seat that may act sends its set (or its challenge, when it may not lay), and the sample is
the time from the send until all four clients have decoded the resulting ``set_laid`` (or
``challenged``) event. A sample starts when the seat to act has its ``legal`` event and every
client has decoded the ``turn`` event of the same batch.
"""

from __future__ import annotations

import random

import trio

from . import fanout
from .client import seat_table
from .player import Player, result_of

SEATS = 4
WAIT_FOR_TURN_S = 10.0
READY_AFTER = frozenset(
    {"turn", "legal", "error"}
)  # the messages that can make a seat ready to act (Player.legal)


async def latency(port: int, samples: int, seconds: float, quiet: float | None = None, seed: int = 1) -> dict:
    """Returns ``summary_us`` of up to ``samples`` samples in at most ``seconds`` s, plus
    ``errors`` (error replies the clients got, by code) and ``deals`` (deals ended meanwhile)."""
    players = [Player() for _ in range(SEATS)]
    turns = {"n": 0}
    ready = {"ev": trio.Event()}

    def on_message(k: int, msg: dict) -> None:
        players[k].on_message(msg)
        t = msg["t"]
        if t == "turn":
            turns["n"] += 1
        elif t not in READY_AFTER:
            return  # (the table cannot have become ready: no need to look)
        if turns["n"] >= SEATS and any(p.legal is not None for p in players):
            ready["ev"].set()

    conns, seats = await seat_table(port, "verish", [f"bench{k}" for k in range(SEATS)], seed, on_message)
    for p, s in zip(players, seats):
        p.seat = s
    rng = random.Random(seed)

    async def act(i: int):
        with trio.move_on_after(WAIT_FOR_TURN_S):
            await ready["ev"].wait()
        actor = next((k for k, p in enumerate(players) if p.legal is not None), None)
        if actor is None:
            return None
        request = players[actor].request(1000 + i, rng)
        turns["n"] = 0
        ready["ev"] = trio.Event()
        return conns[actor], request, result_of(request, players[actor].seat)

    out = await fanout.measure(conns, act, samples, seconds, on_message=on_message, quiet=quiet)
    errors: dict[str, int] = {}
    for p in players:
        for code, n in p.errors.items():
            errors[code] = errors.get(code, 0) + n
    out["errors"] = errors
    out["deals"] = players[0].deals_ended
    return out


async def throughput(port: int, clients: int, seconds: float) -> dict:
    """``clients`` connections that said ``hello``, each sending ``ping`` and awaiting its
    ``pong`` in a loop for ``seconds`` s (``floor.ping_loop``)."""
    from .client import hello
    from .floor import ping_loop

    conns = []
    for k in range(clients):
        conns.append(await hello(port, f"ping{k}"))
    return await ping_loop(conns, seconds)
