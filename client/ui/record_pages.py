"""The player's own deals (over the network): the list of the deals this session played
(``list_records`` with ``mine``), and a deal's record as that seat saw it, in words.

A record the server sends whole (its table was made with ``reveal_after_deal``) opens in the
replay (client/ui/replay.py) instead. A seat's view cannot be replayed (the cards of the sets
nobody turned up are not in it, docs/RECORDS.md, "A seat's view"), so it reads as a page: the
hand dealt to the seat (the deck is disclosed at the deal's end), every action in order with
its time, what each challenge or believe turned up, the result and the fair deal's check. The
lines are the log's own (``model.Line``, texts.py), so they read as the table's log did.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from neveryu import engine
from neveryu.client import fairdeal

from .model import Line, Names, names_of
from .model_fair import FAIR_LOG
from .texts import Texts

Doc = Mapping[str, Any]


def summary_parts(t: Texts, r: Doc) -> tuple[str, str, str]:
    """What a deal of a ``records`` list says: when it ended (local time, as ``neveryu
    history`` tells it), its result and who played (each bot named as in the result)."""
    seats = [x for x in r.get("seats") or () if isinstance(x, dict)]
    names = {x.get("seat"): seat_label(t, x) for x in seats}
    if r.get("loser") is not None:
        result = t("lobby.lost", name=names.get(r["loser"], "?"))
    elif r.get("winner") is not None:
        result = t("lobby.won", name=names.get(r["winner"], "?"))
    else:
        result = ""
    ended = r.get("ended_ms")
    when = time.strftime("%H:%M", time.localtime(ended / 1000)) if isinstance(ended, int) else ""
    return when, result, ", ".join(names.values())


def summary_line(t: Texts, r: Doc) -> str:
    """One deal of a ``records`` list: its id, variant, when it ended, its result, then (after
    a separator) who played."""
    when, result, players = summary_parts(t, r)
    said = f" {t.glyph('dot')} ".join(x for x in (result, players) if x)
    return f"{r.get('id')!s:>4} {r.get('variant')!s:<11} {when:<5}  {said}"


def seat_label(t: Texts, x: Doc) -> str:
    """A seat of a table summary or a record: the player's name, «Бот 3 (сложный)», or free."""
    if x.get("bot"):
        return t("bot_n", n=int(x.get("seat", 0)) + 1) + f" ({t.level(str(x['bot']))})"
    return t.safe(str(x.get("name"))) if x.get("name") else t("seat.empty")


def deals_text(t: Texts, deals: tuple[Doc, ...] | None, index: int) -> StyleAndTextTuples:
    """The list of one's own deals (``deals`` None: still asked), the chosen one marked."""
    if deals is None:
        return [("class:dim", t("deals.asking"))]
    if not deals:
        return [("", t("deals.none"))]
    out: StyleAndTextTuples = [("", t("deals.intro") + "\n\n")]
    for i, r in enumerate(deals):
        mark = t.glyph("turn") if i == index else " "
        out.append(("class:cursor" if i == index else "", f"{mark}{summary_line(t, r)}"))
        out.append(("", "\n"))
    return out


def record_text(t: Texts, doc: Doc, note: str | None = None) -> StyleAndTextTuples:
    """A deal's record (the hand-history format of docs/RECORDS.md) in words: as ``doc["view"]``
    saw it, or whole. ``note``: a sentence to say first (why a whole record is not replayed)."""
    view = doc.get("view")
    names = names_of({"seats": [x for x in doc.get("seats") or () if isinstance(x, dict)]}, view)
    deals = doc.get("deals")
    deal = f"{doc.get('deal_no')}/{deals}" if isinstance(deals, int) and deals else str(doc.get("deal_no"))
    started = doc.get("started_ms")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(started / 1000)) if isinstance(started, int) else ""
    variant = t.variant_name(str(doc.get("variant")), long=True)
    out: StyleAndTextTuples = [
        (
            "class:rule.title",
            t("record.title", id=doc.get("id"), deal=deal, variant=variant, when=when) + "\n",
        )
    ]
    if note:
        out.append(("class:warn", note + "\n"))
    out.append(("class:dim", t("record.as_seen" if view is not None else "record.whole") + "\n"))
    hand = _dealt_hand(doc, view)
    if hand is not None:
        out.append(("", t("record.hand", cards=t.cards(hand)) + "\n"))
    for ms, line in record_lines(doc, names):
        stamp = "" if ms is None else f"{ms // 60000}:{ms // 1000 % 60:02} "
        style = "class:warn" if line.key == "fair_bad" else ("class:dim" if ms is None else "")
        out.append((style, stamp + t.log_line(names, line) + "\n"))
    return out


def record_lines(doc: Doc, names: Names) -> list[tuple[int | None, Line]]:
    """The record's actions as log lines, each with its time (ms from the deal's start; None for
    the lines of its end), then the result and the fair deal's check."""
    reading = _Reading(doc, names)
    for a in doc.get("actions") or ():
        if isinstance(a, dict):
            reading.action(a.get("ms") if isinstance(a.get("ms"), int) else None, a)
    reading.end()
    return reading.out


