"""A fixed seed makes a table's deals reproducible, and each table's its own (docs/PROTOCOL.md, 9.6,
"Tables with a fixed seed"): two tables made with the same seed, or two tables of a server started
with ``--seed``, deal different decks, so a player cannot learn one table's hands at another; the
summary says who chose the seed. Over TCP on 127.0.0.1, on the bytes each seat receives."""

from __future__ import annotations

from typing import Any

import trio

from neveryu.client.botclient import Client
from neveryu.server import ServerConfig, serve

HOST = "127.0.0.1"


async def first_hand(port: int, name: str, **create: Any) -> tuple[dict, list[str]]:
    """A new table of 2 seats (one bot), its summary and the hand its maker is dealt."""
    client = await Client.connect(HOST, port, name)
    joined = await client.request("create_table", variant="verish", seats=2, bots=[None], **create)
    await client.request("ready", ready=True)
    await client.request("start")
    while (event := await client.next_event())["t"] != "deal_started":
        pass
    await client.aclose()
    return joined["table"], event["hand"]


async def hands(config: ServerConfig, tables: list[dict[str, Any]]) -> list[tuple[dict, list[str]]]:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            out = [await first_hand(port, f"p{k}", **create) for k, create in enumerate(tables)]
            nursery.cancel_scope.cancel()
    return out


CONFIG = ServerConfig(host=HOST, port=0).evolve(table={"turn_ms": 0})


async def test_two_tables_with_one_seed_deal_decks_of_their_own_and_say_who_chose_it():
    (one, hand_one), (two, hand_two) = await hands(CONFIG, [{"seed": 5}, {"seed": 5}])
    assert hand_one != hand_two
    assert (one["seeded"], one["seed_from"]) == (True, "table") == (two["seeded"], two["seed_from"])
    (_again, hand_again), _ = await hands(CONFIG, [{"seed": 5}, {"seed": 5}])
    assert hand_again == hand_one  # the same seed at the same table: the same deal (reproducible)


async def test_a_server_seed_gives_each_table_decks_of_its_own():
    (one, hand_one), (_two, hand_two) = await hands(CONFIG.evolve(seed=9), [{}, {}])
    assert hand_one != hand_two
    assert (one["seeded"], one["seed_from"]) == (True, "server")


async def test_an_unseeded_table_says_so():
    ((table, _),) = await hands(CONFIG, [{}])
    assert (table["seeded"], table["seed_from"]) == (False, None)
