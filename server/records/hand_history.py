"""A replayed deal as people and programs read it: the hand-history JSON of docs/RECORDS.md
(whole, or as one seat saw it), and the protocol messages each seat was sent (the terminal
client's replay feeds them to its model).

Hidden information stays hidden here as it does at the table: a seat's view (``record_json(...,
view=seat)``) holds the deck (disclosed at the deal's end anyway), every set a challenge or
believe revealed, and the seat's own sets, and not the cards of a set nobody revealed, nor the
ranks of another seat's face-down quads. A hidden set keeps its claim: ``count`` is what the seat
was told, also where counts are true and a whole record leaves it null. The messages of a seat
are the engine's projection of each event (``_wire.copies``), exactly what the table sends.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from neveryu import engine

from .. import _wire
from .deal_record import (
    DealRecord,
    RecordError,
    Result,
    SeatRecord,
    action_from_json,
    action_json,
    rules_from_json,
    rules_json,
)
from .replay import Step

FORMAT = "neveryu-record"
VERSION = 1


# -- the hand history ---------------------------------------------------------------------------


def record_json(record: DealRecord, steps: Sequence[Step], view: int | None = None) -> dict[str, Any]:
    """``record`` in the format of docs/RECORDS.md (docs/record.schema.json); ``steps``: its
    replay (``records.replay.replay``). ``view`` None: whole; a seat: as that seat saw it."""
    hidden, laid = _hidden_actions(record, steps, view) if view is not None else (set(), set())
    actions = _actions_json(record, hidden, laid)
    r = record.result
    return {
        "format": FORMAT,
        "version": VERSION,
        "id": record.id,
        "server": record.server,
        "table": record.table,
        "match": record.match,
        "deal_no": record.deal_no,
        "deals": record.deals,
        "started_ms": record.started_ms,
        "ended_ms": record.ended_ms,
        "variant": record.variant,
        "options": dict(record.options),
        "rules": rules_json(record.rules),
        "timing": dict(record.timing),
        "seeded": record.seeded,
        "reveal_after_deal": record.reveal_after_deal,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot, "player": s.player} for s in record.seats],
        "dealer": record.dealer,
        "draws": None if record.draws is None else [[list(d) for d in r] for r in record.draws],
        "deck": list(record.deck),
        "fair": dict(record.fair),
        "actions": actions,
        "reveals": [
            {
                "set_no": e.set_no,
                "seat": e.seat,
                "rank": e.rank,
                "count": e.count,
                "cards": list(e.cards),
                "claim_true": e.claim_true,
            }
            for step in steps
            for e in step.events
            if isinstance(e, engine.SetRevealed)
        ],
        "result": {
            "loser": r.loser,
            "winner": r.winner,
            "out": list(r.out),
            "scores": list(r.scores),
            "hand_counts": list(r.hand_counts),
        },
        "match_scores": list(record.match_scores),
        "view": view,
    }


def _actions_json(record: DealRecord, hidden: set[int], laid: set[int]) -> list[dict[str, Any]]:
    """``record``'s actions in the format of docs/RECORDS.md, the cards of those ``hidden``
    (their indices) left out: a lay keeps its count (the claim the seat saw, for those ``laid``
    without one), a discard of quads its number of ranks."""
    actions = []
    for i, (ms, action) in enumerate(record.actions):
        a = action_json(ms, action)
        if i in hidden:
            inner = a.get("action", a)
            if inner["t"] == "lay":
                if inner["count"] is None and i in laid:  # the claim the seat saw (set_laid.count)
                    inner["count"] = len(inner["cards"])
                inner["cards"] = None
            elif inner["t"] == "discard_quads":
                inner["count"] = len(inner["ranks"])
                inner["ranks"] = None
        actions.append(a)
    return actions


def dumps(doc: dict[str, Any]) -> str:
    """A hand history as text: JSON, one field a line, and one line per action and per reveal
    (what ``neveryu export`` writes; any JSON reader reads it)."""
    lines = ["{"]
    for i, (key, value) in enumerate(doc.items()):
        end = "," if i < len(doc) - 1 else ""
        if key in ("actions", "reveals") and value:
            lines.append(f" {json.dumps(key)}: [")
            lines += [f"  {_line(v)}{',' if k < len(value) - 1 else ''}" for k, v in enumerate(value)]
            lines.append(f" ]{end}")
        else:
            lines.append(f" {json.dumps(key)}: {_line(value)}{end}")
    return "\n".join([*lines, "}"]) + "\n"


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _hidden_actions(record: DealRecord, steps: Sequence[Step], view: int) -> tuple[set[int], set[int]]:
    """The indexes (into ``record.actions``) of the actions whose cards ``view`` may not see:
    another seat's sets that no challenge or believe revealed (held and returned ones too), and
    another seat's quads discarded face down; and the indexes of the lays that became sets on
    the pile (whose claim every seat was told), returned ones not among them."""
    revealed = {e.set_no for step in steps for e in step.events if isinstance(e, engine.SetRevealed)}
    set_of: dict[int, int] = {}  # action index -> the set it became
    held: dict[int, int] = {}  # seat -> the index of its set laid early, waiting for the window
    for i, step in enumerate(steps[1:]):
        for e in step.events:
            if isinstance(e, engine.SetHeld):
                held[e.seat] = i
            elif isinstance(e, engine.SetReturned):
                held.pop(e.seat, None)
            elif isinstance(e, engine.SetLaid):
                own = _made(step.action)
                if isinstance(own, engine.LaySet) and own.seat == e.seat:
                    set_of[i] = e.set_no
                elif e.seat in held:
                    set_of[held.pop(e.seat)] = e.set_no
    shown_quads = record.rules.quads == "after_taking"
    hidden = set()
    for i, (_ms, action) in enumerate(record.actions):
        made = _made(action)
        if getattr(made, "seat", view) == view:
            continue
        unrevealed = isinstance(made, engine.LaySet) and set_of.get(i) not in revealed
        if unrevealed or (isinstance(made, engine.DiscardQuads) and not shown_quads):
            hidden.add(i)
    return hidden, set(set_of)


def _made(action: engine.Action | None) -> engine.Action | None:
    """The action itself; for a timeout, the action made for the seat."""
    return action.action if isinstance(action, engine.Timeout) else action


def record_from_json(doc: Any) -> DealRecord:
    """A whole record (``view`` null) in the format of docs/RECORDS.md, as a ``DealRecord`` (for
    ``records.replay``; no seat's ``session``: a record never says which session held a seat). Raises
    RecordError for one that is malformed or is a seat's view."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} document")
    if doc.get("version") != VERSION:
        raise RecordError(f"a {FORMAT} of version {doc.get('version')!r}; this neveryu reads {VERSION}")
    if doc.get("view") is not None:
        raise RecordError(f"seat {doc['view']}'s view of a deal, not the whole deal: it cannot be replayed")
    try:
        result = _result_from_json(doc["result"])
        return DealRecord(
            id=doc.get("id"),
            match=str(doc["match"]),
            deal_no=doc["deal_no"],
            deals=doc["deals"],
            server=str(doc["server"]),
            table=doc["table"],
            started_ms=doc["started_ms"],
            ended_ms=doc["ended_ms"],
            variant=doc["variant"],
            options=dict(doc["options"]),
            rules=rules_from_json(doc["rules"]),
            timing=dict(doc["timing"]),
            seeded=bool(doc["seeded"]),
            reveal_after_deal=bool(doc["reveal_after_deal"]),
            seats=tuple(_seat_from_json(s, result) for s in doc["seats"]),
            dealer=doc["dealer"],
            draws=None
            if doc["draws"] is None
            else tuple(tuple((s, c) for s, c in rnd) for rnd in doc["draws"]),
            deck=tuple(doc["deck"]),
            fair=dict(doc["fair"]),
            actions=tuple((ms or 0, action) for ms, action in map(action_from_json, doc["actions"])),
            result=result,
            match_scores=tuple(doc["match_scores"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"malformed record: {exc!r}") from None


def _result_from_json(r: Any) -> Result:
    return Result(
        loser=r["loser"],
        winner=r["winner"],
        out=tuple(r["out"]),
        scores=tuple(r["scores"]),
        hand_counts=tuple(r["hand_counts"]),
    )


def _seat_from_json(s: Any, result: Result) -> SeatRecord:
    """One seat of a record; its place and score come from the deal's ``result``."""
    return SeatRecord(
        seat=s["seat"],
        name=s["name"],
        bot=s["bot"],
        player=s.get("player"),
        place=result.out.index(s["seat"]) + 1 if s["seat"] in result.out else None,
        score=result.scores[s["seat"]],
    )


# -- what each seat was sent ----------------------------------------------------------------------


def table_summary(record: DealRecord) -> dict[str, Any]:
    """The table's summary (docs/PROTOCOL.md, "The table summary") as it stood during the deal."""
    return {
        "id": record.table,
        "variant": record.variant,
        "options": dict(record.options),
        "seats": [
            {"seat": s.seat, "name": s.name, "bot": s.bot, "ready": True, "away": False} for s in record.seats
        ],
        "state": "playing",
        "spectators": 0,
        "password": False,
        "turn_ms": record.timing.get("turn_ms", 0),
        "challenge_window_ms": record.timing.get("challenge_window_ms", 0),
        "tie_window_ms": record.timing.get("tie_window_ms", 0),
        "deals": record.deals,
        "deal_no": record.deal_no,
        "seeded": record.seeded,
        "reveal_after_deal": record.reveal_after_deal,
    }


def seat_messages(record: DealRecord, steps: Sequence[Step], seat: int | None) -> list[list[dict[str, Any]]]:
    """For each of ``steps``, the game events ``seat`` (None: a spectator) was sent, as wire
    bodies without ``seq``/``ts``: its copy of each event (``_wire.copies``), with the table's
    own fields (the commitment, the disclosure, the deal's number; no turn time: a replay is
    untimed)."""
    counts_public = record.rules.hand_counts_public
    out = []
    for step in steps:
        messages = []
        for event in step.events:
            seen = engine.project(event, seat, counts_public)
            if seen is not None:
                messages.append(_wire.event_message(seen, _extra(record, event)))
        out.append(messages)
    return out


def _extra(record: DealRecord, event: engine.Event) -> dict[str, Any]:
    if isinstance(event, engine.DealStarted):
        return {"commitment": record.fair.get("commitment"), "deal_no": record.deal_no}
    if isinstance(event, (engine.Turn, engine.QuadsWindowOpened)):
        return {"time_ms": None}
    if isinstance(event, engine.DealEnded):
        return {
            "salt": record.fair.get("salt"),
            "deck": list(record.deck),
            "match_scores": list(record.match_scores),
            "deal_no": record.deal_no,
        }
    return {}
