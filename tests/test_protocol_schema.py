"""The JSON Schema and the message classes agree: the schema files are what the classes
generate, every sample and every message of real deals validates, and on random requests the
schema accepts exactly what ``parse_request`` accepts. Every example frame in docs/PROTOCOL.md
validates too."""

from __future__ import annotations

import ast
import json
import pathlib
import re

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_protocol_messages import SAMPLES, deal_messages

from neveryu import engine, protocol
from neveryu.protocol import (
    REQUESTS,
    ProtocolError,
    build_schema,
    encode_frame,
    load_schema,
    parse_request,
    schema_json,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA = build_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
_BY_TYPE: dict[str, jsonschema.Draft202012Validator] = {}


def validator_for(kind: str, t: str) -> jsonschema.Draft202012Validator:
    """A validator of one message type (the whole schema's anyOf is slow to validate against)."""
    key = f"{kind}.{t}"
    if key not in _BY_TYPE:
        _BY_TYPE[key] = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{key}", "$defs": SCHEMA["$defs"]})
    return _BY_TYPE[key]


def test_schema_files_are_generated_from_the_classes():
    text = schema_json()
    assert (ROOT / "docs" / "protocol.schema.json").read_text("utf-8") == text, (
        "run: python -m protocol.schema"
    )
    assert (ROOT / "protocol" / "schema.json").read_text("utf-8") == text, "run: python -m protocol.schema"
    assert load_schema() == SCHEMA == json.loads(text)


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


# What a validator's strict mode refuses (ajv's ``strict: true``: strictSchema, strictTypes,
# strictTuples, strictRequired), checked on every subschema: a tool used as its authors intend
# takes the schema as it is, without options to loosen its checks.
KEYWORDS = {
    # core, applicator, unevaluated, validation, meta-data, format-annotation, content (2020-12)
    *("$schema", "$id", "$ref", "$defs", "$comment", "$anchor", "$dynamicRef", "$dynamicAnchor"),
    *("$vocabulary", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"),
    *("prefixItems", "items", "contains", "properties", "patternProperties", "additionalProperties"),
    *("propertyNames", "unevaluatedItems", "unevaluatedProperties", "type", "enum", "const"),
    *("multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength"),
    *("minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains"),
    *("maxProperties", "minProperties", "required", "dependentRequired", "title", "description"),
    *("default", "deprecated", "readOnly", "writeOnly", "examples", "format", "contentEncoding"),
    *("contentMediaType", "contentSchema"),
}
TYPED = {
    "object": {"properties", "required", "additionalProperties", "propertyNames", "maxProperties"}
    | {"minProperties", "patternProperties", "dependentRequired", "dependentSchemas"},
    "array": {"items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems"},
    "string": {"minLength", "maxLength", "pattern", "format"},
    "integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
}
SUBSCHEMA_MAPS = ("properties", "$defs", "patternProperties", "dependentSchemas")
SUBSCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
SUBSCHEMAS = ("items", "not", "additionalProperties", "propertyNames", "if", "then", "else", "contains")


def strict_problems(schema: object, where: str = "#") -> list[str]:
    """What a strict validator says of ``schema`` and every subschema in it."""
    if isinstance(schema, bool):
        return []
    assert isinstance(schema, dict), where
    problems = [f"{where}: unknown keyword {k}" for k in schema if k not in KEYWORDS]
    ty = schema.get("type")
    if isinstance(ty, list):
        problems.append(f"{where}: a union type {ty}")
    for kind, keywords in TYPED.items():
        for k in keywords & set(schema):
            if ty != kind and not (kind == "integer" and ty == "number"):
                problems.append(f"{where}: {k} without type {kind}")
    for name in schema.get("required", ()):
        if name not in schema.get("properties", {}):
            problems.append(f"{where}: required {name} is not in properties")
    if "prefixItems" in schema:
        n = len(schema["prefixItems"])
        if schema.get("minItems") != n or not (schema.get("maxItems") == n or schema.get("items") is False):
            problems.append(f"{where}: prefixItems without minItems and maxItems of its length")
    for k in SUBSCHEMA_MAPS:
        if k in schema:
            for name, sub in schema[k].items():
                problems += strict_problems(sub, f"{where}/{k}/{name}")
    for k in SUBSCHEMA_LISTS:
        for i, sub in enumerate(schema.get(k, ())):
            problems += strict_problems(sub, f"{where}/{k}/{i}")
    for k in SUBSCHEMAS:
        if k in schema:
            problems += strict_problems(schema[k], f"{where}/{k}")
    return problems


def test_schema_passes_a_strict_validator():
    assert strict_problems(SCHEMA) == []


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ({"x-reply": "ok"}, "#: unknown keyword x-reply"),
        ({"required": ["id"], "anyOf": [{"type": "object"}]}, "#: required without type object"),
        ({"type": "object", "required": ["id"]}, "#: required id is not in properties"),
        (
            {"type": "object", "propertyNames": {"maxLength": 3}},
            "#/propertyNames: maxLength without type string",
        ),
        ({"type": ["integer", "null"]}, "#: a union type ['integer', 'null']"),
    ],
)
def test_the_strict_check_finds_what_strict_validators_refuse(bad, problem):
    assert problem in strict_problems(bad)


