"""Checks shared by the server's tests: every frame a seat receives is a valid protocol message
and holds no card (and, where the variant hides them, no count) the seat may not see."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgpack

from neveryu import engine
from neveryu.protocol._message import EVENTS, REPLIES

# -- cards on the wire ------------------------------------------------------------------------------


def strings_on_wire(data: bytes) -> Iterator[str]:
    """Every string of the msgpack objects in ``data`` (bodies one after another, as they are
    on the wire), map keys included. A card can only travel as a string; reading the bytes as
    msgpack rather than searching them keeps an integer's bytes (a ``ts`` in ms) from passing
    for a card's string."""

    def walk(obj: Any) -> Iterator[str]:
        if isinstance(obj, str):
            yield obj
        elif isinstance(obj, (list, tuple)):
            for x in obj:
                yield from walk(x)
        elif isinstance(obj, dict):
            for k, v in obj.items():
                yield from walk(k)
                yield from walk(v)

    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    for obj in unpacker:
        yield from walk(obj)


def cards_on_wire(data: bytes, cards: set[str]) -> list[str]:
    """Those of ``cards`` that are a whole string somewhere in the msgpack ``data``, sorted."""
    return sorted(cards & set(strings_on_wire(data)))


# -- what a seat may see --------------------------------------------------------------------------

TABLE_OWN = {
    "deal_started": {"commitment": "0" * 64, "deal_no": 1},
    "turn": {"time_ms": None},
    "quads_window_opened": {"time_ms": None},
    "deal_ended": {"salt": "0" * 64, "deck": [], "match_scores": None, "deal_no": 1, "next_deal_ms": None},
}
"""The table's own fields of the game events that have any, with placeholder values: a test
that makes a projected engine event its protocol event (``_wire.event_message``) without a
table gives these, and leaves them out again."""

# Fields that may hold cards, by message type: "own" when only the seat they belong to may see
# them (the event's ``seat`` field, or the receiver for set_held/set_returned), "public" for
# reveals and the disclosure.
CARD_FIELDS = {
    ("deal_started", "hand"): "receiver",
    ("state", "hand"): "receiver",
    ("set_laid", "cards"): "own",
    ("set_held", "cards"): "own",
    ("set_returned", "cards"): "own",
    ("pile_taken", "cards"): "own",
    ("stock_drawn", "cards"): "own",
    ("quads_discarded", "cards"): "own",
    ("set_revealed", "cards"): "public",
    ("dealer_drawn", "draws"): "public",
    ("deal_ended", "deck"): "public",
}


def cards_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if engine.is_card(value) else []
    if isinstance(value, list):
        return [c for v in value for c in cards_in(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in cards_in(v)]
    return []


def check_cards(msg: dict[str, Any], seat: int | None, rules: engine.Rules) -> None:
    """Assert that ``msg`` (an event, or an event of a ``state.history``) holds no card ``seat``
    may not see, and no count the variant hides from it (``state.history``: its own items are
    checked apart)."""
    t = msg["t"]
    for name, value in msg.items():
        found = cards_in(value)
        if not found or (t, name) == ("state", "history"):
            continue
        kind = CARD_FIELDS.get((t, name))
        assert kind is not None, f"{t}.{name} holds cards {found}"
        if kind == "receiver" and t == "state":
            assert msg["seat"] == seat, f"seat {seat} was sent seat {msg['seat']}'s hand"
        elif kind == "receiver":
            assert msg["hand"] is None or seat is not None, f"a spectator was sent a hand in {t}"
        elif kind == "own":
            assert msg["seat"] == seat, f"seat {seat} was sent seat {msg['seat']}'s cards in {t}"
    if not rules.hand_counts_public:  # `cheat`: sizes of hands, pile and others' sets hidden
        if t in ("set_laid", "pile_taken") and msg["seat"] != seat:
            assert msg.get("size") is None and (t != "pile_taken" or msg["count"] is None), msg
        if t in ("deal_started", "state"):
            assert msg["hand_counts"] is None and msg.get("pile") is None, t


def check_frames(frames: list[dict[str, Any]], seat: int | None, rules: engine.Rules, players: int) -> int:
    """Assert that ``frames`` (everything one client received) are valid protocol messages and
    hold no card ``seat`` may not see; returns the number of deals checked against their
    fair-deal disclosure."""
    deals = 0
    started = None
    for msg in frames:
        t = msg["t"]
        cls = (REPLIES if "re" in msg else EVENTS).get(t)
        assert cls is not None, f"unknown message type {t}"
        cls.from_wire(msg)  # raises ProtocolError if a field is missing or mistyped
        check_cards(msg, seat, rules)
        for item in msg.get("history") or () if t == "state" else ():  # the deal so far
            check_cards(item, seat, rules)
        if t == "deal_started":
            started = msg
            assert (msg["hand"] is None) == (seat is None)
        elif t == "deal_ended" and started is not None:
            digest = hashlib.sha256((msg["salt"] + ":" + ",".join(msg["deck"])).encode()).hexdigest()
            assert digest == started["commitment"]
            dealt = engine.deal_cards(rules, list(msg["deck"]), players, started["dealer"])
            if seat is not None:
                assert Counter(started["hand"]) == Counter(dealt.hands[seat])
            deals += 1
            started = None
    return deals
