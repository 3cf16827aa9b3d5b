"""What the screen's parts share (client/ui/layout.py puts them together): the terminal's size,
the smallest size allowed, and a few helpers for lines of text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from .texts import RED_SUITS, Texts
from .wrap import Line, fit, wrap

if TYPE_CHECKING:
    from .controller import Controller

MIN_WIDTH = 64
MIN_HEIGHT = 20
CELL = 5  # one card in the hand: a mark, 3 columns of card, a mark


def screen_size() -> tuple[int, int]:
    """The terminal's (columns, rows); (100, 40) with no application running (tests of texts)."""
    try:
        size = get_app().output.get_size()
        return size.columns, size.rows
    except Exception:  # no running application (tests of single texts)
        return 100, 40


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
