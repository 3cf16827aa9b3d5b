"""The values of case files (docs/CONFORMANCE.md, "The case format"): placeholders filled in
what the scripted server sends, and patterns compared with what a peer sent."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Known:
    """What placeholders stand for now: the id of the request last expected (``$id``), the
    client's last ``lay`` (``$lay.*``), the last seq sent (``$seq``, ``$seq-N``), the session
    token (``$session``) and the table's summary (``$table``, playing; ``$table.absent.N``: the
    same with the player of seat N absent)."""

    request: dict[str, Any]
    lay: dict[str, Any]
    seq: int
    session: str
    table: dict[str, Any]


def fill(value: Any, known: Known) -> Any:
    """``value`` with its placeholders replaced; ``"$lay.cards"`` as an item of a list stands
    for the cards themselves (spliced in)."""
    if isinstance(value, dict):
        return {k: fill(v, known) for k, v in value.items()}
    if isinstance(value, list):
        out: list[Any] = []
        for item in value:
            if item == "$lay.cards":
                out.extend(known.lay.get("cards", []))
            else:
                out.append(fill(item, known))
        return out
    if not (isinstance(value, str) and value.startswith("$")):
        return value
    if value == "$id":
        return known.request.get("id")
    if value == "$seq" or value.startswith("$seq-"):
        return known.seq - int(value.removeprefix("$seq").removeprefix("-") or 0)
    if value == "$session":
        return known.session
    if value == "$table":
        return known.table
    if value.startswith("$table.absent."):
        return _absent(known.table, int(value.removeprefix("$table.absent.")))
    if value.startswith("$lay."):
        field = value.removeprefix("$lay.")
        if field == "count" and known.lay.get("count") is None:
            return len(known.lay.get("cards", []))  # a claim's count is its cards' but in cheat
        return known.lay.get(field)
    return value


def _absent(table: dict[str, Any], seat: int) -> dict[str, Any]:
    """``table`` with the player of ``seat`` absent: his connection is down (since v1.2)."""
    seats = [{**s, "absent": True} if s["seat"] == seat else s for s in table["seats"]]
    return {**table, "seats": seats}


def mismatch(want: Any, got: Any, path: str = "") -> str | None:
    """Where ``got`` differs from the pattern ``want`` (every key of a wanted map must match,
    other keys may be anything; a list matches a list of as many items, item by item; scalars
    are compared whole), or None."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"{path or 'the message'} should be a map"
        for key, value in want.items():
            problem = mismatch(value, got.get(key), f"{path}.{key}" if path else key)
            if problem is not None:
                return problem
        return None
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (item, got_item) in enumerate(zip(want, got, strict=True)):
            problem = mismatch(item, got_item, f"{path}[{i}]")
            if problem is not None:
                return problem
        return None
    if want != got:
        return f"{path} should be {want!r}, not {got!r}"
    return None