class _Reading:
    """A record read action by action into log lines (``out``), with what the lines need to
    know of the actions before."""

    def __init__(self, doc: Doc, names: Names) -> None:
        self.doc, self.names = doc, names
        self.rules, self.view = _rules(doc), doc.get("view")
        self.reveals = {r.get("set_no"): r for r in doc.get("reveals") or () if isinstance(r, dict)}
        self.players = len(doc.get("seats") or ())
        try:
            rules = self.rules
            self.ranks = (
                engine.deck_ranks(rules.deck_for(self.players)) if rules is not None else engine.RANKS
            )
        except ValueError:
            self.ranks = engine.RANKS
        self.out: list[tuple[int | None, Line]] = []
        self.claimed: Any = None  # the last claimed rank, for a lay whose rank only one could be
        self.declared: Any = None  # the seat whose «none» is the last set, else None
        self.laid = 0  # sets laid so far (a challenge of a later one is void: docs/RULES.md, timing rules)

    def say(self, ms: int | None, key: str, **args: Any) -> None:
        self.out.append((ms, Line(key, args, self.names)))

    def action(self, ms: int | None, a: Doc) -> None:
        kind, seat = a.get("t"), a.get("seat")
        if kind == "lay":
            rank = a.get("rank") or _implied_rank(self.rules, self.ranks, self.claimed)
            self.claimed, self.declared = rank, None
            self.laid += 1
            cards = a.get("cards")
            count = a.get("count") if a.get("count") is not None else len(cards or ())
            # Another seat's cards show when its set is turned up (whole: every set's, at once).
            shown = cards if self.view is None or seat == self.view else None
            self.say(ms, "set_laid", seat=seat, rank=rank, count=count or None, size=None, cards=shown)
        elif kind == "declare_none":
            self.claimed, self.declared = _implied_rank(self.rules, self.ranks, self.claimed), seat
            self.laid += 1
            self.say(ms, "none_declared", seat=seat, rank=self.claimed)
        elif kind in ("challenge", "believe", "challenges"):
            self.call(ms, a)
        elif kind == "discard_quads":
            quads = a.get("ranks")
            count = len(quads) if quads is not None else a.get("count")
            self.say(
                ms, "quads_discarded", seat=seat, count=count, ranks=None if quads is None else tuple(quads)
            )
        elif kind == "decline_quads":
            self.say(ms, "quads_declined", seat=seat)
        elif kind == "timeout":
            self.say(ms, "timed_out", seat=seat)
            inner = a.get("action")
            if isinstance(inner, dict):
                self.action(ms, inner)

    def call(self, ms: int | None, a: Doc) -> None:
        """A challenge or a believe (several challengers at once: ``challenges``), what it turned
        up, and where the pile went."""
        set_no = a.get("set_no")
        revealed = self.reveals.get(set_no)
        callers = a.get("seats") if a.get("t") == "challenges" else [a.get("seat")]
        seats = [x for x in callers or () if isinstance(x, int)]
        void = not isinstance(set_no, int) or set_no > self.laid
        if revealed is None or not seats or void:  # a void challenge (of a set not laid yet)
            self.say(ms, "challenge_void", seat=seats[0] if seats else None, set_no=set_no)
            return
        layer, players = int(revealed.get("seat") or 0), self.players
        caller = min(seats, key=lambda x: (x - layer) % players if players else 0)  # nearest left
        believe = a.get("t") == "believe"
        others = tuple(x for x in seats if x != caller)
        self.say(ms, "believed" if believe else "challenged", seat=caller, set_no=set_no, tied=others)
        cards, true = tuple(revealed.get("cards") or ()), bool(revealed.get("claim_true"))
        none = self.declared is not None and self.declared == layer
        self.say(
            ms,
            "set_revealed",
            seat=layer,
            rank=revealed.get("rank"),
            count=revealed.get("count"),
            cards=cards,
            claim_true=true,
            none=none,
        )
        if believe and true:
            self.say(ms, "pile_discarded", count=None)
        else:
            taker = caller if true else layer
            self.say(ms, "pile_taken", seat=taker, count=None)

    def end(self) -> None:
        """The deal's result, and the fair deal's check."""
        result = self.doc.get("result") or {}
        out_order = tuple(x for x in result.get("out") or () if isinstance(x, int))
        self.say(
            None,
            "deal_ended",
            deal_no=self.doc.get("deal_no"),
            loser=result.get("loser"),
            winner=result.get("winner"),
            out=out_order,
        )
        try:
            verdict = fairdeal.check(fairdeal.record_disclosure(self.doc))
        except ValueError:
            verdict = fairdeal.Verdict("unknown")
        if verdict.status == "bad":
            self.say(None, "fair_bad", problem=verdict.problems[0])
        else:
            self.say(None, FAIR_LOG[verdict.status])


def _rules(doc: Doc) -> engine.Rules | None:
    try:
        return engine.variant(str(doc.get("variant")), **dict(doc.get("options") or {}))
    except (KeyError, ValueError, TypeError):
        return None


def _implied_rank(rules: engine.Rules | None, ranks: str, last: Any) -> Any:
    """The rank of a set whose record leaves it null because only one could be claimed
    (docs/RECORDS.md, actions): the held rank, or the next in the variant's order of the deck's
    ``ranks`` (docs/RULES.md, ``rank_order``); the first set of a ``first_rank = ace`` deal claims aces."""
    if rules is None:
        return last
    if last is None:
        return "A" if rules.first_rank == "ace" else None
    if rules.rank_order in ("ascending", "descending") and last in ranks:
        return engine.next_rank(last, ranks, 1 if rules.rank_order == "ascending" else -1)
    return last


def _dealt_hand(doc: Doc, view: Any) -> tuple[str, ...] | None:
    """The hand the disclosed deck dealt to ``view`` (None: whole, or it cannot be dealt)."""
    rules = _rules(doc)
    if rules is None or not isinstance(view, int):
        return None
    try:
        dealt = engine.deal_cards(rules, list(doc["deck"]), len(doc["seats"]), doc["dealer"])
        return tuple(sorted(dealt.hands[view], key=engine.sort_key))
    except (KeyError, ValueError, TypeError, IndexError):
        return None
