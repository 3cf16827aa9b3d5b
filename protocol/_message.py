"""The message machinery of protocol v1 (docs/PROTOCOL.md): base classes, registries, parsing.

The classes themselves are in ``_requests``, ``_replies``, ``_table_events`` (lobby and table),
``_game_events`` and ``_snapshot`` (``state``). They are the one spelling of each message: the
server builds what it sends from them, the tests and clients check what they receive with them,
and the JSON Schema is generated from them.

Every class has ``t`` (its type), ``KIND`` (``request``, ``reply`` or ``event``), keyword-only
fields of wire types (``_types``), ``wire_map(**fields) -> dict`` (the map a sender frames: its
fields in declared order, which the bytes on the wire follow; what the server sends is built
so), ``to_wire()`` (an instance's ``wire_map``) and ``from_wire(d)``, which checks and
normalises every field (arrays become tuples; a bad value raises
``RemoteProtocolError("BAD_MESSAGE")``). A request also names its ``REPLY``. Game events
mirror engine/_events.py field for field (as projected for the receiving seat).

``parse_request(d)`` turns a decoded client message into its request object; the JSON Schema
(``_schema``) is generated from these classes.
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

import attrs

from ._errors import RemoteProtocolError, error
from ._limits import MAX_ID
from ._types import (
    UINT32,
    Field,
    Int,
    Nullable,
    Type,
    nullable,
    well_typed,
)

MAX_CARDS = 104  # a 2x52 deck
MAX_SET = 8  # a set of a 2x52 deck (docs/RULES.md, `hoyle`: 1-8 cards)
MAX_TABLES = 1024


def wire(type_: Type, doc: str = "", *, required: bool = True) -> Any:
    """A message field of wire type ``type_``. An optional field (``required=False``) defaults
    to None and may be absent on the wire (absent and nil mean the same); ``to_wire`` leaves it
    out when None, unless its type is ``Nullable`` (then nil is sent: it says something)."""
    meta = {"wire": Field(type_, required, doc)}
    if required:
        return attrs.field(kw_only=True, metadata=meta)
    return attrs.field(kw_only=True, default=None, metadata=meta)


def _envelope(type_: Type, doc: str) -> Any:
    """An envelope field (``id``, ``re``, ``seq``, ``ts``): required on the wire, but None in a
    message the server builds until its session stamps it (``Session.event``, ``reply``)."""
    return attrs.field(kw_only=True, default=None, metadata={"wire": Field(type_, True, doc)})


ENVELOPE = {"request": ("id",), "reply": ("re",), "event": ("seq", "ts")}
"""The envelope fields of each kind of message (docs/PROTOCOL.md, "Messages")."""

REQUESTS: dict[str, type[Request]] = {}
REPLIES: dict[str, type[Reply]] = {}
EVENTS: dict[str, type[Event]] = {}
_REGISTRY: dict[str, dict[str, Any]] = {"request": REQUESTS, "reply": REPLIES, "event": EVENTS}
M = TypeVar("M", bound="Message")
Q = TypeVar("Q", bound="Request")
R = TypeVar("R", bound="Reply")
E = TypeVar("E", bound="Event")


def message(t: str, kind: str, reply: str | None = None) -> Callable[[type[M]], type[M]]:
    """Class decorator: make a frozen, slotted, keyword-only attrs message class of type ``t``
    and register it under ``kind`` (``request``, ``reply`` or ``event``). Its fields go on the
    wire in the order they are declared (envelope fields where their kind puts them)."""

    def wrap(cls: type[M]) -> type[M]:
        cls.t = t
        cls.KIND = kind
        cls.REPLY = reply
        cls = attrs.frozen(kw_only=True)(cls)
        fields = [(a.name, a.metadata["wire"]) for a in attrs.fields(cast(Any, cls))]
        envelope = ENVELOPE[kind]
        cls._wire_fields = dict(sorted(fields, key=lambda nf: nf[0] not in envelope))
        cls._checks = tuple(
            (name, f.type if f.required else nullable(f.type), f.required, f"{t}.{name}")
            for name, f in fields
        )
        cls._names = tuple(name for name, _ in fields)
        cls._values = operator.attrgetter(*cls._names) if len(fields) > 1 else _one(cls._names[0])
        # the envelope fields that come last (an event's seq and ts, a reply's re) are stamped
        # by the session that sends the message, after its fields: not part of ``wire_map``
        cls._stamped = tuple(n for n in cls._names[-len(envelope) :] if n in envelope and kind != "request")
        body = [(name, f) for name, f in fields if name not in cls._stamped]
        required = {name for name, f in body if f.required and name not in envelope}
        cls._template = {"t": t, **{name: _MISSING if name in required else None for name, _ in body}}
        # a field None is left out but where nil says something: a required field, or a
        # Nullable one
        cls._droppable = tuple(
            name for name, f in body if name not in required and not isinstance(f.type, Nullable)
        )
        _REGISTRY[kind][t] = cls
        return cls

    return wrap


_MISSING = object()  # a required field not given (``wire_map``)


def _one(name: str) -> Callable[[Any], tuple[Any, ...]]:
    return lambda message: (getattr(message, name),)


class Message:
    """Base of every message class. ``wire_map(**fields)`` is the map a sender frames (the
    server builds everything it sends so, without an instance: it is the cheap way, on the path
    of every event to every seat); ``from_wire`` checks every field of a decoded message and
    gives an instance; an instance's ``to_wire`` is ``wire_map`` of its fields. Neither the
    constructor nor ``wire_map`` checks values (the server builds its messages from typed
    values, and every test checks each frame it receives)."""

    __slots__ = ()
    t: ClassVar[str]
    KIND: ClassVar[str]
    REPLY: ClassVar[str | None]
    _wire_fields: ClassVar[dict[str, Field]]
    _checks: ClassVar[tuple[tuple[str, Type, bool, str], ...]]
    _names: ClassVar[tuple[str, ...]]
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]]
    _template: ClassVar[dict[str, Any]]
    _droppable: ClassVar[tuple[str, ...]]
    _stamped: ClassVar[tuple[str, ...]]

    if TYPE_CHECKING:
        # attrs makes the keyword-only __init__ of each class (``message``); mypy cannot see it.
        def __init__(self, **fields: Any) -> None: ...

    @classmethod
    def wire_fields(cls) -> dict[str, Field]:
        """name -> ``Field`` (wire type, required, doc), envelope fields first: the same dict
        every time, not to be changed."""
        return cls._wire_fields

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Self:
        """Build from a decoded message dict, every field checked by its wire type (arrays
        become tuples). Unknown keys are ignored. Raises ``RemoteProtocolError("BAD_MESSAGE")``
        (fatal) for a missing or wrongly typed field."""
        kwargs = {}
        for name, ty, required, where in cls._checks:
            if name in d:
                kwargs[name] = ty.check(d[name], where)
            elif required:
                raise error("BAD_MESSAGE", f"{cls.t}: the field {name} is missing")
        return cls(**kwargs)

    @classmethod
    def wire_map(cls, **fields: Any) -> dict[str, Any]:
        """The map the wire carries for a message of this class with ``fields``: ``t``, then
        the fields in the class's order (the bytes follow it), values as given (msgpack packs a
        tuple as an array). A field None is left out where absent and nil mean the same (an
        optional field that is not ``Nullable``). Without an event's ``seq`` and ``ts`` or a
        reply's ``re``: the session that sends it stamps them after the fields
        (``Session.event``, ``reply``). Raises TypeError for a field the class does not have
        (those included) or a required one missing."""
        return cls.wire_map_of(fields)

    @classmethod
    def wire_map_of(cls, *parts: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> dict[str, Any]:
        """``wire_map`` of the fields in ``parts`` (maps or iterables of ``(name, value)``, the
        later ones winning): for a caller that has its fields as pairs already
        (``server._wire.event_message``: an engine event's), without a map of keywords."""
        out = cls._template.copy()
        for part in parts:
            out.update(part)
        if len(out) != len(cls._template) or _MISSING in out.values():
            unknown = sorted(set(out) - set(cls._template))
            missing = sorted(name for name, value in out.items() if value is _MISSING)
            raise TypeError(f"{cls.t}: unknown fields {unknown}, missing {missing}")
        for name in cls._droppable:
            if out[name] is None:
                del out[name]
        return out

    def to_wire(self) -> dict[str, Any]:
        """This message as the map the wire carries (``wire_map`` of its fields)."""
        cls = type(self)
        fields = dict(zip(cls._names, cls._values(self)))
        stamped = {name: fields.pop(name) for name in cls._stamped}
        return cls.wire_map(**fields) | {k: v for k, v in stamped.items() if v is not None}


class Request(Message):
    __slots__ = ()
    id: int


class Reply(Message):
    """A reply; the server builds it without ``re``, which ``Session.reply`` adds last."""

    __slots__ = ()
    re: int | None


class Event(Message):
    """An event; the server builds it without ``seq`` and ``ts``, which each session that sends
    it adds last (``Session.event``)."""

    __slots__ = ()
    seq: int | None
    ts: int | None


def _request_base(cls: type[Q]) -> type[Q]:
    cls.__annotations__ = {"id": "int", **inspect.get_annotations(cls)}
    cls.id = wire(UINT32, "the request id, chosen by the client; the reply carries it as re")
    return cls


def request(t: str, reply: str = "ok") -> Callable[[type[Q]], type[Q]]:
    return lambda cls: message(t, "request", reply)(_request_base(cls))


def reply(t: str) -> Callable[[type[R]], type[R]]:
    def wrap(cls: type[R]) -> type[R]:
        cls.__annotations__ = {**inspect.get_annotations(cls), "re": "int | None"}
        cls.re = _envelope(UINT32, "the id of the request this answers")
        return message(t, "reply")(cls)

    return wrap


def event(t: str) -> Callable[[type[E]], type[E]]:
    def wrap(cls: type[E]) -> type[E]:
        cls.__annotations__ = {**inspect.get_annotations(cls), "seq": "int | None", "ts": "int | None"}
        cls.seq = _envelope(Int(1), "strictly increasing per session, kept across a resume")
        cls.ts = _envelope(Int(0), "Unix wall-clock time in ms (display and logs only)")
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