def test_the_protocol_data_in_the_schema():
    data = SCHEMA["$defs"]["protocol"]["const"]
    assert jsonschema.Draft202012Validator({"$ref": "#/$defs/protocol", "$defs": SCHEMA["$defs"]}).is_valid(
        data
    )
    assert data["limits"] == {"max_client_frame": 16_384, "max_server_frame": 1_048_576}
    assert data["replies"]["hello"] == "welcome" and data["replies"]["lay"] == "ok"


def test_schema_reply_fits_a_frame():
    reply = protocol.SchemaReply(re=1, schema=load_schema()).to_wire()
    frame = encode_frame(reply)
    client = protocol.Connection("client")
    client.receive_data(frame)
    assert client.next_message()["schema"] == SCHEMA


def test_schema_lists_every_message_and_error():
    defs = SCHEMA["$defs"]
    for kind, registry in (
        ("request", protocol.REQUESTS),
        ("reply", protocol.REPLIES),
        ("event", protocol.EVENTS),
    ):
        assert {k.split(".", 1)[1] for k in defs if k.startswith(kind + ".")} == set(registry)
    data = SCHEMA["$defs"]["protocol"]["const"]
    assert data["errors"] == {code: {"fatal": f, "when": w} for code, (f, w) in protocol.ERRORS.items()}
    assert (data["version"], data["minor"]) == (protocol.PROTOCOL_VERSION, protocol.PROTOCOL_MINOR)
    assert data["replies"] == {t: cls.REPLY for t, cls in protocol.REQUESTS.items()}


@pytest.mark.parametrize(("kind", "t"), list(SAMPLES), ids=[f"{k}.{t}" for k, t in SAMPLES])
def test_samples_validate(kind, t):
    VALIDATOR.validate({"t": t, **SAMPLES[(kind, t)]})


@pytest.mark.parametrize("name", sorted(engine.VARIANTS))
def test_real_deal_messages_validate(name):
    messages, _ = deal_messages(name, 5)
    per_type: dict[str, int] = {}
    for msg in messages:
        if per_type.get(msg["t"], 0) < 12:  # a dozen of each type keeps this fast
            per_type[msg["t"]] = per_type.get(msg["t"], 0) + 1
            validator_for("event", msg["t"]).validate(msg)


@pytest.mark.parametrize(
    "msg",
    [
        {"t": "lay", "id": True, "cards": ["QS"]},
        {"t": "lay", "id": 1, "cards": ["10H"]},
        {"t": "turn", "seq": 1, "ts": 1, "seat": 0, "ranks": ["Q"], "set_no": None},  # no time_ms
        {"t": "error", "re": 1, "code": "X", "msg": "m", "fatal": 1},
        {"t": "ok"},
    ],
)
def test_schema_refuses(msg):
    assert not VALIDATOR.is_valid(msg)


POOL = [
    None,
    True,
    False,
    0,
    1,
    3,
    -1,
    2**32 - 1,
    2**32,
    "QS",
    "Q",
    "10H",
    "qs",
    "",
    "x",
    "hoyle",
    "Q\n",
    [],
    ["QS"],
    ["QS", "7C"],
    ["Q"],
    ["7", "7"],
    [1, 1],
    [1, 2],
    [True, 1],
    {},
    {"name": "x", "version": "1"},
    {"token": "t", "last_seq": 1},
    {"token": "t", "last_seq": True},
    {"deck": "52"},
    {"deck": [1]},
    "a" * 33,
    "x" * 501,
    ["easy"],
    ["QS"] * 9,
]


