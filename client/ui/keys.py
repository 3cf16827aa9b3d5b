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


def build_key_bindings(c: Controller) -> KeyBindings:
    kb = KeyBindings()

    no_dialog = Condition(lambda: c.dialog is None)
    at_table = Condition(lambda: c.dialog is None and c.state.screen == "table")
    playing = Condition(lambda: c.dialog is None and c.state.screen == "table" and c.replay is None)
    replaying = Condition(lambda: c.dialog is None and c.replay is not None)
    in_lobby = Condition(lambda: c.dialog is None and c.state.screen == "lobby")
    seated = playing & Condition(lambda: c.state.seat is not None)

    def dialog_is(*kinds: str) -> Condition:
        return Condition(lambda: c.dialog is not None and c.dialog.kind in kinds)

    def add(keys: tuple[str, ...], filter: Filter, handler: Callable[[], None]) -> None:
        for key in keys:
            for k in (key, RU_TWIN.get(key)):
                if k:

                    @kb.add(k, filter=filter)
                    def _(event: KeyPressEvent, h: Callable[[], None] = handler) -> None:
                        c.key_pressed()
                        h()

    # -- the table --------------------------------------------------------------------------
    add(("left", "h"), at_table, lambda: c.move(-1))
    add(("right", "l"), at_table, lambda: c.move(1))
    add(("space",), playing, c.toggle)
    add(("backspace", "delete"), playing, c.clear_selection)
    add(("enter",), playing, c.lay)
    add(("n",), playing, c.challenge)
    add(("y",), playing, c.believe)
    add(("d",), playing, c.discard_quads)
    add(("k",), playing, c.decline_quads)
    add(("0",), playing, c.declare_none)
    add(("s",), playing, c.ready)
    add(("/", "."), playing, c.open_chat)
    add(("tab",), at_table, c.open_scores)
    add(("r",), at_table, c.open_rules)
    add(("m",), playing, c.open_seats)
    add(("home",), seated, lambda: c.hand_end(False))
    add(("end",), seated, lambda: c.hand_end(True))
    add(("down",), seated, lambda: c.jump_rank(1))
    add(("up",), seated, lambda: c.jump_rank(-1))
    for key in TYPED_RANKS:
        add((key,), seated, functools.partial(c.go_rank, key))

    # -- the lobby --------------------------------------------------------------------------
    add(("up", "k"), in_lobby, lambda: c.lobby_move(-1))
    add(("down", "j"), in_lobby, lambda: c.lobby_move(1))
    add(("enter",), in_lobby, c.join)
    add(("v",), in_lobby, lambda: c.join(spectate=True))
    add(("c",), in_lobby, c.open_create)
    add(("r",), in_lobby, c.refresh)
    add(("t",), in_lobby, lambda: players.open_players(c))  # the players' page (client/ui/players.py)

    # -- the player's own deals (client/ui/controller_own_deals.py) --------------------------------
    add(("p",), Condition(lambda: c.dialog is None and c.replay is None), c.open_deals)

    # -- everywhere without a dialog ------------------------------------------------------------
    add(("?", ","), no_dialog, c.open_help)
    add(("q",), no_dialog, c.quit_key)
    scrollable = Condition(
        lambda: c.dialog is None or c.dialog.kind in ("help", "rules", "scores", "record", "deals", "players")
    )
    add(("pageup",), scrollable, lambda: c.scroll("up"))
    add(("pagedown",), scrollable, lambda: c.scroll("down"))
    add(("home",), scrollable & ~replaying & ~seated, lambda: c.scroll("home"))
    add(("end",), scrollable & ~replaying & ~seated, lambda: c.scroll("end"))

    @kb.add("<any>", filter=no_dialog)
    def _(event: KeyPressEvent) -> None:
        c.key_pressed()
        c.unknown_key(event.data)

    # -- dialogs ------------------------------------------------------------------------------
    kb.add("escape", filter=~no_dialog)(lambda event: c.close_dialog())
    quads_over_dialog = Condition(c.quads_over_dialog)
    add(("d",), quads_over_dialog, c.discard_quads)
    add(("k",), quads_over_dialog, c.decline_quads)

    @kb.add("escape", "<any>")
    def _(event: KeyPressEvent) -> None:
        """Alt+key arrives as Esc and the key: it does nothing (no game action on Alt)."""

    pages = dialog_is("help", "rules", "scores", "record", "players")
    for key in ("enter", "q", "й"):
        kb.add(key, filter=pages)(lambda event: c.close_dialog())
    kb.add("?", filter=dialog_is("help"))(lambda event: c.close_dialog())
    for key in ("r", "к"):
        kb.add(key, filter=dialog_is("rules"))(lambda event: c.close_dialog())
    kb.add("tab", filter=dialog_is("scores"))(lambda event: c.close_dialog())
    for key in ("t", "е"):
        kb.add(key, filter=dialog_is("players"))(lambda event: c.close_dialog())
    kb.add("left", filter=dialog_is("players"))(lambda event: players.switch_variant(c, -1))
    kb.add("right", filter=dialog_is("players"))(lambda event: players.switch_variant(c, 1))
    for key in ("s", "ы"):
        kb.add(key, filter=dialog_is("scores"))(lambda event: c.ready())
    kb.add("up", filter=pages)(lambda event: c.scroll_lines(-1))
    kb.add("down", filter=pages)(lambda event: c.scroll_lines(1))

    kb.add("left", filter=dialog_is("rank", "count"))(lambda event: c.dialog_move(-1))
    kb.add("right", filter=dialog_is("rank", "count"))(lambda event: c.dialog_move(1))
    kb.add("enter", filter=dialog_is("rank", "count", "create"))(lambda event: c.dialog_confirm())

    @kb.add("<any>", filter=dialog_is("rank", "count"))
    def _(event: KeyPressEvent) -> None:
        c.dialog_pick(event.data)

    for key in ("y", "н"):
        kb.add(key, filter=dialog_is("quit"))(lambda event: c.dialog_confirm())
    for key in ("n", "т", "enter", "q", "й"):
        kb.add(key, filter=dialog_is("quit"))(lambda event: c.close_dialog())

    # «Не верю» / «Верю» asked again (--confirm-calls): the same key or Enter sends it
    def confirm_key(*keys: str) -> Condition:
        return Condition(
            lambda: c.dialog is not None and c.dialog.kind == "confirm" and c.dialog.data.get("key") in keys
        )

    for key, twin in (("n", "т"), ("y", "н")):
        for k in (key, twin):
            kb.add(k, filter=confirm_key(key))(lambda event: c.confirm_call())
    kb.add("enter", filter=dialog_is("confirm"))(lambda event: c.confirm_call())

    @kb.add("<any>", filter=dialog_is("confirm"))
    def _(event: KeyPressEvent) -> None:
        c.close_dialog()

    kb.add("up", filter=dialog_is("create"))(lambda event: c.form_move(-1))
    kb.add("down", filter=dialog_is("create"))(lambda event: c.form_move(1))
    kb.add("left", filter=dialog_is("create"))(lambda event: c.form.change(-1))
    kb.add("right", filter=dialog_is("create"))(lambda event: c.form.change(1))
    kb.add("backspace", filter=dialog_is("create"))(lambda event: c.form.backspace())

    @kb.add("<any>", filter=dialog_is("create"))
    def _(event: KeyPressEvent) -> None:
        c.form.type(event.data)

    kb.add("up", filter=dialog_is("deals"))(lambda event: c.deals_move(-1))
    kb.add("down", filter=dialog_is("deals"))(lambda event: c.deals_move(1))
    kb.add("enter", filter=dialog_is("deals"))(lambda event: c.open_deal())
    for key in ("q", "й"):
        kb.add(key, filter=dialog_is("deals"))(lambda event: c.close_dialog())

    kb.add("up", filter=dialog_is("seats"))(lambda event: c.dialog_move(-1))
    kb.add("down", filter=dialog_is("seats"))(lambda event: c.dialog_move(1))
    kb.add("left", filter=dialog_is("seats"))(lambda event: c.seats_level(-1))
    kb.add("right", filter=dialog_is("seats"))(lambda event: c.seats_level(1))
    for key in ("b", "и"):
        kb.add(key, filter=dialog_is("seats"))(lambda event: c.seat_bot())
    for key in ("x", "ч"):
        kb.add(key, filter=dialog_is("seats"))(lambda event: c.seat_free())

    @kb.add("c-c")
    def _(event: KeyPressEvent) -> None:
        c.quit()

    return kb
