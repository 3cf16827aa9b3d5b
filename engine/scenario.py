"""Scenario files: a written arrangement of one deal (or a match of deals), the actions to apply,
and what must happen after each. The format is documented in docs/SCENARIOS.md.

``load(path) -> Scenario`` parses a TOML file (raises ``ScenarioError`` with the file and the key
at fault); ``run(scenario) -> list[Mismatch]`` plays it and returns every mismatch found (an empty
list: the scenario passes). Nothing here prints.
"""

from __future__ import annotations

import copy
import random
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from . import _events as ev
from ._actions import (
    Action,
    Believe,
    Challenge,
    Challenges,
    CloseQuadsWindow,
    CloseWindow,
    DeclareNone,
    DeclineQuads,
    DiscardQuads,
    LaySet,
    OpenQuadsWindow,
    Timeout,
)
from ._cards import DECK_KINDS, deck_ranks, is_card, new_deck, sort_key
from ._deal import Deal
from ._dealing import draw_for_dealer
from ._errors import RuleViolation
from ._match import Match
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
SEAT_FIELDS = frozenset({"seat", "dealer", "loser", "winner"})
SEAT_LIST_FIELDS = frozenset({"tied", "out"})
PER_SEAT_FIELDS = frozenset({"scores", "hand_counts", "hands"})
CARD_FIELDS = frozenset({"cards"})
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


# -- running -------------------------------------------------------------------------------------


