"""Key bindings of the terminal client.

Game keys work only while no dialog is open; while a text field or a question is open, keys go to
it. The Russian-layout twin of each letter key does the same (``т`` is ``n``, ``н`` is ``y``, ...).
Esc only closes a dialog; no game action sits on Esc or Alt. Ctrl-C always quits (the seat is
kept). A key that means nothing on the current screen says so (``Controller.unknown_key``).

In a replay (client/ui/replay.py) the table's screen stays, and so do the keys that show it (Tab,
r, ?, q, PgUp/PgDn); ←→ move through the deal instead of the hand (``Controller.move``), the
keys that play do nothing, and the replay adds its own (``replay.replay_keys``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from . import players
from .controller import Controller
from .controller_hand import TYPED_RANKS

# key -> the same key on a Russian ЙЦУКЕН layout
RU_TWIN = {
    "n": "т",
    "y": "н",
    "d": "в",
    "s": "ы",
    "q": "й",
    "h": "р",
    "l": "д",
    "c": "с",
    "v": "м",
    "r": "к",
    "j": "о",
    "k": "л",
    "m": "ь",
    "b": "и",
    "x": "ч",
    "p": "з",
    "t": "е",
}


Action = Callable[[], None]
"""What a game key does (a method of the controller, or a call of one)."""

Handler = Callable[[KeyPressEvent], object]
"""What a dialog's key does, given the key pressed."""


def build_key_bindings(c: Controller) -> KeyBindings:
    """The key bindings of ``c``'s screen: the game's keys (each with its Russian-layout twin,
    any of them taking a sticky notice down), then the dialogs' keys, in that order (where two
    bindings of a key both apply, prompt-toolkit takes the one added last)."""
    kb = KeyBindings()
    on = _When(c)
    for keys, filter, action in _game_keys(c, on):
        _bind_game_key(kb, c, keys, filter, action)

    @kb.add("<any>", filter=on.no_dialog)
    def _(event: KeyPressEvent) -> None:
        c.key_pressed()
        c.unknown_key(event.data)

    kb.add("escape", filter=~on.no_dialog)(lambda event: c.close_dialog())
    quads_over_dialog = Condition(c.quads_over_dialog)
    _bind_game_key(kb, c, ("d",), quads_over_dialog, c.discard_quads)
    _bind_game_key(kb, c, ("k",), quads_over_dialog, c.decline_quads)

    @kb.add("escape", "<any>")
    def _(event: KeyPressEvent) -> None:
        """Alt+key arrives as Esc and the key: it does nothing (no game action on Alt)."""

    for keys, filter, handler in _dialog_keys(c, on):
        for key in keys:
            kb.add(key, filter=filter)(handler)

    @kb.add("c-c")
    def _(event: KeyPressEvent) -> None:
        c.quit()

    return kb


SCROLLED_DIALOGS = ("help", "rules", "scores", "record", "deals", "players")
"""The dialogs that PgUp and PgDn scroll (without a dialog, they scroll the log)."""


