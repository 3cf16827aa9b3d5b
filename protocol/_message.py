"""The message machinery of protocol v1 (docs/PROTOCOL.md): base classes, registries, parsing.

The classes themselves are in ``_requests`` (requests and their replies) and ``_events``.

Every class has ``t`` (its type), ``KIND`` (``request``, ``reply`` or ``event``), keyword-only
fields whose wire types (``_types``) validate and normalise every value given to the
constructor (arrays become tuples; a bad value raises ``RemoteProtocolError("BAD_MESSAGE")``),
``to_wire() -> dict`` and ``from_wire(d)``. A request also names its ``REPLY``. Game events
mirror engine/_events.py field for field (as projected for the receiving seat).

``parse_request(d)`` turns a decoded client message into its request object; the JSON Schema
(``_schema``) is generated from these classes.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

import attrs

from ._errors import RemoteProtocolError, error
from ._limits import MAX_ID
from ._types import (
    UINT32,
    Field,
    Int,
    Type,
    nullable,
    well_typed,
)

MAX_CARDS = 104  # a 2x52 deck
MAX_SET = 8  # a set of a 2x52 deck (docs/RULES.md, `hoyle`: 1-8 cards)
MAX_TABLES = 1024


def wire(type_: Type, doc: str = "", *, required: bool = True) -> Any:
    """A message field of wire type ``type_``. An optional field (``required=False``) defaults
    to None, may be absent on the wire (absent and nil mean the same) and is left out of
    ``to_wire`` when None."""
    meta = {"wire": Field(type_, required, doc)}
    if required:
        return attrs.field(kw_only=True, metadata=meta)
    return attrs.field(kw_only=True, default=None, metadata=meta)


def _checked(t: str, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
    out = []
    for a in fields:
        f: Field = a.metadata["wire"]
        ty = f.type if f.required else nullable(f.type)
        out.append(a.evolve(converter=_converter(ty, f"{t}.{a.name}")))
    return out


def _converter(ty: Type, where: str) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        return ty.check(value, where)

    return convert


REQUESTS: dict[str, type[Request]] = {}
REPLIES: dict[str, type[Reply]] = {}
EVENTS: dict[str, type[Event]] = {}
_REGISTRY: dict[str, dict[str, Any]] = {"request": REQUESTS, "reply": REPLIES, "event": EVENTS}
M = TypeVar("M", bound="Message")
Q = TypeVar("Q", bound="Request")
R = TypeVar("R", bound="Reply")
E = TypeVar("E", bound="Event")


def message(t: str, kind: str, reply: str | None = None) -> Callable[[type[M]], type[M]]:
    """Class decorator: make a frozen, keyword-only attrs message class of type ``t`` and
    register it under ``kind`` (``request``, ``reply`` or ``event``)."""

    def wrap(cls: type[M]) -> type[M]:
        cls.t = t
        cls.KIND = kind
        cls.REPLY = reply
        cls = attrs.frozen(kw_only=True, field_transformer=lambda _c, fs: _checked(t, fs))(cls)
        _REGISTRY[kind][t] = cls
        return cls

    return wrap


class Message:
    """Base of every message class."""

    t: ClassVar[str]
    KIND: ClassVar[str]
    REPLY: ClassVar[str | None]
    _wire_fields: ClassVar[dict[str, Field]]

    if TYPE_CHECKING:
        # attrs makes the keyword-only __init__ of each class (``message``); mypy cannot see it.
        def __init__(self, **fields: Any) -> None: ...

    @classmethod
    def wire_fields(cls) -> dict[str, Field]:
        """name -> ``Field`` (wire type, required, doc), envelope fields first. Made once per
        class (it was rebuilt twice per request): the same dict every time, not to be changed."""
        fields = cls.__dict__.get("_wire_fields")
        if fields is None:
            fields = {a.name: a.metadata["wire"] for a in attrs.fields(cast(Any, cls))}
            cls._wire_fields = fields
        return fields

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Self:
        """Build from a decoded message dict. Unknown keys are ignored. Raises
        ``RemoteProtocolError("BAD_MESSAGE")`` (fatal) for a missing or wrongly typed field."""
        kwargs = {}
        for name, f in cls.wire_fields().items():
            if name in d:
                kwargs[name] = d[name]
            elif f.required:
                raise error("BAD_MESSAGE", f"{cls.t}: the field {name} is missing")
        return cls(**kwargs)

    def to_wire(self) -> dict[str, Any]:
        """The message as a wire dict: ``{"t": ..., fields...}``; tuples become lists; optional
        fields that are None are left out."""
        out: dict[str, Any] = {"t": self.t}
        for name, f in self.wire_fields().items():
            value = getattr(self, name)
            if value is None and not f.required:
                continue
            out[name] = None if value is None else f.type.to_wire(value)
        return out


class Request(Message):
    id: int


class Reply(Message):
    re: int | None


class Event(Message):
    seq: int
    ts: int


def _request_base(cls: type[Q]) -> type[Q]:
    cls.__annotations__ = {"id": "int", **inspect.get_annotations(cls)}
    cls.id = wire(UINT32, "the request id, chosen by the client; the reply carries it as re")
    return cls


def request(t: str, reply: str = "ok") -> Callable[[type[Q]], type[Q]]:
    return lambda cls: message(t, "request", reply)(_request_base(cls))


def reply(t: str) -> Callable[[type[R]], type[R]]:
    def wrap(cls: type[R]) -> type[R]:
        cls.__annotations__ = {"re": "int", **inspect.get_annotations(cls)}
        cls.re = wire(UINT32, "the id of the request this answers")
        return message(t, "reply")(cls)

    return wrap


def event(t: str) -> Callable[[type[E]], type[E]]:
    def wrap(cls: type[E]) -> type[E]:
        cls.__annotations__ = {"seq": "int", "ts": "int", **inspect.get_annotations(cls)}
        cls.seq = wire(Int(1), "strictly increasing per session, kept across a resume")
        cls.ts = wire(Int(0), "Unix wall-clock time in ms (display and logs only)")
        return message(t, "event")(cls)

    return wrap


GAME_REQUESTS = frozenset({"lay", "challenge", "believe", "declare_none", "discard_quads", "decline_quads"})
"""The requests that act in a deal (docs/PROTOCOL.md, Game requests)."""

OUT_OF_RANGE: dict[str, str] = {**dict.fromkeys(GAME_REQUESTS, "ILLEGAL_ACTION"), "chat": "BAD_OPTION"}
"""The requests whose values, of the right types but out of their range, are refused with a
non-fatal error (this code) instead of the fatal ``BAD_MESSAGE``: a game request naming an
impossible action; a chat that is empty or too long (docs/PROTOCOL.md, section 7: "which layer
answers what")."""


def parse_request(d: dict[str, Any]) -> Request:
    """The request object for a decoded client message ``d`` (a dict with ``t`` and ``id``):
    every field checked by its wire type, arrays as tuples, absent optional fields None.

    Raises ``RemoteProtocolError``: ``UNKNOWN_TYPE`` (non-fatal) for a ``t`` no request has,
    ``BAD_MESSAGE`` (fatal) for a missing id or a missing or wrongly typed field; both carry
    ``re`` = the id when it is a uint32. A game request (``GAME_REQUESTS``) whose fields all
    have the right kind but a value out of range (``set_no`` 0, a card ``"10H"``, nine cards,
    ``count`` 0, no ranks) is refused with the non-fatal ``ILLEGAL_ACTION``: it names an
    impossible action, it does not break the protocol; likewise a ``chat`` whose text is empty
    or longer than 500 characters gets the non-fatal ``BAD_OPTION`` (``OUT_OF_RANGE``).
    """
    cls, re = _request_class(d)
    try:
        return cls.from_wire(d)
    except RemoteProtocolError as exc:
        raise _as_answered(exc, cls, d, re) from None


def _request_class(d: dict[str, Any]) -> tuple[type[Request], int | None]:
    """The request class ``d`` names and the id its answer carries (None: not a uint32).
    Raises ``RemoteProtocolError``: ``BAD_MESSAGE`` for a ``t`` that is no string, ``UNKNOWN_TYPE``."""
    rid = d.get("id")
    re = rid if type(rid) is int and 0 <= rid <= MAX_ID else None
    t = d.get("t")
    if type(t) is not str:
        raise error("BAD_MESSAGE", "a message needs t, a string", re=re)
    cls = REQUESTS.get(t)
    if cls is None:
        raise error("UNKNOWN_TYPE", f"unknown request type {t[:40]!r}", re=re)
    return cls, re


def _as_answered(
    exc: RemoteProtocolError, cls: type[Message], d: dict[str, Any], re: int | None
) -> RemoteProtocolError:
    """``exc`` as the client is told it: with ``re``; a well-typed request of ``OUT_OF_RANGE``
    whose values are out of range gets that non-fatal code instead (see ``parse_request``)."""
    exc.re = re
    code = OUT_OF_RANGE.get(cls.t)
    if code is not None and re is not None and _well_typed(cls, d):
        return RemoteProtocolError(code, exc.msg, False, re=re)
    return exc


def _well_typed(cls: type[Message], d: dict[str, Any]) -> bool:
    """Every required field of ``cls`` is in ``d`` and every field there has its wire kind."""
    return all(
        well_typed(f.type, d[name]) if name in d else not f.required for name, f in cls.wire_fields().items()
    )
