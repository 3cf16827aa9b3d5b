"""Message classes (filled in by step 2); for now the request types and the envelope check."""

from __future__ import annotations

from ._errors import error

REQUEST_TYPES = (
    "hello", "ping", "schema", "variants", "list_tables", "create_table", "join_table", "spectate",
    "leave", "ready", "start", "chat", "lay", "challenge", "believe", "declare_none", "discard_quads",
)


def parse_request(d: dict) -> dict:
    """Check a request's type. Raises ProtocolError UNKNOWN_TYPE (non-fatal)."""
    if d["t"] not in REQUEST_TYPES:
        raise error("UNKNOWN_TYPE", f"unknown request type {d['t']!r}"[:200], re=d["id"])
    return d
