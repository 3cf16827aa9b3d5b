"""Fast constructors for the frozen records the engine builds on its hot path (issue 4).

An attrs frozen slotted class sets each field through ``object.__setattr__`` (its own
``__setattr__`` refuses), several times the cost of a plain slot store; a view has 23 fields and
the simulator builds one for every choice a player makes, and events several per action.

``builder(cls)`` returns a subclass of ``cls`` that adds no slot and keeps the plain
``object.__setattr__``: its constructor stores the fields, given positionally in ``cls``' field
order, then turns the object into a ``cls`` by assigning ``__class__`` (the same slots, so the
same memory layout). What it returns *is* a ``cls``: frozen, equal to ``cls(...)`` of the same
values, with the same type, hash and repr. It skips what attrs' constructor would add, so only
classes without validators, converters, ``__attrs_post_init__`` or fields left out of
``__init__`` are accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def builder(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` (an attrs frozen slotted class) taking every field positionally,
    in order. Raises TypeError for a class it cannot build faithfully (module docstring)."""
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
    source = f"def __init__(self, {', '.join(names)}):\n{body}    self.__class__ = cls\n"
    namespace: dict[str, Any] = {"cls": cls}
    exec(compile(source, f"<builder of {cls.__qualname__}>", "exec"), namespace)
    return type(
        f"{cls.__name__}Builder",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,  # with __setattr__: plain slot stores
            "__init__": namespace["__init__"],
            "__module__": cls.__module__,
            "__doc__": f"Builds a frozen {cls.__name__} from its fields in order (engine/_records.py).",
        },
    )