class _When:
    """The filters that say where a key applies, on ``c``'s state."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self.no_dialog = Condition(lambda: c.dialog is None)
        self.at_table = Condition(lambda: c.dialog is None and c.state.screen == "table")
        self.playing = Condition(lambda: c.dialog is None and c.state.screen == "table" and c.replay is None)
        self.replaying = Condition(lambda: c.dialog is None and c.replay is not None)
        self.in_lobby = Condition(lambda: c.dialog is None and c.state.screen == "lobby")
        self.seated = self.playing & Condition(lambda: c.state.seat is not None)
        self.scrollable = Condition(
            lambda: (
                c.dialog is None or c.dialog.kind in ("help", "rules", "scores", "record", "deals", "players")
            )
        )

    def dialog_is(self, *kinds: str) -> Condition:
        c = self.c
        return Condition(lambda: c.dialog is not None and c.dialog.kind in kinds)

    def confirm_key(self, *keys: str) -> Condition:
        """«Не верю» / «Верю» asked again (--confirm-calls), by one of ``keys``."""
        c = self.c
        return Condition(
            lambda: c.dialog is not None and c.dialog.kind == "confirm" and c.dialog.data.get("key") in keys
        )


def _bind_game_key(
    kb: KeyBindings, c: Controller, keys: tuple[str, ...], filter: Filter, action: Action
) -> None:
    """``action`` on each of ``keys`` and its Russian-layout twin (``RU_TWIN``), where ``filter``
    says; the key press also takes a sticky notice down."""
    for key in keys:
        for k in (key, RU_TWIN.get(key)):
            if k:

                @kb.add(k, filter=filter)
                def _(event: KeyPressEvent, h: Action = action) -> None:
                    c.key_pressed()
                    h()


def _game_keys(c: Controller, on: _When) -> list[tuple[tuple[str, ...], Filter, Action]]:
    """The keys without a dialog: (keys, where, what), a row a binding."""
    no_replay = Condition(lambda: c.dialog is None and c.replay is None)
    scroll_ends = on.scrollable & ~on.replaying & ~on.seated
    return [
        # -- the table ----------------------------------------------------------------------
        (("left", "h"), on.at_table, lambda: c.move(-1)),
        (("right", "l"), on.at_table, lambda: c.move(1)),
        (("space",), on.playing, c.toggle),
        (("backspace", "delete"), on.playing, c.clear_selection),
        (("enter",), on.playing, c.lay),
        (("n",), on.playing, c.challenge),
        (("y",), on.playing, c.believe),
        (("d",), on.playing, c.discard_quads),
        (("k",), on.playing, c.decline_quads),
        (("0",), on.playing, c.declare_none),
        (("s",), on.playing, c.ready),
        (("/", "."), on.playing, c.open_chat),
        (("tab",), on.at_table, c.open_scores),
        (("r",), on.at_table, c.open_rules),
        (("m",), on.playing, c.open_seats),
        (("home",), on.seated, lambda: c.hand_end(False)),
        (("end",), on.seated, lambda: c.hand_end(True)),
        (("down",), on.seated, lambda: c.jump_rank(1)),
        (("up",), on.seated, lambda: c.jump_rank(-1)),
        *(((key,), on.seated, functools.partial(c.go_rank, key)) for key in TYPED_RANKS),
        # -- the lobby ----------------------------------------------------------------------
        (("up", "k"), on.in_lobby, lambda: c.lobby_move(-1)),
        (("down", "j"), on.in_lobby, lambda: c.lobby_move(1)),
        (("enter",), on.in_lobby, c.join),
        (("v",), on.in_lobby, lambda: c.join(spectate=True)),
        (("c",), on.in_lobby, c.open_create),
        (("r",), on.in_lobby, c.refresh),
        (("t",), on.in_lobby, lambda: players.open_players(c)),  # the players' page (client/ui/players.py)
        # -- the player's own deals (client/ui/controller_own_deals.py) ----------------------
        (("p",), no_replay, c.open_deals),
        # -- everywhere without a dialog ----------------------------------------------------
        (("?", ","), on.no_dialog, c.open_help),
        (("q",), on.no_dialog, c.quit_key),
        (("pageup",), on.scrollable, lambda: c.scroll("up")),
        (("pagedown",), on.scrollable, lambda: c.scroll("down")),
        (("home",), scroll_ends, lambda: c.scroll("home")),
        (("end",), scroll_ends, lambda: c.scroll("end")),
    ]


def _dialog_keys(c: Controller, on: _When) -> list[tuple[tuple[str, ...], Filter, Handler]]:
    """The keys of the open dialog: (keys, where, what), a row a binding. A dialog's keys name
    their Russian-layout twins themselves (the arrows and Enter have none)."""
    pages = on.dialog_is("help", "rules", "scores", "record", "players")
    choice = on.dialog_is("rank", "count")
    leaving, create, deals, seats = (on.dialog_is(kind) for kind in ("quit", "create", "deals", "seats"))
    return [
        # -- pages ----------------------------------------------------------------------------
        (("enter", "q", "й"), pages, lambda event: c.close_dialog()),
        (("?",), on.dialog_is("help"), lambda event: c.close_dialog()),
        (("r", "к"), on.dialog_is("rules"), lambda event: c.close_dialog()),
        (("tab",), on.dialog_is("scores"), lambda event: c.close_dialog()),
        (("t", "е"), on.dialog_is("players"), lambda event: c.close_dialog()),
        (("left",), on.dialog_is("players"), lambda event: players.switch_variant(c, -1)),
        (("right",), on.dialog_is("players"), lambda event: players.switch_variant(c, 1)),
        (("s", "ы"), on.dialog_is("scores"), lambda event: c.ready()),
        (("up",), pages, lambda event: c.scroll_lines(-1)),
        (("down",), pages, lambda event: c.scroll_lines(1)),
        # -- the rank and the count of a set --------------------------------------------------
        (("left",), choice, lambda event: c.dialog_move(-1)),
        (("right",), choice, lambda event: c.dialog_move(1)),
        (("enter",), on.dialog_is("rank", "count", "create"), lambda event: c.dialog_confirm()),
        (("<any>",), choice, lambda event: c.dialog_pick(event.data)),
        # -- leaving during a deal ------------------------------------------------------------
        (("y", "н"), leaving, lambda event: c.dialog_confirm()),
        (("n", "т", "enter", "q", "й"), leaving, lambda event: c.close_dialog()),
        # -- «Не верю» / «Верю» asked again (--confirm-calls): the same key or Enter sends it --
        (("n", "т"), on.confirm_key("n"), lambda event: c.confirm_call()),
        (("y", "н"), on.confirm_key("y"), lambda event: c.confirm_call()),
        (("enter",), on.dialog_is("confirm"), lambda event: c.confirm_call()),
        (("<any>",), on.dialog_is("confirm"), lambda event: c.close_dialog()),
        # -- the new-table form ---------------------------------------------------------------
        (("up",), create, lambda event: c.form_move(-1)),
        (("down",), create, lambda event: c.form_move(1)),
        (("left",), create, lambda event: c.form.change(-1)),
        (("right",), create, lambda event: c.form.change(1)),
        (("backspace",), create, lambda event: c.form.backspace()),
        (("<any>",), create, lambda event: c.form.type(event.data)),
        # -- the player's own deals -----------------------------------------------------------
        (("up",), deals, lambda event: c.deals_move(-1)),
        (("down",), deals, lambda event: c.deals_move(1)),
        (("enter",), deals, lambda event: c.open_deal()),
        (("q", "й"), deals, lambda event: c.close_dialog()),
        # -- the host's seats -----------------------------------------------------------------
        (("up",), seats, lambda event: c.dialog_move(-1)),
        (("down",), seats, lambda event: c.dialog_move(1)),
        (("left",), seats, lambda event: c.seats_level(-1)),
        (("right",), seats, lambda event: c.seats_level(1)),
        (("b", "и"), seats, lambda event: c.seat_bot()),
        (("x", "ч"), seats, lambda event: c.seat_free()),
    ]
