"""The top lines of the screen: the header (the server, the table, the variant, "deal 3/5", the
link's state or a replay's place) and the status line (whose turn, the claim, the time left:
client/ui/status.py)."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from .layout_common import Regions, cut_line, screen_size
from .status import status
from .wrap import Line, fit


class HeaderRegions(Regions):
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
            step=r.index + 1,  # counted from 1, as the line mode says them and takes them
            steps=r.steps,
            time=f"{seconds // 60}:{seconds % 60:02}",
            view=view,
        )

    def _status_lines(self, width: int, height: int) -> list[Line]:
        fragments = status(self.c.state, self.t, self.c.clock())
        return [cut_line(list(fragments), width, self.t.glyph("ellipsis"))]
