"""The controller's dialogs and pages: a question's choices (rank, count), help, the rules, the
scores, chat and the table password, the new-table form, and scrolling a page or the log. What
a dialog's answer completes (a set's rank, leaving) is the controller's own (controller.py).
"""

from __future__ import annotations

from neveryu import protocol

from .controller_base import ControllerBase, Dialog
from .create_form import CreateForm


class Dialogs(ControllerBase):
    """The dialogs' keys (client/ui/keys.py binds them while a dialog is open)."""

    def dialog_move(self, step: int) -> None:
        d = self.dialog
        if d is not None and d.options:
            d.index = (d.index + step) % len(d.options)
            d.data.pop("confirm", None)  # a question asked about the seat left behind

    def dialog_pick(self, key: str) -> bool:
        """A typed key picks an option: a rank letter (``q``, ``1`` for ten) or a count digit."""
        d = self.dialog
        if d is None or not d.options:
            return False
        key = key.upper()
        if d.kind == "rank":  # 1 or 0 for a ten; В Д К Т: валет, дама, король, туз
            key = {"1": "T", "0": "T", "В": "J", "Д": "Q", "К": "K", "Т": "A"}.get(key, key)
        for i, option in enumerate(d.options):
            if str(option) == key:
                d.index = i
                return True
        return False

    def close_dialog(self) -> None:
        """Esc: close the dialog (or first the question it asks); never a game action."""
        d = self.dialog
        if d is not None and d.data.pop("confirm", None) is not None:
            return
        was_chat = d is not None and d.kind == "chat"
        self.dialog = None
        if d is not None and d.kind == "record" and d.data.get("back") is not None:
            self.dialog = Dialog("deals", index=d.data["back"])  # back to the list of one's deals
        if was_chat:
            self.on_close_chat()

    def _page(self, kind: str) -> None:
        if self.dialog is not None and self.dialog.kind == kind:
            self.dialog = None
            return
        self.dialog = Dialog(kind)
        self.dialog_scroll.top = 0  # (the screen holds this object: moved, never replaced)

    def open_help(self) -> None:
        self._page("help")

    def open_rules(self) -> None:
        self._page("rules")

    def open_scores(self) -> None:
        """The standings of the match (Tab); the match-over screen when it has ended."""
        if self.state.screen != "table":
            self.say(self.t("no.lobby"))
            return
        self._page("scores")

    def open_chat(self) -> None:
        self.dialog = Dialog("chat")
        self.on_open_chat()

    def send_chat(self, text: str) -> bool:
        """Enter in the text field: a chat line, or the table password the field asked for.
        Returns True when the field stays open with its text: a line longer than the protocol
        allows (``protocol.MAX_CHAT_LEN`` characters) is not sent, and the player is told."""
        data = self.dialog.data if self.dialog is not None else {}
        if data.get("password_for") is None and len(text.strip()) > protocol.MAX_CHAT_LEN:
            self.say(self.t("chat.too_long", n=len(text.strip()), most=protocol.MAX_CHAT_LEN), "warn")
            return True
        self.close_dialog()
        if data.get("password_for") is not None:
            kind = "spectate" if data.get("spectate") else "join_table"
            self.send({"t": kind, "table": data["password_for"], "password": text})
            return False
        text = text.strip()
        if text:
            self.send({"t": "chat", "text": text})
        return False

    def open_create(self) -> None:
        s = self.state
        if s.connection != "connected":
            self.say(self.t("no.connection"))
            return
        if self.form.variants != s.variants or self.form.strengths != s.bots:
            self.form = CreateForm(variants=s.variants, strengths=s.bots)
        self.form.field = 0
        self.dialog = Dialog("create")
        self.dialog_scroll.top = 0

    def form_move(self, step: int) -> None:
        """↑↓ in the new-table form: the next line, scrolled into view."""
        self.form.move(step)
        scroll = self.dialog_scroll
        top = scroll.top or 0
        if self.form.field < top:
            scroll.top = self.form.field
        elif self.form.field >= top + scroll.page:
            scroll.top = self.form.field - scroll.page + 1
        else:
            scroll.top = top

    # -- scrolling ----------------------------------------------------------------------------

    def scroll(self, how: str) -> None:
        """PgUp, PgDn, Home, End (``up``, ``down``, ``home``, ``end``): the open page, or the log."""
        target = self.dialog_scroll if self.dialog is not None else self.log_scroll
        {"up": target.page_up, "down": target.page_down, "home": target.home, "end": target.end}[how]()

    def scroll_lines(self, lines: int) -> None:
        target = self.dialog_scroll if self.dialog is not None else self.log_scroll
        target.by(lines)
