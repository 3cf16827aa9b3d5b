"""Checks shared by the tests of records: every deal a database holds replays exactly, its
hand history is valid against docs/record.schema.json (whole and as each seat saw it), and a
seat's view holds no card that seat did not see at the table."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import jsonschema

from neveryu import engine
from neveryu.server import (
    DealRecord,
    Step,
    check_record,
    connect_records,
    deal_ids,
    load_deal,
    record_json,
    seat_messages,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORD_SCHEMA = json.loads((ROOT / "docs" / "record.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(RECORD_SCHEMA)


def check_database(path: str | pathlib.Path) -> list[DealRecord]:
    """Replay every deal of the records at ``path`` (``check_record``: the same result, the
    commitment kept), and check each deal's hand history, whole and per seat. Returns the
    records, oldest first."""
    conn = connect_records(path)
    try:
        records = []
        for deal in deal_ids(conn):
            record = load_deal(conn, deal)
            assert record is not None
            check_hand_history(record, check_record(record))
            records.append(record)
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        assert integrity == "ok", integrity
        return records
    finally:
        conn.close()


def check_hand_history(record: DealRecord, steps: list[Step]) -> None:
    """The whole record and each seat's view validate against the schema, and a seat's view
    shows only cards the seat was sent (``seen_cards``) or the disclosed deck holds."""
    VALIDATOR.validate(record_json(record, steps))
    for seat in range(record.players):
        view = record_json(record, steps, seat)
        VALIDATOR.validate(view)
        assert view_cards(view) <= seen_cards(record, steps, seat), seat


def view_cards(doc: dict[str, Any]) -> set[tuple[int, tuple[str, ...]]]:
    """The sets whose cards a hand history shows, as ``(action index, cards)``."""
    shown = set()
    for i, action in enumerate(doc["actions"]):
        made = action.get("action", action)
        if made["t"] == "lay" and made["cards"] is not None:
            shown.add((i, tuple(made["cards"])))
    return shown


def seen_cards(record: DealRecord, steps: list[Step], seat: int) -> set[tuple[int, tuple[str, ...]]]:
    """``view_cards`` of what ``seat`` may see: its own sets, and other seats' sets whose cards
    a ``set_revealed`` it was sent shows (the messages the table sends it: ``seat_messages``)."""
    revealed = [
        tuple(m["cards"])
        for step in seat_messages(record, steps, seat)
        for m in step
        if m["t"] == "set_revealed"
    ]
    allowed = set()
    for i, (_ms, action) in enumerate(record.actions):
        made = action.action if isinstance(action, engine.Timeout) else action
        if not isinstance(made, engine.LaySet):
            continue
        if made.seat == seat or tuple(made.cards) in revealed:
            allowed.add((i, tuple(made.cards)))
    return allowed
