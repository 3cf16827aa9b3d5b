"""Scenario files, the format (docs/SCENARIOS.md): the keys a file may hold, the parsed
``Scenario``, and ``load``/``parse``, which check every key (``ScenarioError`` names the file and
the key at fault). Running one is engine/scenario.py's job; comparing what happened with what a
step expects, engine/_scenario_expect.py's.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from ._rules import Rules, variant

ACTIONS = (
    "lay",
    "challenge",
    "believe",
    "declare_none",
    "discard_quads",
    "decline_quads",
    "close_window",
    "open_quads_window",
    "close_quads_window",
    "challenges",
    "timeout",
)
MADE = ("lay", "challenge", "believe", "declare_none")
"""What a ``timeout`` step may make for the seat (its ``made`` key): one of its turn actions."""
ARRANGEMENT = ("pile", "discard", "hidden", "set_aside", "stock")
STEP_KEYS = frozenset(
    {"do", "seat", "made", "cards", "rank", "count", "set_no", "seats", "ranks", "expect", "note"}
)
EXPECT_KEYS = frozenset(
    {
        "events",
        "error",
        "taker",
        "turn",
        "ranks",
        "hands",
        "hand_counts",
        "out",
        "waiting",
        "pile",
        "pile_count",
        "discard_count",
        "stock_count",
        "over",
        "loser",
        "winner",
        "scores",
        "window_open",
        "set_no",
        "legal",
        "seen",
    }
)
DEAL_KEYS = frozenset(
    {
        "dealer",
        "turn",
        "rank",
        "deck",
        "complete",
        "hands",
        "steps",
        "step",
        "after",
        "note",
        "opening",
        *ARRANGEMENT,
    }
)
TOP_KEYS = frozenset({"title", "variant", "options", "seats", "players", "deal", "match", "note"})


class ScenarioError(ValueError):
    """A scenario file that cannot be read: bad TOML, an unknown key, a card or seat that does not
    exist. The message names the file and the place."""


@attrs.frozen
class Mismatch:
    """One difference between what a scenario expects and what happened: ``where`` (file, deal,
    step), ``what`` (the expectation's key), and the two values as text."""

    where: str
    what: str
    expected: str
    got: str

    def __str__(self) -> str:
        if "\n" in self.expected or "\n" in self.got:
            expected, got = _indent(self.expected), _indent(self.got)
            return f"{self.where}: {self.what}:\n  expected:\n{expected}\n  got:\n{got}"
        return f"{self.where}: {self.what}: expected {self.expected}, got {self.got}"


@attrs.frozen
class Scenario:
    """A parsed scenario: ``path``, ``title``, the ``rules`` (variant with options), the seat
    ``names`` (index = seat), the ``match`` table and the ``deals`` (each a dict as in the file,
    checked and with cards and seats normalised)."""

    path: str
    title: str
    rules: Rules
    names: tuple[str, ...]
    match: Mapping[str, Any]
    deals: tuple[Mapping[str, Any], ...]


# -- parsing -------------------------------------------------------------------------------------


def load(path: str | Path) -> Scenario:
    """Read and check the scenario file at ``path``. Raises ScenarioError (or OSError)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{p}: not TOML: {e}") from None
    return parse(data, str(p))


def parse(data: Mapping[str, Any], path: str = "<scenario>") -> Scenario:
    """Check a scenario already read from TOML (see ``load``). Raises ScenarioError."""
    _no_unknown(data, TOP_KEYS, path)
    try:
        rules = variant(str(data.get("variant", "")), **dict(data.get("options", {})))
    except ValueError as e:
        raise ScenarioError(f"{path}: {e}") from None
    if "seats" in data:
        names = tuple(str(n) for n in data["seats"])
    elif "players" in data:
        names = tuple(str(i) for i in range(int(data["players"])))
    else:
        raise ScenarioError(f"{path}: give seats = [names...] or players = N")
    if len(set(names)) != len(names):
        raise ScenarioError(f"{path}: seat names repeat")
    try:
        rules.deck_for(len(names))
    except ValueError as e:
        raise ScenarioError(f"{path}: {e}") from None
    deals = data.get("deal")
    if not isinstance(deals, list) or not deals:
        raise ScenarioError(f"{path}: at least one [[deal]] is needed")
    match = dict(data.get("match", {}))
    _no_unknown(match, frozenset({"draw", "dealer", "draws", "note"}), f"{path} [match]")
    for i, d in enumerate(deals, 1):
        where = f"{path} deal {i}"
        _no_unknown(d, DEAL_KEYS, where)
        for j, step in enumerate(d.get("step", d.get("steps", [])), 1):
            _no_unknown(step, STEP_KEYS, f"{where} step {j}")
            if step.get("do") not in ACTIONS:
                raise ScenarioError(
                    f"{where} step {j}: do must be one of {', '.join(ACTIONS)}, not {step.get('do')!r}"
                )
            if step["do"] == "timeout" and step.get("made") not in MADE:
                raise ScenarioError(
                    f"{where} step {j}: a timeout names the action made for the seat: made = one of "
                    f"{', '.join(MADE)}, not {step.get('made')!r}"
                )
            _no_unknown(step.get("expect", {}), EXPECT_KEYS, f"{where} step {j} expect")
        _no_unknown(d.get("after", {}), EXPECT_KEYS | {"dealer", "match_scores"}, f"{where} after")
    return Scenario(path, str(data.get("title", Path(path).stem)), rules, names, match, tuple(deals))


def _no_unknown(table: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    if not isinstance(table, Mapping):
        raise ScenarioError(f"{where}: expected a table")
    unknown = sorted(set(table) - known)
    if unknown:
        raise ScenarioError(f"{where}: unknown key {', '.join(unknown)} (known: {', '.join(sorted(known))})")


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


__all__ = ["ARRANGEMENT", "Mismatch", "Scenario", "ScenarioError", "load", "parse"]
