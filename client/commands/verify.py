"""Check that recorded deals were dealt fairly (docs/PROTOCOL.md, section 9): the commitment, and
for fair deal 2 the seed, the deck it makes with the players' contributions, the dealer and
contributions announced before the deal, and the recorder's own contribution and hand.

RECORD is a JSON file holding either the messages one client received, in order (an array of
message objects, or an object whose "messages" is one; the local notes of the terminal client,
``_contribution``, may be among them), or one deal's disclosure: an object with the fields of
``neveryu.client.fairdeal.Disclosure``. Every deal that has ended in it is checked, one line each.

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
        "record", help="a JSON file: the messages a client received, or one deal's disclosure"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per deal")


def run(args: argparse.Namespace) -> int:
    try:
        verdicts = verdicts_of(load(args.record))
    except (OSError, ValueError, TypeError) as exc:
        print(f"neveryu verify: {exc}", file=sys.stderr)
        return 2
    if not verdicts:
        print(f"neveryu verify: {args.record} holds no deal that has ended", file=sys.stderr)
        return 2
    for deal_no, verdict in verdicts:
        if args.json:
            print(
                json.dumps({"deal_no": deal_no, "status": verdict.status, "problems": list(verdict.problems)})
            )
            continue
        said = "; ".join(fairdeal.PROBLEMS[p] for p in verdict.problems) or SAID[verdict.status]
        failed = "FAILED: " if verdict.holds is False else ""
        print(f"deal {deal_no if deal_no is not None else '?'}: {failed}{said}")
    return 1 if any(v.holds is False for _, v in verdicts) else 0


def load(record: str) -> Any:
    """The JSON in the file ``record``. A record's id (a number) names a deal kept by a server
    once records exist (issue 23): ``record_disclosures`` is where it will be looked up."""
    path = Path(record)
    if record.isdigit() and not path.exists():
        return record_disclosures(int(record))
    return json.loads(path.read_text("utf-8"))


def record_disclosures(record_id: int) -> list[fairdeal.Disclosure]:
    """The disclosure of deal record ``record_id``. Raises ValueError: this version keeps no
    records yet."""
    raise ValueError(f"no record {record_id}: this version keeps no records; give a JSON file")


def verdicts_of(data: Any) -> list[tuple[int | None, fairdeal.Verdict]]:
    """``(deal_no, verdict)`` for every ended deal in ``data`` (see the module's docstring).
    Raises ValueError for data of neither form."""
    if isinstance(data, list) and all(isinstance(d, fairdeal.Disclosure) for d in data):
        return [(d.deal_no, fairdeal.check(d)) for d in data]
    if isinstance(data, dict) and "messages" not in data:
        return [(data.get("deal_no"), fairdeal.check(disclosure(data)))]
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise ValueError("expected an array of messages, an object with messages, or a disclosure")
    out = []
    state = model.State()
    for msg in messages:
        state = model.reduce(state, msg)
        if msg.get("t") == "deal_ended" and state.result is not None:
            r = state.result
            out.append((r.get("deal_no"), fairdeal.Verdict(r["fair_status"], tuple(r["fair_problems"]))))
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
