"""The screens of the terminal client: lobby and table, drawn from the controller on every redraw.

Everything here reads ``Controller`` (the model state and the cursor) through callables, so a
resize or a new message only redraws. Nothing relies on colour alone: the cursor card is in
brackets with ``^`` under it, a selected card has ``*`` before it, the player to act has ``>``
(readable with ``NO_COLOR``). Below ``MIN_WIDTH`` × ``MIN_HEIGHT`` the screen says so instead.
"""

from __future__ import annotations

import math
import textwrap

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    D,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import TextArea

from neveryu import engine

from .controller import Controller
from .texts import RED_SUITS

MIN_WIDTH = 64
MIN_HEIGHT = 20
CELL = 5  # one card in the hand: mark, up to 3 characters of card, space

STYLE = Style.from_dict(
    {
        "title": "bold reverse",
        "box": "",
        "box.title": "bold",
        "red": "ansired",
        "cursor": "reverse",
        "selected": "bold underline",
        "mine": "bold",
        "turn": "bold",
        "warn": "bold ansired",
        "good": "bold ansigreen",
        "key": "bold reverse",
        "dim": "ansigray",
        "dialog": "reverse",
        "message": "bold",
    }
)


class Screen:
    """Builds the prompt-toolkit ``Layout`` for ``c``; ``chat_input`` is the chat's text field."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self.t = c.t
        asks_password = Condition(
            lambda: c.dialog is not None and c.dialog.data.get("password_for") is not None
        )
        self.chat_input = TextArea(
            multiline=False,
            prompt=self._input_prompt,
            accept_handler=self._chat_accept,
            password=asks_password,
        )
        self._cache: dict = {}
        # The header holds the focus while no text field is open, so typed keys never land in a
        # hidden field; the chat field takes it while open.
        self.header = Window(
            FormattedTextControl(self._header_text, focusable=True, show_cursor=False),
            height=1,
            style="class:title",
        )
        self.layout = Layout(self._root(), focused_element=self.header)
        c.on_open_chat = self.focus_chat
        c.on_close_chat = self.unfocus_chat

    # -- structure --------------------------------------------------------------------------

    def _root(self):
        body = DynamicContainer(self._current)
        chat_box = ConditionalContainer(
            self.chat_input,
            filter=Condition(lambda: self.c.dialog is not None and self.c.dialog.kind == "chat"),
        )
        dialog = ConditionalContainer(
            _box(
                self.t,
                "neveryu",
                Window(
                    FormattedTextControl(self._dialog_text),
                    wrap_lines=True,
                    width=D(preferred=66, max=76),
                    dont_extend_height=True,
                ),
            ),
            filter=Condition(lambda: self.c.dialog is not None and self.c.dialog.kind not in ("chat",)),
        )
        return FloatContainer(
            HSplit([self.header, body, chat_box]),
            floats=[Float(content=dialog, transparent=False)],
        )

    def _current(self):
        width, height = _size()
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            return Window(
                FormattedTextControl(
                    lambda: [
                        ("class:warn", self.t("too_small", w=width, h=height, mw=MIN_WIDTH, mh=MIN_HEIGHT))
                    ]
                ),
                wrap_lines=True,
            )
        screen = self.c.state.screen
        key = (screen, max(len(self.c.state.seats), self.c.state.players, 4) if screen == "table" else 0)
        if key not in self._cache:
            builder = {"table": "_table_screen", "lobby": "_lobby_screen"}.get(screen, "_connecting_screen")
            self._cache[key] = getattr(self, builder)
        return self._cache[key]

    def _input_prompt(self):
        d = self.c.dialog
        if d is not None and d.data.get("password_for") is not None:
            return [("class:key", self.t("ask.password", table=d.data["password_for"]))]
        return [("class:key", self.t("ask.chat"))]

    def focus_chat(self) -> None:
        self.chat_input.text = ""
        self.layout.focus(self.chat_input)

    def unfocus_chat(self) -> None:
        if self.layout.has_focus(self.chat_input):
            self.layout.focus(self.header)

    def _chat_accept(self, buffer) -> bool:
        self.c.send_chat(buffer.text)
        return False

    # built once, redrawn from callables
    @property
    def _connecting_screen(self):
        return HSplit([Window(FormattedTextControl(self._connecting_text))])

    @property
    def _lobby_screen(self):
        self.lobby_log_window = Window(FormattedTextControl(self._log_text), height=D(min=3, max=6))
        return HSplit(
            [
                _box(self.t, self.t("lobby"), Window(FormattedTextControl(self._lobby_text))),
                _box(self.t, self.t("log"), self.lobby_log_window),
                Window(FormattedTextControl(self._message_text), height=1),
                Window(FormattedTextControl(lambda: [("", self.t("lobby.keys"))]), height=1),
            ]
        )

    def _top_height(self):
        s = self.c.state
        players = max(len(s.seats), s.players)
        rows = max(min(players, 8), 7 if s.over and s.result else 4)
        return D.exact(rows + 2)

    @property
    def _table_screen(self):
        self.log_window = Window(FormattedTextControl(self._log_text))
        self.chat_window = Window(FormattedTextControl(self._chat_text))
        top = VSplit(
            [
                _box(
                    self.t,
                    self.t("players"),
                    Window(FormattedTextControl(self._players_text)),
                    width=D(preferred=38, max=40),
                ),
                _box(
                    self.t, self.t("table"), Window(FormattedTextControl(self._table_text), wrap_lines=True)
                ),
            ],
            height=self._top_height,
        )
        middle = VSplit(
            [
                _box(self.t, self.t("log"), self.log_window),
                _box(self.t, self.t("chat"), self.chat_window, width=D(preferred=30, max=34)),
            ]
        )
        hand = _box(
            self.t, self.t("hand"), Window(FormattedTextControl(self._hand_text), height=self._hand_height)
        )
        return HSplit(
            [
                top,
                middle,
                hand,
                Window(FormattedTextControl(self._message_text), height=1),
                Window(FormattedTextControl(self._actions_text), height=D(min=1, max=3), wrap_lines=True),
            ]
        )

    # -- texts --------------------------------------------------------------------------------

    def _header_text(self):
        s, t = self.c.state, self.t
        parts = [" neveryu"]
        if s.server_name:
            parts.append(s.server_name)
        if s.screen == "table" and s.table:
            variant = s.table.get("variant") or s.variant
            rules = engine.VARIANTS.get(variant)
            if rules is not None:
                variant = f"{variant} «{rules.title}»" if not t.ascii else variant
            if s.deal_no:
                parts.append(t("head", table=s.table.get("id"), variant=variant, deal=s.deal_no))
            else:
                parts.append(t("head.nodeal", table=s.table.get("id"), variant=variant))
        left = " · ".join(parts) if not t.ascii else " | ".join(parts)
        conn = t("conn." + s.connection) if s.connection != "connected" else ""
        width, _ = _size()
        pad = max(1, width - len(left) - len(conn) - 1)
        return [("", left + " " * pad), ("class:warn" if conn else "", conn)]

    def _connecting_text(self):
        s = self.c.state
        lines = [("", "\n  " + self.t("conn." + s.connection) + "\n")]
        if s.bye:
            lines.append(("class:warn", "  " + s.bye + "\n"))
        for line in s.log[-5:]:
            lines.append(("", "  " + self.t.log_line(s, line) + "\n"))
        return lines

    def _lobby_text(self):
        s, t = self.c.state, self.t
        out = [("class:box.title", t("lobby.server", name=s.server_name or "?") + "\n\n")]
        if not s.tables:
            out.append(("", t("lobby.none")))
            return out
        out.append(("class:dim", t("lobby.head") + "\n"))
        for i, table in enumerate(s.tables):
            seats = table.get("seats") or []
            taken = sum(1 for x in seats if x.get("name") or x.get("bot"))
            names = ", ".join(
                t("bot_n", n=x.get("seat", 0) + 1) if x.get("bot") else (x.get("name") or "·") for x in seats
            )
            state = t("state." + str(table.get("state", "waiting")))
            mark = ">" if i == self.c.lobby_cursor else " "
            lock = "*" if table.get("password") else " "
            line = (
                f"{mark} {table.get('id')!s:>2}{lock} {table.get('variant')!s:<13}"
                f" {taken}/{len(seats):<3} {state:<9} {names}"
            )
            out.append(("class:cursor" if i == self.c.lobby_cursor else "", line + "\n"))
        return out

    def _players_text(self):
        s, t = self.c.state, self.t
        out = []
        seats = s.seats or [{"seat": i} for i in range(s.players)]
        for x in seats:
            seat = x.get("seat")
            turn = s.turn == seat and s.in_deal and not s.over
            mark = ">" if turn else " "
            name = t.seat_name(s, seat)
            info = []
            if seat in s.out:
                info.append(t("out_mark") + f" {s.out.index(seat) + 1}")
            elif s.hand_counts is not None and seat is not None and seat < len(s.hand_counts) and s.in_deal:
                info.append(t.n_cards(s.hand_counts[seat]))
            elif seat == s.seat and s.hand is not None and s.in_deal:
                info.append(t.n_cards(len(s.hand)))
            if seat in s.waiting and seat not in s.out:
                info.append(t("waiting_mark"))
            if s.in_deal and not s.over and s.dealer == seat:
                info.append("(" + t("dealer_mark") + ")")
            if (s.table or {}).get("state") != "playing" and x.get("ready"):
                info.append(t("seat.ready"))
            if x.get("away"):
                info.append(t("seat.away"))
            if not x.get("name") and not x.get("bot") and s.seats:
                info.append(t("seat.empty"))
            style = "class:turn" if turn else ("class:mine" if seat == s.seat else "")
            text = f"{mark} {name[:16]:<16} {' '.join(info)}"
            out.append((style, text[:38] + "\n"))
        return out

    def _table_text(self):
        s, t = self.c.state, self.t
        if not s.in_deal:
            return [("", t("waiting_players") + "\n"), ("class:dim", t("not_started"))]
        if s.over and s.result:
            return self._result_text()
        out = []
        sizes = []
        if s.pile is not None:
            sizes.append(t("pile", n=s.pile))
        else:
            sizes.append(t("pile.claimed", n=s.pile_claimed))
        sizes.append(t("discard", n=s.discard))
        if s.stock:
            sizes.append(t("stock", n=s.stock))
        out.append(("", "   ".join(sizes) + "\n"))
        if s.reveal:
            r = s.reveal
            verdict = t("reveal.true") if r["claim_true"] else t("reveal.false")
            cards = self._cards_fragments(r["cards"]) if r["cards"] else [("", "—")]
            out.append(("class:box.title", t("reveal", no=r["set_no"], name=t.seat_name(s, r["seat"])) + " "))
            out.extend(cards)
            out.append(("class:good" if r["claim_true"] else "class:warn", f" — {verdict}\n"))
        elif s.last:
            last = s.last
            if last.get("none"):
                text = t(
                    "last.none",
                    no=last["set_no"],
                    name=t.seat_name(s, last["seat"]),
                    rank=t.rank_plural(last["rank"]),
                )
            else:
                text = t(
                    "last",
                    no=last["set_no"],
                    name=t.seat_name(s, last["seat"]),
                    claim=t.claim(last["count"], last["rank"]),
                )
                if last.get("size") is not None and last.get("size") != last.get("count"):
                    text += t("last.size", n=last["size"])
            out.append(("class:box.title", text + "\n"))
        else:
            out.append(("class:dim", t("last.empty") + "\n"))
        if s.ranks and not s.over:
            out.append(("", t("claim_now", ranks=t.ranks(s.ranks)) + "\n"))
        if s.held:
            out.append(
                ("class:dim", t("held", claim=t.claim(s.held.get("count"), s.held.get("rank"))) + "\n")
            )
        if s.turn is not None:
            who = t("turn.you") if s.my_turn else t("turn", name=t.seat_name(s, s.turn))
            left = self._time_left()
            out.append(("class:turn" if s.my_turn else "", who))
            if left is not None:
                out.append(
                    (
                        "class:warn" if left <= 10 else "",
                        "  " + t("time_left", time=f"{left // 60}:{left % 60:02d}"),
                    )
                )
            out.append(("", "\n"))
        return out

    def _time_left(self) -> int | None:
        deadline = self.c.state.turn_deadline
        if deadline is None:
            return None
        return max(0, math.ceil(deadline - self.c.clock()))

    def _result_text(self):
        s, t = self.c.state, self.t
        r = s.result
        out = [("class:box.title", t("deal_over") + ". ")]
        if r.get("loser") is not None:
            out.append(("class:warn", t("loser", name=t.seat_name(s, r["loser"])) + "\n"))
        elif r.get("winner") is not None:
            out.append(("class:good", t("winner", name=t.seat_name(s, r["winner"])) + "\n"))
        else:
            out.append(("", "\n"))
        order = ", ".join(f"{i + 1}. {t.seat_name(s, seat)}" for i, seat in enumerate(r.get("out") or ()))
        out.append(("", t("out_order", order=order or "—") + "\n"))
        if s.match_scores is not None:
            scores = ", ".join(f"{t.seat_name(s, i)}: {v}" for i, v in enumerate(s.match_scores))
            out.append(("", t("scores", scores=scores) + "\n"))
        elif r.get("scores") is not None:
            scores = ", ".join(f"{t.seat_name(s, i)}: {v}" for i, v in enumerate(r["scores"]))
            out.append(("", t("deal_scores", scores=scores) + "\n"))
        fair = r.get("fair")
        key = {True: "fair.ok", False: "fair.bad", None: "fair.unknown"}[fair]
        out.append(
            ("class:good" if fair else ("class:warn" if fair is False else "class:dim"), t(key) + "\n")
        )
        return out

    def _log_text(self):
        s = self.c.state
        window = "log_window" if s.screen == "table" else "lobby_log_window"
        width = _width_of(getattr(self, window, None))
        out = []
        for line in s.log[-200:]:
            for part in _wrap(self.t.log_line(s, line), width):
                out.append(("", part + "\n"))
        return _tail(out)

    def _chat_text(self):
        s = self.c.state
        width = _width_of(getattr(self, "chat_window", None))
        out = []
        for line in s.chat[-30:]:
            who = line.name or self.t.seat_name(s, line.seat)
            parts = _wrap(f"{who}: {line.text}", width)
            out.append(("class:mine", parts[0][: len(who) + 1]))
            out.append(("", parts[0][len(who) + 1 :] + "\n"))
            out.extend(("", p + "\n") for p in parts[1:])
        return _tail(out)

    def _message_text(self):
        c = self.c
        if c.message:
            return [("class:message", c.message)]
        s = c.state
        if s.bye:
            return [("class:warn", s.bye)]
        if s.screen == "table" and c.state.seat_info().get("away"):
            return [("class:warn", self.t("away"))]
        return []

    # -- the hand -----------------------------------------------------------------------------

    def _per_row(self) -> int:
        width, _ = _size()
        return max(4, (width - 4) // CELL)

    def _hand_height(self) -> int:
        n = len(self.c.hand)
        return 2 * max(1, math.ceil(n / self._per_row()))

    def _card_fragment(self, card: str, style: str = ""):
        text = self.t.card(card)
        red = not self.t.ascii and card[1:] in RED_SUITS
        return (style + (" class:red" if red else ""), text)

    def _cards_fragments(self, cards):
        out = []
        for i, card in enumerate(cards):
            if i:
                out.append(("", " "))
            out.append(self._card_fragment(card))
        return out

    def _hand_text(self):
        c, s = self.c, self.c.state
        if s.hand is None:
            return [("class:dim", self.t("spectating") if s.seat is None else self.t("not_started"))]
        hand = c.hand
        per = self._per_row()
        out = []
        for start in range(0, max(1, len(hand)), per):
            row = range(start, min(start + per, len(hand)))
            marks = []
            for i in row:
                selected = i in c.selected
                cursor = i == c.cursor
                mark = "*" if selected else " "
                style = "class:cursor" if cursor else ("class:selected" if selected else "")
                text = self.t.card(hand[i])
                out.append(("class:selected" if selected else "", mark))
                frag_style, _ = self._card_fragment(hand[i], style)
                out.append((frag_style, f"{text:>3}"))
                out.append(("", " "))
                marks.append(" ^^^ " if cursor else "     ")
            out.append(("", "\n"))
            out.append(("class:dim", "".join(marks) + "\n"))
        return out

    # -- actions ------------------------------------------------------------------------------

    def _actions_text(self):
        c, s, t = self.c, self.c.state, self.t
        keys: list[str] = []
        legal = c.legal
        if s.screen == "table":
            lay = legal.get("lay")
            if lay:
                ranks = t.ranks(lay.get("ranks"))
                lo, hi = lay.get("min"), lay.get("max")
                keys.append(t("keys.select"))
                keys.append(
                    t("keys.lay1", lo=lo, ranks=ranks)
                    if lo == hi
                    else t("keys.lay", lo=lo, hi=hi, ranks=ranks)
                )
            if legal.get("challenge") is not None:
                keys.append(t("keys.challenge"))
            if legal.get("believe") is not None:
                keys.append(t("keys.believe"))
            if legal.get("declare_none") is not None:
                keys.append(t("keys.declare", rank=t.rank_plural(legal["declare_none"])))
            if legal.get("discard_quads"):
                keys.append(t("keys.quads"))
            ready = c.ready_action()
            if ready:
                keys.append(t("keys." + ready))
            if not keys and s.in_deal and not s.over and s.turn is not None and s.seat is not None:
                keys.append("~" + t("keys.wait", name=t.seat_name(s, s.turn)))
        out = []
        width, _ = _size()
        used = 0
        for k in keys + ["\n"] + t("keys.common").split("  "):
            if k == "\n":
                if used:
                    out.append(("", "\n"))
                used = 0
                continue
            key, _, rest = k.partition(" ")
            if k.startswith("~"):  # a note, not a key
                key, rest = "", k[1:]
            if used and used + len(k) + 3 > width:
                out.append(("", "\n"))
                used = 0
            if used:
                out.append(("", "   "))
                used += 3
            if key:
                out.append(("class:key", key))
                rest = " " + rest
            out.append(("class:dim" if not key else "", rest))
            used += len(k)
        return out

    # -- dialogs ------------------------------------------------------------------------------

    def _dialog_text(self):
        c, t = self.c, self.t
        d = c.dialog
        if d is None:
            return []
        if d.kind == "help":
            return [("", t("help"))]
        if d.kind == "quit":
            key = "ask.quit" if c.playing() else "ask.quit_app"
            return [("", " " + t(key) + " ")]
        if d.kind in ("rank", "count"):
            out = [("", " " + t("ask." + d.kind) + "\n\n ")]
            for i, option in enumerate(d.options):
                label = t.rank(option) if d.kind == "rank" else str(option)
                mark = f"[{label}]" if i == d.index else f" {label} "
                out.append(("class:cursor" if i == d.index else "", mark))
            chosen = d.options[d.index]
            cards = len(d.data.get("cards") or ())
            claim = t.claim(cards, chosen) if d.kind == "rank" else t.claim(chosen, d.data.get("rank"))
            out.append(("bold", "\n\n  → " + claim + "\n"))
            return out
        if d.kind == "create":
            f = c.form
            out = [("bold", " " + t("create") + "\n\n")]
            for i, name in enumerate(f.fields()):
                label = t("create." + name) if name in ("variant", "players", "bots", "strength") else name
                value = f.value(name)
                if name == "variant":
                    value = f"{value} — {engine.VARIANTS[value].title}"
                line = f" {'>' if i == f.field else ' '} {label:<14} < {value} >\n"
                out.append(("bold" if i == f.field else "", line))
            out.append(("", "\n " + t("create.keys")))
            return out
        return []


def _box(t, title: str, body, width=None):
    """A titled frame (box-drawing lines, or ASCII ones with ``--ascii``)."""
    if t.ascii:
        h, v, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
    else:
        h, v, tl, tr, bl, br = "─", "│", "┌", "┐", "└", "┘"
    top = VSplit(
        [
            Window(width=1, height=1, char=tl, style="class:box"),
            Window(
                FormattedTextControl([("class:box.title", f" {title} ")]), height=1, dont_extend_width=True
            ),
            Window(height=1, char=h, style="class:box"),
            Window(width=1, height=1, char=tr, style="class:box"),
        ],
        height=1,
    )
    middle = VSplit(
        [
            Window(width=1, char=v, style="class:box"),
            body,
            Window(width=1, char=v, style="class:box"),
        ]
    )
    bottom = VSplit(
        [
            Window(width=1, height=1, char=bl, style="class:box"),
            Window(height=1, char=h, style="class:box"),
            Window(width=1, height=1, char=br, style="class:box"),
        ],
        height=1,
    )
    return HSplit([top, middle, bottom], width=width)


def _width_of(window) -> int:
    """The width ``window`` had when last drawn (text is wrapped to it), or 40."""
    info = getattr(window, "render_info", None)
    return info.window_width if info is not None else 40


def _wrap(text: str, width: int) -> list[str]:
    """Word-wrap one line of the log or chat; lines after the first are indented."""
    return textwrap.wrap(text, max(10, width), subsequent_indent="  ", break_long_words=True) or [""]


def _size() -> tuple[int, int]:
    try:
        size = get_app().output.get_size()
        return size.columns, size.rows
    except Exception:  # no running application (tests of single texts)
        return 100, 40


def _tail(fragments, keep: int = 200):
    """Keep the text's end in view: the last ``keep`` lines, with the (hidden) cursor at the end so
    the window scrolls there."""
    lines: list[list] = [[]]
    for style, text in fragments:
        parts = text.split("\n")
        for j, part in enumerate(parts):
            if j:
                lines.append([])
            if part:
                lines[-1].append((style, part))
    if lines and not lines[-1]:
        lines.pop()
    lines = lines[-keep:]
    out = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    out.append(("[SetCursorPosition]", ""))
    return out
