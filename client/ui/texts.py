"""Russian and English texts of the terminal client, and how cards, claims and names read.

``Texts(lang, ascii)`` holds one language (the strings are in client/ui/strings.py). In
``ascii`` mode (a terminal that cannot show ♠♥♦♣: client/terminal.py) every text that reaches
the screen is made ASCII: cards read ``QS``, ``10H``, marks and lines become ``> | -``, Cyrillic
(names, chat) is transliterated, anything else unprintable becomes ``?``. The words are docs/RULES.md's
vocabulary (hand, set, claim, pile, challenge, believe, discard, quad, out, deal) in its Russian
column.

Log lines (``model.Line``) are read with the names they were written with: a line never changes
its names when seats change afterwards. The sentences other than the log's are
client/ui/texts_base.py's; the tables of symbols and rank names, client/ui/text_tables.py's.
"""

from __future__ import annotations

from typing import Any

from .strings import EN
from .text_tables import RED_SUITS as RED_SUITS  # (where the screen colours suits)
from .texts_base import BaseTexts, SeatNames


class Texts(BaseTexts):
    """One language's texts (``BaseTexts``) with the log's lines in words: ``log_line``, and
    the recap after a resume."""

    def log_line(self, state: SeatNames, line: Any) -> str:
        """One ``model.Line`` in words, with the names of its own time."""
        names: SeatNames = line.names if (line.names.seats or line.names.seat is not None) else state
        a = dict(line.args)
        key = line.key
        name = self.seat_name(names, a.get("seat")) if "seat" in a else ""
        if key == "joined":
            if a.get("seat") is None:
                return self("log.joined_watch", table=a.get("table"))
            return self("log.joined", table=a.get("table"), seat=a["seat"] + 1)
        if key == "player_joined":
            raw = str(a.get("name") or "")
            seat = a.get("seat")
            # The newcomer's tag comes with the summary after this line: the table's names now
            # know it while he still sits there.
            now = state if isinstance(seat, int) and state.seat_name(seat) == raw else names
            shown = self._told_apart(now, raw, seat) if raw and isinstance(seat, int) else name
            return self("log.player_joined", name=shown)
        if key == "player_left":
            reason = a.get("reason")
            sub = "log.player_dropped" if reason == "dropped" else "log.player_left"
            raw, seat = str(a.get("name") or ""), a.get("seat")
            if raw and isinstance(seat, int) and names.seat_name(seat) == raw:
                return self(sub, name=self._told_apart(names, raw, seat))
            return self(sub, name=self.safe(raw or name))
        if key == "removed":
            host, tag = a.get("host"), a.get("tag")
            by = (
                self.safe(f"{host}#{tag}" if tag else str(host))
                if host
                else self.seat_name(names, a.get("by"), False)
            )
            return self("log.removed_bot" if a.get("bot") else "log.removed", by=by)
        if key == "seat_changed":
            action = str(a.get("action") or "")
            sub = "log.seat_" + action if ("log.seat_" + action) in self.table else "log.seat_changed"
            return self(
                sub,
                by=self.seat_name(names, a.get("by")),
                name=self.safe(str(a.get("name") or "")) or name,
                seat=(a.get("seat") or 0) + 1,
                level=self.level(str(a.get("strength") or "")),
            )
        if key == "deal_started":
            deal = a.get("deal_no")
            deals = a.get("deals")
            return self(
                "log.deal_started",
                deal=f"{deal}/{deals}" if isinstance(deals, int) and deals else deal,
                name=self.seat_name(names, a.get("dealer")),
                deck=self.deck(a.get("deck")),
            )
        if key == "set_laid":
            claim = self.claim(a.get("count"), a.get("rank"))
            if a.get("cards"):
                return self("log.set_laid_mine", name=name, cards=self.cards(a["cards"]), claim=claim)
            if a.get("size") is not None and a.get("size") != a.get("count"):
                return self("log.set_laid_size", name=name, claim=claim, size=a["size"])
            return self("log.set_laid", name=name, claim=claim)
        if key == "none_declared":
            return self("log.none_declared", name=name, rank=self.rank_plural(a.get("rank")))
        if key in ("set_held", "set_held_quads"):
            return self("log." + key, claim=self.claim(a.get("count"), a.get("rank")))
        if key == "set_returned":
            return self("log.set_returned", cards=self.cards(a.get("cards")))
        if key == "set_revealed":
            verdict = self("true") if a.get("claim_true") else self("false")
            if a.get("none"):
                return self(
                    "log.set_revealed_none",
                    name=name,
                    rank=self.rank_plural(a.get("rank")),
                    cards=self.cards(a.get("cards")),
                    verdict=verdict,
                )
            return self(
                "log.set_revealed",
                cards=self.cards(a.get("cards")),
                claim=self.claim(a.get("count"), a.get("rank")),
                verdict=verdict,
            )
        if key == "pile_taken":
            if a.get("count") is None:
                return self("log.pile_taken_hidden", name=name)
            return self("log.pile_taken", name=name, count=self.n_cards(a["count"]))
        if key == "pile_discarded":
            return self("log.pile_discarded", count=self.n_cards(a.get("count") or 0))
        if key == "quads_discarded":
            ranks, count = a.get("ranks"), a.get("count") or 1
            shown = ", ".join(self.rank_plural(r) for r in ranks or ())
            if ranks:
                quads = (
                    self("quads.shown", ranks=shown)
                    if count == 1
                    else self("quads.many", count=count, ranks=shown)
                )
            else:
                quads = self("quads.hidden") if count == 1 else self("quads.hidden_many", count=count)
            return self("log.quads_discarded", name=name, quads=quads)
        if key == "quads_window_closed":
            if a.get("seat") == names.seat and names.seat is not None:
                return self("log.quads_window_closed_you")
            return self("log.quads_window_closed", name=self.seat_name(names, a.get("seat"), you=False))
        if key == "stock_drawn":
            return self("log.stock_drawn", name=name, count=self.n_cards(a.get("count") or 0))
        if key == "dealer_drawn":
            rounds = []
            for draw in a.get("draws") or ():
                rounds.append(
                    ", ".join(f"{self.seat_name(names, seat)} {self.card(card)}" for seat, card in draw)
                )
            return self(
                "log.dealer_drawn",
                name=name,
                draws=f"; {self('draw_again')}: ".join(rounds) or self.glyph("dash"),
            )
        if key == "error":
            return self("log.error", msg=a.get("msg") or a.get("code"))
        if key == "bye":
            reason = str(a.get("reason") or "")
            key = "log.bye." + reason
            return self(key) if key in self.table else self("log.bye", reason=self.safe(reason))
        if key.startswith("conn_") or key == "fresh":
            return self("log." + key, reason=self.safe(str(a.get("reason") or self.glyph("dash"))))
        if key == "deal_ended":
            order = ", ".join(self.seat_name(names, x) for x in a.get("out") or ()) or self.glyph("dash")
            if a.get("loser") is not None:
                return self("log.deal_ended_loser", name=self.seat_name(names, a["loser"]), order=order)
            if a.get("winner") is not None:
                return self("log.deal_ended_winner", name=self.seat_name(names, a["winner"]))
            return self("log.deal_ended")
        if key == "match_ended":
            scores = ", ".join(f"{self.seat_name(names, i)} {v}" for i, v in enumerate(a.get("scores") or ()))
            return self("log.match_ended", scores=scores or self.glyph("dash"))
        if key == "match_started":
            deals = a.get("deals")
            return (
                self("log.match_started_n", deals=self.count(deals, "deals"))
                if isinstance(deals, int)
                else self("log.match_started")
            )
        if key == "table_closed":
            return self("log.table_closed", reason=self.safe(str(a.get("reason") or self.glyph("dash"))))
        if key == "player_out":
            return self("log.player_out", name=name, place=a.get("place"))
        if key == "fair_bad":
            return self("log.fair_bad", problem=self.fair_problem(a.get("problem")))
        mine = "log." + key + "_you"  # a line about one's own seat, said to him: "Your time ran out"
        if mine in self.table and self.live and a.get("seat") == names.seat and names.seat is not None:
            return self(mine)
        if key in ("spectators_more", "spectators_fewer"):
            return self("log." + key, watchers=self.count(int(a.get("n") or 0), "watchers"))
        if key == "recap":
            return self.recap(names, a)
        if key == "undone":
            return self("log.undone", moves=self.count(int(a.get("n") or 0), "moves"))
        return self("log." + key, name=name, **{k: v for k, v in a.items() if k not in ("seat", "name")})

    def where_it_stands(self, names: SeatNames, now: dict[str, Any]) -> str:
        """A recap the server's snapshot cut short: the moves are not known, where the game
        stands now is (``model_lobby._where_it_stands``): the deal, whose turn, the cards."""
        parts = []
        deal, deals = now.get("deal"), now.get("deals")
        if isinstance(deal, int):
            of = f"{deal}/{deals}" if isinstance(deals, int) and deals else str(deal)
            parts.append(self("recap.now_deal", deal=of))
        turn = now.get("turn")
        if isinstance(turn, int):
            mine = turn == names.seat and names.seat is not None
            parts.append(
                self("recap.now_yours") if mine else self("recap.now_turn", name=self.seat_name(names, turn))
            )
        if isinstance(now.get("hand"), int):
            parts.append(self("recap.now_hand", cards=self.n_cards(now["hand"])))
        if isinstance(now.get("pile"), int):
            parts.append(self("recap.now_pile", cards=self.n_cards(now["pile"])))
        return self("recap.snapshot") + (" " + self("recap.now", parts=", ".join(parts)) if parts else "")

    def fair_problem(self, code: Any) -> str:
        """What a failed fair-deal check found (client/fairdeal.py, ``PROBLEMS``), in words."""
        key = f"fair_problem.{code}"
        return self(key) if key in self.table or key in EN else self("fair_problem.commitment")

    def recap(self, names: SeatNames, a: dict[str, Any]) -> str:
        """The "while you were away" line (``model.recap_args``)."""
        if a.get("snapshot"):
            return self("recap.title") + " " + self.where_it_stands(names, a.get("now") or {})
        if a.get("removed"):
            return self("recap.title") + " " + self("recap.removed") + "."
        parts = []
        for deal_no, loser, winner in a.get("deals") or ():
            who = self("recap.lost", name=self.seat_name(names, loser)) if loser is not None else ""
            who = who or (self("recap.won", name=self.seat_name(names, winner)) if winner is not None else "")
            parts.append(self("recap.deal", deal=deal_no, who=who).rstrip(", "))
        if a.get("match"):
            parts.append(self("recap.match"))
        if a.get("sets"):
            sets = self.count(int(a["sets"]), "sets")
            parts.append(
                self("recap.sets_mine", sets=sets, mine=a["mine"])
                if a.get("mine")
                else self("recap.sets", sets=sets)
            )
        for seat, count in a.get("piles") or ():
            taken = self.n_cards(count) if count is not None else ""
            parts.append(self("recap.pile", name=self.seat_name(names, seat), cards=taken).replace(" ()", ""))
        for seat in a.get("out") or ():
            parts.append(self("recap.out", name=self.seat_name(names, seat)))
        if a.get("timed_out"):
            parts.append(self("recap.timed_out"))
        if a.get("chats"):
            parts.append(self("recap.chats", chats=self.count(int(a["chats"]), "messages")))
        return self("recap.title") + " " + ("; ".join(parts) if parts else self("recap.nothing")) + "."
