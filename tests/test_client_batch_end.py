"""The client's model knows when a batch of the deal is still arriving (docs/PROTOCOL.md, section 6,
the batch end, "legal: what you may do"): ``legal_now`` is the last ``legal`` only when no event of
the deal came after it, on a server that ends its batches (``welcome.minor`` ≥ 1)."""

from __future__ import annotations

import pytest
from client_messages import table_summary

from neveryu.client.ui import model

LEGAL = {
    "lay": None,
    "challenge": 7,
    "believe": None,
    "declare_none": None,
    "discard_quads": [],
    "decline_quads": False,
}
EV = {"ts": 1}


def welcome(minor: int | None) -> dict:
    """A welcome back to seat 0 of a table (the model ignores a deal's events in the lobby)."""
    msg = {"t": "welcome", "re": 1, "proto": 1, "server": {"name": "s", "version": "1"}, "session": "x"}
    table = table_summary(4, 0, "verish")
    return {**msg, "resumed": True, "table": table, "seat": 0} | (
        {"minor": minor} if minor is not None else {}
    )


def test_legal_now_waits_for_the_batch_end():
    s = model.reduce_all([welcome(1), {"t": "legal", "seq": 1, **EV, **LEGAL}])
    assert s.legal_now is not None and s.legal_now["challenge"] == 7
    s = model.reduce(s, {"t": "window_closed", "seq": 2, **EV, "set_no": 7})
    assert s.in_batch and s.legal_now is None  # the batch is arriving: its legal is on its way
    s = model.reduce(s, {"t": "legal", "seq": 3, **EV, **LEGAL})
    assert s.legal_now is not None and s.legal_now["challenge"] == 7
    s = model.reduce(s, {"t": "chat", "seq": 4, **EV, "seat": 1, "name": "bob", "text": "hm"})
    assert s.legal_now is not None  # not the deal's: the legal stands


@pytest.mark.parametrize("minor", [None, 0])
def test_a_server_of_v1_0_is_trusted_with_the_last_legal(minor):
    s = model.reduce_all([welcome(minor), {"t": "legal", "seq": 1, **EV, **LEGAL}])
    s = model.reduce(s, {"t": "window_closed", "seq": 2, **EV, "set_no": 7})
    assert s.legal_now is not None and s.legal_now["challenge"] == 7
