"""Scenario files: what a step expects, compared with what happened (docs/SCENARIOS.md,
``expect``). ``Expectations`` turns seat names into seats and back, reads card lists, and records
each difference as a ``Mismatch``; engine/scenario.py's runner plays the steps on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from . import _events as ev
from ._cards import is_card, sort_key
from ._deal import Deal
from ._scenario_file import Mismatch, ScenarioError

SEAT_FIELDS = frozenset({"seat", "dealer", "loser", "winner"})
SEAT_LIST_FIELDS = frozenset({"tied", "out"})
PER_SEAT_FIELDS = frozenset({"scores", "hand_counts", "hands"})
CARD_FIELDS = frozenset({"cards"})


class Expectations:
    """The expectations of a scenario whose seats are ``names`` (index = seat); ``mismatches``:
    every difference found so far, in order."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.mismatches: list[Mismatch] = []

    # names <-> seats, card lists
    def seat(self, name: Any, where: str) -> int:
        if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < len(self.names):
            return name
        try:
            return self.names.index(str(name))
        except ValueError:
            raise ScenarioError(f"{where}: no seat {name!r} (seats: {', '.join(self.names)})") from None

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.names[seat]

    @staticmethod
    def cards(value: Any, where: str) -> tuple[str, ...]:
        items = value.split() if isinstance(value, str) else list(value)
        for c in items:
            if not is_card(c):
                raise ScenarioError(f"{where}: {c!r} is not a card (rank 2..9 T J Q K A, suit S H D C)")
        return tuple(items)

    def miss(self, where: str, what: str, expected: Any, got: Any) -> None:
        self.mismatches.append(Mismatch(where, what, _text(expected), _text(got)))

    # expectations
    def expect(self, deal: Deal, events: list[ev.Event], want: Mapping[str, Any], at: str) -> None:
        exp: Any  # what is expected and what happened: of each key's own shape
        got: Any
        for key, value in want.items():
            if key == "events":
                self.compare_events(at, "events", value, events)
            elif key == "seen":
                for name, wanted in value.items():
                    seat = None if name == "spectator" else self.seat(name, at)
                    seen = [
                        p
                        for p in (ev.project(e, seat, deal.rules.hand_counts_public) for e in events)
                        if p is not None
                    ]
                    self.compare_events(at, f"events seen by {name}", wanted, seen)
            elif key == "taker":
                got = _taker(events)
                exp = value if value in ("discard", "none") else self.seat(value, at)
                got_t = got if isinstance(got, str) else self.name(got)
                exp_t = exp if isinstance(exp, str) else self.name(exp)
                if got_t != exp_t:
                    self.miss(at, "taker", exp_t, got_t)
            elif key == "turn":
                got = None if deal.over else self.name(deal.turn)
                exp = None if value in ("none", "") else self.name(self.seat(value, at))
                if got != exp:
                    self.miss(at, "turn", exp, got)
            elif key == "ranks":
                exp = self.norm("ranks", value, at)
                got = list(deal.claim_ranks())
                if exp != got:
                    self.miss(at, "ranks that may be claimed", "".join(exp), "".join(got))
            elif key == "hands":
                for name, cards in value.items():
                    s = self.seat(name, at)
                    exp_c = sorted(self.cards(cards, at), key=sort_key)
                    got_c = sorted(deal.hands[s], key=sort_key)
                    if exp_c != got_c:
                        self.miss(
                            at, f"hand of {name}", " ".join(exp_c) or "empty", " ".join(got_c) or "empty"
                        )
            elif key == "hand_counts":
                self.compare_per_seat(at, "hand counts", value, tuple(len(h) for h in deal.hands))
            elif key == "scores":
                ended = [e for e in events if isinstance(e, ev.DealEnded)]
                got_scores = ended[-1].scores if ended else None
                if got_scores is None:
                    self.miss(at, "scores", value, "the deal did not end in this step")
                else:
                    self.compare_per_seat(at, "scores", value, got_scores)
            elif key in ("out", "waiting"):
                exp = [self.name(self.seat(n, at)) for n in value]
                got = [self.name(s) for s in getattr(deal, key)]
                if exp != got:
                    self.miss(at, key, exp, got)
            elif key == "pile":
                exp_c = sorted(self.cards(value, at), key=sort_key)
                got_c = sorted(deal.pile, key=sort_key)
                if exp_c != got_c:
                    self.miss(at, "pile", " ".join(exp_c) or "empty", " ".join(got_c) or "empty")
            elif key in ("pile_count", "discard_count", "stock_count"):
                got = len(getattr(deal, key.removesuffix("_count")))
                if got != value:
                    self.miss(at, key, value, got)
            elif key in ("over", "window_open", "set_no"):
                got = getattr(deal, key)
                if got != value:
                    self.miss(at, key, value, got)
            elif key in ("loser", "winner"):
                got = self.name(getattr(deal, key))
                exp = None if value in ("none", "") else self.name(self.seat(value, at))
                if got != exp:
                    self.miss(at, key, exp, got)
            elif key == "legal":
                for name, exp_l in value.items():
                    self.compare_legal(at, name, exp_l, deal.legal_actions(self.seat(name, at)))

    def compare_per_seat(self, at: str, what: str, want: Any, got: Sequence[int]) -> None:
        exp: Any
        act: Any
        if isinstance(want, Mapping):
            exp = {n: want[n] for n in want}
            act = {n: got[self.seat(n, at)] for n in want}
        else:
            exp, act = list(want), list(got)
        if exp != act:
            self.miss(at, what, exp, act)

    def compare_legal(self, at: str, name: str, want: Mapping[str, Any], legal: Any) -> None:
        got: dict[str, Any] = {
            "lay": None if legal.lay is None else [legal.lay.min, legal.lay.max],
            "lay_ranks": None if legal.lay is None else "".join(legal.lay.ranks),
            "count": None
            if legal.lay is None or legal.lay.count_min is None
            else [legal.lay.count_min, legal.lay.count_max],
            "challenge": legal.challenge,
            "believe": legal.believe,
            "declare_none": legal.declare_none,
            "discard_quads": list(legal.discard_quads),
            "decline_quads": legal.decline_quads,
            "any": bool(legal),
        }
        for k, v in want.items():
            if k not in got:
                raise ScenarioError(f"{at}: legal.{name} has no field {k!r} (fields: {', '.join(got)})")
            exp = v
            if k == "lay" and v is False:
                exp = None
            if k in ("challenge", "believe", "declare_none") and v is False:
                exp = None
            if k == "discard_quads" and isinstance(v, str):
                exp = list(v.split())
            if exp != got[k] and not (k == "lay" and v is True and got[k] is not None):
                self.miss(at, f"legal actions of {name}: {k}", v, got[k])

    def compare_events(self, at: str, what: str, want: Sequence[Any], events: Sequence[ev.Event]) -> None:
        got_plain = [self.plain(e) for e in events]
        ok = len(want) == len(got_plain)
        if ok:
            for w, g in zip(want, got_plain):
                w = {"type": w} if isinstance(w, str) else w
                for k, v in w.items():
                    if k not in g:
                        raise ScenarioError(
                            f"{at}: event {g['type']} has no field {k!r} (fields: {', '.join(g)})"
                        )
                    want_v = self.norm(k, v, at)
                    got_v = g[k]
                    if k in PER_SEAT_FIELDS and isinstance(want_v, dict) and isinstance(got_v, dict):
                        got_v = {n: got_v.get(n) for n in want_v}  # only the seats named
                    if want_v != got_v:
                        ok = False
        if not ok:
            exp_text = "\n".join(_want_text(w) for w in want) or "(none)"
            got_text = "\n".join(self.event_text(e) for e in events) or "(none)"
            self.miss(at, what, exp_text, got_text)

    def norm(self, key: str, value: Any, at: str) -> Any:
        if value is None or value == "none":
            return None
        if key in SEAT_FIELDS:
            return self.name(self.seat(value, at))
        if key in SEAT_LIST_FIELDS:
            return [self.name(self.seat(v, at)) for v in value]
        if key in CARD_FIELDS:
            return sorted(self.cards(value, at), key=sort_key)
        if key in PER_SEAT_FIELDS and isinstance(value, Mapping):
            return {self.name(self.seat(k, at)): v for k, v in value.items()}
        if key in PER_SEAT_FIELDS and isinstance(value, list):
            return {self.names[s]: v for s, v in enumerate(value)}
        if key == "ranks" and isinstance(value, str):
            return value.split() if " " in value else list(value)
        if isinstance(value, tuple):
            return list(value)
        return value

    def plain(self, e: ev.Event) -> dict[str, Any]:
        out: dict[str, Any] = {"type": e.type}
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            if v is None:
                out[f.name] = None
            elif f.name in SEAT_FIELDS:
                out[f.name] = self.name(v)
            elif f.name in SEAT_LIST_FIELDS:
                out[f.name] = [self.name(s) for s in v]
            elif f.name in CARD_FIELDS:
                out[f.name] = sorted(v, key=sort_key)
            elif f.name in PER_SEAT_FIELDS:
                out[f.name] = {
                    self.name(s): (list(x) if isinstance(x, tuple) else x) for s, x in enumerate(v)
                }
            elif isinstance(v, tuple):
                out[f.name] = [list(x) if isinstance(x, tuple) else x for x in v]
            else:
                out[f.name] = v
        return out

    def event_text(self, e: ev.Event) -> str:
        p = self.plain(e)
        fields = ", ".join(f"{k}={_short(v)}" for k, v in p.items() if k != "type")
        return f"{p['type']}({fields})"


def _taker(events: Iterable[ev.Event]) -> int | str:
    for e in events:
        if isinstance(e, ev.PileTaken):
            return e.seat
        if isinstance(e, ev.PileDiscarded):
            return "discard"
    return "none"


def _short(v: Any) -> str:
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return "[" + " ".join(v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_short(x)}" for k, x in v.items()) + "}"
    return repr(v) if isinstance(v, str) else str(v)


def _want_text(w: Any) -> str:
    if isinstance(w, str):
        return f"{w}(…)"
    fields = ", ".join(f"{k}={_short(v)}" for k, v in w.items() if k != "type")
    return f"{w.get('type')}({fields}, …)"


def _text(v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, (list, dict)):
        return _short(v)
    return str(v)


def cards_text(c: Counter[str]) -> str:
    """The cards of ``c`` in hand order, by spaces ("none" when it is empty)."""
    return " ".join(sorted(c.elements(), key=sort_key)) or "none"
