"""Field types of protocol messages: each checks a decoded value and describes itself as JSON
Schema, so the message classes and docs/protocol.schema.json come from one description.

``check(value, where)`` returns the value in its Python form (arrays become tuples, maps dicts)
or raises ``RemoteProtocolError("BAD_MESSAGE")`` naming ``where`` (the field's path). A bool is never
an int; no type accepts floats or bytes (the codec refuses them earlier anyway).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import attrs

from ._errors import RemoteProtocolError, error
from ._limits import MAX_ID

RANK_PATTERN = "^[2-9TJQKA]$"
CARD_PATTERN = "^[2-9TJQKA][SHDC]$"


def _bad(where: str, what: str, value: Any) -> Exception:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return error("BAD_MESSAGE", f"{where}: expected {what}, got {shown}")


class Type:
    """A wire type. Subclasses define ``check`` and ``schema``."""

    def check(self, value: Any, where: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_wire(self, value: Any) -> Any:
        return value


@attrs.frozen
class Int(Type):
    """An int (not a bool) in ``lo..hi`` (inclusive; None: unbounded)."""

    lo: int | None = None
    hi: int | None = None

    def check(self, value: Any, where: str) -> Any:
        if (
            type(value) is not int
            or (self.lo is not None and value < self.lo)
            or (self.hi is not None and value > self.hi)
        ):
            raise _bad(where, self._wanted(), value)
        return value

    def _wanted(self) -> str:
        """What the error message says was expected: "an int in 1..8", "an int >= 0"."""
        if self.lo is not None and self.hi is not None:
            return f"an int in {self.lo}..{self.hi}"
        if self.lo is not None:
            return f"an int >= {self.lo}"
        return "an int" if self.hi is None else f"an int <= {self.hi}"

    def schema(self) -> dict[str, Any]:
        s: dict[str, Any] = {"type": "integer"}
        if self.lo is not None:
            s["minimum"] = self.lo
        if self.hi is not None:
            s["maximum"] = self.hi
        return s


@attrs.frozen
class Bool(Type):
    def check(self, value: Any, where: str) -> Any:
        if type(value) is not bool:
            raise _bad(where, "a bool", value)
        return value

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@attrs.frozen
class Str(Type):
    """A str of ``min_len..max_len`` characters, matching ``pattern`` and one of ``choices`` if
    given."""

    max_len: int
    min_len: int = 0
    pattern: str | None = None
    choices: tuple[str, ...] | None = None
    description: str | None = None

    def check(self, value: Any, where: str) -> Any:
        if type(value) is not str or not self.min_len <= len(value) <= self.max_len:
            raise _bad(where, f"a string of {self.min_len}..{self.max_len} characters", value)
        if self.pattern is not None and not _compiled(self.pattern).fullmatch(value):
            raise _bad(where, f"a string matching {self.pattern}", value)
        if self.choices is not None and value not in self.choices:
            raise _bad(where, f"one of {', '.join(self.choices)}", value)
        return value

    def schema(self) -> dict[str, Any]:
        s: dict[str, Any] = {"type": "string"}
        if self.choices is not None:
            s["enum"] = list(self.choices)
        else:
            if self.min_len:
                s["minLength"] = self.min_len
            s["maxLength"] = self.max_len
            if self.pattern is not None:
                s["pattern"] = self.pattern
        if self.description:
            s["description"] = self.description
        return s


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` (``^...$``, as the schema says it) compiled once, for ``fullmatch``."""
    return re.compile(pattern[1:-1])


@attrs.frozen
class Const(Type):
    value: str

    def check(self, value: Any, where: str) -> Any:
        if value != self.value or type(value) is not str:
            raise _bad(where, repr(self.value), value)
        return value

    def schema(self) -> dict[str, Any]:
        return {"const": self.value}


@attrs.frozen
class Array(Type):
    """An array of ``items``, ``min_items..max_items`` long. Python side: a tuple."""

    items: Type
    max_items: int
    min_items: int = 0

    def check(self, value: Any, where: str) -> Any:
        if type(value) not in (list, tuple) or not self.min_items <= len(value) <= self.max_items:
            raise _bad(where, f"an array of {self.min_items}..{self.max_items} items", value)
        return tuple(self.items.check(v, f"{where}[{i}]") for i, v in enumerate(value))

    def schema(self) -> dict[str, Any]:
        s = {"type": "array", "items": self.items.schema(), "maxItems": self.max_items}
        if self.min_items:
            s["minItems"] = self.min_items
        return s

    def to_wire(self, value: Any) -> Any:
        return [self.items.to_wire(v) for v in value]


@attrs.frozen
class Tuple(Type):
    """A fixed-length array whose items have the types ``items`` in order. Python side: a tuple."""

    items: tuple[Type, ...]

    def check(self, value: Any, where: str) -> Any:
        if type(value) not in (list, tuple) or len(value) != len(self.items):
            raise _bad(where, f"an array of {len(self.items)} items", value)
        return tuple(t.check(v, f"{where}[{i}]") for i, (t, v) in enumerate(zip(self.items, value)))

    def schema(self) -> dict[str, Any]:
        n = len(self.items)
        return {
            "type": "array",
            "prefixItems": [t.schema() for t in self.items],
            "minItems": n,
            "maxItems": n,
        }

    def to_wire(self, value: Any) -> Any:
        return [t.to_wire(v) for t, v in zip(self.items, value)]


@attrs.frozen
class Nullable(Type):
    """``inner`` or nil (None)."""

    inner: Type

    def check(self, value: Any, where: str) -> Any:
        return None if value is None else self.inner.check(value, where)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [self.inner.schema(), {"type": "null"}]}

    def to_wire(self, value: Any) -> Any:
        return None if value is None else self.inner.to_wire(value)


