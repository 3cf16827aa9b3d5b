"""A deal's record: what the engine needs to replay it exactly (rules, seats, dealer, the deck as
dealt, every accepted action), and what people read in a hand history (names, times, result).

Pokémon Showdown's idea: a seed and the input log reproduce a battle; here the deck and the
accepted actions reproduce a deal (``records.replay``). A record is a frozen ``DealRecord``; actions are
the engine's own action records, each with its time offset in ms from the deal's start.

Actions as JSON (docs/RECORDS.md, "Actions"): ``action_json`` gives ``{"ms", "t", fields...}``
where ``t`` is the protocol's name of the request (``lay``, ``challenge``, ...) or the referee's
(``challenges``, ``close_window``, ``timeout``); ``encode_actions`` packs them for the database:
positionally (``[ms, t, field values...]``), then compressed (zlib), an eighth of the size.
"""

from __future__ import annotations

import json
import operator
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import attrs
import msgpack

from neveryu import engine
from neveryu.engine.bots import level_of

# t -> (the engine's action class, its fields in order)
ACTIONS: dict[str, tuple[type, tuple[str, ...]]] = {
    "lay": (engine.LaySet, ("seat", "cards", "rank", "count")),
    "challenge": (engine.Challenge, ("seat", "set_no")),
    "believe": (engine.Believe, ("seat", "set_no")),
    "declare_none": (engine.DeclareNone, ("seat",)),
    "discard_quads": (engine.DiscardQuads, ("seat", "ranks")),
    "decline_quads": (engine.DeclineQuads, ("seat",)),
    "challenges": (engine.Challenges, ("seats", "set_no")),
    "close_window": (engine.CloseWindow, ("set_no",)),
    "open_quads_window": (engine.OpenQuadsWindow, ("seat",)),
    "close_quads_window": (engine.CloseQuadsWindow, ("seat",)),
    "timeout": (engine.Timeout, ("seat", "action")),
}
KIND_OF: dict[type, str] = {cls: t for t, (cls, _) in ACTIONS.items()}
TUPLE_FIELDS = frozenset({"cards", "ranks", "seats"})


class RecordError(ValueError):
    """A record (from the database or a file) is malformed: the message says where."""


@attrs.frozen(kw_only=True)
class SeatRecord:
    """One seat of a recorded deal: ``name`` (None: nobody sat there), ``bot`` (a bot seat's
    strength, else None), ``player`` (the stable id of its player, docs/PLAYERS.md; None until
    the records' writer gives it, or when nobody held the seat), ``session`` (SHA-256 hex of the
    session token that held the seat when the deal began; never exported), ``place`` (1 for the
    first out, None if not out), ``score`` (this deal's score change) and ``key`` (the
    ``players.key`` of the person who held the seat, ``records.players.person_key``; only on its way
    to the writer: never stored as such, never exported)."""

    seat: int
    name: str | None
    bot: str | None = None
    player: int | None = None
    session: str | None = None
    place: int | None = None
    score: int = 0
    key: str | None = None


@attrs.frozen(kw_only=True)
class Result:
    """How the deal ended (engine ``DealEnded``): ``loser`` or ``winner`` (per the variant's
    ``result``), ``out`` (seats in the order they went out), ``scores`` (this deal's score change
    per seat), ``hand_counts`` (cards left per seat)."""

    loser: int | None
    winner: int | None
    out: tuple[int, ...]
    scores: tuple[int, ...]
    hand_counts: tuple[int, ...]

    @classmethod
    def of(cls, ended: engine.DealEnded) -> Result:
        return cls(
            loser=ended.loser,
            winner=ended.winner,
            out=tuple(ended.out),
            scores=tuple(ended.scores),
            hand_counts=tuple(ended.hand_counts),
        )


