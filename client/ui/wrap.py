"""Text that wraps at word boundaries, keeps its styles, and scrolls.

prompt-toolkit's own ``wrap_lines`` breaks a line at the last column, inside words. Everything
the client shows that may be longer than its window (the log, help, dialogs, the too-small
message) goes through ``wrap`` instead: lines break at spaces, a word longer than the width is
cut, and lines after the first of a paragraph may be indented.

``TextView`` is a prompt-toolkit ``UIControl`` drawing such text into whatever width and height
its ``Window`` gives it, either from the top, from the end (``follow_end``: a log), or from a
``Scroll`` position that keys and the mouse wheel move.

The screen is drawn whole each time anything on it changes (a countdown's second), and most of
its text has not: ``wrap`` keeps the last texts it wrapped, so an unchanged log costs a lookup.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

import attrs
from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

Line = StyleAndTextTuples  # one line of (style, text) fragments
WHEEL_LINES = 3  # lines one notch of the mouse wheel scrolls
WRAP_CACHE = 32  # texts ``wrap`` keeps wrapped: every pane and dialog of a screen, at two widths


HANG = "[hang]"  # a fragment (HANG, "12") makes the lines its line wraps into start at column 12
BULLET = "• "


def hang(columns: int) -> tuple[str, str]:
    """The fragment that sets the hanging indent of the line it is in."""
    return (HANG, str(columns))


def split_lines(fragments: Iterable[OneStyleAndTextTuple]) -> list[Line]:
    """The fragments cut at each ``"\\n"`` into lines (the newlines dropped). A ``hang``
    fragment is kept (it is read by ``wrap``)."""
    lines: list[Line] = [[]]
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        if style == HANG:
            lines[-1].append((style, text))
            continue
        if style.startswith("[") and not text:  # [SetCursorPosition] and the like
            continue
        parts = text.split("\n")
        for j, part in enumerate(parts):
            if j:
                lines.append([])
            if part:
                lines[-1].append((style, part))
    if len(lines) > 1 and not [f for f in lines[-1] if f[0] != HANG]:
        lines.pop()  # "a\n" is one line
    return lines


def _words(line: Line) -> list[list[tuple[str, str]]]:
    """A line as alternating runs: a word (non-space characters, over any fragments) or a run
    of spaces; each run a list of (style, text)."""
    runs: list[list[tuple[str, str]]] = []
    kind: bool | None = None  # True: spaces
    for fragment in line:
        style, text = fragment[0], fragment[1]
        start = 0
        for i in range(1, len(text) + 1):
            if i == len(text) or (text[i] == " ") != (text[start] == " "):
                piece, is_space = text[start:i], text[start] == " "
                if kind is is_space and runs:
                    runs[-1].append((style, piece))
                else:
                    runs.append([(style, piece)])
                    kind = is_space
                start = i
    return runs


def _width(run: list[tuple[str, str]]) -> int:
    return sum(get_cwidth(text) for _, text in run)


def _cut(run: list[tuple[str, str]], width: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The first ``width`` columns of ``run``, and the rest."""
    head: list[tuple[str, str]] = []
    used = 0
    for k, (style, text) in enumerate(run):
        for i, ch in enumerate(text):
            w = get_cwidth(ch)
            if used + w > width:
                head_text = text[:i]
                if head_text:
                    head.append((style, head_text))
                return head, [(style, text[i:])] + run[k + 1 :]
            used += w
        head.append((style, text))
    return head, []


