"""``request_wire`` (the server's one-pass request check) answers exactly as
``parse_request(d).to_wire()``: the same dict for every sample request, with unknown and nil
optional fields, and the same error (code, message, fatal, re) for every broken one."""

from __future__ import annotations

import random

import pytest
from neveryu.protocol import REQUESTS, ProtocolError, parse_request
from neveryu.protocol._messages import request_wire
from neveryu.protocol._types import ACCEPTED_KEPT, CARD_PATTERN, Str
from test_protocol_messages import sample


def outcome(f, d):
    try:
        return ("ok", f(d))
    except ProtocolError as exc:
        return ("error", exc.code, exc.msg, exc.fatal, exc.re)


def both(d):
    return outcome(request_wire, d), outcome(lambda m: parse_request(m).to_wire(), d)


@pytest.mark.parametrize("t", sorted(REQUESTS))
def test_every_sample_request_gives_the_same_dict(t):
    msg = {**sample("request", t), "id": 7, "extra": [1, {"x": None}]}
    new, old = both(msg)
    assert new == old and new[0] == "ok"
    for name in REQUESTS[t].wire_fields():
        if name != "id":
            new, old = both({**msg, name: None})
            assert new == old


BAD_VALUES = [
    None,
    0,
    -1,
    2**32,
    True,
    "",
    "x" * 300,
    "TS",
    "10H",
    [],
    ["TS"],
    ["TS", "2X"],
    ["QS"] * 9,
    {},
    {"a": 1},
]


@pytest.mark.parametrize("t", sorted(REQUESTS))
def test_every_broken_request_gives_the_same_error(t):
    rng = random.Random(t)
    msg = {**sample("request", t), "id": 7}
    names = list(REQUESTS[t].wire_fields())
    cases = [{k: v for k, v in msg.items() if k != name} for name in names]  # each field missing
    cases += [{**msg, name: value} for name in names for value in BAD_VALUES]
    cases += [{**msg, "t": 5}, {**msg, "t": "nope"}, {k: v for k, v in msg.items() if k != "id"}]
    for _ in range(50):  # two fields wrong at once: which one is reported must match too
        a, b = rng.sample(names, 2) if len(names) > 1 else (names[0], names[0])
        cases.append({**msg, a: rng.choice(BAD_VALUES), b: rng.choice(BAD_VALUES)})
    for case in cases:
        new, old = both(case)
        assert new == old, case


def test_remembered_cards_change_no_answer():
    """A card array whose items all passed before is taken without a check per item
    (``Array.wire_check``): one that mixes them with anything else is still refused exactly as
    ``parse_request`` refuses it."""
    lay = {"t": "lay", "id": 7, "cards": ["TS", "QS"], "rank": "T"}
    assert both(lay) == (("ok", lay), ("ok", lay))
    for cards in (
        ["TS", [1]],
        ["TS", {"a": 1}],
        ["TS", 5],
        ["TS", None],
        ["TS", True],
        ["TS", "2X"],
        ["TS", "QS"] * 5,
        [],
    ):
        new, old = both({**lay, "cards": cards})
        assert new == old and new[0] == "error", cards


def test_a_string_type_remembers_only_what_passed_and_at_most_accepted_kept():
    card = Str(2, 2, CARD_PATTERN)
    for bad in ("2X", "10", 5):
        with pytest.raises(ProtocolError):
            card.check(bad, "card")
    assert card._accepted == set()
    for value in ("TS", "TS", "QH"):
        assert card.check(value, "card") == value
    assert card._accepted == {"TS", "QH"}
    name = Str(8, 1, "^[a-z]+$")
    for k in range(ACCEPTED_KEPT + 10):
        name.check("".join(chr(97 + int(d)) for d in f"{k:04d}"), "name")
    assert len(name._accepted) == ACCEPTED_KEPT
    assert Str(8)._accepted is None  # a length alone is checked as fast as it is looked up
