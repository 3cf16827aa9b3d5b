"""Check that recorded deals were dealt fairly (docs/PROTOCOL.md, section 9): the commitment, and
for fair deal 2 the seed, the deck it makes with the players' contributions, the dealer and
contributions announced before the deal, and the recorder's own contribution and hand.

RECORD is a deal's id in the records (``neveryu history`` lists them; ``--db`` chooses the
database, by default the one ``neveryu serve`` and ``play`` write), or a JSON file holding one of:
the messages one client received, in order (an array of message objects, or an object whose
"messages" is one; the local notes of the terminal client, ``_contribution``, may be among them);
a deal's record in the hand-history format (``neveryu export``, or ``get_record`` over the
network: docs/RECORDS.md); or one deal's disclosure, an object with the fields of
docs/PROTOCOL.md, 9.7. Every deal that has ended in it is checked, one line each.

Exits 0 when every deal checked holds, 1 when one does not, 2 when RECORD cannot be read or
holds no ended deal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import attrs

from neveryu.client import fairdeal
from neveryu.client.ui import model

from ._records import Failed, add_db_argument, db_path, open_db

RECORD_FORMAT = "neveryu-record"  # a deal's record in the hand-history format (docs/RECORDS.md)

SAID = {
    "fair": "fair deal 2: the deck was shuffled fairly: nobody could choose it",
    "checked": "fair deal 2: the deck is the one the server's committed seed and the contributions make",
    "seeded": "the deck is the one the table's fixed seed makes: whoever knows that seed knew it",
    "unprotected": "fair deal 2 holds, but the recorder's contribution is not in the deck:"
    " the server could have chosen it",
    "committed": "the deck matches the commitment (this server does not take contributions:"
    " it could have chosen the deck)",
    "unknown": "nothing was disclosed to check",
}
"""What each verdict (client/fairdeal.py, ``STATUSES``) means, for ``bad`` see ``PROBLEMS``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record",
        help="a deal's id in the records, or a JSON file: the messages a client received, a deal's"
        " record (neveryu export), or one deal's disclosure",
    )
    add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object per deal")


def run(args: argparse.Namespace) -> int:
    try:
        verdicts = verdicts_of(load(args.record, args.db))
    except (OSError, ValueError, TypeError) as exc:
        print(f"neveryu verify: {exc}", file=sys.stderr)
        return 2
    if not verdicts:
        print(f"neveryu verify: {args.record} holds no deal that has ended", file=sys.stderr)
        return 2
    for deal_no, verdict, record_id in verdicts:
        if args.json:
            out: dict[str, Any] = {"deal_no": deal_no, "status": verdict.status}
            out["problems"] = list(verdict.problems)
            if record_id is not None:
                out["id"] = record_id
            print(json.dumps(out))
            continue
        said = "; ".join(fairdeal.PROBLEMS[p] for p in verdict.problems) or SAID[verdict.status]
        failed = "FAILED: " if verdict.holds is False else ""
        which = f"deal {deal_no if deal_no is not None else '?'}"
        if record_id is not None:
            which = f"record {record_id} ({which} of its match)"
        print(f"{which}: {failed}{said}")
    return 1 if any(v.holds is False for _, v, _ in verdicts) else 0


def load(record: str, db: str | None = None) -> Any:
    """What RECORD names: the JSON in that file, or, for a number that is no file's name, that
    deal's record in the database ``db`` (None: the default one). Raises OSError or ValueError."""
    path = Path(record)
    if record.isdigit() and not path.exists():
        return record_disclosures(int(record), db)
    return json.loads(path.read_text("utf-8"))


def record_disclosures(record_id: int, db: str | None = None) -> list[tuple[int, fairdeal.Disclosure]]:
    """Deal ``record_id`` of the records in ``db`` (None: the default database) as ``[(id,
    disclosure)]``, read without replaying it (a record that does not replay may still be
    checked). Raises ValueError when the database cannot be read or has no such deal."""
    import sqlite3

    from neveryu.server import RecordError, load_deal

    args = argparse.Namespace(db=db)
    try:
        conn = open_db(args)
    except Failed as exc:
        raise ValueError(str(exc)) from None
    try:
        record = load_deal(conn, record_id)
    except (RecordError, sqlite3.Error) as exc:
        raise ValueError(f"deal {record_id} cannot be read: {exc}") from None
    finally:
        conn.close()
    if record is None:
        raise ValueError(f"there is no deal {record_id} in {db_path(args)}")
    fields = {
        "variant": record.variant,
        "options": record.options,
        "seats": record.seats,
        "dealer": record.dealer,
        "deck": record.deck,
        "deal_no": record.deal_no,
        "seeded": record.seeded,
        "fair": record.fair,
    }
    return [(record_id, fairdeal.record_disclosure(fields))]


def verdicts_of(data: Any) -> list[tuple[int | None, fairdeal.Verdict, int | None]]:
    """``(deal_no, verdict, record id or None)`` for every ended deal in ``data`` (see the
    module's docstring). Raises ValueError for data of no such form."""
    if isinstance(data, list) and all(isinstance(d, tuple) for d in data) and data:
        return [(d.deal_no, fairdeal.check(d), record_id) for record_id, d in data]
    if isinstance(data, list) and all(isinstance(d, fairdeal.Disclosure) for d in data):
        return [(d.deal_no, fairdeal.check(d), None) for d in data]
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        return [(data.get("deal_no"), fairdeal.check(fairdeal.record_disclosure(data)), data.get("id"))]
    if isinstance(data, dict) and "messages" not in data:
        return [(data.get("deal_no"), fairdeal.check(disclosure(data)), None)]
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise ValueError("expected an array of messages, an object with messages, or a disclosure")
    out: list[tuple[int | None, fairdeal.Verdict, int | None]] = []
    state = model.State()
    for msg in messages:
        state = model.reduce(state, msg)
        if msg.get("t") == "deal_ended" and state.result is not None:
            r = state.result
            verdict = fairdeal.Verdict(r["fair_status"], tuple(r["fair_problems"]))
            out.append((r.get("deal_no"), verdict, None))
    return out


def disclosure(data: dict[str, Any]) -> fairdeal.Disclosure:
    """A ``Disclosure`` from a JSON object of its fields (arrays as tuples). Raises ValueError for
    a field it does not have."""
    names = {a.name for a in attrs.fields(fairdeal.Disclosure)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"unknown field(s) of a deal's disclosure: {', '.join(unknown)}")
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    return fairdeal.Disclosure(**fields)
