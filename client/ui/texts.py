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

from collections.abc import Callable
from typing import Any, NamedTuple

from .strings import EN
from .text_tables import RED_SUITS as RED_SUITS  # (where the screen colours suits)
from .texts_base import BaseTexts, SeatNames


class Said(NamedTuple):
    """One log line being read: the table's names ``now``, the line's own ``names``, its
    ``key`` and ``args``, and ``name``, its seat's name in words ("" when it names no seat)."""

    now: SeatNames
    names: SeatNames
    key: str
    args: dict[str, Any]
    name: str


class Texts(BaseTexts):
    """One language's texts (``BaseTexts``) with the log's lines in words: ``log_line``, and
    the recap after a resume."""

    def log_line(self, state: SeatNames, line: Any) -> str:
        """One ``model.Line`` in words, with the names of its own time: the line's kind picks
        its reader from ``LOG_KINDS`` (``conn_*`` lines read alike); a kind with none of its
        own reads ``log.<kind>_you`` when it is about one's own seat, else ``log.<kind>``."""
        names: SeatNames = line.names if (line.names.seats or line.names.seat is not None) else state
        a = dict(line.args)
        key = line.key
        name = self.seat_name(names, a.get("seat")) if "seat" in a else ""
        said = Said(state, names, key, a, name)
        reader = LOG_KINDS.get("conn_" if key.startswith("conn_") else key)
        if reader is not None:
            return reader(self, said)
        mine = "log." + key + "_you"  # a line about one's own seat, said to him: "Your time ran out"
        if mine in self.table and self.live and a.get("seat") == names.seat and names.seat is not None:
            return self(mine)
        return LOG_KINDS_NOT_MINE.get(key, Texts._log_other)(self, said)

    def _log_joined(self, s: Said) -> str:
        if s.args.get("seat") is None:
            return self("log.joined_watch", table=s.args.get("table"))
        return self("log.joined", table=s.args.get("table"), seat=s.args["seat"] + 1)

    def _log_player_joined(self, s: Said) -> str:
        raw = str(s.args.get("name") or "")
        seat = s.args.get("seat")
        # The newcomer's tag comes with the summary after this line: the table's names now
        # know it while he still sits there.
        now = s.now if isinstance(seat, int) and s.now.seat_name(seat) == raw else s.names
        shown = self._told_apart(now, raw, seat) if raw and isinstance(seat, int) else s.name
        return self("log.player_joined", name=shown)

    def _log_player_left(self, s: Said) -> str:
        sub = "log.player_dropped" if s.args.get("reason") == "dropped" else "log.player_left"
        raw, seat = str(s.args.get("name") or ""), s.args.get("seat")
        if raw and isinstance(seat, int) and s.names.seat_name(seat) == raw:
            return self(sub, name=self._told_apart(s.names, raw, seat))
        return self(sub, name=self.safe(raw or s.name))

    def _log_removed(self, s: Said) -> str:
        host, tag = s.args.get("host"), s.args.get("tag")
        by = (
            self.safe(f"{host}#{tag}" if tag else str(host))
            if host
            else self.seat_name(s.names, s.args.get("by"), False)
        )
        return self("log.removed_bot" if s.args.get("bot") else "log.removed", by=by)

    def _log_seat_changed(self, s: Said) -> str:
        a = s.args
        action = str(a.get("action") or "")
        sub = "log.seat_" + action if ("log.seat_" + action) in self.table else "log.seat_changed"
        return self(
            sub,
            by=self.seat_name(s.names, a.get("by")),
            name=self.safe(str(a.get("name") or "")) or s.name,
            seat=(a.get("seat") or 0) + 1,
            level=self.level(str(a.get("strength") or "")),
        )

    def _log_deal_started(self, s: Said) -> str:
        deal, deals = s.args.get("deal_no"), s.args.get("deals")
        return self(
            "log.deal_started",
            deal=f"{deal}/{deals}" if isinstance(deals, int) and deals else deal,
            name=self.seat_name(s.names, s.args.get("dealer")),
            deck=self.deck(s.args.get("deck")),
        )

    def _log_set_laid(self, s: Said) -> str:
        a = s.args
        claim = self.claim(a.get("count"), a.get("rank"))
        if a.get("cards"):
            return self("log.set_laid_mine", name=s.name, cards=self.cards(a["cards"]), claim=claim)
        if a.get("size") is not None and a.get("size") != a.get("count"):
            return self("log.set_laid_size", name=s.name, claim=claim, size=a["size"])
        return self("log.set_laid", name=s.name, claim=claim)

    def _log_none_declared(self, s: Said) -> str:
        return self("log.none_declared", name=s.name, rank=self.rank_plural(s.args.get("rank")))

    def _log_set_held(self, s: Said) -> str:
        return self("log." + s.key, claim=self.claim(s.args.get("count"), s.args.get("rank")))

    def _log_set_returned(self, s: Said) -> str:
        return self("log.set_returned", cards=self.cards(s.args.get("cards")))

    def _log_set_revealed(self, s: Said) -> str:
        a = s.args
        verdict = self("true") if a.get("claim_true") else self("false")
        cards = self.cards(a.get("cards"))
        if a.get("none"):
            rank = self.rank_plural(a.get("rank"))
            return self("log.set_revealed_none", name=s.name, rank=rank, cards=cards, verdict=verdict)
        claim = self.claim(a.get("count"), a.get("rank"))
        return self("log.set_revealed", cards=cards, claim=claim, verdict=verdict)

    def _log_pile_taken(self, s: Said) -> str:
        if s.args.get("count") is None:
            return self("log.pile_taken_hidden", name=s.name)
        return self("log.pile_taken", name=s.name, count=self.n_cards(s.args["count"]))

    def _log_pile_discarded(self, s: Said) -> str:
        return self("log.pile_discarded", count=self.n_cards(s.args.get("count") or 0))

    def _log_quads_discarded(self, s: Said) -> str:
        ranks, count = s.args.get("ranks"), s.args.get("count") or 1
        shown = ", ".join(self.rank_plural(r) for r in ranks or ())
        if ranks:
            quads = (
                self("quads.shown", ranks=shown)
                if count == 1
                else self("quads.many", count=count, ranks=shown)
            )
        else:
            quads = self("quads.hidden") if count == 1 else self("quads.hidden_many", count=count)
        return self("log.quads_discarded", name=s.name, quads=quads)

    def _log_quads_window_closed(self, s: Said) -> str:
        seat = s.args.get("seat")
        if seat == s.names.seat and s.names.seat is not None:
            return self("log.quads_window_closed_you")
        return self("log.quads_window_closed", name=self.seat_name(s.names, seat, you=False))

    def _log_stock_drawn(self, s: Said) -> str:
        return self("log.stock_drawn", name=s.name, count=self.n_cards(s.args.get("count") or 0))

    def _log_dealer_drawn(self, s: Said) -> str:
        rounds = [
            ", ".join(f"{self.seat_name(s.names, seat)} {self.card(card)}" for seat, card in draw)
            for draw in s.args.get("draws") or ()
        ]
        draws = f"; {self('draw_again')}: ".join(rounds) or self.glyph("dash")
        return self("log.dealer_drawn", name=s.name, draws=draws)

    def _log_error(self, s: Said) -> str:
        return self("log.error", msg=s.args.get("msg") or s.args.get("code"))

    def _log_bye(self, s: Said) -> str:
        reason = str(s.args.get("reason") or "")
        key = "log.bye." + reason
        return self(key) if key in self.table else self("log.bye", reason=self.safe(reason))

    def _log_conn(self, s: Said) -> str:
        """``conn_*`` and ``fresh``: the connection's news, with its reason."""
        return self("log." + s.key, reason=self.safe(str(s.args.get("reason") or self.glyph("dash"))))

    def _log_deal_ended(self, s: Said) -> str:
        a, names = s.args, s.names
        order = ", ".join(self.seat_name(names, x) for x in a.get("out") or ()) or self.glyph("dash")
        if a.get("loser") is not None:
            return self("log.deal_ended_loser", name=self.seat_name(names, a["loser"]), order=order)
        if a.get("winner") is not None:
            return self("log.deal_ended_winner", name=self.seat_name(names, a["winner"]))
        return self("log.deal_ended")

    def _log_match_ended(self, s: Said) -> str:
        scores = ", ".join(
            f"{self.seat_name(s.names, i)} {v}" for i, v in enumerate(s.args.get("scores") or ())
        )
        return self("log.match_ended", scores=scores or self.glyph("dash"))

    def _log_match_started(self, s: Said) -> str:
        deals = s.args.get("deals")
        if isinstance(deals, int):
            return self("log.match_started_n", deals=self.count(deals, "deals"))
        return self("log.match_started")

    def _log_table_closed(self, s: Said) -> str:
        return self("log.table_closed", reason=self.safe(str(s.args.get("reason") or self.glyph("dash"))))

    def _log_player_out(self, s: Said) -> str:
        return self("log.player_out", name=s.name, place=s.args.get("place"))

    def _log_fair_bad(self, s: Said) -> str:
        return self("log.fair_bad", problem=self.fair_problem(s.args.get("problem")))

    def _log_spectators(self, s: Said) -> str:
        return self("log." + s.key, watchers=self.count(int(s.args.get("n") or 0), "watchers"))

    def _log_recap(self, s: Said) -> str:
        return self.recap(s.names, s.args)

    def _log_undone(self, s: Said) -> str:
        return self("log.undone", lines=self.count(int(s.args.get("n") or 0), "lines"))

    def _log_other(self, s: Said) -> str:
        """A kind with no reader of its own: ``log.<kind>`` with the line's arguments."""
        rest = {k: v for k, v in s.args.items() if k not in ("seat", "name")}
        return self("log." + s.key, name=s.name, **rest)

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