def wrap_line(line: Line, width: int, indent: int = 0) -> list[Line]:
    """One line word-wrapped to ``width`` columns; lines after the first start with ``indent``
    spaces. Spaces at a break are dropped; a word wider than the line is cut."""
    width = max(1, width)
    indent = min(indent, width // 2)
    out: list[Line] = [[]]
    used = 0
    for k, run in enumerate(_words(line)):
        w = _width(run)
        if run[0][1].startswith(" "):
            if (k == 0 or used) and used + w < width:  # a line's own indentation stays
                out[-1].extend(run)
                used += w
            elif used:
                used = width  # no room for the spaces: the next word starts a line
            continue
        if used + w > width and used > (indent if len(out) > 1 else 0):
            while out[-1] and out[-1][-1][1].isspace():  # no trailing spaces at a break
                out[-1].pop()
            out.append([("", " " * indent)] if indent else [])
            used = indent
        while used + w > width:  # a word longer than a whole line
            head, run = _cut(run, width - used)
            out[-1].extend(head)
            out.append([("", " " * indent)] if indent else [])
            used = indent
            w = _width(run)
        out[-1].extend(run)
        used += w
    return out


def wrap(fragments: Iterable[OneStyleAndTextTuple], width: int, indent: int = 0) -> list[Line]:
    """``fragments`` (with ``"\\n"`` between lines) word-wrapped to ``width`` columns. Lines
    after the first of each line start with ``indent`` spaces; a line that begins with a
    bullet ("• ") hangs under its text; a ``hang`` fragment sets its line's own indent. The
    lines are the caller's own (a copy of what the cache keeps)."""
    frozen = tuple(fragments)
    try:
        hash(frozen)
    except TypeError:  # (a fragment that is not a tuple: wrapped, not kept)
        return [list(line) for line in _wrapped.__wrapped__(frozen, width, indent)]
    return [list(line) for line in _wrapped(frozen, width, indent)]


@functools.lru_cache(maxsize=WRAP_CACHE)
def _wrapped(
    fragments: tuple[OneStyleAndTextTuple, ...], width: int, indent: int
) -> tuple[tuple[Any, ...], ...]:
    out: list[Line] = []
    for line in split_lines(fragments):
        own = indent
        marks = [f for f in line if f[0] == HANG]
        if marks:
            own = int(marks[-1][1])
            line = [f for f in line if f[0] != HANG]
        elif line and line[0][1].startswith(BULLET):
            own = len(BULLET)
        out.extend(wrap_line(line, width, own))
    return tuple(tuple(line) for line in out)


def wrap_text(text: str, width: int, indent: int = 0) -> list[str]:
    """Plain text word-wrapped: one string per line."""
    return ["".join(f[1] for f in line) for line in wrap([("", text)], width, indent)]


@attrs.define
class Scroll:
    """Where a scrolled text stands: ``top`` is its first line shown (None: it follows the end,
    as a log does); ``page`` and ``total`` are the lines shown and held at the last draw."""

    top: int | None = None
    page: int = 1
    total: int = 0

    def by(self, lines: int) -> None:
        """Move ``lines`` down (negative: up); reaching the end follows it again."""
        start = self.start(self.total, self.page)
        self.top = max(0, start + lines)
        if self.top >= max(0, self.total - self.page):
            self.top = None

    def page_up(self) -> None:
        self.by(-max(1, self.page - 1))

    def page_down(self) -> None:
        self.by(max(1, self.page - 1))

    def home(self) -> None:
        self.top = 0 if self.total > self.page else None

    def end(self) -> None:
        self.top = None

    def start(self, total: int, height: int) -> int:
        """The first line to show of ``total`` in ``height`` rows."""
        last = max(0, total - height)
        return last if self.top is None else min(self.top, last)

    def below(self) -> int:
        """Lines after the last one shown (0: at the end)."""
        return max(0, self.total - self.start(self.total, self.page) - self.page)


class TextView(UIControl):
    """Word-wrapped text in a window. ``get_fragments()`` gives the text; ``indent``: of the
    lines a wrap adds; ``scroll``: the position to draw from (None: from the top, or from the
    end with ``follow_end``). The mouse wheel moves ``scroll`` and then calls ``on_scroll``."""

    def __init__(
        self,
        get_fragments: Callable[[], StyleAndTextTuples],
        *,
        indent: int = 0,
        scroll: Scroll | None = None,
        follow_end: bool = False,
        on_scroll: Callable[[], None] = lambda: None,
        safe: Callable[[str], str] = str,
    ) -> None:
        self.get_fragments = get_fragments
        self.safe = safe
        self.indent = indent
        self.scroll = scroll
        self.follow_end = follow_end
        self.on_scroll = on_scroll
        self._raw: StyleAndTextTuples | None = None  # what ``lines`` wrapped last, at ``_width``
        self._width = 0
        self._lines: list[Line] = []

    def lines(self, width: int) -> list[Line]:
        """The text wrapped to ``width``; the same lines again while ``get_fragments`` gives the
        very same list (a text kept until it changes, as the log is)."""
        raw = self.get_fragments()
        if raw is self._raw and width == self._width:
            return self._lines
        fragments = [(f[0], self.safe(f[1])) for f in raw]
        self._raw, self._width, self._lines = raw, width, wrap(fragments, width, self.indent)
        return self._lines

    def is_focusable(self) -> bool:
        return False

    def preferred_width(self, max_available_width: int) -> int | None:
        return None

    def preferred_height(
        self, width: int, max_available_height: int, wrap_lines: bool, get_line_prefix: object
    ) -> int | None:
        return len(self.lines(width))

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.lines(width)
        start = 0
        if self.scroll is not None:
            start = self.scroll.start(len(lines), height)
            self.scroll.page, self.scroll.total = height, len(lines)
        elif self.follow_end:
            start = max(0, len(lines) - height)
        shown = lines[start : start + height] if height > 0 else []
        return UIContent(get_line=lambda i: shown[i], line_count=len(shown))

    def mouse_handler(self, mouse_event: MouseEvent) -> object:
        if self.scroll is None:
            return NotImplemented
        if mouse_event.event_type == MouseEventType.SCROLL_UP:
            self.scroll.by(-WHEEL_LINES)
        elif mouse_event.event_type == MouseEventType.SCROLL_DOWN:
            self.scroll.by(WHEEL_LINES)
        else:
            return NotImplemented
        self.on_scroll()
        return None


class Drawn(UIControl):
    """Text drawn for the size it gets: ``draw(width, height)`` returns its lines (each a list
    of (style, text)), cut to ``height``. For what truncates rather than wraps (the players, the
    hand, the header)."""

    def __init__(self, draw: Callable[[int, int], list[Line]], safe: Callable[[str], str] = str) -> None:
        self.draw = draw
        self.safe = safe

    def is_focusable(self) -> bool:
        return False

    def create_content(self, width: int, height: int) -> UIContent:
        lines: list[Line] = [
            [(f[0], self.safe(f[1])) for f in line] for line in self.draw(width, height)[: max(0, height)]
        ]
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines))


def fit(text: str, width: int, ellipsis: str = "…") -> str:
    """``text`` cut to ``width`` columns (``ellipsis``, one column, marks the cut) or padded
    with spaces to ``width``."""
    if get_cwidth(text) <= width:
        return text + " " * (width - get_cwidth(text))
    out, used = "", 0
    for ch in text:
        w = get_cwidth(ch)
        if used + w > width - 1:
            break
        out, used = out + ch, used + w
    return out + ellipsis + " " * (width - used - 1) if width > 0 else ""
