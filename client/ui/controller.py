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
``controller_own_deals`` (the player's own deals over the network); this module adds the game:
following the model, the hand, the actions and leaving.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import attrs

from . import model
from .controller_base import NOTICE_MIN_S, NOTICE_S, Dialog, Msg, Notice, Prefs, moment_of
from .controller_dialogs import Dialogs
from .controller_hand import HandMoves
from .controller_lobby import Lobby
from .controller_own_deals import OwnDeals

__all__ = ["NOTICE_MIN_S", "NOTICE_S", "Controller", "Dialog", "Notice", "Prefs", "moment_of"]


class Controller(Dialogs, Lobby, OwnDeals, HandMoves):
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

    def ready_action(self) -> str | None:
        """What ``s`` does now: ``ready``, ``unready``, ``start``, ``back``, ``again`` or None."""
        s = self.state
        if s.screen != "table" or s.seat is None:
            return None
        if s.seat_info().get("away"):
            return "back"
        if self.playing():
            return None
        table = s.table or {}
        if table.get("state") == "playing":  # the match goes on by itself, deal after deal
            return None
        me = s.seat_info()
        if not me.get("ready"):
            return "again" if self.leave_quits and s.match_over is not None else "ready"
        humans = [x for x in s.seats if not x.get("bot")]
        if all(x.get("ready") and x.get("name") for x in humans):
            return "start"
        return "unready"

    def _why_not(self, what: str) -> str:
        """A short sentence: why ``what`` (``lay``, ``challenge``, ``believe``, ``quads``,
        ``none``) cannot be done now."""
        s, t = self.state, self.t
        rules = s.rules
        if s.screen != "table":
            return t("no.lobby")
        if s.seat is None:
            return t("no.watching")
        if not s.playing:
            return t("no.deal")
        if s.seat_info().get("away") and what != "lay":
            return t("no.away")
        if what == "believe" and rules is not None and not rules.believe:
            return t("no.believe_variant")
        if what == "none" and rules is not None and not rules.declare_none:
            return t("no.none_variant")
        if what in ("quads", "decline") and rules is not None and rules.quads == "never":
            return t("no.quads_variant")
        window = (s.quads_window or {}).get("seat")
        if window is not None and window == s.seat and what not in ("quads", "decline", "lay"):
            return t("no.window_mine")
        if window is not None and window != s.seat and (what in ("quads", "decline") or not s.my_turn):
            key = "no.window_theirs_you" if s.turn == s.seat else "no.window_theirs"
            return t(key, taker=t.seat_name(s, window), name=t.seat_name(s, s.turn))
        if what == "quads":
            return t("no.quads_now")
        if what == "decline":
            return t("no.decline")
        if s.held:
            return t("no.held")
        if self._acted is not None:
            return t("no.sent")
        anyone = rules is not None and rules.challengers == "anyone" and what == "challenge"
        if not s.my_turn and s.turn is not None and not anyone:
            return t("no.turn", name=t.seat_name(s, s.turn))
        if what in ("challenge", "believe") and s.last is None:
            return t("no.set_to_call")
        if what == "challenge" and s.barred is not None and s.barred == (s.last or {}).get("set_no"):
            return t("no.barred")
        if what in ("challenge", "believe") and (s.last or {}).get("seat") == s.seat:
            return t("no.own_set")
        return t("no." + what)

    # -- hand -------------------------------------------------------------------------------

    def move(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
        else:
            self.say(self._no_hand())

    def toggle(self) -> None:
        if not self.hand:
            self.say(self._no_hand())
            return
        if self.cursor in self.selected:
            self.selected.remove(self.cursor)
        else:
            self.selected.append(self.cursor)
            self.selected.sort()

    def _no_hand(self) -> str:
        s = self.state
        if s.screen == "connecting":
            return self.t("no.connection")
        if s.screen != "table":
            return self.t("no.lobby")
        if s.seat is None:
            return self.t("no.watching")
        return self.t("no.cards") if s.playing else self.t("no.deal")

    def clear_selection(self) -> None:
        self.selected = []

    def selected_cards(self) -> list[str]:
        return [self.hand[i] for i in self.selected if i < len(self.hand)]

    # -- game actions -------------------------------------------------------------------------

    def lay(self) -> None:
        """Enter: lay the selected cards, asking the rank only when several may be claimed and
        the count only where counts may lie (docs/RULES.md, ``count_may_lie``)."""
        bounds = self.legal.get("lay")
        if not bounds:
            self.say(self._why_not("lay"))
            return
        cards = self.selected_cards()
        lo, hi = bounds.get("min", 1), bounds.get("max", 1)
        exactly = "_exactly" if lo == hi else ""
        if not cards:
            self.say(self.t("select_first" + exactly, lo=lo, hi=hi, cards=self.t.count(lo, "cards")))
            return
        if not lo <= len(cards) <= hi:
            key = "select_exactly" if exactly else "select_n"
            self.say(self.t(key, lo=lo, hi=hi, n=len(cards), cards=self.t.count(lo, "cards")))
            return
        ranks = tuple(bounds.get("ranks") or ())
        data: dict[str, Any] = {"cards": cards, "rank": ranks[0] if len(ranks) == 1 else None, "count": None}
        if len(ranks) > 1:
            common = Counter(c[0] for c in cards).most_common()
            guess = next((r for r, _ in common if r in ranks), ranks[0])
            self.dialog = Dialog("rank", ranks, ranks.index(guess), data)
            return
        self._after_rank(data)

    def _after_rank(self, data: dict[str, Any]) -> None:
        bounds = self.legal.get("lay") or {}
        if bounds.get("count_min") is not None:
            counts = tuple(range(bounds["count_min"], bounds["count_max"] + 1))
            n = len(data["cards"])
            self.dialog = Dialog("count", counts, counts.index(n) if n in counts else 0, data)
            return
        self._send_lay(data)

    def _act(self, request: Msg) -> None:
        """Send a game action and take the offer down until the server's next ``legal`` (or its
        refusal, which puts it back): one key press, one action, even on a slow link."""
        self._acted = self.state.legal
        self.state = attrs.evolve(self.state, legal=None)
        self.notice = None
        self.send(request)

    def _send_lay(self, data: dict[str, Any]) -> None:
        request: Msg = {"t": "lay", "cards": list(data["cards"]), "rank": data["rank"]}
        if data.get("count") is not None:
            request["count"] = data["count"]
        self.dialog = None
        self.selected = []
        self._act(request)

    def challenge(self) -> None:
        self._call("challenge", "n")

    def believe(self) -> None:
        self._call("believe", "y")

    def _call(self, kind: str, key: str) -> None:
        """«Не верю» / «Верю» on the set ``legal`` names; with ``confirm_calls`` a second press
        of the same key (or Enter) sends it."""
        set_no = self.legal.get(kind)
        if set_no is None:
            self.say(self._why_not(kind))
            return
        request = {"t": kind, "set_no": set_no}
        if self.prefs.confirm_calls:
            self.dialog = Dialog("confirm", data={"request": request, "key": key})
            return
        self._act(request)

    def confirm_call(self) -> None:
        d = self.dialog
        if d is None or d.kind != "confirm":
            return
        self.dialog = None
        request = d.data["request"]
        if self.legal.get(request["t"]) == request["set_no"]:
            self._act(request)
        else:
            self.say(self._why_not(request["t"]))

    def declare_none(self) -> None:
        if self.legal.get("declare_none") is None:
            self.say(self._why_not("none"))
            return
        self.selected = []
        self._act({"t": "declare_none"})

    def discard_quads(self) -> None:
        ranks = list(self.legal.get("discard_quads") or ())
        if not ranks:
            self.say(self._why_not("quads"))
            return
        self._act({"t": "discard_quads", "ranks": ranks})

    def decline_quads(self) -> None:
        """``k``: go on without discarding quads, just after taking the pile (docs/RULES.md, ``verish``):
        the quads window closes and the next set is laid at once."""
        if not self.legal.get("decline_quads"):
            self.say(self._why_not("decline"))
            return
        self._act({"t": "decline_quads"})

    def ready(self) -> None:
        what = self.ready_action()
        if what in ("ready", "back"):
            self.send({"t": "ready", "ready": True})
        elif what == "again":  # neveryu play: the other seats are bots, always ready
            self.send({"t": "ready", "ready": True})
            self.send({"t": "start"})
        elif what == "unready":
            self.send({"t": "ready", "ready": False})
        elif what == "start":
            self.send({"t": "start"})
        else:
            s = self.state
            key = "no.watching" if s.screen == "table" and s.seat is None else "no.ready"
            self.say(self.t(key if s.screen == "table" else "no.lobby"))
            return
        if self.dialog is not None and self.dialog.kind == "scores":
            self.dialog = None

    # -- dialogs ------------------------------------------------------------------------------
    def dialog_confirm(self) -> None:
        d = self.dialog
        if d is None:
            return
        if d.kind == "rank":
            d.data["rank"] = d.options[d.index]
            self.dialog = None
            self._after_rank(d.data)
        elif d.kind == "count":
            d.data["count"] = d.options[d.index]
            self._send_lay(d.data)
        elif d.kind == "quit":
            self.dialog = None
            self._leave()
        elif d.kind == "create":
            self.dialog = None
            self.send(self.form.request())
        elif d.kind == "confirm":
            self.confirm_call()
        else:
            self.dialog = None

    # -- leaving ------------------------------------------------------------------------------

    def quit_key(self) -> None:
        """``q``: leave (ask first during a deal); in the lobby, or with the server gone, quit.
        With ``leave_quits`` (``neveryu play``) leaving is quitting, and gives the seat up."""
        s = self.state
        if s.connection != "connected":
            self.quit()
        elif s.screen == "table" and self.playing():
            self.dialog = Dialog("quit")
        elif s.screen == "table":
            self._leave()
        else:
            self.quit()

    def quit(self) -> None:
        """Quit the program now (Ctrl-C; ``q`` when nothing is lost by it)."""
        self.quitting = True
        self.on_quit()

    def _leave(self) -> None:
        if self.leave_quits and self.state.screen == "table":
            self.left = True  # the seat is given up: nothing is kept to come back to
        if self.leave_quits or self.state.screen != "table" or self.state.connection != "connected":
            self.quit()
            return
        self.send({"t": "leave"})

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
