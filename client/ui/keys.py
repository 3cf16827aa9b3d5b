"""Key bindings of the terminal client (issue 8, "Keys").

Game keys work only while no dialog is open; while a text field or a question is open, keys go to
it. The Russian-layout twin of each letter key does the same (``т`` is ``n``, ``н`` is ``y``, ...).
Esc only closes a dialog; no game action sits on Esc or Alt. Ctrl-C always quits.
"""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings

from .controller import Controller

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
}


def build_key_bindings(c: Controller) -> KeyBindings:
    kb = KeyBindings()

    no_dialog = Condition(lambda: c.dialog is None)
    at_table = Condition(lambda: c.dialog is None and c.state.screen == "table")
    in_lobby = Condition(lambda: c.dialog is None and c.state.screen == "lobby")

    def dialog_is(*kinds: str) -> Condition:
        return Condition(lambda: c.dialog is not None and c.dialog.kind in kinds)

    question = dialog_is("rank", "count", "create")

    def add(keys: tuple[str, ...], filter, handler) -> None:
        for key in keys:
            kb.add(key, filter=filter)(lambda event, h=handler: h())
            twin = RU_TWIN.get(key)
            if twin:
                kb.add(twin, filter=filter)(lambda event, h=handler: h())

    # -- the table --------------------------------------------------------------------------
    add(("left", "h"), at_table, lambda: c.move(-1))
    add(("right", "l"), at_table, lambda: c.move(1))
    add(("space",), at_table, c.toggle)
    add(("backspace", "delete"), at_table, c.clear_selection)
    add(("enter",), at_table, c.lay)
    add(("n",), at_table, c.challenge)
    add(("y",), at_table, c.believe)
    add(("d",), at_table, c.discard_quads)
    add(("0",), at_table, c.declare_none)
    add(("s",), at_table, c.ready)

    # -- the lobby --------------------------------------------------------------------------
    add(("up", "k"), in_lobby, lambda: c.lobby_move(-1))
    add(("down", "j"), in_lobby, lambda: c.lobby_move(1))
    add(("enter",), in_lobby, c.join)
    add(("v",), in_lobby, lambda: c.join(spectate=True))
    add(("c",), in_lobby, c.open_create)
    add(("r",), in_lobby, c.refresh)
    add(("s",), in_lobby, c.refresh)

    # -- everywhere without a dialog ------------------------------------------------------------
    add(("/", "."), at_table, c.open_chat)
    add(("?", ","), no_dialog, c.open_help)
    add(("q",), no_dialog, c.quit_key)

    # -- dialogs ------------------------------------------------------------------------------
    kb.add("escape", filter=~no_dialog)(lambda event: c.close_dialog())

    @kb.add("escape", "<any>")
    def _(event) -> None:
        """Alt+key arrives as Esc and the key: it does nothing (no game action on Alt)."""

    kb.add("?", filter=dialog_is("help"))(lambda event: c.close_dialog())
    kb.add("enter", filter=dialog_is("help"))(lambda event: c.close_dialog())
    kb.add("q", filter=dialog_is("help"))(lambda event: c.close_dialog())

    kb.add("left", filter=dialog_is("rank", "count"))(lambda event: c.dialog_move(-1))
    kb.add("right", filter=dialog_is("rank", "count"))(lambda event: c.dialog_move(1))
    kb.add("enter", filter=question)(lambda event: c.dialog_confirm())

    @kb.add("<any>", filter=dialog_is("rank", "count"))
    def _(event) -> None:
        c.dialog_pick(event.data)

    for key in ("y", "н"):
        kb.add(key, filter=dialog_is("quit"))(lambda event: c.dialog_confirm())
    for key in ("n", "т", "enter"):
        kb.add(key, filter=dialog_is("quit"))(lambda event: c.close_dialog())

    kb.add("up", filter=dialog_is("create"))(lambda event: _form_field(c, -1))
    kb.add("down", filter=dialog_is("create"))(lambda event: _form_field(c, 1))
    kb.add("left", filter=dialog_is("create"))(lambda event: c.form.change(-1))
    kb.add("right", filter=dialog_is("create"))(lambda event: c.form.change(1))

    @kb.add("c-c")
    def _(event) -> None:
        c.on_quit()

    return kb


def _form_field(c: Controller, step: int) -> None:
    fields = c.form.fields()
    c.form.field = (c.form.field + step) % len(fields)
