"""The log and the chat, side by side in the middle of the table's screen (the log alone in the
lobby's): the log's lines in words, scrolled by the player, and the last chat messages, each cut
to a few lines so that one message leaves room for others."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .layout_common import Regions, screen_size

CHAT_LINES = 4  # a chat message shows in at most about this many lines, cut with an ellipsis


class LogRegions(Regions):
    _log_kept: tuple[tuple[Any, ...], StyleAndTextTuples] | None = None  # (_log_text)

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

    def _chat_width(self) -> int:
        width, _ = screen_size()
        return max(20, min(34, width * 36 // 100))

    def _chat_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        most = CHAT_LINES * max(1, self._chat_width() - 2)  # one message leaves room for others
        out: StyleAndTextTuples = []
        for line in s.chat[-40:]:
            out.append(("class:mine", t.speaker(line) + ":"))
            out.append(("", " " + _cut(t.safe(line.text), most, t.glyph("ellipsis")) + "\n"))
        return out


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