@st.composite
def requests(draw):
    t = draw(st.sampled_from(sorted(REQUESTS)))
    msg = {"t": t, "id": draw(st.sampled_from([0, 5, 2**32 - 1]))}
    for name in REQUESTS[t].wire_fields():
        if name != "id" and draw(st.booleans()):
            msg[name] = draw(st.sampled_from(POOL))
    if draw(st.integers(0, 9)) == 0:
        msg["id"] = draw(st.sampled_from(POOL))
    return msg


@settings(max_examples=250, deadline=None, derandomize=True)
@given(requests())
def test_schema_accepts_exactly_what_parse_request_accepts(msg):
    try:
        parse_request(msg)
        parsed = True
    except ProtocolError:
        parsed = False
    assert validator_for("request", msg["t"]).is_valid(msg) == parsed


def test_schema_and_classes_agree_on_the_hand_picked_bad_requests():
    from test_protocol_messages import BAD_REQUESTS, IMPOSSIBLE_GAME_REQUESTS, OUT_OF_RANGE_CHATS

    for _name, msg in BAD_REQUESTS + IMPOSSIBLE_GAME_REQUESTS + OUT_OF_RANGE_CHATS:
        assert not validator_for("request", msg["t"]).is_valid(msg), msg


# -- docs/PROTOCOL.md ---------------------------------------------------------------------------

FRAME_BLOCK = re.compile(r"```json frames\n(.*?)```", re.S)


def protocol_md_frames() -> list[tuple[str, dict]]:
    """Every frame in the ```json frames blocks of docs/PROTOCOL.md: one JSON object per line,
    each line starting with ``C:`` (client to server) or ``S:`` (server to client)."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    frames = []
    for block in FRAME_BLOCK.findall(text):
        for line in block.splitlines():
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            who, _, body = line.partition(" ")
            assert who in ("C:", "S:"), line
            frames.append((who, json.loads(body)))
    return frames


def test_protocol_md_has_example_frames():
    frames = protocol_md_frames()
    assert len(frames) > 30
    kinds = {f["t"] for _, f in frames}
    assert {
        "hello",
        "welcome",
        "create_table",
        "table_joined",
        "deal_started",
        "legal",
        "lay",
        "deal_ended",
    } <= kinds


@pytest.mark.parametrize("index", range(len(protocol_md_frames())))
def test_protocol_md_frame_validates(index):
    who, msg = protocol_md_frames()[index]
    VALIDATOR.validate(msg)
    if who == "C:":
        assert "id" in msg
        parse_request(msg)
    else:
        assert "id" not in msg
        client = protocol.Connection("client")
        client.receive_data(encode_frame(msg))
        assert client.next_message() == msg


def test_protocol_md_lists_every_error_code_and_message_type():
    text = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    for code, (fatal, _when) in protocol.ERRORS.items():
        assert f"| `{code}` | {'yes' if fatal else 'no'} |" in text, code
    for t in [*protocol.REQUESTS, *protocol.REPLIES, *protocol.EVENTS]:
        assert f"`{t}`" in text, t


def test_protocol_md_fair_deal_example_is_right():
    import hashlib

    frames = [f for _, f in protocol_md_frames()]
    started = next(f for f in frames if f["t"] == "deal_started")
    ended = next(f for f in frames if f["t"] == "deal_ended")
    digest = hashlib.sha256((ended["salt"] + ":" + ",".join(ended["deck"])).encode()).hexdigest()
    assert digest == started["commitment"]
    text = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    assert digest in text.split("## 10.")[0] and ended["salt"] in text.split("## 10.")[0]
    players = len(started["hand_counts"])
    first = (started["dealer"] + 1) % players
    assert started["hand"] == ended["deck"][(0 - first) % players : 50 : players]


def test_protocol_md_session_is_consistent():
    """The example session: ids count up, each request gets one reply in order, seq increases."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    session = text.split("## 10.")[1].split("## 11.")[0]
    frames = []
    for block in FRAME_BLOCK.findall(session):
        frames += [(line[:2], json.loads(line[3:])) for line in block.splitlines() if line.strip()]
    pending, seq = [], 0
    for who, f in frames:
        if who == "C:":
            pending.append(f["id"])
        elif "re" in f:
            assert f["re"] == pending.pop(0)
        else:
            assert f["seq"] > seq
            seq = f["seq"]
    assert not pending


def test_protocol_md_framing_example_bytes():
    text = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    shown = re.search(r"# (b'\\x00.*?')\n", text).group(1)
    assert ast.literal_eval(shown) == encode_frame({"t": "ping", "id": 7})
