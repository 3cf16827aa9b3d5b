"""Engine objects as protocol messages (docs/PROTOCOL.md, game events), and who may see which.

Game events mirror engine/_events.py one to one: ``t`` is the event's ``type`` and the fields are
the attrs fields of the event *as projected for the receiving seat* (tuples become arrays).
``copies`` is where a table learns which copy of an event each receiver may see: the engine's
projection (``engine.project``), and nothing else, decides it.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from neveryu import engine, protocol

ActionOf = Callable[[Any, int], engine.Action]
"""How a game request becomes the engine action of a seat: ``action_of(request, seat)``."""

GAME_ACTIONS: dict[type[protocol.Request], ActionOf] = {
    protocol.Lay: lambda r, seat: engine.LaySet(seat, r.cards, r.rank, r.count),
    protocol.DeclareNoneRequest: lambda r, seat: engine.DeclareNone(seat),
    protocol.DiscardQuadsRequest: lambda r, seat: engine.DiscardQuads(seat, r.ranks),
    protocol.DeclineQuadsRequest: lambda r, seat: engine.DeclineQuads(seat),
    protocol.BelieveRequest: lambda r, seat: engine.Believe(seat, r.set_no),
    protocol.ChallengeRequest: lambda r, seat: engine.Challenge(seat, r.set_no),
}
"""The engine action of each game request (docs/PROTOCOL.md, "Game requests"), for a seat."""


def copies(
    event: engine.Event, players: int, counts_public: bool
) -> Iterator[tuple[int | None, engine.Event]]:
    """Each receiver's copy of ``event`` at a deal of ``players`` seats: ``(seat, copy)`` for
    every seat that sees something of it, from the seat the event is about (its ``seat``, if
    it has one: the one who acted learns first, his reply and his copy then mostly in one
    read) on around the table, then ``(None, copy)`` for spectators when they do
    (``engine.project``: a copy holds no card its receiver may not see, and no count where
    ``counts_public`` is false)."""
    first = getattr(event, "seat", None) or 0
    for seat in (*range(first, players), *range(first), None):
        seen = engine.project(event, seat, counts_public)
        if seen is not None:
            yield seat, seen


def to_plain(value: Any) -> Any:
    """attrs records → dicts, tuples → lists, recursively (the wire has maps and arrays)."""
    if attrs.has(type(value)):
        return {a.name: to_plain(getattr(value, a.name)) for a in attrs.fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def event_message(event: engine.Event, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A projected engine event as the wire map of its protocol event
    (``protocol.EVENTS[event.type].wire_map``, no ``seq``/``ts``): the event's fields (tuples
    stay tuples: msgpack packs them as arrays; no event field holds a record) and the table's
    own, ``extra`` (the fair deal's commitment and disclosure, the deal's number, the turn
    time). ``deal_started`` carries ``hand`` (the receiver's own hand, nil when it has none)
    instead of ``hands``."""
    event_class: type = type(event)  # mypy does not see frozen attrs classes as hashable
    names, values = _fields_of(event_class)
    fields: Any = zip(names, values(event))
    if event_class is engine.DealStarted:
        fields = dict(fields)
        fields["hand"] = next((h for h in fields.pop("hands") if h is not None), None)
    return protocol.EVENTS[event.type].wire_map_of(fields, extra or ())


@functools.cache
def _fields_of(cls: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """The attrs field names of an event class, in order, and what reads their values."""
    names = tuple(a.name for a in attrs.fields(cls))
    if len(names) == 1:
        return names, lambda event: (getattr(event, names[0]),)
    return names, operator.attrgetter(*names)


def legal_fields(legal: engine.Legal) -> dict[str, Any]:
    """Engine ``Legal`` as the wire's ``legal`` map (docs/ARCHITECTURE.md, "Turns"): the
    fields of the ``legal`` event, and ``state.legal``."""
    lay = None
    if legal.lay is not None:
        lay = {"min": legal.lay.min, "max": legal.lay.max, "ranks": list(legal.lay.ranks)}
        if legal.lay.count_min is not None:
            lay["count_min"] = legal.lay.count_min
            lay["count_max"] = legal.lay.count_max
    return {
        "lay": lay,
        "challenge": legal.challenge,
        "believe": legal.believe,
        "declare_none": legal.declare_none,
        "discard_quads": list(legal.discard_quads),
        "decline_quads": legal.decline_quads,
    }


@functools.lru_cache(maxsize=4096)
def legal_message(legal: engine.Legal) -> dict[str, Any]:
    """The ``legal`` event's wire map for engine ``Legal`` (not to be changed: the same few
    recur at every table, most seats may do nothing, so each is made once)."""
    return protocol.LegalEvent.wire_map(**legal_fields(legal))


def view_fields(view: engine.View) -> dict[str, Any]:
    """The fields of a ``state`` snapshot that come from the engine ``View`` of one seat."""
    body: dict[str, Any] = to_plain(view)
    body["legal"] = legal_fields(view.legal)
    return body


def held_fields(deal: engine.Deal, seat: int | None) -> dict[str, Any] | None:
    """``seat``'s set laid early and still held, as its ``set_held`` told it (``state.held``);
    None when that seat holds none."""
    held = deal.held
    if held is None or seat is None or held.seat != seat:
        return None
    rank = getattr(held, "rank", None) or deal.claim_ranks()[0]
    if isinstance(held, engine.LaySet):
        count = held.count if held.count is not None else len(held.cards)
        return {"cards": list(held.cards), "rank": rank, "count": count}
    return {"cards": [], "rank": rank, "count": 0}


# -- the fair deal (docs/ARCHITECTURE.md, "Fair deal") ---------------------------------------------------


def new_salt() -> str:
    """32 random bytes from ``secrets``, as 64 lowercase hex characters."""
    return secrets.token_hex(32)


def commitment(salt: str, deck: tuple[str, ...] | list[str]) -> str:
    """Lowercase hex SHA-256 of the UTF-8 bytes of ``salt + ":" + ",".join(deck)``; ``deck`` in
    dealing order, top first."""
    return hashlib.sha256((salt + ":" + ",".join(deck)).encode()).hexdigest()