@attrs.frozen(kw_only=True)
class DealRecord:
    """One ended deal. Times: ``started_ms``/``ended_ms`` Unix wall-clock ms; each action's
    offset in ms from the deal's start (the server's monotonic clock). ``deck``: the cards in
    dealing order, top first (hidden, set-aside and stock cards included). ``fair``: the fair
    deal's fields (docs/RECORDS.md, ``fair``: the commitment, its salt, and fair deal 2's).
    ``draws``: the first dealer's draw (``lowest_draw``), else None. ``id``: the database's id
    (None until stored)."""

    id: int | None = None
    match: str
    deal_no: int
    deals: int
    server: str
    table: int
    started_ms: int
    ended_ms: int
    variant: str
    options: dict[str, Any]
    rules: engine.Rules
    timing: dict[str, int]
    seeded: bool
    reveal_after_deal: bool
    seats: tuple[SeatRecord, ...]
    dealer: int
    draws: tuple[tuple[tuple[int, str], ...], ...] | None
    deck: tuple[str, ...]
    fair: dict[str, Any]
    actions: tuple[tuple[int, engine.Action], ...]
    result: Result
    match_scores: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.seats)

    def names(self) -> list[str]:
        """Each seat's name as people read it (a bot seat's with its level)."""
        return [seat_label(s) for s in self.seats]


def seat_label(seat: SeatRecord) -> str:
    """``ann``, ``bot 3 (hard)`` (a bot seat's with its level, ``engine.bots.LEVELS``), or
    ``seat 2`` for a seat nobody held."""
    name = seat.name or f"seat {seat.seat + 1}"
    return f"{name} ({level_of(seat.bot)})" if seat.bot else name


# -- actions ------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def action_fields(action: engine.Action) -> tuple[str, list[Any]]:
    """``(t, [field values])`` of an engine action (a timeout's own action nested the same way)."""
    t = KIND_OF.get(type(action))
    if t is None:
        raise RecordError(f"not an action: {action!r}")
    values: list[Any] = []
    for name in ACTIONS[t][1]:
        value = getattr(action, name)
        if name == "action":
            inner, fields = action_fields(value)
            value = [inner, *fields]
        values.append(_plain(value))
    return t, values


def action_json(ms: int | None, action: engine.Action) -> dict[str, Any]:
    """An action as docs/RECORDS.md shows it: ``{"ms": ms, "t": kind, field: value, ...}`` (no
    ``ms`` when None: a timeout's own action)."""
    t, values = action_fields(action)
    out: dict[str, Any] = {} if ms is None else {"ms": ms}
    out["t"] = t
    for name, value in zip(ACTIONS[t][1], values):
        out[name] = action_json(None, _action_of(value)) if name == "action" else value
    return out


def _action_of(packed: Any) -> engine.Action:
    if not isinstance(packed, list) or not packed:
        raise RecordError(f"not an action: {packed!r}")
    return action_from_fields(packed[0], packed[1:])


def _build(t: Any, values: dict[str, Any]) -> engine.Action:
    spec = ACTIONS.get(t) if isinstance(t, str) else None
    if spec is None:
        raise RecordError(f"unknown action kind {t!r}")
    cls, names = spec
    kwargs: dict[str, Any] = {}
    for name in names:
        value = values.get(name)
        if name in TUPLE_FIELDS:
            if not isinstance(value, list):
                raise RecordError(f"{t}.{name}: a list expected, got {value!r}")
            value = tuple(value)
        kwargs[name] = value
    return cls(**kwargs)  # type: ignore[no-any-return]


def action_from_fields(t: Any, values: Sequence[Any]) -> engine.Action:
    """The engine action of kind ``t`` with ``values`` in ``ACTIONS[t]``'s order (a timeout's
    own action packed as ``[t, values...]``). Raises RecordError for an unknown kind or a wrong
    number of values."""
    names = ACTIONS[t][1] if isinstance(t, str) and t in ACTIONS else ()
    if len(values) != len(names):
        raise RecordError(f"{t!r}: {len(names)} values expected, got {len(values)}")
    fields = dict(zip(names, values))
    if "action" in fields:
        fields["action"] = _action_of(fields["action"])
    return _build(t, fields)


def action_from_json(d: Any) -> tuple[int | None, engine.Action]:
    """``(ms, action)`` from ``action_json``'s shape (``ms`` None where absent). Raises
    RecordError."""
    if not isinstance(d, dict):
        raise RecordError(f"not an action: {d!r}")
    fields = dict(d)
    if "action" in fields:
        fields["action"] = action_from_json(fields["action"])[1]
    ms = d.get("ms")
    return (ms if isinstance(ms, int) else None), _build(d.get("t"), fields)


