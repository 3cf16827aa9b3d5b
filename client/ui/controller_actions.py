"""The game's actions on the player's keys: lay the chosen cards (asking the rank and the count
where the variant lets them be chosen), «Не верю» and «Верю» (asked again with ``confirm_calls``),
declare none, discard or keep quads, ready and start; the answers to the dialogs that complete
them; and leaving. Every action is offered only when the last ``legal`` event allows it
(docs/ARCHITECTURE.md, "Turns"); one that cannot be done now says why (``_why_not``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from .controller_base import Dialog, Msg
from .controller_hand import HandMoves


class Actions(HandMoves):
    """What the player does at the table, and leaving it (client/ui/keys.py binds the keys)."""

    # -- what may be done now ---------------------------------------------------------------

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
            held = (s.legal_now or {}).get("discard_quads")  # the quads this seat may discard
            return t("no.window_mine" if held else "no.window_mine_none")
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

    # -- the game's actions -----------------------------------------------------------------

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
        self.actions_sent += 1
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

    # -- the dialogs' answers ---------------------------------------------------------------

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

    # -- leaving ----------------------------------------------------------------------------

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
