"""What the screen's parts share (client/ui/layout.py puts them together): the terminal's size,
the smallest size allowed, and a few helpers for lines of text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import containers
from prompt_toolkit.utils import get_cwidth

from .texts import RED_SUITS, Texts
from .wrap import Line, fit, wrap

if TYPE_CHECKING:
    from .controller import Controller

T = TypeVar("T")


class HSplit(containers.HSplit):
    """prompt-toolkit's ``HSplit``, without the padding windows it puts between its children: with
    no padding they show nothing, yet each costs a window's drawing at every redraw."""

    @property
    def _all_children(self) -> list[containers.Container]:
        if self.padding == 0 and self.align == containers.VerticalAlign.JUSTIFY:
            return self.children
        return super()._all_children


class VSplit(containers.VSplit):
    """prompt-toolkit's ``VSplit``, without the padding windows (as ``HSplit``)."""

    @property
    def _all_children(self) -> list[containers.Container]:
        if self.padding == 0 and self.align == containers.HorizontalAlign.JUSTIFY:
            return self.children
        return super()._all_children


MIN_WIDTH = 64
MIN_HEIGHT = 20
CELL = 5  # one card in the hand: a mark, 3 columns of card, a mark


def screen_size() -> tuple[int, int]:
    """The terminal's (columns, rows); (100, 40) with no application running (tests of texts).
    Read once per drawing of the screen (``per_render``): asking the terminal is a system call,
    and every part of the screen asks."""
    try:
        app = get_app()
        if app.is_running:
            return per_render("size", lambda: _size(app))
        return _size(app)
    except Exception:  # no running application (tests of single texts)
        return 100, 40


def _size(app: Any) -> tuple[int, int]:
    size = app.output.get_size()
    return size.columns, size.rows


_DRAWN: dict[str, Any] = {}  # what ``per_render`` keeps: name -> (the drawing's number, value)


def per_render(name: str, make: Callable[[], T]) -> T:
    """``make()``, made once per drawing of the running application's screen (its
    ``render_counter``): the screen is drawn whole at each change, and several of its parts ask
    the same (the terminal's size, the key bar, the notice)."""
    app = get_app()
    stamp = (id(app), app.render_counter)
    kept = _DRAWN.get(name)
    if kept is not None and kept[0] == stamp:
        return kept[1]  # type: ignore[no-any-return]
    value = make()
    _DRAWN[name] = (stamp, value)
    return value


def too_small() -> bool:
    width, height = screen_size()
    return width < MIN_WIDTH or height < MIN_HEIGHT


class Regions:
    """The base of the screen's parts: the controller ``c`` they draw and its texts ``t``."""

    c: Controller
    t: Texts

    def _cards_fragments(self, cards: Any) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for i, card in enumerate(cards):
            if i:
                out.append(("", " "))
            red = not self.t.ascii and card[1:] in RED_SUITS
            out.append(("class:red" if red else "", self.t.card(card)))
        return out


def deal_of(deal_no: int, deals: Any) -> str:
    return f"{deal_no}/{deals}" if isinstance(deals, int) and deals else str(deal_no)


def plain_wrap(text: str, width: int) -> list[str]:
    return ["".join(f[1] for f in line) for line in wrap([("", text)], width)]


def cut_line(line: Line, width: int, ellipsis: str) -> Line:
    """``line`` cut to ``width`` columns (an ellipsis marks the cut)."""
    total = sum(get_cwidth(f[1]) for f in line)
    if total <= width:
        return line
    out: Line = []
    used = 0
    for fragment in line:
        style, text = fragment[0], fragment[1]
        w = get_cwidth(text)
        if used + w <= width - 1:
            out.append((style, text))
            used += w
            continue
        out.append((style, fit(text, width - used, ellipsis).rstrip()))
        break
    return out