def encode_actions(actions: Iterable[tuple[int, engine.Action]]) -> bytes:
    """The database's form of ``actions``: compact JSON, ``[[ms, t, values...], ...]``, in UTF-8,
    compressed by zlib (RFC 1950)."""
    text = json.dumps([[ms, *packed_action(a)] for ms, a in actions], separators=(",", ":"))
    return zlib.compress(text.encode(), 6)


def decode_actions(packed: bytes) -> tuple[tuple[int, engine.Action], ...]:
    """``encode_actions`` undone. Raises RecordError."""
    try:
        rows = json.loads(zlib.decompress(packed))
    except (ValueError, TypeError, zlib.error) as exc:
        raise RecordError(f"actions: {exc}") from None
    if not isinstance(rows, list):
        raise RecordError("actions: a list expected")
    out = []
    for row in rows:
        if not isinstance(row, list) or len(row) < 2 or not isinstance(row[0], int):
            raise RecordError(f"not an action: {row!r}")
        out.append((row[0], action_from_fields(row[1], row[2:])))
    return tuple(out)


class Applied:
    """The actions a deal accepted, in order, each with its time in ms from the deal's start
    (``Referee.applied``). Each is kept packed, as the journal writes it (``rows``): msgpack of
    ``[t, values...]`` (``packed_action``). A deal's hundred or more action objects would be as
    many more for the garbage collector to look at, at every table, again and again; reading
    them (``[i]``, iterating: ``(ms, action)``) unpacks them, which a deal's end and a bot that
    takes a seat over do once."""

    def __init__(self) -> None:
        self._ms: list[int] = []
        self._packed: list[bytes] = []

    def append(self, ms: int, action: engine.Action) -> None:
        self._ms.append(ms)
        self._packed.append(msgpack.packb(packed_action(action)))

    def __len__(self) -> int:
        return len(self._ms)

    def __getitem__(self, i: int) -> tuple[int, engine.Action]:
        return self._ms[i], unpacked_action(self._packed[i])

    def __iter__(self) -> Iterator[tuple[int, engine.Action]]:
        for ms, data in zip(self._ms, self._packed):
            yield ms, unpacked_action(data)

    def rows(self, start: int) -> tuple[tuple[int, bytes], ...]:
        """``(ms, packed action)`` of the actions from number ``start`` on (the journal's)."""
        return tuple(zip(self._ms[start:], self._packed[start:]))


_GETTERS: dict[type, tuple[str, Callable[[Any], Any]]] = {
    cls: (t, operator.attrgetter(*names)) for t, (cls, names) in ACTIONS.items()
}


def packed_action(action: engine.Action) -> list[Any]:
    """``[t, values...]`` of an engine action, as ``action_fields`` gives it (a timeout's own
    action nested the same way; tuples stay tuples: msgpack packs them as arrays)."""
    t, get = _GETTERS[type(action)]
    values = get(action)
    if type(values) is not tuple:
        return [t, values]  # (one field)
    if t == "timeout":
        return [t, values[0], packed_action(values[1])]
    return [t, *values]


def unpacked_action(data: bytes) -> engine.Action:
    """The action ``msgpack.packb(packed_action(action))`` packed. Raises RecordError, or
    msgpack's own errors for bytes that are not msgpack."""
    return _action_of(msgpack.unpackb(data))


# -- rules ----------------------------------------------------------------------------------------


def rules_json(rules: engine.Rules) -> dict[str, Any]:
    """Every parameter of ``rules`` (docs/RULES.md, "The parameters") as JSON values."""
    return {a.name: _plain(getattr(rules, a.name)) for a in attrs.fields(engine.Rules)}


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def rules_from_json(d: Any) -> engine.Rules:
    """``rules_json`` undone, validated by ``engine.Rules``. Raises RecordError."""
    if not isinstance(d, dict):
        raise RecordError("rules: a map expected")
    try:
        return engine.Rules(**{k: _tuples(v) for k, v in d.items()})
    except (TypeError, ValueError) as exc:
        raise RecordError(f"rules: {exc}") from None
