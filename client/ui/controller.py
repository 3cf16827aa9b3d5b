"""What the player's keys mean: the bridge between the model, the screen and the network.

``Controller`` holds the model ``State`` (fed by ``receive(msg)``) and the screen-only state
(cursor, selected cards, an open dialog, a passing message), and turns intentions into requests
through ``send(request)`` (a dict without ``id``: the network layer numbers it). Every game action
is offered only when the last ``legal`` event allows it (DESIGN.md, "Turns"); nothing here knows
the rules.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

import attrs

from neveryu import engine

from . import model
from .texts import Texts


def bot_strengths() -> tuple[str, ...]:
    """The bot strengths a table may ask for (engine.bots, issue 4), the default first."""
    try:
        from neveryu.engine.bots import STRENGTHS
    except ImportError:  # bots not installed: the names issue 4 gives them
        return ("honest", "sharp", "random")
    return tuple(sorted(STRENGTHS, key=lambda s: s != "honest"))


STRENGTHS = bot_strengths()


@attrs.define
class Dialog:
    """An open question. ``kind``: ``rank``, ``count``, ``quit``, ``chat``, ``help``, ``create``;
    ``options`` the choices and ``index`` the one shown; ``data`` what the answer completes."""

    kind: str
    options: tuple = ()
    index: int = 0
    data: dict = attrs.field(factory=dict)


@attrs.define
class CreateForm:
    """The lobby's "create a table" form: a variant, seats, bots and the variant's options."""

    variant: str = engine.DEFAULT_VARIANT
    players: int = 4
    bots: int = 3
    strength: str = "honest"
    options: dict = attrs.field(factory=dict)
    field: int = 0
    strengths: tuple[str, ...] = ()  # the server's (welcome.bots), when it says

    def fields(self) -> list[str]:
        return ["variant", "players", "bots", "strength"] + list(engine.VARIANTS[self.variant].options)

    def option_values(self, name: str) -> tuple:
        rules = engine.VARIANTS[self.variant]
        if name == "variant":
            return tuple(engine.VARIANTS)
        if name == "players":
            lo, hi = rules.players
            return tuple(range(lo, hi + 1))
        if name == "bots":
            return tuple(range(self.players))
        if name == "strength":
            return self.strengths or STRENGTHS
        if name == "deck":
            return ("auto",) + tuple(rules.deck_choices)
        if name == "packet_size":
            return (3, 2)
        if name == "declare_none":
            return (False, True)
        if name == "scoring":
            return tuple(rules.scoring_choices) or (rules.scoring,)
        return ()

    def value(self, name: str):
        if name in ("variant", "players", "bots", "strength"):
            return getattr(self, name)
        return self.options.get(name, self.option_values(name)[0])

    def change(self, step: int) -> None:
        name = self.fields()[self.field]
        values = self.option_values(name)
        if not values:
            return
        current = self.value(name)
        i = values.index(current) if current in values else 0
        new = values[(i + step) % len(values)]
        if name == "variant":
            self.variant = new
            self.options = {}
            lo, hi = engine.VARIANTS[new].players
            self.players = min(max(self.players, lo), hi)
            self.bots = min(self.bots, self.players - 1)
        elif name == "players":
            self.players = new
            self.bots = min(self.bots, new - 1)
        elif name in ("bots", "strength"):
            setattr(self, name, new)
        else:
            self.options[name] = new

    def request(self) -> dict:
        options = {k: v for k, v in self.options.items() if not (k == "deck" and v == "auto")}
        return {
            "t": "create_table",
            "variant": self.variant,
            "options": options,
            "seats": self.players,
            "bots": [self.strength] * self.bots,
        }


class Controller:
    """The client's state and the meaning of its keys.

    ``send(request)`` queues a request dict (no ``id``); ``on_quit()`` ends the application;
    ``invalidate()`` asks the screen to redraw. ``leave_quits``: leaving the table ends the
    program (``neveryu play``) instead of going back to the lobby.
    """

    def __init__(
        self,
        texts: Texts,
        send: Callable[[dict], None],
        *,
        on_quit: Callable[[], None] = lambda: None,
        invalidate: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        leave_quits: bool = False,
        state: model.State | None = None,
    ) -> None:
        self.t = texts
        self.send = send
        self.on_quit = on_quit
        self.invalidate = invalidate
        self.clock = clock
        self.leave_quits = leave_quits
        self.state = state or model.State()
        self.cursor = 0
        self.selected: list[int] = []
        self.dialog: Dialog | None = None
        self.message: str = ""
        self.lobby_cursor = 0
        self.form = CreateForm()
        self._hand: tuple[str, ...] = self.state.playable_hand
        self._acted: dict | None = None  # the offer we answered, until the server says what now
        self.on_open_chat: Callable[[], None] = lambda: None  # the screen focuses its text field
        self.on_close_chat: Callable[[], None] = lambda: None

    # -- the network side -------------------------------------------------------------------

    def receive(self, msg: dict) -> None:
        """Fold one message into the state and keep the cursor and selection on the same cards."""
        before = self.state
        self.state = model.reduce(self.state, msg, self.clock())
        if msg.get("t") == "legal" or msg.get("t") == "deal_started":
            self._acted = None
        if msg.get("t") == "error" and not (msg.get("fatal")):
            self.message = self.t("log.error", msg=msg.get("msg") or msg.get("code"))
            if self._acted is not None and self.state.legal is None:  # refused: the offer stands
                self.state = attrs.evolve(self.state, legal=self._acted)
            self._acted = None
        self._follow_hand()
        if (
            before.legal != self.state.legal
            and self.dialog
            and self.dialog.kind in ("rank", "count")
            and not (self.state.legal or {}).get("lay")
        ):
            self.dialog = None
        self.invalidate()

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

    # -- what may be done now ---------------------------------------------------------------

    @property
    def legal(self) -> dict:
        return self.state.legal or {}

    @property
    def hand(self) -> tuple[str, ...]:
        return self._hand

    def playing(self) -> bool:
        """In a deal that has not ended, at a seat."""
        return self.state.in_deal and not self.state.over and self.state.seat is not None

    def ready_action(self) -> str | None:
        """What ``s`` does now: ``ready``, ``unready``, ``start`` or None."""
        s = self.state
        if s.screen != "table" or s.seat is None:
            return None
        if self.state.seat_info().get("away"):
            return "back"
        if self.playing():
            return None
        table = s.table or {}
        if table.get("state") == "playing":  # the match goes on by itself, deal after deal
            return None
        me = self.state.seat_info()
        if not me.get("ready"):
            return "again" if self.leave_quits and s.match_scores is not None else "ready"
        humans = [x for x in s.seats if not x.get("bot")]
        if all(x.get("ready") and x.get("name") for x in humans) and table.get("state") != "playing":
            return "start"
        return "unready"

    # -- hand -------------------------------------------------------------------------------

    def move(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)

    def toggle(self) -> None:
        if not self.hand:
            return
        if self.cursor in self.selected:
            self.selected.remove(self.cursor)
        else:
            self.selected.append(self.cursor)
            self.selected.sort()
        self.message = ""

    def clear_selection(self) -> None:
        self.selected = []
        self.message = ""

    def selected_cards(self) -> list[str]:
        return [self.hand[i] for i in self.selected if i < len(self.hand)]

    # -- game actions -------------------------------------------------------------------------

    def lay(self) -> None:
        """Enter: lay the selected cards, asking the rank only when several may be claimed and
        the count only where counts may lie (RULES.md, ``count_may_lie``)."""
        bounds = self.legal.get("lay")
        if not bounds:
            return
        cards = self.selected_cards()
        lo, hi = bounds.get("min", 1), bounds.get("max", 1)
        exactly = "_exactly" if lo == hi else ""
        if not cards:
            self.message = self.t("select_first" + exactly, lo=lo, hi=hi)
            return
        if not lo <= len(cards) <= hi:
            self.message = self.t(("select_exactly" if exactly else "select_n"), lo=lo, hi=hi, n=len(cards))
            return
        ranks = tuple(bounds.get("ranks") or ())
        data = {"cards": cards, "rank": ranks[0] if len(ranks) == 1 else None, "count": None}
        if len(ranks) > 1:
            common = Counter(c[0] for c in cards).most_common()
            guess = next((r for r, _ in common if r in ranks), ranks[0])
            self.dialog = Dialog("rank", ranks, ranks.index(guess), data)
            return
        self._after_rank(data)

    def _after_rank(self, data: dict) -> None:
        bounds = self.legal.get("lay") or {}
        if bounds.get("count_min") is not None:
            counts = tuple(range(bounds["count_min"], bounds["count_max"] + 1))
            n = len(data["cards"])
            self.dialog = Dialog("count", counts, counts.index(n) if n in counts else 0, data)
            return
        self._send_lay(data)

    def _act(self, request: dict) -> None:
        """Send a game action and take the offer down until the server's next ``legal`` (or its
        refusal, which puts it back): one key press, one action, even on a slow link."""
        self._acted = self.state.legal
        self.state = attrs.evolve(self.state, legal=None)
        self.message = ""
        self.send(request)

    def _send_lay(self, data: dict) -> None:
        request = {"t": "lay", "cards": list(data["cards"]), "rank": data["rank"]}
        if data.get("count") is not None:
            request["count"] = data["count"]
        self.dialog = None
        self.selected = []
        self._act(request)

    def challenge(self) -> None:
        set_no = self.legal.get("challenge")
        if set_no is not None:
            self._act({"t": "challenge", "set_no": set_no})

    def believe(self) -> None:
        set_no = self.legal.get("believe")
        if set_no is not None:
            self._act({"t": "believe", "set_no": set_no})

    def declare_none(self) -> None:
        if self.legal.get("declare_none") is not None:
            self.selected = []
            self._act({"t": "declare_none"})

    def discard_quads(self) -> None:
        ranks = list(self.legal.get("discard_quads") or ())
        if ranks:
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
        else:
            self.dialog = None

    def close_dialog(self) -> None:
        """Esc: close the dialog; never a game action."""
        was_chat = self.dialog is not None and self.dialog.kind == "chat"
        self.dialog = None
        if was_chat:
            self.on_close_chat()

    def open_help(self) -> None:
        self.dialog = None if self.dialog and self.dialog.kind == "help" else Dialog("help")

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
        self.form.strengths = self.state.bots
        if self.state.bots and self.form.strength not in self.state.bots:
            self.form.strength = self.state.bots[0]
        self.dialog = Dialog("create")

    # -- leaving ------------------------------------------------------------------------------

    def quit_key(self) -> None:
        """``q``: leave (ask first during a deal); in the lobby, quit."""
        if self.state.screen == "table" and self.playing():
            self.dialog = Dialog("quit")
        elif self.state.screen == "table" and not self.leave_quits:
            self._leave()
        else:
            self.on_quit()

    def _leave(self) -> None:
        if self.leave_quits or self.state.screen != "table":
            self.on_quit()
            return
        self.send({"t": "leave"})

    # -- lobby --------------------------------------------------------------------------------

    def lobby_move(self, step: int) -> None:
        if self.state.tables:
            self.lobby_cursor = (self.lobby_cursor + step) % len(self.state.tables)

    def lobby_table(self) -> dict | None:
        tables = self.state.tables
        if not tables:
            return None
        return tables[min(self.lobby_cursor, len(tables) - 1)]

    def join(self, spectate: bool = False) -> None:
        """Enter (or ``v``) in the lobby: sit at (watch) the chosen table; a table with a password
        asks for it first."""
        table = self.lobby_table()
        if table is None:
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
