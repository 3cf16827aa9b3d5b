"""The JSON Schema of protocol v1, generated from the message classes.

``build_schema()`` makes it; docs/protocol.schema.json and protocol/schema.json (package data,
what the ``schema`` request serves and ``neveryu protocol-info`` prints) are its output, written
by ``python -m neveryu.protocol.schema`` and checked by tests/test_protocol_schema.py. A message is
valid if it matches the request, reply or event of its ``t``; fields not listed are allowed (a
newer peer may send more) and ignored.
"""

from __future__ import annotations

import importlib.resources
import inspect
import json

from ._errors import ERRORS
from ._limits import MAX_CLIENT_FRAME, MAX_SERVER_FRAME, PROTOCOL_VERSION
from ._message import EVENTS, REPLIES, REQUESTS, Message
from ._types import SHARED, Field, Nullable, _described

SCHEMA_ID = "https://neveryu.invalid/protocol/v1/schema.json"


def def_name(cls: type[Message]) -> str:
    """The ``$defs`` key of a message class: ``request.hello``, ``reply.welcome``, ``event.turn``."""
    return f"{cls.KIND}.{cls.t}"


def message_schema(cls: type[Message]) -> dict:
    fields = cls.wire_fields()
    props = {"t": {"const": cls.t}}
    for name, f in fields.items():
        props[name] = _described(f if f.required else Field(_nullable(f.type), False, f.doc))
    s = {
        "type": "object",
        "description": inspect.cleandoc(cls.__doc__ or "").split("\n\n")[0].replace("\n", " "),
        "properties": props,
        "required": ["t", *(name for name, f in fields.items() if f.required)],
    }
    if cls.KIND == "request":
        s["x-reply"] = cls.REPLY
    return s


def _nullable(ty):
    return ty if isinstance(ty, Nullable) else Nullable(ty)


def _shared_defs() -> dict:
    from ._league import PLAYER, RATING, VARIANT_STATS
    from ._maps import LEGAL, SEAT_SUMMARY, TABLE
    from ._requests import RECORD_SUMMARY

    defs = {name: t.schema() for name, t in SHARED.items()}
    for ref in (TABLE, SEAT_SUMMARY, LEGAL, RECORD_SUMMARY, PLAYER, RATING, VARIANT_STATS):
        defs[ref.name] = ref.inner.schema()
    return defs


def build_schema() -> dict:
    """The whole JSON Schema (draft 2020-12) as a dict of wire values (no floats)."""
    defs = _shared_defs()
    groups = {}
    for kind, registry in (("request", REQUESTS), ("reply", REPLIES), ("event", EVENTS)):
        refs = []
        for cls in registry.values():
            defs[def_name(cls)] = message_schema(cls)
            refs.append({"$ref": f"#/$defs/{def_name(cls)}"})
        groups[kind] = refs
    defs["request"] = {
        "description": "a client request: has id",
        "required": ["id"],
        "anyOf": groups["request"],
    }
    defs["reply"] = {"description": "a server reply: has re", "required": ["re"], "anyOf": groups["reply"]}
    defs["event"] = {
        "description": "a server event: has seq and ts",
        "required": ["seq", "ts"],
        "anyOf": groups["event"],
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"neveryu protocol v{PROTOCOL_VERSION}",
        "description": "One message of the neveryu wire protocol (docs/PROTOCOL.md): a msgpack map, "
        "shown here as JSON. Requests go client to server; replies and events server to client.",
        "x-protocol-version": PROTOCOL_VERSION,
        "x-limits": {"max_client_frame": MAX_CLIENT_FRAME, "max_server_frame": MAX_SERVER_FRAME},
        "x-errors": {code: {"fatal": fatal, "when": when} for code, (fatal, when) in ERRORS.items()},
        "type": "object",
        "required": ["t"],
        "anyOf": [{"$ref": "#/$defs/request"}, {"$ref": "#/$defs/reply"}, {"$ref": "#/$defs/event"}],
        "$defs": defs,
    }


def schema_json(schema: dict | None = None) -> str:
    """The schema as the text of docs/protocol.schema.json (sorted keys off, 2-space indent)."""
    return json.dumps(build_schema() if schema is None else schema, indent=2, ensure_ascii=False) + "\n"


def load_schema() -> dict:
    """The schema shipped with the package (protocol/schema.json)."""
    return json.loads(importlib.resources.files(__package__).joinpath("schema.json").read_text("utf-8"))
