"""The bottom lines of the screen: the notice (why a key did nothing, why only this now:
client/ui/moments.py; a call to confirm; the link's trouble) and the key bar (client/ui/keybar.py
chooses the keys). Both always get their rows: a small terminal loses log lines first."""

from __future__ import annotations

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples

from . import keybar
from .layout_common import Regions, per_render, screen_size
from .moments import moment
from .wrap import Line, wrap

NOTICE_LINES = 3
KEY_LINES = 3


class BarRegions(Regions):
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
            seated = s.screen == "table" and s.seat is not None  # a seat to keep (not a spectator's)
            return [("class:warn", t("notice.lost" if seated else "notice.lost_seatless"))]
        why = moment(s) if s.screen == "table" else None
        if why is not None:
            key, args = why
            return [("class:warn" if key == "why.away" else "class:notice.why", t.why(s, key, args))]
        return []

    def _notice_now(self) -> StyleAndTextTuples:
        """The notice, once per drawing (its height and its text both ask)."""
        return per_render("notice", self._notice_text) if get_app().is_running else self._notice_text()

    def _notice_height(self) -> int:
        width, _ = screen_size()
        return min(NOTICE_LINES, len([x for x in wrap(self._notice_now(), width) if x]))

    # -- the key bar --------------------------------------------------------------------------

    def _key_rows(self, width: int) -> list[list[keybar.Key]]:
        """The key bar's rows, once per drawing (its height and its lines both ask)."""
        if get_app().is_running:
            return per_render(f"keys {width}", lambda: keybar.fit(keybar.entries(self.c), width, KEY_LINES))
        return keybar.fit(keybar.entries(self.c), width, KEY_LINES)

    def _keys_height(self) -> int:
        width, _ = screen_size()
        return max(1, len(self._key_rows(width)))

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
