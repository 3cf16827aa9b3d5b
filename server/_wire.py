"""Engine objects as protocol messages (docs/PROTOCOL.md, game events).

Game events mirror engine/_events.py one to one: ``t`` is the event's ``type`` and the fields are
the attrs fields of the event *as projected for the receiving seat* (tuples become arrays).
Callers pass only projected events here; this module never projects and never sees a hand
that is not the receiver's.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable
from typing import Any

import attrs
from neveryu import engine

_SCALARS = frozenset({str, int, bool, type(None)})


@functools.cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """The attrs field names of ``cls`` in order, or None when it is not an attrs class (once
    per class: ``attrs.fields`` for every value of every event was 6 % of the server's CPU)."""
    return tuple(a.name for a in attrs.fields(cls)) if attrs.has(cls) else None


def to_plain(value: Any) -> Any:
    """attrs records → dicts, tuples → lists, recursively (the wire has maps and arrays).
    Scalars are taken as they are without a call each (most fields are scalars)."""
    cls = type(value)
    if cls in _SCALARS:
        return value
    names = _field_names(cls)
    if names is not None:
        out = {}
        for name in names:
            v = getattr(value, name)
            out[name] = v if type(v) in _SCALARS else to_plain(v)
        return out
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _SCALARS else to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def event_message(event: engine.Event) -> dict[str, Any]:
    """A projected engine event as a wire event body (no ``seq``/``ts``): ``t`` (the event's
    ``type``), then its fields in order. Tuples stay tuples (msgpack packs them as arrays; no
    event field holds a record). ``deal_started`` sends ``hand`` (the receiver's own hand, nil
    when it has none) instead of ``hands``; the caller adds ``commitment`` and ``deal_no``
    there."""
    cls = type(event)
    body = (_BODIES.get(cls) or _body_of(cls))(event)
    if cls is engine.DealStarted:
        hands = body.pop("hands")
        body["hand"] = next((h for h in hands if h is not None), None)
    return body


_BODIES: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _body_of(cls: type) -> Callable[[Any], dict[str, Any]]:
    """``event_message``'s dict for an event class, made once per class as a function of one
    dict display, the way attrs makes its methods (``{"t": ..., "seat": e.seat, ...}``: a loop
    over the fields cost nearly four times as much). The names are the class's attrs fields;
    raises TypeError for one that is no identifier (attrs allows none)."""
    names = _field_names(cls) or ()
    if not all(name.isidentifier() for name in names):
        raise TypeError(f"{cls.__name__}: a field name that is no identifier")
    source = "lambda e: {{'t': {!r}{}}}".format(cls.type, "".join(f", {n!r}: e.{n}" for n in names))
    _BODIES[cls] = body = eval(source, {})
    return body


def legal_message(legal: engine.Legal) -> dict[str, Any]:
    """A ``legal`` event body from engine ``Legal`` (DESIGN.md, "Turns")."""
    lay = None
    if legal.lay is not None:
        lay = {"min": legal.lay.min, "max": legal.lay.max, "ranks": list(legal.lay.ranks)}
        if legal.lay.count_min is not None:
            lay["count_min"] = legal.lay.count_min
            lay["count_max"] = legal.lay.count_max
    return {
        "t": "legal",
        "lay": lay,
        "challenge": legal.challenge,
        "believe": legal.believe,
        "declare_none": legal.declare_none,
        "discard_quads": list(legal.discard_quads),
        "decline_quads": legal.decline_quads,
    }


def view_fields(view: engine.View) -> dict[str, Any]:
    """The fields of a ``state`` snapshot that come from the engine ``View`` of one seat."""
    body = to_plain(view)
    body["legal"] = legal_message(view.legal)
    del body["legal"]["t"]
    return body


# -- the fair deal (DESIGN.md, "Fair deal") ---------------------------------------------------


def new_salt() -> str:
    """32 random bytes from ``secrets``, as 64 lowercase hex characters."""
    return secrets.token_hex(32)


def commitment(salt: str, deck: tuple[str, ...] | list[str]) -> str:
    """Lowercase hex SHA-256 of the UTF-8 bytes of ``salt + ":" + ",".join(deck)``; ``deck`` in
    dealing order, top first."""
    return hashlib.sha256((salt + ":" + ",".join(deck)).encode()).hexdigest()
