"""The controller's part for the player's own deals (over the network): ``p`` lists
the deals this session played (``list_records`` with ``mine``); Enter fetches one
(``get_record``). A whole record (its table was made with ``reveal_after_deal``) opens in the
replay, the table's screen stepped through by keys (``on_open_replay``; client/ui/app.py runs it
over the client's screen, and ``q`` comes back); a seat's view opens as a page in words
(client/ui/record_pages.py). The list is offered in the lobby, and at a table between matches:
during a match the next deal would not wait for the player.
"""

from __future__ import annotations

from typing import Any

from .controller_base import ControllerBase, Dialog, Msg
from .replay_deal import deal_from_document

DEALS_LISTED = 50  # the newest of one's own deals that the list shows


class OwnDeals(ControllerBase):
    """The keys of the player's own deals."""

    def open_deals(self) -> None:
        """``p``: ask for the deals this session played and show them as they come."""
        s = self.state
        if s.connection != "connected":
            self.say(self.t("no.connection"))
        elif not self.records:
            self.say(self.t("no.records"))
        elif s.screen == "table" and (s.playing or (s.table or {}).get("state") == "playing"):
            self.say(self.t("no.deals_match"))
        elif s.screen in ("lobby", "table"):
            self.send({"t": "list_records", "mine": True, "limit": DEALS_LISTED})
            self.dialog = Dialog("deals")
            self.dialog_scroll.top = 0

    def deals_move(self, step: int) -> None:
        """↑↓ in the list of one's deals: the next one, scrolled into view (after the list's
        two lines of introduction)."""
        d, deals = self.dialog, self.state.my_deals or ()
        if d is None or d.kind != "deals" or not deals:
            return
        d.index = (min(d.index, len(deals) - 1) + step) % len(deals)
        row, scroll = d.index + 2, self.dialog_scroll
        top = scroll.top or 0
        if row < top + 2:
            scroll.top = max(0, row - 2)
        elif row >= top + scroll.page:
            scroll.top = row - scroll.page + 1

    def open_deal(self) -> None:
        """Enter in the list: fetch the chosen deal (``get_record``); it opens when it comes."""
        d, deals = self.dialog, self.state.my_deals or ()
        if d is None or d.kind != "deals" or not deals:
            return
        chosen = deals[min(d.index, len(deals) - 1)]
        d.data.update(opening=chosen.get("id"), seat=chosen.get("seat"))
        self.send({"t": "get_record", "deal": chosen.get("id")})
        self.say(self.t("deals.fetching", id=chosen.get("id")))

    def record_arrived(self, msg: Msg) -> None:
        """A ``record`` (the reply to ``get_record``): a whole one opens in the replay from this
        player's seat; a seat's view, or a record that does not replay, as a page."""
        doc = msg.get("record")
        if not isinstance(doc, dict):
            return
        d = self.dialog
        back: dict[str, Any] = {}
        if d is not None and d.kind == "deals":
            back = {"back": d.index, "seat": d.data.get("seat")}
        note = None
        if doc.get("view") is None:
            try:
                deal = deal_from_document(doc)
            except ValueError as exc:
                note = self.t("record.no_replay", why=str(exc))
            else:
                self.notice = None
                self.on_open_replay(deal, back.get("seat"))
                return
        self.notice = None
        self.dialog = Dialog("record", data={"doc": doc, "note": note, **back})
        self.dialog_scroll.top = 0
