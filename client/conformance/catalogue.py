"""The catalogue: one case per data file (``cases/NAME.json``, package data), in the format
docs/CONFORMANCE.md describes. ``load()`` reads and checks every case; ``Case.kinds`` is the set
of message types a case exchanges (docs/CONFORMANCE.md lists them; a test checks that every type
of docs/protocol.schema.json is in some case)."""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Iterator
from typing import Any

import attrs

FEATURES = ("seat", "resume")
"""What a case may need of a client: ``seat``, to play at a seat (not only watch); ``resume``, to
come back with ``hello.resume`` after a drop. A client without it gets the case not applicable."""

CLIENT_STEPS = frozenset({"send", "expect", "quiet", "drop", "close"})
SERVER_STEPS = frozenset({"connect", "request", "raw", "event", "closed", "drop", "play"})


class CaseError(ValueError):
    """A case file that breaks the format of docs/CONFORMANCE.md."""


@attrs.frozen
class Case:
    """One case. ``client``: the scripted server's steps (None: none for that direction);
    ``server``: the probe's steps; ``table``: ``{variant, seats, options, deals, players}`` the
    client sits at (None: the steps start right after the welcome)."""

    name: str
    section: str
    about: str
    needs: tuple[str, ...]
    table: dict[str, Any] | None
    client: tuple[dict[str, Any], ...] | None
    server: tuple[dict[str, Any], ...] | None

    @property
    def kinds(self) -> frozenset[str]:
        """Every message type the case sends or expects, in either direction."""
        found: set[str] = set()
        for step in (self.client or ()) + (self.server or ()):
            found |= _kinds_of_step(step)
        return frozenset(found)


def _kinds_of_step(step: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    for key in ("send", "request", "reply", "event", "answer", "welcome"):
        value = step.get(key)
        for msg in value if isinstance(value, list) else [value]:
            if isinstance(msg, dict) and isinstance(msg.get("t"), str):
                found.add(msg["t"])
    if isinstance(step.get("play"), str):
        found.add(step["play"])
    expect = step.get("expect")
    if expect is not None:
        found |= {expect} if isinstance(expect, str) else set(expect)
    found |= set(step.get("kinds", ()))
    return found


def parse(name: str, data: Any) -> Case:
    """The case ``name`` from the decoded JSON ``data``. Raises ``CaseError``."""
    if not isinstance(data, dict):
        raise CaseError(f"{name}: a case is a JSON object")
    unknown = set(data) - {"section", "about", "needs", "table", "client", "server"}
    if unknown:
        raise CaseError(f"{name}: unknown keys {sorted(unknown)}")
    for key in ("section", "about"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise CaseError(f"{name}: {key} must be a non-empty string")
    needs = tuple(data.get("needs", ()))
    if not set(needs) <= set(FEATURES):
        raise CaseError(f"{name}: needs names unknown features {sorted(set(needs) - set(FEATURES))}")
    client = _steps(name, data.get("client"), CLIENT_STEPS)
    server = _steps(name, data.get("server"), SERVER_STEPS)
    if client is None and server is None:
        raise CaseError(f"{name}: a case has client steps, server steps or both")
    return Case(name, data["section"], data["about"], needs, _table(name, data.get("table")), client, server)


def _table(name: str, table: Any) -> dict[str, Any] | None:
    """A case's ``table``: a variant, and ``players`` (the names of the other players, seated
    after the client) leaving the client a seat."""
    if table is None:
        return None
    if not (isinstance(table, dict) and isinstance(table.get("variant"), str)):
        raise CaseError(f"{name}: table must be an object with a variant")
    players = table.get("players", [])
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise CaseError(f"{name}: table.players must be a list of names")
    if len(players) >= table.get("seats", 3):
        raise CaseError(f"{name}: table.players leaves no seat for the client")
    return table


def _steps(name: str, steps: Any, known: frozenset[str]) -> tuple[dict[str, Any], ...] | None:
    if steps is None:
        return None
    if not isinstance(steps, list) or not steps:
        raise CaseError(f"{name}: steps are a non-empty list")
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or len(set(step) & known) != 1:
            raise CaseError(f"{name}, step {i + 1}: a step has exactly one of {sorted(known)}")
    return tuple(steps)


def case_files() -> Iterator[tuple[str, str]]:
    """(name, text) of every case file shipped with the package, sorted by name."""
    folder = importlib.resources.files(__package__).joinpath("cases")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            yield entry.name.removesuffix(".json"), entry.read_text("utf-8")


def load(names: list[str] | None = None) -> list[Case]:
    """Every case (or those named, in catalogue order). Raises ``CaseError`` for a broken file
    or an unknown name."""
    cases = [parse(name, json.loads(text)) for name, text in case_files()]
    if names:
        known = {c.name for c in cases}
        missing = [n for n in names if n not in known]
        if missing:
            raise CaseError(f"no such case: {', '.join(missing)}")
        cases = [c for c in cases if c.name in names]
    return cases
