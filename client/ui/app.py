"""The full-screen application: model, screen, keys and network put together.

``build_app(controller, input=None, output=None)`` makes the prompt-toolkit ``Application``
(tests pass a pipe input and ``DummyOutput``). The screen is redrawn when a message changed what
it shows (``Controller.receive`` invalidates), after a key, and when a visible countdown or a
notice changes (``Controller.next_tick``); an idle client draws nothing.

``run_client(...)`` runs it against a server until the player quits; prompt-toolkit restores the
terminal on the way out, also after an error. It keeps the session on disk where asked
(client/session_store.py, through client/ui/session.py), so that the same command brings the
player back to his seat, and prints how to come back when the screen closes.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from typing import Any

import attrs
from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.output import ColorDepth, Output

from .controller import Controller
from .keys import build_key_bindings
from .layout import STYLE, Screen
from .net import Net
from .replay import Replay, ReplayController, replay_keys
from .replay_deal import Deal
from .session import RECENT_DEALS
from .session_run import SessionRun
from .texts import Texts

LOBBY_REFRESH_S = 3.0
Msg = dict[str, Any]


def build_app(
    controller: Controller,
    *,
    input: Input | None = None,
    output: Output | None = None,
    color_depth: ColorDepth | None = None,
    keys: KeyBindings | None = None,
) -> Application[None]:
    """The application for ``controller``; quitting, redraws, the bell and the title are wired to
    it. ``keys``: more key bindings (a replay's)."""
    screen = Screen(controller)
    bindings = build_key_bindings(controller)
    app: Application[None] = Application(
        layout=screen.layout,
        key_bindings=bindings if keys is None else merge_key_bindings([bindings, keys]),
        style=STYLE,
        full_screen=True,
        mouse_support=Condition(lambda: controller.prefs.mouse),
        color_depth=color_depth,
        input=input,
        output=output,
        # SIGWINCH tells of a new size where there is one (POSIX, the main thread): no polling,
        # which would wake an idle client twice a second
        terminal_size_polling_interval=None if _winch() else 0.5,
    )
    # Esc alone closes a dialog at once; Alt+key (Esc and a key together) is still told apart.
    app.ttimeoutlen = 0.05
    app.timeoutlen = 0.1
    _wire(app, controller)
    app.screen = screen  # type: ignore[attr-defined]
    return app


def _wire(app: Application[None], controller: Controller) -> None:
    """``controller``'s hooks on ``app``: quitting, redraws (also those the screen needs by itself),
    the bell, the terminal's title, and a replay opened over the screen."""
    title: list[str] = [""]
    timer: list[asyncio.TimerHandle | None] = [None]

    def quit_app() -> None:
        if app.is_running and app.future is not None and not app.future.done():
            app.exit()

    def after_render(_: object) -> None:
        """Schedule the next redraw the screen needs by itself (a countdown's next second, a
        notice's end), if any; and keep the terminal's title in step."""
        if timer[0] is not None:
            timer[0].cancel()
        delay = controller.next_tick(controller.clock())
        timer[0] = None if delay is None else asyncio.get_running_loop().call_later(delay, app.invalidate)
        if controller.prefs.title:
            now = window_title(controller)
            if now != title[0]:
                title[0] = now
                app.output.set_title(now)
                app.output.flush()

    def attention(kind: str) -> None:
        if controller.prefs.bell:
            app.output.bell()
            app.output.flush()

    def open_replay(deal: Any, seat: int | None) -> None:
        app.create_background_task(show_replay(app, controller, deal, seat))

    controller.on_quit = quit_app
    controller.invalidate = app.invalidate
    controller.on_attention = attention
    controller.on_open_replay = open_replay
    app.after_render += after_render


def _winch() -> bool:
    """Whether prompt-toolkit learns of a new terminal size by the SIGWINCH signal here."""
    return hasattr(signal, "SIGWINCH") and threading.current_thread() is threading.main_thread()


async def show_replay(app: Application[None], controller: Controller, deal: Any, seat: int | None) -> None:
    """A recorded deal (client/ui/replay.py) over the client's screen: ``app`` steps aside
    (prompt-toolkit's ``in_terminal``: its input detached, its drawing paused) while the replay runs
    on the same input and output; ``q`` ends the replay and the client's screen comes back.
    Messages keep reaching ``controller`` meanwhile (the connection, the lobby, the table)."""
    from prompt_toolkit.application import in_terminal

    if not app.is_running:
        return
    viewer = ReplayController(controller.t, Replay(deal), seat, over_client=True, prefs=controller.prefs)
    controller.viewing = viewer
    try:
        async with in_terminal():
            nested = build_app(
                viewer,
                input=app.input,
                output=app.output,
                color_depth=app.color_depth,
                keys=replay_keys(viewer),
            )
            await nested.run_async()
    finally:
        controller.viewing = None
        app.invalidate()


def window_title(c: Controller) -> str:
    """The terminal's title: whose turn it is, at a glance from another window."""
    s, t = c.state, c.t
    if s.screen != "table":
        return "neveryu"
    if s.my_turn:
        return t.glyph("turn") + " " + t("turn.you") + " neveryu"
    return f"neveryu {t.glyph('dot')} " + t("head.table", table=(s.table or {}).get("id"))


async def _refresh_lobby(controller: Controller, net: Net) -> None:
    """Keep the lobby's list of tables fresh (tables change without telling the lobby); an
    unchanged list redraws nothing."""
    while True:
        await asyncio.sleep(LOBBY_REFRESH_S)
        state = controller.state
        if state.screen == "lobby" and state.connection == "connected" and controller.dialog is None:
            net.send({"t": "list_tables"})
            if controller.records:
                net.send({"t": "list_records", "limit": RECENT_DEALS})


NOTES_S = 60.0
"""How long the notes on the terminal stay at most (a key takes them down sooner)."""


def say_notes(controller: Controller, texts: Texts, notes: tuple[str, ...]) -> None:
    """What the terminal lacks (English for want of Cyrillic, ASCII cards), said first and kept
    until a key is pressed, whatever comes meanwhile (sticky), so that it is read."""
    controller.say(" ".join(texts(n) for n in notes), "message", seconds=NOTES_S, sticky=True)


def run_client(
    host: str,
    port: int,
    *,
    name: str,
    texts: Texts,
    password: str | None = None,
    script: Callable[[Net, Msg], None] | None = None,
    leave_quits: bool = False,
    prefs: Any = None,
    slot: Any = None,
    notes: tuple[str, ...] = (),
    color_depth: ColorDepth | None = None,
    come_back: str = "",
    player_key: str | None = None,
) -> int:
    """Run the terminal client against ``host``:``port`` until the player quits. Returns 0, or 1
    when the connection could never be made (the reason is printed after the screen closes).
    Raises ``PasswordRefused`` when the server refused ``password`` (or its absence) before it
    ever welcomed this client: nothing is printed then.

    ``script(net, msg)``, if given, sees every message before the screen does and may send
    requests (``neveryu play`` creates its table and starts the match this way); without one, a
    fresh ``welcome`` asks for the tables and variants (the lobby). ``slot``: where the session
    is kept (None: nowhere); a kept session is resumed at once. ``notes``: sentences to show
    first (what the terminal lacks). ``come_back``: the command that brings the player back,
    printed when he leaves his seat behind. ``player_key``: sent in ``hello``
    (client/player_key.py; None: the player is a guest)."""
    run = _Run(
        host=host,
        port=port,
        name=name,
        texts=texts,
        password=password,
        script=script,
        leave_quits=leave_quits,
        prefs=prefs,
        slot=slot,
        notes=notes,
        color_depth=color_depth,
        come_back=come_back,
        player_key=player_key,
    )
    return run.run()


@attrs.define(kw_only=True)
class _Run(SessionRun):
    """One run of ``run_client``: the shared session (client/ui/session_run.py) on the screen."""

    color_depth: ColorDepth | None = None

    async def main(self) -> None:
        """The screen and the connection, until the player quits."""
        controller = self.controller(Controller)
        app = build_app(controller, color_depth=self.color_depth)
        keeper = self.keeper()
        net = self.connect(controller, keeper)
        if self.notes:
            say_notes(controller, self.texts, self.notes)
        net.start()
        refresh = asyncio.ensure_future(_refresh_lobby(controller, net))
        try:
            await app.run_async()
        finally:
            refresh.cancel()
            await net.aclose()
            self.end(controller, keeper, net.address)


def run_replay(
    deal: Deal,
    texts: Texts,
    *,
    seat: int | None = None,
    color_depth: ColorDepth | None = None,
    notes: tuple[str, ...] = (),
) -> int:
    """Show ``deal`` (client/ui/replay.py) full-screen from ``seat``'s view (None: every hand)
    until the player quits (q): ``neveryu replay ID``. Returns 0."""

    async def main() -> None:
        controller = ReplayController(texts, Replay(deal), seat)
        app = build_app(controller, color_depth=color_depth, keys=replay_keys(controller))
        if notes:
            say_notes(controller, texts, notes)
        await app.run_async()

    asyncio.run(main())
    return 0
