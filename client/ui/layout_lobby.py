"""The lobby's parts of the screen: the tables, the server's last deals, and the screen shown
while connecting."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .layout_common import Regions, plain_wrap, screen_size
from .model import names_of
from .record_pages import seat_label as lobby_seat
from .record_pages import summary_line
from .wrap import Line, fit


class LobbyRegions(Regions):
    def _connecting_text(self) -> StyleAndTextTuples:
        s = self.c.state
        out: StyleAndTextTuples = [("class:turn", "\n" + self.t("conn." + s.connection) + "\n")]
        if s.bye:
            out.append(("class:warn", s.bye + "\n"))
        for line in s.log[-5:]:
            out.append(("", self.t.log_line(s, line) + "\n"))
        return out

    # -- the lobby ----------------------------------------------------------------------------

    def _lobby_lines(self, width: int, height: int) -> list[Line]:
        s, t = self.c.state, self.t
        if s.connection == "closed":  # for good: the list is stale, and nothing can be joined
            return [[("class:warn", line)] for line in plain_wrap(t("lobby.closed"), width)]
        if not s.tables:
            return [[("", line)] for line in plain_wrap(t("lobby.none"), width)]
        ell = t.glyph("ellipsis")
        out: list[Line] = [[("class:dim", fit(t("lobby.head"), width, ell))]]
        cursor = min(self.c.lobby_cursor, len(s.tables) - 1)
        first = max(0, cursor - (height - 2))
        for i, table in enumerate(s.tables[first:], first):
            seats = [x for x in table.get("seats") or () if isinstance(x, dict)]
            taken = sum(1 for x in seats if x.get("name") or x.get("bot"))
            told = names_of(table, None)  # players of one name, told apart by their tags
            names = ", ".join(
                t.seat_name(told, x["seat"]) if x.get("name") and not x.get("bot") else lobby_seat(t, x)
                for x in seats
            )
            state = t("state." + str(table.get("state", "waiting")))
            mark = t.glyph("turn") if i == cursor else " "
            lock = "*" if table.get("password") else " "
            variant = str(table.get("variant"))
            line = (
                f"{mark}{table.get('id')!s:>3}{lock} {variant:<11} {taken}/{len(seats):<2} {state:<8} {names}"
            )
            out.append([("class:cursor" if i == cursor else "", fit(line, width, ell))])
        return out

    def _recent_height(self) -> int:
        _, height = screen_size()
        return max(1, min(len(self.c.state.recent), height - 14))

    def _recent_lines(self, width: int, height: int) -> list[Line]:
        """The server's last deals: id, variant, when it ended (local time), result, players."""
        t = self.t
        return [
            [
                (
                    "class:mine" if r.get("seat") is not None else "",
                    fit(summary_line(t, r), width, t.glyph("ellipsis")),
                )
            ]
            for r in self.c.state.recent[:height]
        ]