def nullable(ty: Type) -> Type:
    """``ty`` that also takes nil (``ty`` itself when it already does)."""
    return ty if isinstance(ty, Nullable) else Nullable(ty)


@attrs.frozen
class Field:
    """One field of a map or message: its type; ``required`` (else it may be absent, which
    means the same as nil); ``doc`` for the schema's description."""

    type: Type
    required: bool = True
    doc: str = ""


@attrs.frozen
class Map(Type):
    """A map with known fields (unknown keys are ignored and dropped: a newer peer may send
    more). Python side: a dict."""

    fields: dict[str, Field]
    title: str | None = None

    def check(self, value: Any, where: str) -> Any:
        if type(value) is not dict:
            raise _bad(where, "a map", value)
        out: dict[str, Any] = {}
        for name, f in self.fields.items():
            if name in value:
                out[name] = f.type.check(value[name], f"{where}.{name}")
            elif f.required:
                raise error("BAD_MESSAGE", f"{where}: the field {name} is missing")
        return out

    def schema(self) -> dict[str, Any]:
        s: dict[str, Any] = {
            "type": "object",
            "properties": {name: _described(f) for name, f in self.fields.items()},
            "required": [name for name, f in self.fields.items() if f.required],
        }
        if self.title:
            s["title"] = self.title
        return s

    def to_wire(self, value: Any) -> Any:
        return {k: self.fields[k].type.to_wire(v) if k in self.fields else v for k, v in value.items()}


@attrs.frozen
class MapOf(Type):
    """A map from str keys (``max_key`` characters) to ``values``, at most ``max_items`` entries."""

    values: Type
    max_items: int
    max_key: int = 64

    def check(self, value: Any, where: str) -> Any:
        if type(value) is not dict or len(value) > self.max_items:
            raise _bad(where, f"a map of at most {self.max_items} entries", value)
        out: dict[str, Any] = {}
        for k, v in value.items():
            if type(k) is not str or len(k) > self.max_key:
                raise _bad(where, f"keys of at most {self.max_key} characters", k)
            out[k] = self.values.check(v, f"{where}.{k}")
        return out

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": self.values.schema(),
            "maxProperties": self.max_items,
            "propertyNames": {"type": "string", "maxLength": self.max_key},
        }

    def to_wire(self, value: Any) -> Any:
        return {k: self.values.to_wire(v) for k, v in value.items()}


@attrs.frozen
class OneOf(Type):
    """Any of ``choices`` (tried in order)."""

    choices: tuple[Type, ...]
    what: str

    def check(self, value: Any, where: str) -> Any:
        for c in self.choices:
            try:
                return c.check(value, where)
            except RemoteProtocolError:
                continue
        raise _bad(where, self.what, value)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [c.schema() for c in self.choices]}


@attrs.frozen
class Any_(Type):
    """Any wire value (used for the schema reply, which carries a JSON Schema document)."""

    def check(self, value: Any, where: str) -> Any:
        return value

    def schema(self) -> dict[str, Any]:
        return {}


@attrs.frozen
class Ref(Type):
    """A named shared type: checked as ``inner``, described as ``$ref`` to ``#/$defs/<name>``."""

    name: str
    inner: Type

    def check(self, value: Any, where: str) -> Any:
        return self.inner.check(value, where)

    def schema(self) -> dict[str, Any]:
        return {"$ref": f"#/$defs/{self.name}"}

    def to_wire(self, value: Any) -> Any:
        return self.inner.to_wire(value)


def well_typed(ty: Type, value: Any) -> bool:
    """Whether ``value`` has the wire *kind* ``ty`` asks for (an int, a bool, a str, an array of
    such, nil where allowed), whatever its range, length, pattern or choices: a game request
    that is well typed but names an impossible value is refused, not a broken frame
    (docs/PROTOCOL.md, Game requests)."""
    if isinstance(ty, Ref):
        return well_typed(ty.inner, value)
    if isinstance(ty, Nullable):
        return value is None or well_typed(ty.inner, value)
    if isinstance(ty, Int):
        return type(value) is int
    if isinstance(ty, Bool):
        return type(value) is bool
    if isinstance(ty, Str):
        return type(value) is str
    if isinstance(ty, Array):
        return type(value) in (list, tuple) and all(well_typed(ty.items, v) for v in value)
    try:
        ty.check(value, "")
    except RemoteProtocolError:
        return False
    return True


def _described(f: Field) -> dict[str, Any]:
    s = f.type.schema()
    if f.doc:
        s = {**s, "description": f.doc} if "$ref" not in s else {"allOf": [s], "description": f.doc}
    return s


# -- the named types of the wire ---------------------------------------------------------------

UINT32 = Int(0, MAX_ID)
MAX_SEATS = 12
SEAT = Ref("seat", Int(0, MAX_SEATS - 1))
COUNT = Int(0)
MS = Ref("ms", Int(0, 2**31 - 1))
RANK = Ref("rank", Str(1, 1, RANK_PATTERN, description="a rank: 2..9 T J Q K A"))
CARD = Ref("card", Str(2, 2, CARD_PATTERN, description="a card: rank then suit (S H D C), e.g. TS"))
SET_NO = Ref("set_no", Int(1, 2**31 - 1))
OPTION_VALUE = OneOf((Str(64), Int(-(2**31), 2**31 - 1), Bool()), "a str, int or bool")
OPTIONS = MapOf(OPTION_VALUE, 16)
SHARED: dict[str, Type] = {t.name: t.inner for t in (SEAT, MS, RANK, CARD, SET_NO)}
