"""What the player's keys mean: the bridge between the model, the screen and the network.

``Controller`` holds the model ``State`` (fed by ``receive(msg)``) and the screen-only state
(cursor, selected cards, an open dialog, a notice, scroll positions), and turns intentions into
requests through ``send(request)`` (a dict without ``id``: the network layer numbers it). Every
game action is offered only when the last ``legal`` event allows it (docs/ARCHITECTURE.md, "Turns"); a key
that can do nothing now says why in a short notice. Nothing here knows the rules.

The screen is redrawn only when something it shows changed: ``receive`` calls ``invalidate()``
only then, and ``next_tick(now)`` says when a visible countdown or a notice next changes.

The parts: ``controller_base`` (what they share: options, dialogs, notices), ``controller_dialogs``
(pages, chat, the new-table form, scrolling), ``controller_lobby`` (the lobby, the host's seats),
``controller_own_deals`` (the player's own deals over the network), ``controller_hand`` (the
cursor and the cards chosen), ``controller_actions`` (the game's actions and leaving); this
module puts them together and follows the model: what a message changed for the screen.
"""

from __future__ import annotations

import re
from collections import Counter

import attrs

from . import model
from .controller_actions import Actions
from .controller_base import NOTICE_MIN_S, NOTICE_S, Dialog, Msg, Notice, Prefs, moment_of
from .controller_dialogs import Dialogs
from .controller_lobby import Lobby
from .controller_own_deals import OwnDeals

__all__ = ["NOTICE_MIN_S", "NOTICE_S", "Controller", "Dialog", "Notice", "Prefs", "moment_of"]


class Controller(Dialogs, Lobby, OwnDeals, Actions):
    """The client's state and the meaning of its keys (``ControllerBase`` says what it holds)."""

    # -- the network side -------------------------------------------------------------------

    def receive(self, msg: Msg) -> None:
        """Fold one message into the state; keep the cursor and selection on the same cards;
        redraw when something changed."""
        before = self.state
        self.state = model.reduce(self.state, msg, self.clock())
        t = msg.get("t")
        if t in ("legal", "deal_started", "state"):
            self._acted = None
        if t == "error" and not msg.get("fatal"):
            if not self.seat_refused(msg):
                self.say(self.t("log.error", msg=msg.get("msg") or msg.get("code")), "warn")
            if self._acted is not None and self.state.legal is None:  # refused: the offer stands
                self.state = attrs.evolve(self.state, legal=self._acted)
            self._acted = None
        if t == "record":  # the reply to get_record: the model keeps no record
            self.record_arrived(msg)
            self.invalidate()
        if self.state is before:
            return
        self._follow_hand()
        self._after_change(before)
        self.invalidate()

    def _after_change(self, before: model.State) -> None:
        s = self.state
        d = self.dialog
        if d is not None and before.legal != s.legal:
            if d.kind in ("rank", "count") and not (s.legal or {}).get("lay"):
                self.dialog = None
            elif d.kind == "confirm":
                self.dialog = None  # the call it asked about may be gone
        if s.screen != before.screen or (s.table or {}).get("id") != (before.table or {}).get("id"):
            self.log_scroll.end()  # another table's (or the lobby's) log: from its end
            if d is not None and d.kind in ("seats", "create", "rules", "scores"):
                self.dialog = None
        if s.match_over is not None and before.match_over is None and self.dialog is None:
            self.open_scores()
        if s.connection != before.connection and s.connection != "connected":
            self.notice = None  # what the link says comes first
        if s.recap is not None and s.recap is not before.recap:
            self.say(self.t.log_line(s, s.recap), "good", seconds=30.0, sticky=True)
        elif (n := self.notice) is not None and n.moment is not None and moment_of(s) != n.moment:
            # Its moment has passed: it goes now when it has been read a little, or one's turn
            # came (the turn's own line takes its place); else as soon as it has been.
            if self.clock() - n.since >= NOTICE_MIN_S or (s.my_turn and not before.my_turn):
                self.notice = None
            else:
                self.notice = attrs.evolve(n, until=min(n.until, n.since + NOTICE_MIN_S))
        if (s.my_turn and not before.my_turn) or (_my_window(s) and not _my_window(before)):
            self.on_attention("turn")
        if s.chat and (not before.chat or s.chat[-1] is not before.chat[-1]):
            line = s.chat[-1]  # one message adds one chat line
            if line.seat != s.seat and _names_me(line.text, s.name):
                self.on_attention("chat")

    def _follow_hand(self) -> None:
        hand = self.state.playable_hand
        if hand == self._hand:
            return
        keep = Counter(self._hand[i] for i in self.selected if i < len(self._hand))
        self.selected = []
        for i, c in enumerate(hand):
            if keep[c] > 0:
                keep[c] -= 1
                self.selected.append(i)
        old = self._hand[self.cursor] if self.cursor < len(self._hand) else None
        self._hand = hand
        if old is not None and old in hand:
            self.cursor = hand.index(old)
        self.cursor = max(0, min(self.cursor, len(hand) - 1))

    def next_tick(self, now: float) -> float | None:
        """Seconds until the screen next changes by itself (a visible countdown reaching its next
        whole second, a notice expiring); None when nothing shown runs on the clock."""
        waits: list[float] = []
        s = self.state
        quads = (s.quads_window or {}).get("deadline")
        for deadline in (s.turn_deadline, quads):
            if s.screen == "table" and s.playing and deadline is not None and deadline > now:
                waits.append((deadline - now) % 1.0 or 1.0)
        if self.notice is not None:
            waits.append(max(0.0, self.notice.until - now))
        return min(waits) + 0.01 if waits else None

    def quads_over_dialog(self) -> bool:
        """This seat's own quads window is open under a dialog that hides the table: the dialog
        shows it, with its countdown, and takes ``d`` and ``k``, so that no dialog uses the
        window up unseen (docs/RULES.md, ``verish``)."""
        d = self.dialog
        return d is not None and d.kind in TABLE_HIDING and _my_window(self.state)

    def unknown_key(self, key: str) -> None:
        """A key that means nothing here: say which key shows the keys."""
        if key.isprintable() and key.strip():
            self.say(self.t("no.key", key=key))


def _names_me(text: str, name: str) -> bool:
    """True when chat ``text`` names ``name`` as a word (any case)."""
    name = name.strip()
    return bool(name) and re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text, re.IGNORECASE) is not None


TABLE_HIDING = ("help", "rules", "scores", "players", "seats", "deals", "record", "quit")
"""The dialogs that cover the table's status line (its countdowns) and do not use ``d`` or ``k``."""


def _my_window(s: model.State) -> bool:
    """This seat's own quads window is open (docs/RULES.md, ``verish``): a moment to act, like a turn."""
    return s.seat is not None and s.playing and (s.quads_window or {}).get("seat") == s.seat
