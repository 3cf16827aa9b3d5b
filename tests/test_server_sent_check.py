"""The server's check of its outgoing messages: off in production (a tenth of its CPU per
action, docs/BENCHMARKS.md), on in every test (tests/conftest.py)."""

from __future__ import annotations

import os

import pytest
from neveryu import protocol
from neveryu.server import _connection


def test_the_tests_check_every_message_the_server_sends():
    assert os.environ.get(_connection.CHECK_SENT) == "1"


def test_check_sent_refuses_non_wire_values_and_unchecked_encodes_the_same_bytes():
    checked, unchecked = protocol.Connection("server"), protocol.Connection("server", check_sent=False)
    with pytest.raises(protocol.LocalProtocolError):
        checked.send({"t": "x", "seq": 1, "ts": 2, "v": 1.5})
    assert unchecked.send(
        {"t": "x", "seq": 1, "ts": 2, "v": 1.5}
    )  # msgpack encodes it: the tests must catch it
    msg = {"t": "turn", "seq": 1, "ts": 2, "ranks": ("A", "K"), "set_no": None}
    assert checked.send(msg) == unchecked.send(msg)
    with pytest.raises(protocol.LocalProtocolError):  # the size limit holds either way
        unchecked.send({"t": "x", "v": "a" * (protocol.MAX_SERVER_FRAME + 1)})
