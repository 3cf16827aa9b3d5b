"""A faster constructor for the frozen records the engine builds on every action (views, legal
actions, the last set, events).

An attrs frozen slotted class sets each field in its ``__init__`` through a bound
``object.__setattr__`` call (its own ``__setattr__`` refuses), several times the cost of a plain
slot store. A view has many fields and the simulator builds one for every choice a player makes,
and a deal builds several events per action; side-by-side runs of ``neveryu simulate`` with
these constructors and with the plain ones showed the difference worth keeping.

``builder(cls)`` returns a subclass of ``cls`` that adds no slot and keeps the plain
``object.__setattr__``: its constructor takes every field as a keyword argument (keyword-only,
none may be left out), stores them, then turns the object into a ``cls`` by assigning
``__class__`` (the same slots, so the same memory layout). What it returns *is* a ``cls``:
frozen, equal to ``cls(...)`` of the same values, with the same type, hash and repr
(tests/test_engine_records.py checks it against the plain constructor). It skips what attrs'
constructor would add, so only classes without validators, converters,
``__attrs_post_init__`` or fields left out of ``__init__`` are accepted.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def builder(cls: type[T]) -> type[T]:
    """A constructor of ``cls`` (an attrs frozen slotted class) taking every field by keyword;
    call it as ``cls`` itself is called, with keywords: ``builder(View)(variant=..., ...)``.
    Raises TypeError for a class it cannot build faithfully (module docstring)."""
    if not (attrs.has(cls) and "__slots__" in cls.__dict__):
        raise TypeError(f"{cls.__name__} is not an attrs slotted class")
    fields = attrs.fields(cls)
    names = [f.name for f in fields]
    if hasattr(cls, "__attrs_post_init__") or "self" in names or "cls" in names:
        raise TypeError(f"{cls.__name__} has a post-init step or a field named self or cls")
    for f in fields:
        if f.validator is not None or f.converter is not None or not f.init or f.alias != f.name:
            raise TypeError(
                f"{cls.__name__}.{f.name} has a validator, converter or alias, or is not in __init__"
            )
    body = "".join(f"    self.{n} = {n}\n" for n in names)
    source = f"def __init__(self, *, {', '.join(names)}):\n{body}    self.__class__ = cls\n"
    namespace: dict[str, Any] = {"cls": cls}
    exec(compile(source, f"<builder of {cls.__qualname__}>", "exec"), namespace)
    made: type[T] = type(
        f"{cls.__name__}Builder",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,  # with __setattr__: plain slot stores
            "__init__": namespace["__init__"],
            "__module__": cls.__module__,
            "__doc__": f"Builds a frozen {cls.__name__} from its fields by keyword (engine/_records.py).",
        },
    )
    return made