class _Runner:
    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.names = sc.names
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

    # the whole scenario
    def run(self) -> list[Mismatch]:
        sc = self.sc
        rules = sc.rules
        players = len(self.names)
        match = Match(rules, players, random.Random(0))
        m = sc.match
        if "draw" in m:
            kind = rules.deck_for(players)
            try:
                draws, dealer = draw_for_dealer(
                    players, kind, random.Random(0), pack=self.cards(m["draw"], f"{sc.path} [match] draw")
                )
            except ValueError as e:
                raise ScenarioError(f"{sc.path} [match] draw: {e}") from None
            match.dealer = dealer
            if "dealer" in m and self.seat(m["dealer"], sc.path) != dealer:
                self.miss(f"{sc.path} [match]", "dealer drawn", m["dealer"], self.name(dealer))
            if "draws" in m:
                got = [[f"{self.name(s)} {c}" for s, c in rnd] for rnd in draws]
                if got != m["draws"]:
                    self.miss(f"{sc.path} [match]", "draws", m["draws"], got)
        for i, d in enumerate(sc.deals, 1):
            where = f"{sc.path} deal {i}"
            deal = self.build(d, match, i, where)
            if deal is None:
                break
            self.steps(deal, d.get("step", d.get("steps", [])), where)
            if deal.over:
                match.finish(deal)
            after = d.get("after")
            if after:
                self.expect(deal, [], after, f"{where} after")
                if "dealer" in after:
                    want = self.seat(after["dealer"], where)
                    if match.dealer != want:
                        self.miss(f"{where} after", "next dealer", after["dealer"], self.name(match.dealer))
                if "match_scores" in after:
                    self.compare_per_seat(
                        f"{where} after", "match scores", after["match_scores"], tuple(match.scores)
                    )
        return self.mismatches

    def build(self, d: Mapping[str, Any], match: Match, number: int, where: str) -> Deal | None:
        rules = self.sc.rules
        players = len(self.names)
        if "dealer" in d:
            dealer = self.seat(d["dealer"], where)
            if match.dealer is not None and match.dealer != dealer:
                self.miss(where, "dealer (from the match)", d["dealer"], self.name(match.dealer))
                return None
        elif match.dealer is not None:
            dealer = match.dealer
        else:
            raise ScenarioError(f"{where}: give dealer")
        match.dealer = dealer
        hands_in = d.get("hands", {})
        hands: list[tuple[str, ...]] = [() for _ in range(players)]
        for name, cards in hands_in.items():
            hands[self.seat(name, where)] = self.cards(cards, f"{where} hands.{name}")
        extra = {k: self.cards(d.get(k, ()), f"{where} {k}") for k in ARRANGEMENT}
        deck = d.get("deck") or rules.deck_for(players)
        if deck not in DECK_KINDS:
            raise ScenarioError(f"{where}: deck must be one of {', '.join(DECK_KINDS)}, not {deck!r}")
        if d.get("rank") is not None and (
            not isinstance(d["rank"], str) or d["rank"] not in deck_ranks(deck)
        ):
            raise ScenarioError(f"{where}: rank must be one of {deck_ranks(deck)}, not {d['rank']!r}")
        turn = self.seat(d["turn"], where) if "turn" in d else None
        try:
            deal = Deal(rules, deck=deck, dealer=dealer, hands=hands, turn=turn, rank=d.get("rank"), **extra)
        except ValueError as e:
            raise ScenarioError(f"{where}: {e}") from None
        if d.get("complete", False):
            have = Counter(c for h in hands for c in h)
            for k in ARRANGEMENT:
                have.update(extra[k])
            want = Counter(new_deck(deck))
            if have != want:
                self.miss(
                    where,
                    "complete deck",
                    f"the {deck} deck",
                    f"missing {_cards_text(want - have)}; extra {_cards_text(have - want)}",
                )
        match.deal = deal
        opening = deal.opening()
        if "opening" in d:
            self.compare_events(where, "opening events", d["opening"], opening)
        return deal

    def action(self, deal: Deal, step: Mapping[str, Any], where: str) -> Action:
        do = step["do"]
        seat = self.seat(step["seat"], where) if "seat" in step else None
        last_no = deal.last.set_no if deal.last is not None else deal.set_no
        set_no = int(step.get("set_no", last_no))
        if do == "close_window":
            return CloseWindow(int(step.get("set_no", deal.set_no)))
        if do == "challenges":
            return Challenges(tuple(self.seat(s, where) for s in step.get("seats", ())), set_no)
        if seat is None:
            raise ScenarioError(f"{where}: {do} needs seat")
        if do == "timeout":
            made = self.action(deal, {**step, "do": step["made"]}, where)
            assert isinstance(made, (LaySet, Challenge, Believe, DeclareNone))  # MADE, checked by parse
            return Timeout(seat=seat, action=made)
        if do == "lay":
            return LaySet(seat, self.cards(step.get("cards", ()), where), step.get("rank"), step.get("count"))
        if do == "challenge":
            return Challenge(seat, set_no)
        if do == "believe":
            return Believe(seat, set_no)
        if do == "declare_none":
            return DeclareNone(seat)
        if do == "discard_quads":
            ranks = step.get("ranks", ())
            return DiscardQuads(seat, tuple(ranks.split() if isinstance(ranks, str) else ranks))
        if do == "decline_quads":
            return DeclineQuads(seat)
        if do == "open_quads_window":
            return OpenQuadsWindow(seat)
        if do == "close_quads_window":
            return CloseQuadsWindow(seat)
        raise ScenarioError(f"{where}: unknown action {do!r}")

    def steps(self, deal: Deal, steps: Sequence[Mapping[str, Any]], where: str) -> None:
        for j, step in enumerate(steps, 1):
            at = f"{where} step {j} ({step['do']}{' ' + str(step['seat']) if 'seat' in step else ''})"
            action = self.action(deal, step, at)
            want = step.get("expect", {})
            before = _snapshot(deal)
            try:
                events = deal.apply(action)
            except RuleViolation as e:
                if "error" not in want:
                    self.miss(at, "error", "no error", f"{e.code}: {e.reason}")
                    return
                if e.code != want["error"]:
                    self.miss(at, "error", want["error"], f"{e.code}: {e.reason}")
                if _snapshot(deal) != before:
                    self.miss(at, "state after a refused action", "unchanged", "changed")
                self.expect(deal, [], {k: v for k, v in want.items() if k != "error"}, at)
                continue
            if "error" in want:
                self.miss(
                    at, "error", want["error"], "no error: " + "; ".join(self.event_text(e) for e in events)
                )
                return
            try:
                deal.check_invariant()
            except AssertionError as e:
                self.miss(at, "card invariant", "conserved", str(e))
            self.expect(deal, events, want, at)

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


def run(sc: Scenario) -> list[Mismatch]:
    """Play ``sc`` and return every mismatch (empty: it passes). A scenario stops at the first
    step that raises where no error was expected, or that passes where one was. Raises
    ScenarioError for a step that names an unknown seat, card or field."""
    return _Runner(sc).run()


def run_file(path: str | Path) -> list[Mismatch]:
    """``run(load(path))``."""
    return run(load(path))


# -- helpers -------------------------------------------------------------------------------------


def _snapshot(deal: Deal) -> dict[str, Any]:
    return copy.deepcopy({k: v for k, v in vars(deal).items() if k not in ("rules", "_cards", "deck_order")})


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


def _cards_text(c: Counter[str]) -> str:
    return " ".join(sorted(c.elements(), key=sort_key)) or "none"


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


__all__ = ["Mismatch", "Scenario", "ScenarioError", "load", "parse", "run", "run_file"]
