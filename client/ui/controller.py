"""What the player's keys mean: the bridge between the model, the screen and the network.

``Controller`` holds the model ``State`` (fed by ``receive(msg)``) and the screen-only state
(cursor, selected cards, an open dialog, a notice, scroll positions), and turns intentions into
requests through ``send(request)`` (a dict without ``id``: the network layer numbers it). Every
game action is offered only when the last ``legal`` event allows it (DESIGN.md, "Turns"); a key
that can do nothing now says why in a short notice. Nothing here knows the rules.

The screen is redrawn only when something it shows changed: ``receive`` calls ``invalidate()``
only then, and ``next_tick(now)`` says when a visible countdown or a notice next changes.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from . import model
from .create_form import CreateForm, levels
from .texts import Texts
from .wrap import Scroll

Msg = dict[str, Any]

NOTICE_S = 6.0  # a notice stays this long at most
NOTICE_MIN_S = 2.0  # and at least this long, even when its moment passes at once


@attrs.define
class Prefs:
    """What the player opted into: ``bell`` and ``title`` (the terminal's bell and title say
    when it is his turn or someone names him in chat), ``confirm_calls`` («Не верю» and «Верю»
    need a second press), ``mouse`` (the wheel scrolls the log; the terminal's own selection
    then needs Shift)."""

    bell: bool = False
    title: bool = False
    confirm_calls: bool = False
    mouse: bool = True


@attrs.define
class Dialog:
    """An open question or page. ``kind``: ``rank``, ``count``, ``quit``, ``chat``, ``help``,
    ``rules``, ``scores``, ``create``, ``seats``, ``confirm``; ``options`` the choices and
    ``index`` the one shown; ``data`` what the answer completes."""

    kind: str
    options: tuple[Any, ...] = ()
    index: int = 0
    data: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Notice:
    """A short line for the player: ``text``, ``style`` (``message``, ``warn``, ``good``),
    shown from ``since`` until ``until`` (local monotonic seconds), and while the state's
    ``moment`` it was about lasts (``None``: whatever happens)."""

    text: str
    style: str
    since: float
    until: float
    moment: tuple[Any, ...] | None


def moment_of(s: model.State) -> tuple[Any, ...]:
    """What a notice is about: the screen, table, deal, set and turn. It passes when one changes."""
    return (s.screen, (s.table or {}).get("id"), s.deal_no, s.set_no, s.turn, s.over, s.legal is None)


class Controller:
    """The client's state and the meaning of its keys.

    ``send(request)`` queues a request dict (no ``id``); ``on_quit()`` ends the application;
    ``invalidate()`` asks the screen to redraw; ``on_attention(kind)`` (``"turn"``, ``"chat"``)
    rings the bell where the player asked for it. ``leave_quits``: leaving the table ends the
    program (``neveryu play``) instead of going back to the lobby.
    """

    def __init__(
        self,
        texts: Texts,
        send: Callable[[Msg], None],
        *,
        on_quit: Callable[[], None] = lambda: None,
        invalidate: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        leave_quits: bool = False,
        state: model.State | None = None,
        prefs: Prefs | None = None,
    ) -> None:
        self.t = texts
        self.send = send
        self.on_quit = on_quit
        self.invalidate = invalidate
        self.clock = clock
        self.leave_quits = leave_quits
        self.prefs = prefs or Prefs()
        self.state = state or model.State()
        self.cursor = 0
        self.selected: list[int] = []
        self.dialog: Dialog | None = None
        self.notice: Notice | None = None
        self.lobby_cursor = 0
        self.form = CreateForm()
        self.log_scroll = Scroll()
        self.dialog_scroll = Scroll()
        self.quitting = False  # the player asked to quit (exit_note says how to come back)
        self.address = ""  # the server's address as typed (host:port), for texts that name it
        self.replay: Any = None  # a replay's position (client/ui/replay.py); None at a live table
        self.records = False  # the server keeps records (welcome.records): the lobby shows its deals
        self._hand: tuple[str, ...] = self.state.playable_hand
        self._acted: Msg | None = None  # the offer we answered, until the server says what now
        self.on_open_chat: Callable[[], None] = lambda: None  # the screen focuses its text field
        self.on_close_chat: Callable[[], None] = lambda: None
        self.on_attention: Callable[[str], None] = lambda kind: None

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
            self.say(self.t("log.error", msg=msg.get("msg") or msg.get("code")), "warn")
            if self._acted is not None and self.state.legal is None:  # refused: the offer stands
                self.state = attrs.evolve(self.state, legal=self._acted)
            self._acted = None
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
        elif self.notice is not None and self.notice.moment is not None:
            now = self.clock()
            if moment_of(s) != self.notice.moment and now - self.notice.since >= NOTICE_MIN_S:
                self.notice = None
        if s.my_turn and not before.my_turn:
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

    # -- notices and redraws ------------------------------------------------------------------

    def say(
        self, text: str, style: str = "message", *, seconds: float = NOTICE_S, sticky: bool = False
    ) -> None:
        """Show ``text`` in the notice line for ``seconds`` (``sticky``: whatever the game does
        meanwhile; any key takes it down)."""
        now = self.clock()
        self.notice = Notice(text, style, now, now + seconds, None if sticky else moment_of(self.state))

    def current_notice(self) -> Notice | None:
        """The notice to show now (None when it has had its time)."""
        n = self.notice
        if n is not None and self.clock() >= n.until:
            self.notice = None
        return self.notice

    def key_pressed(self) -> None:
        """Any key: a sticky notice (the recap) has been seen."""
        if self.notice is not None and self.notice.moment is None:
            self.notice = None

    def next_tick(self, now: float) -> float | None:
        """Seconds until the screen next changes by itself (a visible countdown reaching its next
        whole second, a notice expiring); None when nothing shown runs on the clock."""
        waits: list[float] = []
        s = self.state
        if s.screen == "table" and s.playing and s.turn_deadline is not None and s.turn_deadline > now:
            waits.append((s.turn_deadline - now) % 1.0 or 1.0)
        if self.notice is not None:
            waits.append(max(0.0, self.notice.until - now))
        return min(waits) + 0.01 if waits else None

    # -- what may be done now ---------------------------------------------------------------

    @property
    def legal(self) -> Msg:
        return self.state.legal_now or {}  # nothing while a batch is still arriving

    @property
    def hand(self) -> tuple[str, ...]:
        return self._hand

    def playing(self) -> bool:
        """In a deal that has not ended, at a seat."""
        return self.state.playing and self.state.seat is not None

    def is_host(self) -> bool:
        """This client made the table, and the server offers host controls (``table.host``)."""
        table = self.state.table or {}
        return "host" in table and table.get("host") == self.state.seat and self.state.seat is not None

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
        if what == "quads" and rules is not None and rules.quads == "never":
            return t("no.quads_variant")
        if what == "quads":
            return t("no.quads_now")
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
        the count only where counts may lie (RULES.md, ``count_may_lie``)."""
        bounds = self.legal.get("lay")
        if not bounds:
            self.say(self._why_not("lay"))
            return
        cards = self.selected_cards()
        lo, hi = bounds.get("min", 1), bounds.get("max", 1)
        exactly = "_exactly" if lo == hi else ""
        if not cards:
            self.say(self.t("select_first" + exactly, lo=lo, hi=hi))
            return
        if not lo <= len(cards) <= hi:
            self.say(self.t("select_exactly" if exactly else "select_n", lo=lo, hi=hi, n=len(cards)))
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

    def dialog_move(self, step: int) -> None:
        d = self.dialog
        if d is not None and d.options:
            d.index = (d.index + step) % len(d.options)

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

    def close_dialog(self) -> None:
        """Esc: close the dialog; never a game action."""
        was_chat = self.dialog is not None and self.dialog.kind == "chat"
        self.dialog = None
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

    def send_chat(self, text: str) -> None:
        """Enter in the text field: a chat line, or the table password the field asked for."""
        data = self.dialog.data if self.dialog is not None else {}
        self.close_dialog()
        if data.get("password_for") is not None:
            kind = "spectate" if data.get("spectate") else "join_table"
            self.send({"t": kind, "table": data["password_for"], "password": text})
            return
        text = text.strip()
        if text:
            self.send({"t": "chat", "text": text[:500]})

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

    # -- the host's seats (issue 22, item 2; shown only where the server offers it) -----------

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
            self.dialog = Dialog("seats", seats, 0, {"strength": "sharp" if "sharp" in level else level[-1]})

    def seats_level(self, step: int) -> None:
        d = self.dialog
        if d is None or d.kind != "seats":
            return
        level = levels(self.state.bots)
        now = d.data.get("strength")
        d.data["strength"] = level[((level.index(now) if now in level else 0) + step) % len(level)]

    def seat_bot(self) -> None:
        """``b`` in the seats dialog: a bot (of the level shown) takes the chosen seat."""
        d = self.dialog
        if d is None or d.kind != "seats" or not d.options:
            return
        seat = d.options[d.index]
        info = self.state.seat_info(seat)
        if seat == self.state.seat:
            self.say(self.t("host.own_seat"))
            return
        if info.get("name") and not info.get("bot") and not info.get("away") and self.state.playing:
            self.say(self.t("host.present", name=self.t.seat_name(self.state, seat)))
            return
        self.send({"t": "seat_bot", "seat": seat, "strength": d.data.get("strength")})

    def seat_free(self) -> None:
        """``x`` in the seats dialog: the chosen seat is emptied (a bot leaves, or a player is
        sent back to the lobby): only between matches."""
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
        self.send({"t": "seat_free", "seat": seat})

    # -- scrolling ----------------------------------------------------------------------------

    def scroll(self, how: str) -> None:
        """PgUp, PgDn, Home, End (``up``, ``down``, ``home``, ``end``): the open page, or the log."""
        target = self.dialog_scroll if self.dialog is not None else self.log_scroll
        {"up": target.page_up, "down": target.page_down, "home": target.home, "end": target.end}[how]()

    def scroll_lines(self, lines: int) -> None:
        target = self.dialog_scroll if self.dialog is not None else self.log_scroll
        target.by(lines)

    # -- leaving ------------------------------------------------------------------------------

    def quit_key(self) -> None:
        """``q``: leave (ask first during a deal); in the lobby, or with the server gone, quit."""
        s = self.state
        if s.connection != "connected":
            self.quit()
        elif s.screen == "table" and self.playing():
            self.dialog = Dialog("quit")
        elif s.screen == "table" and not self.leave_quits:
            self._leave()
        else:
            self.quit()

    def quit(self) -> None:
        """Quit the program now (Ctrl-C; ``q`` when nothing is lost by it)."""
        self.quitting = True
        self.on_quit()

    def _leave(self) -> None:
        if self.leave_quits or self.state.screen != "table" or self.state.connection != "connected":
            self.quit()
            return
        self.send({"t": "leave"})

    # -- lobby --------------------------------------------------------------------------------

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

    def unknown_key(self, key: str) -> None:
        """A key that means nothing here: say which key shows the keys."""
        if key.isprintable() and key.strip():
            self.say(self.t("no.key", key=key))


def _names_me(text: str, name: str) -> bool:
    """True when chat ``text`` names ``name`` as a word (any case)."""
    name = name.strip()
    return bool(name) and re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text, re.IGNORECASE) is not None
