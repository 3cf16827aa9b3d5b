"""The screens of the terminal client: lobby and table, drawn from the controller.

Designed for the smallest size allowed, 64×20, first. From the top, the table screen holds:
the header (table, variant, "deal 3/5", the link), the status line (whose turn, the claim, the
time left: client/ui/status.py), the players beside the table (pile, last set, what a
challenge turned up), the log beside the chat, the hand, a notice line (why a key did nothing,
why only this now: client/ui/moments.py), and the key bar. The status line, the hand, the
notice and the key bar always get their rows; the log and chat take what is left, so a small
terminal loses log lines first and never whose turn it is or the keys.

Everything reads ``Controller`` through callables, so a resize or a new message only redraws.
Nothing relies on colour alone: the cursor card is in brackets, a selected card has ``*``, the
seat to act has ``▶`` (``>`` in ASCII). Text that may be long wraps at word boundaries
(client/ui/wrap.py). Below ``MIN_WIDTH`` × ``MIN_HEIGHT`` the screen says so instead.

The regions are drawn in parts, one module each, mixed into ``Screen``: ``layout_table`` (the
players, the table, a deal's result), ``layout_hand`` (the hand), ``layout_lobby`` (the lobby);
``layout_common`` holds what they share. This module puts them together: the structure, the
sizes, the header, the status line, the log and chat, the notice, the key bar and the dialogs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    D,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    Layout,
    Window,
)
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth
from prompt_toolkit.widgets import TextArea

from . import keybar
from .controller import Controller
from .layout_common import (
    CELL,
    MIN_HEIGHT,
    MIN_WIDTH,
    HSplit,
    VSplit,
    cut_line,
    per_render,
    screen_size,
    too_small,
)
from .layout_hand import HandRegions
from .layout_lobby import LobbyRegions
from .layout_table import FAIR_PANEL, TableRegions
from .moments import moment
from .status import status
from .wrap import Drawn, Line, TextView, fit, wrap

__all__ = ["FAIR_PANEL", "MIN_HEIGHT", "MIN_WIDTH", "STYLE", "Screen"]

NOTICE_LINES = 3
CHAT_LINES = 4  # a chat message shows in at most about this many lines, cut with an ellipsis
FILL = D(preferred=0)  # a pane that takes the room left, whatever its text: nothing to measure
KEY_LINES = 3

STYLE = Style.from_dict(
    {
        "title": "reverse",
        "title.strong": "reverse bold",
        "rule": "",
        "rule.title": "bold",
        "red": "ansired",
        "cursor": "reverse",
        "selected": "bold underline",
        "mine": "bold",
        "turn": "bold",
        "myturn": "bold reverse",
        "time": "bold",
        "warn": "bold ansired",
        "good": "bold ansigreen",
        "key": "bold reverse",
        "dim": "ansigray",
        "dialog": "",
        "message": "bold",
        "notice.why": "",
    }
)


class Screen(TableRegions, HandRegions, LobbyRegions):
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
        self._cache: dict[Any, AnyContainer] = {}
        self._log_kept: tuple[tuple[Any, ...], StyleAndTextTuples] | None = None  # (_log_text)
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

    def _root(self) -> FloatContainer:
        body = DynamicContainer(self._current)
        chat_box = ConditionalContainer(
            self.chat_input,
            filter=Condition(lambda: self.c.dialog is not None and self.c.dialog.kind == "chat"),
        )
        dialog = ConditionalContainer(
            self._box(
                lambda: self._dialog_title(),
                Window(self._view(self._dialog_text, scroll=self.c.dialog_scroll, on_scroll=self._redraw)),
            ),
            filter=Condition(
                lambda: (
                    self.c.dialog is not None
                    and self.c.dialog.kind not in ("chat", "confirm")
                    and not too_small()
                )
            ),
        )
        return FloatContainer(
            HSplit([self.header, body, chat_box]),
            floats=[  # under the header, above the key bar (which shows the dialog's keys)
                Float(
                    content=dialog,
                    top=1,
                    width=self._dialog_width,
                    height=self._dialog_height,
                    transparent=False,
                )
            ],
        )

    def _redraw(self) -> None:
        self.c.invalidate()

    def _view(self, fragments: Callable[[], StyleAndTextTuples], **kw: Any) -> TextView:
        """Word-wrapped text, as this terminal can show it."""
        return TextView(fragments, safe=self.t.safe, **kw)

    def _drawn(self, draw: Callable[[int, int], list[Line]]) -> Drawn:
        """Text drawn for its size, as this terminal can show it."""
        return Drawn(draw, safe=self.t.safe)

    def _current(self) -> AnyContainer:
        if too_small():
            width, height = screen_size()
            text = self.t("too_small", w=width, h=height, mw=MIN_WIDTH, mh=MIN_HEIGHT)
            return Window(self._view(lambda: [("class:warn", text)]))
        s = self.c.state
        key = s.screen
        if key not in self._cache:
            builder = {"table": self._table_screen, "lobby": self._lobby_screen}.get(
                key, self._connecting_screen
            )
            self._cache[key] = builder()
        return self._cache[key]

    def _input_prompt(self) -> StyleAndTextTuples:
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

    def _chat_accept(self, buffer: Any) -> bool:
        return self.c.send_chat(buffer.text)  # True: the field keeps its text (too long to send)

    def _connecting_screen(self) -> AnyContainer:
        return HSplit([Window(self._view(self._connecting_text)), self._notice_window(), self._keys_window()])

    def _lobby_screen(self) -> AnyContainer:
        return HSplit(
            [
                self._section(
                    lambda: self.t("lobby.server", name=self.t.safe(self.c.state.server_name or "?"))
                ),
                Window(self._drawn(self._lobby_lines), height=self._lobby_height),
                ConditionalContainer(
                    HSplit(
                        [
                            self._section(lambda: self.t("lobby.recent")),
                            Window(self._drawn(self._recent_lines), height=self._recent_height),
                        ]
                    ),
                    filter=Condition(lambda: bool(self.c.state.recent)),
                ),
                self._section(self._log_title),
                Window(
                    self._view(self._log_text, indent=2, scroll=self.c.log_scroll, on_scroll=self._redraw),
                    height=D(min=1),
                ),
                self._notice_window(),
                self._keys_window(),
            ]
        )

    def _table_screen(self) -> AnyContainer:
        vbar = Window(width=1, char=self.t.glyph("vbar"), style="class:rule")
        top = VSplit(
            [
                HSplit(
                    [self._section(lambda: self.t("players")), Window(self._drawn(self._players_lines))],
                    width=self._players_width,
                ),
                vbar,
                HSplit(
                    [
                        self._section(lambda: self.t("table")),
                        Window(self._view(self._table_text, indent=2), height=FILL),
                    ],
                    width=lambda: screen_size()[0] - self._players_width() - 1,
                ),
            ],
            height=self._top_height,
        )
        middle = VSplit(
            [
                HSplit(
                    [
                        self._section(self._log_title),
                        Window(
                            self._view(
                                self._log_text, indent=2, scroll=self.c.log_scroll, on_scroll=self._redraw
                            ),
                            height=FILL,
                        ),
                    ],
                    width=lambda: screen_size()[0] - self._chat_width() - 1,
                ),
                Window(width=1, char=self.t.glyph("vbar"), style="class:rule"),
                HSplit(
                    [
                        self._section(lambda: self.t("chat")),
                        Window(self._view(self._chat_text, indent=2, follow_end=True), height=FILL),
                    ],
                    width=self._chat_width,
                ),
            ],
            height=D(min=0),
        )
        # Three rows of parts, the middle one taking the room left: prompt-toolkit shares the
        # height out a row at a time over every part of a split, at every redraw.
        return HSplit(
            [
                HSplit([Window(self._drawn(self._status_lines), height=1), top]),
                middle,
                HSplit(
                    [
                        self._section(self._hand_title),
                        Window(self._drawn(self._hand_lines), height=self._hand_height),
                        self._notice_window(),
                        self._keys_window(),
                    ]
                ),
            ]
        )

    def _section(self, title: Callable[[], str]) -> AnyContainer:
        """A one-line rule with a title: ``─ Log ───────`` (one window: the screen is laid out
        afresh at every redraw, and a split of two costs as much as all the text)."""
        rule = self.t.glyph("rule")

        def line(width: int, height: int) -> list[Line]:
            head: Line = [("class:rule", rule + " "), ("class:rule.title", title()), ("", " ")]
            rest = width - sum(get_cwidth(f[1]) for f in head)
            return [head + [("class:rule", rule * rest)] if rest > 0 else head]

        return Window(self._drawn(line), height=1)

    def _box(self, title: Callable[[], str], body: AnyContainer) -> AnyContainer:
        """A framed box (the dialogs), in box-drawing lines or ASCII ones."""
        g = self.t.glyph
        h, v = g("rule"), g("vbar")
        top = VSplit(
            [
                Window(width=1, height=1, char=g("tl")),
                Window(
                    FormattedTextControl(lambda: [("class:rule.title", f" {title()} ")]),
                    height=1,
                    dont_extend_width=True,
                ),
                Window(height=1, char=h),
                Window(width=1, height=1, char=g("tr")),
            ],
            height=1,
        )
        middle = VSplit(
            [Window(width=1, char=v), Window(width=1), body, Window(width=1), Window(width=1, char=v)]
        )
        bottom = VSplit(
            [
                Window(width=1, height=1, char=g("bl")),
                Window(height=1, char=h),
                Window(width=1, height=1, char=g("br")),
            ],
            height=1,
        )
        return HSplit([top, middle, bottom], style="class:dialog")

    def _notice_window(self) -> Window:
        return Window(self._view(self._notice_now), height=self._notice_height)

    def _keys_window(self) -> Window:
        return Window(self._drawn(self._keys_lines), height=self._keys_height)

    # -- sizes --------------------------------------------------------------------------------

    def _players_width(self) -> int:
        width, _ = screen_size()
        return max(26, min(40, width * 45 // 100))

    def _chat_width(self) -> int:
        width, _ = screen_size()
        return max(20, min(34, width * 36 // 100))

    def _top_height(self) -> int:
        rows, _ = self._player_rows()
        return 1 + max(rows, 4)

    def _per_row(self) -> int:
        width, _ = screen_size()
        return max(4, (width - 1) // CELL)

    def _hand_height(self) -> int:
        if self.c.replay is not None and self.c.replay.hands is not None:
            width, _ = screen_size()
            return max(1, len(self._every_hand(width)))
        n = len(self.c.hand)
        return max(1, math.ceil(n / self._per_row()))

    def _notice_height(self) -> int:
        width, _ = screen_size()
        return min(NOTICE_LINES, len([x for x in wrap(self._notice_now(), width) if x]))

    def _keys_height(self) -> int:
        width, _ = screen_size()
        return max(1, len(self._key_rows(width)))

    def _lobby_height(self) -> int:
        _, height = screen_size()
        return max(2, min(len(self.c.state.tables) + 1, height - 10))

    def _dialog_width(self) -> int:
        width, _ = screen_size()
        return max(20, min(76, width - 4))

    def _dialog_height(self) -> int:
        _, height = screen_size()
        inner = self._dialog_width() - 4
        room = height - 1 - self._keys_height()
        return max(3, min(room, len(wrap(self._dialog_text(), inner)) + 2))

    # -- the header and status ----------------------------------------------------------------

    def _header_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        parts = ["neveryu"]
        if s.server_name:
            parts.append(t.safe(s.server_name))
        if s.screen == "table" and s.table:
            parts.append(t("head.table", table=s.table.get("id")))
            parts.append(t.variant_name(str(s.table.get("variant") or s.variant), long=True))
            deals = s.table.get("deals")
            if s.deal_no and (s.playing or (s.table.get("state") == "playing")):
                parts.append(
                    t("head.deal", deal=s.deal_no, deals=deals) if deals else t("head.deal1", deal=s.deal_no)
                )
        conn = t("conn." + s.connection) if s.connection != "connected" else ""
        if self.c.replay is not None:
            conn = self._replay_position()
        width, _ = screen_size()
        sep = f" {t.glyph('dot')} "
        left = " " + sep.join(parts)
        if get_cwidth(left) + get_cwidth(conn) + 2 > width and len(parts) > 3:
            parts[-2 if s.deal_no else -1] = str(s.table.get("variant") if s.table else "")
            left = " " + sep.join(p for p in parts if p)
        while get_cwidth(left) + get_cwidth(conn) + 2 > width and len(parts) > 3:
            del parts[0]  # the program's name, then the server's, before the table and the deal
            left = " " + sep.join(p for p in parts if p)
        room = max(0, width - get_cwidth(conn) - 2)
        left = fit(left, room, t.glyph("ellipsis"))
        return [
            ("class:title", t.safe(left) + " "),
            ("class:title.strong" if conn else "class:title", t.safe(conn) + " "),
        ]

    def _replay_position(self) -> str:
        """A replay's place in its deal, where the link's state is shown at a live table."""
        r, t = self.c.replay, self.t
        seconds = r.ms // 1000
        view = t("replay.view.all") if r.view is None else t.seat_name(self.c.state, r.view, you=False)
        return t(
            "replay.head",
            deal=r.deal,
            step=r.index,
            steps=r.steps - 1,
            time=f"{seconds // 60}:{seconds % 60:02}",
            view=view,
        )

    def _status_lines(self, width: int, height: int) -> list[Line]:
        fragments = status(self.c.state, self.t, self.c.clock())
        return [cut_line(list(fragments), width, self.t.glyph("ellipsis"))]

    # -- the log and chat ---------------------------------------------------------------------

    def _log_title(self) -> str:
        below = self.c.log_scroll.below()
        if self.c.log_scroll.top is not None and below:
            return self.t("log.scrolled", n=below, lines=self.t.count(below, "lines"))
        return self.t("log")

    def _log_text(self) -> StyleAndTextTuples:
        """The log in words: made again only when the log (or whose names it uses) changed, not
        at every redraw of a countdown."""
        s = self.c.state
        key = (s.log, s.names, self.t)
        kept = self._log_kept
        if kept is not None and all(a is b for a, b in zip(kept[0], key)):
            return kept[1]
        out: StyleAndTextTuples = []
        for line in s.log:
            style = "class:good" if line.key == "recap" else ("class:warn" if line.key in _WARN_LINES else "")
            out.append((style, self.t.log_line(s, line) + "\n"))
        self._log_kept = (key, out)
        return out

    def _chat_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        most = CHAT_LINES * max(1, self._chat_width() - 2)  # one message leaves room for others
        out: StyleAndTextTuples = []
        for line in s.chat[-40:]:
            out.append(("class:mine", t.speaker(line) + ":"))
            out.append(("", " " + _cut(t.safe(line.text), most, t.glyph("ellipsis")) + "\n"))
        return out

    # -- the notice ---------------------------------------------------------------------------

    def _notice_text(self) -> StyleAndTextTuples:
        c, t = self.c, self.t
        d = c.dialog
        if d is not None and d.kind == "confirm":
            request = d.data["request"]
            last = c.state.last or {}
            claim = t.claim(last.get("count"), last.get("rank")) if last.get("rank") else ""
            key = "confirm.challenge" if request["t"] == "challenge" else "confirm.believe"
            return [
                (
                    "class:myturn",
                    t(key, key=d.data["key"], name=t.seat_name(c.state, last.get("seat")), claim=claim),
                )
            ]
        notice = c.current_notice()
        if notice is not None:
            return [("class:" + notice.style, notice.text)]
        s = c.state
        if s.bye:
            return [
                (
                    "class:warn",
                    t("bye." + s.bye) if ("bye." + s.bye) in t.table else t("log.bye", reason=s.bye),
                )
            ]
        if s.connection in ("lost", "resuming"):
            return [("class:warn", t("notice.lost"))]
        why = moment(s) if s.screen == "table" else None
        if why is not None:
            key, args = why
            return [("class:warn" if key == "why.away" else "class:notice.why", t.why(s, key, args))]
        return []

    # -- the hand -----------------------------------------------------------------------------

    # -- the key bar --------------------------------------------------------------------------

    def _key_rows(self, width: int) -> list[list[keybar.Key]]:
        """The key bar's rows, once per drawing (its height and its lines both ask)."""
        if get_app().is_running:
            return per_render(f"keys {width}", lambda: keybar.fit(keybar.entries(self.c), width, KEY_LINES))
        return keybar.fit(keybar.entries(self.c), width, KEY_LINES)

    def _notice_now(self) -> StyleAndTextTuples:
        """The notice, once per drawing (its height and its text both ask)."""
        return per_render("notice", self._notice_text) if get_app().is_running else self._notice_text()

    def _keys_lines(self, width: int, height: int) -> list[Line]:
        out: list[Line] = []
        for row in self._key_rows(width):
            line: Line = []
            for i, k in enumerate(row):
                if i:
                    line.append(("", " " * keybar.GAP))
                if k.key:
                    line.append(("class:key", k.key))
                    line.append(("", " " + k.label))
                else:
                    line.append(("class:dim", k.label))
            out.append(line)
        return out

    # -- dialogs ------------------------------------------------------------------------------

    def _dialog_title(self) -> str:
        d = self.c.dialog
        return self.t("dialog." + d.kind) if d is not None else ""

    def _dialog_text(self) -> StyleAndTextTuples:
        from . import pages

        return pages.dialog_text(self.c)


_WARN_LINES = frozenset(
    {
        "error",
        "conn_lost",
        "conn_closed",
        "bye",
        "fair_bad",
        "fair_unprotected",
        "away_dropped",
        "away_timeout",
        "removed",
    }
)


def _cut(text: str, most: int, ellipsis: str) -> str:
    """``text``, or its first ``most`` characters ending in ``ellipsis``."""
    return text if len(text) <= most else text[: most - len(ellipsis)].rstrip() + ellipsis
