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

The regions are drawn in parts, one module each, mixed into ``Screen``: ``layout_header`` (the
header and the status line), ``layout_table`` (the players, the table, a deal's result),
``layout_log`` (the log and the chat), ``layout_hand`` (the hand), ``layout_bar`` (the notice and
the key bar), ``layout_lobby`` (the lobby); ``layout_common`` holds what they share. This module
puts them together: the structure, the frames, the sizes and the dialogs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

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

from .controller import Controller
from .layout_bar import BarRegions
from .layout_common import (
    CELL,
    MIN_HEIGHT,
    MIN_WIDTH,
    HSplit,
    VSplit,
    screen_size,
    too_small,
)
from .layout_hand import HandRegions
from .layout_header import HeaderRegions
from .layout_lobby import LobbyRegions
from .layout_log import LogRegions
from .layout_table import FAIR_PANEL, TableRegions
from .wrap import Drawn, Line, TextView, wrap

__all__ = ["FAIR_PANEL", "MIN_HEIGHT", "MIN_WIDTH", "STYLE", "Screen"]

FILL = D(preferred=0)  # a pane that takes the room left, whatever its text: nothing to measure

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


class Screen(HeaderRegions, TableRegions, LogRegions, HandRegions, BarRegions, LobbyRegions):
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
        # Three rows of parts, the middle one taking the room left: prompt-toolkit shares the
        # height out a row at a time over every part of a split, at every redraw.
        return HSplit(
            [
                HSplit([Window(self._drawn(self._status_lines), height=1), self._players_and_table()]),
                self._log_and_chat(),
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

    def _players_and_table(self) -> AnyContainer:
        """The table screen's top row: the players, and beside them the table."""
        vbar = Window(width=1, char=self.t.glyph("vbar"), style="class:rule")
        return VSplit(
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

    def _log_and_chat(self) -> AnyContainer:
        """The table screen's middle row, which takes the room left: the log, and beside it the chat."""
        return VSplit(
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

    # -- dialogs ------------------------------------------------------------------------------

    def _dialog_title(self) -> str:
        d = self.c.dialog
        return self.t("dialog." + d.kind) if d is not None else ""

    def _dialog_text(self) -> StyleAndTextTuples:
        from . import pages

        return pages.dialog_text(self.c)
