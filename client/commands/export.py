"""Write a recorded deal as JSON, in the hand-history format of docs/RECORDS.md (its JSON
Schema: docs/record.schema.json), so that other tools can read it.

The record is replayed first: one that does not replay is not exported. --seat N (1 is the first seat)
gives the deal as that seat saw it (what the server sends a player over the network), not whole. Exits 1 for
an unknown id or a record that does not replay."""

from __future__ import annotations

import argparse
import sys

from ._records import Failed, add_db_argument, fail, load_seen


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("deal", type=int, metavar="ID", help="the deal's id (neveryu history)")
    add_db_argument(parser)
    parser.add_argument(
        "--seat", type=int, default=None, metavar="N", help="as seat N saw it (1 is the first)"
    )
    parser.add_argument(
        "-o", "--output", default=None, metavar="FILE", help="write to FILE instead of standard output"
    )


def run(args: argparse.Namespace) -> int:
    from neveryu.server import record_json, record_text

    try:
        record, steps, seat = load_seen(args)
    except Failed as exc:
        return fail("export", exc)
    text = record_text(record_json(record, steps, seat))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        return fail("export", Failed(str(exc)))
    return 0
