"""The line mode's controller: the full-screen client's (client/ui/controller.py: the model, the
requests, the offers taken down until the server answers, the reasons an action cannot be done
now) with typed orders in place of keys and dialogs. Each refusal is one line, said through
``say`` (the session prints it).

``lay(order)`` lays the cards named, or N cards from the hand (those of the claimed rank first,
then the lowest: the hand is sorted by rank); the claim's rank and count are checked against
the server's ``legal`` before anything is sent (RULES.md: what may be claimed is the server's
word, never the client's guess). The lobby's orders (``join``, ``watch``, ``create``) and the
host's seats (``bot``, ``free``) check what the client knows the same way.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from neveryu.client.ui.controller import Controller
from neveryu.client.ui.model_state import card_key

from .commands import LayOrder, Refusal
from .create import LEVEL_WORDS, create_form

LIST_LIMIT = 10  # players a leaderboard asked with ``top`` lists
DEALS_LISTED = 50


class PlainController(Controller):
    """The controller of the line mode. ``asked``: the pages asked for and not yet printed
    (``stats``, ``top``, ``history``, ``tables``), by the narrator when their replies come;
    ``notices``: what the controller said since the session last printed."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.asked: set[str] = set()
        self.notices: list[str] = []

    def say(self, text: str, style: str = "message", *, seconds: float = 0.0, sticky: bool = False) -> None:
        """A notice is a line: kept until the session prints it (``take_notices``)."""
        self.notices.append(text)

    def take_notices(self) -> list[str]:
        said, self.notices = self.notices, []
        return said

    def refuse(self, exc: Refusal) -> None:
        self.say(self.t(exc.key, **exc.args_), "warn")

    # -- the table --------------------------------------------------------------------------

    def lay_order(self, order: LayOrder) -> None:
        """Lay ``order`` as a set, or say in one line why not."""
        bounds = self.legal.get("lay")
        if not bounds:
            self.say(self._why_not("lay"))
            return
        ranks = tuple(bounds.get("ranks") or ())
        try:
            cards = self._cards_for(order)
            rank = self._rank_for(order, cards, ranks)
        except Refusal as exc:
            self.refuse(exc)
            return
        lo, hi = bounds.get("min", 1), bounds.get("max", 1)
        if not lo <= len(cards) <= hi:
            if lo == hi:
                self.say(self.t("plain.lay_exactly", cards=self.t.count(lo, "cards"), n=len(cards)))
            else:
                self.say(self.t("plain.lay_n", lo=lo, hi=hi, n=len(cards)))
            return
        request: dict[str, Any] = {"t": "lay", "cards": list(cards), "rank": rank}
        if bounds.get("count_min") is not None:
            count = order.count if order.count is not None else len(cards)
            c_lo, c_hi = bounds["count_min"], bounds["count_max"]
            if not c_lo <= count <= c_hi:
                self.say(self.t("plain.count_not", count=count, lo=c_lo, hi=c_hi))
                return
            request["count"] = count
        elif order.count is not None and order.count != len(cards):
            self.say(self.t("plain.count_fixed"))
            return
        self._act(request)

    def _cards_for(self, order: LayOrder) -> tuple[str, ...]:
        hand = list(self.hand)
        if order.cards is not None:
            missing = Counter(order.cards) - Counter(hand)
            if missing:
                raise Refusal("plain.not_held", cards=self.t.cards(sorted(missing.elements(), key=card_key)))
            return order.cards
        n = order.n or 0
        first = [c for c in hand if order.rank is not None and c[0] == order.rank]
        rest = [c for c in hand if c not in first]
        return tuple(sorted((first + rest)[:n], key=card_key))

    def _rank_for(self, order: LayOrder, cards: tuple[str, ...], ranks: tuple[str, ...]) -> str:
        t = self.t
        if order.rank is not None:
            if order.rank not in ranks:
                # «Сейчас нельзя назвать королей: можно дам»
                rank = t.rank_plural(order.rank, as_object=True)
                raise Refusal("plain.rank_not", rank=rank, ranks=t.ranks(ranks, as_object=True))
            return order.rank
        if len(ranks) == 1:
            return ranks[0]
        held = {c[0] for c in cards}
        if len(held) == 1 and next(iter(held)) in ranks:
            return next(iter(held))
        raise Refusal("plain.rank_which", ranks=t.ranks(ranks))

    # -- the lobby --------------------------------------------------------------------------

    def join_table(self, words: tuple[str, ...], spectate: bool) -> None:
        """``join N [PASSWORD]``, ``watch N [PASSWORD]``."""
        if self.state.screen == "table":
            self.say(self.t("plain.not_lobby"))
            return
        if not words or not words[0].isdigit():
            usage = "watch N [PASSWORD]" if spectate else "join N [PASSWORD]"
            self.say(self.t("plain.usage", usage=usage))
            return
        table = int(words[0])
        if self.state.tables and not any(x.get("id") == table for x in self.state.tables):
            self.say(self.t("plain.table_not", id=table))
            return
        request: dict[str, Any] = {"t": "spectate" if spectate else "join_table", "table": table}
        if len(words) > 1:
            request["password"] = " ".join(words[1:])
        self.send(request)

    def create(self, words: tuple[str, ...]) -> None:
        """``create ...`` (client/plain/create.py): ask the server for the table the words
        describe, or say why not."""
        s, t = self.state, self.t
        if s.screen == "table":
            self.say(t("plain.not_lobby"))
            return
        try:
            form = create_form(words, self.state.variants, self.state.bots)
        except Refusal as exc:
            self.refuse(exc)
            return
        seats = t.count(form.seats, "seats") + (f", {t.count(form.bots, 'bots')}" if form.bots else "")
        self.say(t("plain.created", variant=form.variant, seats=seats))
        self.send(form.request())

    def ask_page(self, what: str, words: tuple[str, ...]) -> None:
        """``stats [NAME]``, ``top [VARIANT]``, ``history``: ask the server; the narrator prints
        the reply."""
        s = self.state
        if s.connection != "connected":
            self.say(self.t("no.connection"))
            return
        if not self.records:
            self.say(self.t("players.off" if what != "history" else "no.records"))
            return
        self.asked.add(what)
        if what == "stats":
            self.send({"t": "player_stats", **({"name": " ".join(words)} if words else {})})
        elif what == "top":
            variant = words[0] if words else (s.table or {}).get("variant") or s.variant or "verish"
            self.top_variant = str(variant)
            self.send({"t": "leaderboard", "variant": str(variant), "limit": LIST_LIMIT})
        else:
            self.send({"t": "list_records", "mine": True, "limit": DEALS_LISTED})

    # -- the host's seats -------------------------------------------------------------------

    def host_seat(self, what: str, words: tuple[str, ...]) -> None:
        """``bot SEAT [LEVEL]``, ``free SEAT`` (seats counted from 1, as the texts say them)."""
        s, t = self.state, self.t
        if s.screen != "table":
            self.say(t("no.lobby"))
            return
        if "host" not in (s.table or {}):
            self.say(t("host.unsupported"))
            return
        if not self.is_host():
            self.say(t("host.not_you", name=t.seat_name(s, (s.table or {}).get("host"))))
            return
        if not words or not words[0].isdigit():
            self.say(t("plain.usage", usage="bot SEAT [LEVEL] | free SEAT"))
            return
        seat = int(words[0]) - 1
        info = s.seat_info(seat)
        if seat == s.seat:
            self.say(t("host.own_seat"))
        elif what == "free" and (s.table or {}).get("state") == "playing":
            self.say(t("host.between_matches"))
        elif info.get("bot") and what == "bot":
            self.say(t("host.bot_seat", name=t.seat_name(s, seat)))
        elif what == "free" and info and not info.get("name"):
            self.say(t("host.free_already", seat=seat + 1))
        elif what == "free":
            self.send({"t": "seat_free", "seat": seat})
        else:
            level = LEVEL_WORDS.get(words[1].lower(), words[1].lower()) if len(words) > 1 else "sharp"
            self.send({"t": "seat_bot", "seat": seat, "strength": level})

    top_variant = "verish"
