"""docs/RECORDS.md and docs/record.schema.json tell the truth: the schema is a valid JSON Schema, the
worked example is valid against it, replays through the engine to its own result, and is exactly
what ``neveryu export`` writes for that deal; the seat's view it quotes is what the server gives."""

from __future__ import annotations

import hashlib
import json
import re

import jsonschema
from records_checks import RECORD_SCHEMA, ROOT, VALIDATOR

from neveryu import protocol
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
    assert quoted == [view["actions"][1], view["actions"][3]]
    assert view["actions"][1]["cards"] is None and view["actions"][3]["cards"] == ["6H"]


def test_the_example_tells_the_deal_it_shows():
    doc = json.loads(example())
    assert (doc["deck"][:4], doc["dealer"], doc["seats"][1]["bot"]) == (["7D", "QC", "7S", "7H"], 0, "honest")
    assert next(a["ranks"] for a in doc["actions"] if a["t"] == "discard_quads" and a["seat"] == 0) == ["Q"]
    last = doc["actions"][-2]
    assert (last["t"], last["seat"], last["cards"], last["rank"]) == ("lay", 0, ["KC"], "8")
    assert doc["result"] == {"loser": 1, "winner": None, "out": [0], "scores": [0, 1], "hand_counts": [0, 5]}


def test_the_examples_fair_deal_holds():
    """The fields of ``fair`` let anyone check the deck (docs/PROTOCOL.md, section 9)."""
    doc = json.loads(example())
    fair, deck = doc["fair"], doc["deck"]
    assert set(fair) == {"commitment", "salt", "fair", "seed_hash", "contributions", "seed"}
    assert hashlib.sha256((fair["salt"] + ":" + ",".join(deck)).encode()).hexdigest() == fair["commitment"]
    seed = bytes.fromhex(fair["seed"])
    assert hashlib.sha256(seed).hexdigest() == fair["seed_hash"]
    contributions = [None if c is None else bytes.fromhex(c) for c in fair["contributions"]]
    kind = {36: "36", 52: "52", 72: "2x36", 104: "2x52"}[len(deck)]  # RECORDS.md: the kind is the length
    assert protocol.fair_deck(seed, kind, contributions) == deck


def test_the_schema_is_strict_and_lists_every_field_of_the_rules():
    import attrs

    from neveryu import engine

    rules = RECORD_SCHEMA["properties"]["rules"]
    assert set(rules["properties"]) == {a.name for a in attrs.fields(engine.Rules)}
    doc = json.loads(example())
    VALIDATOR.validate(doc)
    for where, change in (
        ("the record", lambda d: d.update(extra=1)),
        ("fair", lambda d: d["fair"].update(deck_kind="36")),
        ("fair without its seed", lambda d: d["fair"].pop("seed")),
        ("a seat", lambda d: d["seats"][0].update(rating=1)),
        ("an action", lambda d: d["actions"][0].update(why="x")),
        (
            "a referee's action",
            lambda d: next(a for a in d["actions"] if a["t"] == "open_quads_window").update(x=1),
        ),
        ("a reveal", lambda d: d["reveals"][0].update(x=1)),
        ("the rules", lambda d: d["rules"].update(x=1)),
    ):
        bad = json.loads(example())
        change(bad)
        assert not VALIDATOR.is_valid(bad), where
