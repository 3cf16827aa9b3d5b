"""The controller's lobby (the tables, joining or watching one) and the host's seats (a
bot in an absent player's seat, bot seats added or removed between matches).
"""

from __future__ import annotations

from .controller_base import ControllerBase, Dialog, Msg
from .create_form import DEFAULT_LEVEL, levels


class Lobby(ControllerBase):
    """The lobby's keys and the host's seats dialog."""

    def lobby_move(self, step: int) -> None:
        if self.state.tables:
            self.lobby_cursor = (self.lobby_cursor + step) % len(self.state.tables)

    def lobby_table(self) -> Msg | None:
        tables = self.state.tables
        if not tables:
            return None
        return tables[min(self.lobby_cursor, len(tables) - 1)]

    def join(self, spectate: bool = False) -> None:
        """Enter (or ``v``) in the lobby: sit at (watch) the chosen table; a table with a password
        asks for it first."""
        table = self.lobby_table()
        if table is None:
            self.say(self.t("no.tables"))
            return
        if table.get("password"):
            self.dialog = Dialog("chat", data={"password_for": table.get("id"), "spectate": spectate})
            self.on_open_chat()
            return
        if spectate:
            self.send({"t": "spectate", "table": table.get("id")})
        else:
            self.send({"t": "join_table", "table": table.get("id")})

    def refresh(self) -> None:
        self.send({"t": "list_tables"})
        if self.records:
            self.send({"t": "list_records", "limit": 5})

    # -- the host's seats (shown only where the server offers it) -------------------------------

    def open_seats(self) -> None:
        s = self.state
        if s.screen != "table":
            self.say(self.t("no.lobby"))
        elif "host" not in (s.table or {}):
            self.say(self.t("host.unsupported"))
        elif not self.is_host():
            self.say(self.t("host.not_you", name=self.t.seat_name(s, (s.table or {}).get("host"))))
        else:
            seats = tuple(x.get("seat") for x in s.seats)
            level = levels(s.bots)
            strength = DEFAULT_LEVEL if DEFAULT_LEVEL in level else level[-1]
            self.dialog = Dialog("seats", seats, 0, {"strength": strength})

    def seats_level(self, step: int) -> None:
        d = self.dialog
        if d is None or d.kind != "seats":
            return
        level = levels(self.state.bots)
        now = d.data.get("strength")
        d.data["strength"] = level[((level.index(now) if now in level else 0) + step) % len(level)]

    def seat_bot(self) -> None:
        """``b`` in the seats dialog: a bot (of the level shown) takes the chosen seat; a
        player's, when ``b`` is pressed again to confirm."""
        d = self.dialog
        if d is None or d.kind != "seats" or not d.options:
            return
        seat = d.options[d.index]
        if seat == self.state.seat:
            self.say(self.t("host.own_seat"))
            return
        # The summary does not say whose client has dropped: the server decides, and a player
        # who is here keeps his seat (SEAT_TAKEN, said in words by ``seat_refused``).
        if self._ask_first(d, "b", seat):
            return
        d.data["asked"] = seat
        self.send({"t": "seat_bot", "seat": seat, "strength": d.data.get("strength")})

    def _ask_first(self, d: Dialog, key: str, seat: int) -> bool:
        """True when ``key`` would take ``seat`` from a player and has not been pressed twice
        for it: the dialog asks first (``d.data["confirm"]``), the next press of it does it."""
        info = self.state.seat_info(seat)
        if info.get("bot") or not info.get("name") or d.data.get("confirm") == (key, seat):
            d.data.pop("confirm", None)
            return False
        d.data["confirm"] = (key, seat)
        return True

    def seat_refused(self, msg: Msg) -> bool:
        """An error that answers the seats dialog's ``seat_bot``, said in words; False when
        ``msg`` is no such error."""
        d = self.dialog
        if d is None or d.kind != "seats" or msg.get("code") != "SEAT_TAKEN" or d.data.get("asked") is None:
            return False
        seat = d.data.pop("asked")
        info = self.state.seat_info(seat)
        key = "host.bot_seat" if info.get("bot") else "host.present"
        self.say(self.t(key, name=self.t.seat_name(self.state, seat)), "warn")
        return True

    def seat_free(self) -> None:
        """``x`` in the seats dialog: the chosen seat is emptied (a bot leaves, or, when ``x``
        is pressed again to confirm, a player is sent back to the lobby): only between matches."""
        d = self.dialog
        if d is None or d.kind != "seats" or not d.options:
            return
        seat = d.options[d.index]
        if seat == self.state.seat:
            self.say(self.t("host.own_seat"))
            return
        if (self.state.table or {}).get("state") == "playing":
            self.say(self.t("host.between_matches"))
            return
        if not self.state.seat_info(seat).get("name"):
            self.say(self.t("host.free_already", seat=seat + 1))
            return
        if self._ask_first(d, "x", seat):
            return
        self.send({"t": "seat_free", "seat": seat})
