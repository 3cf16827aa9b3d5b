"""The JSON Schema of protocol v1, generated from the message classes.

``build_schema()`` makes it; docs/protocol.schema.json and protocol/schema.json (package data,
what the ``schema`` request serves and ``neveryu protocol-info`` prints) are its output, written
by ``python -m neveryu.protocol.schema`` and checked by tests/test_protocol_schema.py. A message is
valid if it matches the request, reply or event of its ``t``; fields not listed are allowed (a
newer peer may send more) and ignored.

Only standard keywords of draft 2020-12, so that validators in their strictest modes (ajv's
``strict: true``) take it as it is: every keyword that applies to one type stands beside that
``type``, every ``required`` name has its ``properties`` entry, and the protocol's own data (its
version, limits, error codes, the reply type of each request) is the one value of
``$defs/protocol`` (a ``const``), not keywords of our own.
"""

from __future__ import annotations

import importlib.resources
import inspect
import json
from typing import Any, cast

from ._errors import ERRORS
from ._limits import MAX_CLIENT_FRAME, MAX_SERVER_FRAME, PROTOCOL_MINOR, PROTOCOL_VERSION
from ._message import EVENTS, REPLIES, REQUESTS, Message
from ._types import SHARED, Field, _described, nullable

SCHEMA_ID = "https://neveryu.invalid/protocol/v1/schema.json"


def def_name(cls: type[Message]) -> str:
    """The ``$defs`` key of a message class: ``request.hello``, ``reply.welcome``, ``event.turn``."""
    return f"{cls.KIND}.{cls.t}"


def message_schema(cls: type[Message]) -> dict[str, Any]:
    fields = cls.wire_fields()
    props: dict[str, Any] = {"t": {"const": cls.t}}
    for name, f in fields.items():
        props[name] = _described(f if f.required else Field(nullable(f.type), False, f.doc))
    description = inspect.cleandoc(cls.__doc__ or "").split("\n\n")[0].replace("\n", " ")
    if cls.KIND == "request":
        description += f" Answered by {cls.REPLY} (or error)."
    return {
        "type": "object",
        "description": description,
        "properties": props,
        "required": ["t", *(name for name, f in fields.items() if f.required)],
    }


def _shared_defs() -> dict[str, Any]:
    from ._league import PLAYER, RATING, VARIANT_STATS
    from ._maps import LEGAL, SEAT_SUMMARY, TABLE
    from ._replies import RECORD_SUMMARY

    defs = {name: t.schema() for name, t in SHARED.items()}
    for ref in (TABLE, SEAT_SUMMARY, LEGAL, RECORD_SUMMARY, PLAYER, RATING, VARIANT_STATS):
        defs[ref.name] = ref.inner.schema()
    return defs


def build_schema() -> dict[str, Any]:
    """The whole JSON Schema (draft 2020-12) as a dict of wire values (no floats)."""
    defs = _shared_defs()
    groups = {}
    for kind, registry in (("request", REQUESTS), ("reply", REPLIES), ("event", EVENTS)):
        refs = []
        for cls in registry.values():
            defs[def_name(cls)] = message_schema(cls)
            refs.append({"$ref": f"#/$defs/{def_name(cls)}"})
        groups[kind] = refs
    uint32 = {"type": "integer", "minimum": 0, "maximum": 2**32 - 1}
    count = {"type": "integer", "minimum": 0}
    defs["request"] = {
        "description": "a client request: has id",
        "type": "object",
        "properties": {"id": uint32},
        "required": ["id"],
        "anyOf": groups["request"],
    }
    defs["reply"] = {
        "description": "a server reply: has re",
        "type": "object",
        "properties": {"re": {"anyOf": [uint32, {"type": "null"}]}},
        "required": ["re"],
        "anyOf": groups["reply"],
    }
    defs["event"] = {
        "description": "a server event: has seq and ts",
        "type": "object",
        "properties": {"seq": count, "ts": count},
        "required": ["seq", "ts"],
        "anyOf": groups["event"],
    }
    defs["protocol"] = {
        "description": "This protocol as data, the one value this definition accepts: its version"
        " (major and minor), its frame limits in bytes, every error code (fatal: the connection"
        " closes after it; when it is sent) and the reply type of each request",
        "const": protocol_data(),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"neveryu protocol v{PROTOCOL_VERSION}.{PROTOCOL_MINOR}",
        "description": "One message of the neveryu wire protocol (docs/PROTOCOL.md): a msgpack map, "
        "shown here as JSON. Requests go client to server; replies and events server to client. "
        "$defs/protocol holds the version, limits, error codes and replies as data.",
        "type": "object",
        "properties": {"t": {"type": "string", "description": "the message's type"}},
        "required": ["t"],
        "anyOf": [{"$ref": "#/$defs/request"}, {"$ref": "#/$defs/reply"}, {"$ref": "#/$defs/event"}],
        "$defs": defs,
    }


def protocol_data() -> dict[str, Any]:
    """The value of the schema's ``$defs/protocol``: ``{"version", "minor", "limits": {...},
    "errors": {code: {"fatal", "when"}}, "replies": {request type: reply type}}``."""
    return {
        "version": PROTOCOL_VERSION,
        "minor": PROTOCOL_MINOR,
        "limits": {"max_client_frame": MAX_CLIENT_FRAME, "max_server_frame": MAX_SERVER_FRAME},
        "errors": {code: {"fatal": fatal, "when": when} for code, (fatal, when) in ERRORS.items()},
        "replies": {t: cls.REPLY for t, cls in REQUESTS.items()},
    }


def schema_json(schema: dict[str, Any] | None = None) -> str:
    """The schema as the text of docs/protocol.schema.json (sorted keys off, 2-space indent)."""
    return json.dumps(build_schema() if schema is None else schema, indent=2, ensure_ascii=False) + "\n"


def load_schema() -> dict[str, Any]:
    """The schema shipped with the package (protocol/schema.json)."""
    return cast(
        dict[str, Any],
        json.loads(importlib.resources.files(__package__).joinpath("schema.json").read_text("utf-8")),
    )
