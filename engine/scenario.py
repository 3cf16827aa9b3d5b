"""Scenario files: a written arrangement of one deal (or a match of deals), the actions to apply,
and what must happen after each. The format is documented in docs/SCENARIOS.md.

``load(path) -> Scenario`` parses a TOML file (raises ``ScenarioError`` with the file and the key
at fault); ``run(scenario) -> list[Mismatch]`` plays it and returns every mismatch found (an empty
list: the scenario passes). Nothing here prints.

The format (the keys, ``Scenario``, ``load``, ``parse``) is in engine/_scenario_file.py; the
comparison of what happened with what a step expects in engine/_scenario_expect.py; this module
builds each deal and plays its steps.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

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
from ._cards import DECK_KINDS, deck_ranks, new_deck
from ._deal import Deal
from ._dealing import draw_for_dealer
from ._errors import RuleViolation
from ._match import Match
from ._scenario_expect import Expectations, cards_text
from ._scenario_file import ARRANGEMENT, Mismatch, Scenario, ScenarioError, load, parse


class _Runner(Expectations):
    def __init__(self, sc: Scenario) -> None:
        super().__init__(sc.names)
        self.sc = sc

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
                    f"missing {cards_text(want - have)}; extra {cards_text(have - want)}",
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


__all__ = ["Mismatch", "Scenario", "ScenarioError", "load", "parse", "run", "run_file"]
