"""docs/RECORDS.md and docs/record.schema.json tell the truth: the schema is a valid JSON Schema, the
worked example is valid against it, replays through the engine to its own result, and is exactly
what ``neveryu export`` writes for that deal; the seat's view it quotes is what the server gives."""

from __future__ import annotations

import json
import re

import jsonschema
from records_checks import RECORD_SCHEMA, ROOT, VALIDATOR

from neveryu.server import check_record, record_from_json, record_json, record_text

TEXT = (ROOT / "docs" / "RECORDS.md").read_text("utf-8")


def example() -> str:
    (block,) = re.findall(r"```json record\n(.*?)\n```", TEXT, re.S)
    return block + "\n"


def test_the_schema_is_a_json_schema():
    jsonschema.Draft202012Validator.check_schema(RECORD_SCHEMA)


def test_the_worked_example_is_valid_replays_and_is_what_export_writes():
    text = example()
    doc = json.loads(text)
    VALIDATOR.validate(doc)
    record = record_from_json(doc)
    steps = check_record(record)
    assert record_json(record, steps) == doc
    assert record_text(doc) == text


def test_the_seat_view_quoted_is_the_servers():
    doc = json.loads(example())
    record = record_from_json(doc)
    view = record_json(record, check_record(record), 1)
    VALIDATOR.validate(view)
    quoted = [
        json.loads(b) for b in re.findall(r"```json\n(\{.*?\})\n```", TEXT.split("### A seat's view")[1])
    ]
    assert quoted == [view["actions"][-1], view["actions"][1]]
    assert view["actions"][-1]["cards"] is None and view["actions"][1]["cards"] == ["9C", "6D", "JC"]


def test_the_example_tells_the_deal_it_shows():
    doc = json.loads(example())
    assert (doc["deck"][0], doc["dealer"], doc["seats"][1]["bot"]) == ("KH", 0, "honest")
    assert [a["ranks"] for a in doc["actions"] if a["t"] == "discard_quads"] == [["9"], ["T"], ["6"]]
    assert next(a["ms"] for a in doc["actions"] if a["t"] == "discard_quads") == 26152
    assert doc["result"] == {"loser": 0, "winner": None, "out": [1], "scores": [1, 0], "hand_counts": [21, 0]}