LogReader = Callable[[Texts, Said], str]

# The readers of the kinds of log line, by kind; "conn_" stands for every ``conn_*`` kind.
LOG_KINDS: dict[str, LogReader] = {
    "joined": Texts._log_joined,
    "player_joined": Texts._log_player_joined,
    "player_left": Texts._log_player_left,
    "removed": Texts._log_removed,
    "seat_changed": Texts._log_seat_changed,
    "deal_started": Texts._log_deal_started,
    "set_laid": Texts._log_set_laid,
    "none_declared": Texts._log_none_declared,
    "set_held": Texts._log_set_held,
    "set_held_quads": Texts._log_set_held,
    "set_returned": Texts._log_set_returned,
    "set_revealed": Texts._log_set_revealed,
    "pile_taken": Texts._log_pile_taken,
    "pile_discarded": Texts._log_pile_discarded,
    "quads_discarded": Texts._log_quads_discarded,
    "quads_window_closed": Texts._log_quads_window_closed,
    "stock_drawn": Texts._log_stock_drawn,
    "dealer_drawn": Texts._log_dealer_drawn,
    "error": Texts._log_error,
    "bye": Texts._log_bye,
    "conn_": Texts._log_conn,
    "fresh": Texts._log_conn,
    "deal_ended": Texts._log_deal_ended,
    "match_ended": Texts._log_match_ended,
    "match_started": Texts._log_match_started,
    "table_closed": Texts._log_table_closed,
    "player_out": Texts._log_player_out,
    "fair_bad": Texts._log_fair_bad,
}

# The readers of kinds that read ``log.<kind>_you`` first when the line is about one's own seat.
LOG_KINDS_NOT_MINE: dict[str, LogReader] = {
    "spectators_more": Texts._log_spectators,
    "spectators_fewer": Texts._log_spectators,
    "recap": Texts._log_recap,
    "undone": Texts._log_undone,
}
