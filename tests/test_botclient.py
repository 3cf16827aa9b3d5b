"""The headless client (client/botclient.py) against a real server on 127.0.0.1."""

from __future__ import annotations

import pytest
import trio

from neveryu.client.botclient import Client, ServerError
from neveryu.server import ServerConfig, serve

HOST = "127.0.0.1"


async def test_a_full_server_is_reported_as_server_full_not_as_a_closed_connection():
    config = ServerConfig(host=HOST, port=0, seed=None).evolve(limits={"max_connections": 1})
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)
            first = await Client.connect(HOST, port, "ann")
            with pytest.raises(ServerError) as caught:
                await Client.connect(HOST, port, "bob")
            assert (caught.value.code, caught.value.fatal) == ("SERVER_FULL", True)
            assert (await first.request("ping"))["t"] == "pong"
            await first.aclose()
            nursery.cancel_scope.cancel()
