"""The table's parts of the screen: the players beside the table (pile, last set, what a
challenge turned up), what a table between deals waits for, and a deal's result."""

from __future__ import annotations

import math
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from .layout_common import Regions, deal_of, screen_size
from .status import table_waiting, waiting_text
from .wrap import Line, fit

NAME_WHOLE = 16
"""Columns of a player's name kept whole before the word "cards" and his least needed tags (host,
a bot's level, dealer) go; past it, and past 8, the name is cut first."""


_Tag = tuple[int, str, str]
"""A seat's tag: (keep: higher stays longer when space is short, style, text)."""

_Row = tuple[Any, str, str, list[_Tag], bool]
"""A seat's facts for its cell (``TableRegions._player_row``)."""


def _tag_slots(rows: list[_Row], floor: int) -> dict[int, int]:
    """Each kind of tag (its keep tells it) above ``floor`` has a column of its own, as wide as
    its widest: keep -> columns, the most kept first."""
    widths: dict[int, int] = {}
    for r in rows:
        for keep, _, text in r[3]:
            if keep > floor:
                widths[keep] = max(widths.get(keep, 0), get_cwidth(text))
    return dict(sorted(widths.items(), reverse=True))


class TableRegions(Regions):
    def _player_rows(self) -> tuple[int, int]:
        """(rows, columns) of the players' list: one column while it fits the height left."""
        _, height = screen_size()
        n = max(len(self.c.state.seats), self.c.state.players, 2)
        budget = max(3, height - 14)
        columns = math.ceil(n / budget)
        return math.ceil(n / columns), columns

    def _players_lines(self, width: int, height: int) -> list[Line]:
        s = self.c.state
        seats = s.seats or [{"seat": i} for i in range(s.players)]
        rows, columns = self._player_rows()
        col = max(8, (width - (columns - 1)) // columns)
        cells = self._player_cells(seats, col)
        out: list[Line] = []
        for r in range(rows):
            line: Line = []
            for k in range(columns):
                i = k * rows + r
                if i < len(cells):
                    if k:
                        line.append(("", " "))
                    line.extend(cells[i])
            out.append(line)
        return out

    def _player_cells(self, seats: list[dict[str, Any]], width: int) -> list[Line]:
        """Each seat in ``width`` columns, aligned: the turn mark, the name, the cards held (or
        the place when out), then tags (away or absent, free, ready, dealer, a bot's level, host). When
        space is short the name is cut first, then the counts lose their word ("13" for "13
        cards"), then the least needed tags go; "away", "absent" and "out" stay, and at 64 columns the
        dealer's tag too."""
        s, t = self.c.state, self.t
        playing = (s.table or {}).get("state") == "playing"
        rows = [self._player_row(x, playing) for x in seats]
        counts = [_count_parts(r[2]) for r in rows]
        num_w = max((get_cwidth(n) for n, _ in counts), default=0)
        long = [(n.rjust(num_w) + " " + word if n else word) for n, word in counts]
        short = [(n.rjust(num_w) if n else word) for n, word in counts]
        # Drop the counts' word, then tags of keep <= floor, until the names are whole (up to
        # NAME_WHOLE columns), and if they cannot be, until they keep 8 columns.
        whole = min(NAME_WHOLE, max((get_cwidth(r[1]) for r in rows), default=8))
        tries = [
            (need, floor, shown)
            for need in (max(8, whole), 8)
            for floor in (0, 1, 2, 3, 4, 8)
            for shown in (long, short)
        ]
        for need, floor, shown in tries:
            count_w = max((get_cwidth(c) for c in shown), default=0)
            tags_w = sum(w + 1 for w in _tag_slots(rows, floor).values())
            if 2 + need + 1 + count_w + tags_w <= width:
                break
        kept = _tag_slots(rows, floor)
        name_w = max(1, width - 2 - (count_w + 1 if count_w else 0) - tags_w)
        ell = t.glyph("ellipsis")
        cells: list[Line] = []
        for (seat, name, _count, tags, turn), count in zip(rows, shown):
            style = "class:turn" if turn else ("class:mine" if seat == s.seat else "")
            line: Line = [(style, (t.glyph("turn") if turn else " ") + " " + fit(name, name_w, ell))]
            if count_w:
                line.append(("class:good" if seat in s.out else "", " " + count.ljust(count_w)))
            by_keep = {keep: (tag_style, text) for keep, tag_style, text in tags}
            for keep, slot_w in kept.items():
                tag_style, text = by_keep.get(keep, ("", ""))
                line.append(("", " "))
                line.append((tag_style, text.ljust(slot_w)))
            cells.append(line)
        return cells

    def _player_row(self, x: dict[str, Any], playing: bool) -> _Row:
        """One seat's facts for its cell: (seat, name, cards held or place, tags, whose turn).
        ``playing``: the table's match is on (nobody's "ready" is shown)."""
        s, t = self.c.state, self.t
        seat = x.get("seat")
        name = t.seat_name(s, seat)
        count = ""
        if seat in s.out:
            count = t("out_place", place=s.out.index(seat) + 1)
        elif s.playing and s.hand_counts is not None and isinstance(seat, int) and seat < len(s.hand_counts):
            count = t.n_cards(s.hand_counts[seat])
        elif s.playing and seat == s.seat and s.hand is not None:
            count = t.n_cards(len(s.hand))
        tags: list[_Tag] = []
        if x.get("away"):
            tags.append((9, "class:warn", t("seat.away")))
        elif x.get("absent"):
            tags.append((9, "class:warn", t("seat.absent")))
        if not x.get("name") and not x.get("bot") and s.seats:
            tags.append((8, "class:dim", t("seat.empty")))
        if not playing and x.get("ready") and not x.get("bot"):
            tags.append((4, "class:good", t("seat.ready")))
        if s.playing and s.dealer == seat:
            tags.append((3, "class:dim", t("dealer_mark")))
        if x.get("bot"):
            tags.append((2, "class:dim", t.level(str(x["bot"]))))
        if "host" in (s.table or {}) and (s.table or {}).get("host") == seat:
            tags.append((1, "class:dim", t("host_mark")))
        return seat, name, count, tags, s.playing and s.turn == seat

    def _table_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        if not s.in_deal:
            return self._waiting_text()
        if s.over and s.result:
            return self._result_text()
        out: StyleAndTextTuples = []
        sizes = [t("pile", n=s.pile) if s.pile is not None else t("pile.claimed", n=s.pile_claimed)]
        sizes.append(t("discard", n=s.discard))
        if s.stock:
            sizes.append(t("stock", n=s.stock))
        out.append(("", f" {t.glyph('dot')} ".join(sizes) + "\n"))
        if s.reveal:
            r = s.reveal
            verdict = t("reveal.true") if r["claim_true"] else t("reveal.false")
            who = t.seat_name(s, r["seat"])
            if r.get("none"):
                claim = t("claim.none", rank=t.rank_plural(r["rank"]))
            else:
                claim = t.claim(r["count"], r["rank"])
            out.append(("class:rule.title", t("reveal", no=r["set_no"], name=who, claim=claim) + " "))
            out.extend(self._cards_fragments(r["cards"]) if r["cards"] else [("", t("nothing"))])
            out.append(("class:good" if r["claim_true"] else "class:warn", f" {t.glyph('dash')} {verdict}\n"))
        elif s.last:
            last = s.last
            who = t.seat_name(s, last["seat"])
            if last.get("none"):
                claim = t("claim.none", rank=t.rank_plural(last["rank"]))
            else:
                claim = t.claim(last["count"], last["rank"])
                if last.get("size") is not None and last.get("size") != last.get("count"):
                    claim += t("last.size", n=last["size"])
            out.append(("class:rule.title", t("last", no=last["set_no"], name=who, claim=claim) + "\n"))
        else:
            out.append(("class:dim", t("last.empty") + "\n"))
        if s.held:
            out.append(
                ("class:dim", t("held", claim=t.claim(s.held.get("count"), s.held.get("rank"))) + "\n")
            )
        if s.dealer is not None:
            out.append(("class:dim", t("dealer_is", name=t.seat_name(s, s.dealer)) + "\n"))
        return out

    def _waiting_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        table = s.table or {}
        out: StyleAndTextTuples = []
        about = [t.variant_name(str(table.get("variant") or s.variant))]
        turn_ms = table.get("turn_ms")
        about.append(
            t("about.turn", s=turn_ms // 1000) if isinstance(turn_ms, int) and turn_ms else t("about.untimed")
        )
        if isinstance(table.get("deals"), int):
            about.append(t("about.deals", n=table["deals"], deals=t.count(table["deals"], "deals")))
        if table.get("password"):
            about.append(t("about.password"))
        if table.get("seeded"):
            about.append(t("about.seeded"))
        if table.get("reveal_after_deal"):
            about.append(t("about.reveal"))
        out.append(("", f" {t.glyph('dot')} ".join(about) + "\n"))
        if s.match_over is None:
            key, _ = table_waiting(s)
            if key == "wait.seats":
                address = self.c.address
                local = not address or address.startswith(("127.", "localhost", "[::1]"))
                how = t("wait.how_local") if local else t("wait.how", command=f"neveryu join {address}")
                out.append(("class:dim", how + "\n"))
            else:
                out.append(("class:turn", waiting_text(t, s) + "\n"))
        else:
            out.append(("class:dim", t("scores.again") + "\n"))
        return out

    def _result_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        r = s.result or {}
        deals = (s.table or {}).get("deals")
        out: StyleAndTextTuples = [("class:rule.title", t("deal_over", deal=deal_of(s.deal_no, deals)) + " ")]
        if r.get("loser") is not None:
            out.append(("class:warn", t("loser", name=t.seat_name(s, r["loser"])) + "\n"))
        elif r.get("winner") is not None:
            out.append(("class:good", t("winner", name=t.seat_name(s, r["winner"])) + "\n"))
        else:
            out.append(("", "\n"))
        order = ", ".join(f"{i + 1}. {t.seat_name(s, seat)}" for i, seat in enumerate(r.get("out") or ()))
        out.append(("", t("out_order", order=order or t("nothing")) + "\n"))
        fair, status = r.get("fair"), r.get("fair_status")
        key = FAIR_PANEL.get(str(status)) or {True: "fair.ok", False: "fair.bad", None: "fair.unknown"}[fair]
        problems = r.get("fair_problems") or ("commitment",)
        text = t(key, problem=t.fair_problem(problems[0])) if fair is False else t(key)
        style = (
            "class:warn"
            if fair is False or status == "unprotected"
            else "class:good"
            if fair
            else "class:dim"
        )
        out.append((style, text + "\n"))
        if (s.table or {}).get("state") == "playing" and s.match_over is None and self.c.replay is None:
            out.append(("class:dim", t("next_deal") + "\n"))
        return out


FAIR_PANEL = {
    "fair": "fair.fair",
    "checked": "fair.checked",
    "seeded": "fair.seeded",
    "unprotected": "fair.unprotected",
    "committed": "fair.ok",
    "bad": "fair.bad",
    "unknown": "fair.unknown",
}
"""The deal's-end line of each fair-deal verdict (client/fairdeal.py, ``STATUSES``)."""


def _count_parts(count: str) -> tuple[str, str]:
    """``13 cards`` as ``("13", "cards")``, to line the numbers up; ``out 3`` as ``("", "out 3")``."""
    number, _, word = count.partition(" ")
    return (number, word) if number.isdigit() else ("", count)
