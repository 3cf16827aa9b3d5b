"""What the commands that read records share (``history``, ``replay``, ``export``): the
``--db`` option, opening the database, loading one deal, and one-line errors."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the server is imported by the subcommands that read its records (docs/ARCHITECTURE.md)
    import sqlite3

    from neveryu.server import DealRecord, Step


class Failed(Exception):
    """A one-line error: the command prints it and exits 1."""


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the records database (default: the one neveryu serve and play write, in your data folder)",
    )


def db_path(args: argparse.Namespace) -> str:
    from neveryu.server import default_db_path

    return str(args.db or default_db_path())


def open_db(args: argparse.Namespace) -> sqlite3.Connection:
    """The records database of ``args`` for reading. Raises Failed."""
    from neveryu.server import StoreError, connect_records

    try:
        return connect_records(db_path(args))
    except StoreError as exc:
        raise Failed(str(exc)) from None


def load(conn: sqlite3.Connection, deal: int, path: str) -> tuple[DealRecord, list[Step]]:
    """Deal ``deal``'s record and its replay. Raises Failed for an unknown id or a record that
    does not replay."""
    import sqlite3

    from neveryu.server import RecordError, ReplayError, check_record, load_deal

    try:
        record = load_deal(conn, deal)
    except RecordError as exc:
        raise Failed(f"deal {deal} cannot be read: {exc}") from None
    except sqlite3.Error as exc:
        raise Failed(f"{path}: {exc}") from None
    if record is None:
        raise Failed(f"there is no deal {deal} in {path}")
    try:
        return record, check_record(record)
    except ReplayError as exc:
        raise Failed(f"deal {deal} does not replay: {exc}") from None


def load_seen(args: argparse.Namespace) -> tuple[DealRecord, list[Step], int | None]:
    """Deal ``args.deal`` of the database of ``args``, its replay, and the seat ``--seat``
    names: counted from 1 on the command line, as everywhere a person reads seats; returned
    as the records count them, from 0 (None: no seat given). Raises Failed, also for a seat
    the deal does not have."""
    conn = open_db(args)
    try:
        record, steps = load(conn, args.deal, db_path(args))
    finally:
        conn.close()
    if args.seat is None:
        return record, steps, None
    if not 1 <= args.seat <= record.players:
        raise Failed(f"deal {args.deal} has seats 1 to {record.players}, not {args.seat}")
    return record, steps, args.seat - 1


def fail(command: str, exc: Failed) -> int:
    print(f"neveryu {command}: {exc}", file=sys.stderr)
    return 1
