"""The full-screen application: model, screen, keys and network put together.

``build_app(controller, input=None, output=None)`` makes the prompt-toolkit ``Application`` (tests
pass a pipe input and ``DummyOutput``). ``run_client(...)`` runs it against a server until the
player quits; prompt-toolkit restores the terminal on the way out, also after an error.
"""

from __future__ import annotations

import asyncio
import sys

from prompt_toolkit.application import Application

from .controller import Controller
from .keys import build_key_bindings
from .layout import STYLE, Screen
from .net import Net
from .texts import Texts

CLIENT_NAME = "neveryu-tui"


def build_app(controller: Controller, *, input=None, output=None) -> Application:
    """The application for ``controller``; quitting and redraws are wired to it."""
    screen = Screen(controller)
    app: Application = Application(
        layout=screen.layout,
        key_bindings=build_key_bindings(controller),
        style=STYLE,
        full_screen=True,
        mouse_support=False,
        refresh_interval=0.5,
        input=input,
        output=output,
    )

    def quit_app() -> None:
        if app.is_running and not app.future.done():
            app.exit()

    # Esc alone closes a dialog at once; Alt+key (Esc and a key together) is still told apart.
    app.ttimeoutlen = 0.05
    app.timeoutlen = 0.1
    controller.on_quit = quit_app
    controller.invalidate = app.invalidate
    app.screen = screen  # type: ignore[attr-defined]
    return app


def hello_fields(name: str, password: str | None) -> dict:
    from neveryu import protocol

    fields = {
        "proto": [protocol.PROTOCOL_VERSION, protocol.PROTOCOL_VERSION],
        "client": {"name": CLIENT_NAME, "version": _version()},
        "name": name,
    }
    if password:
        fields["password"] = password
    return fields


LOBBY_REFRESH_S = 3.0


def _describe(exc: BaseException) -> str:
    """One line for an error, the first leaf of an exception group."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"


async def _refresh_lobby(controller: Controller, net: Net) -> None:
    """Keep the lobby's list of tables fresh (tables change without telling the lobby)."""
    while True:
        await asyncio.sleep(LOBBY_REFRESH_S)
        state = controller.state
        if state.screen == "lobby" and state.connection == "connected" and controller.dialog is None:
            net.send({"t": "list_tables"})


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("neveryu")
    except PackageNotFoundError:
        return "0"


def run_client(
    host: str,
    port: int,
    *,
    name: str,
    texts: Texts,
    password: str | None = None,
    script=None,
    leave_quits: bool = False,
) -> int:
    """Run the terminal client against ``host``:``port`` until the player quits. Returns 0, or 1
    when the connection could never be made (the reason is printed after the screen closes).

    ``script(net, msg, resumed)``, if given, sees every message before the screen does and may
    send requests (``neveryu play`` creates its table and starts the match this way); without
    one, a fresh ``welcome`` asks for the tables and variants (the lobby)."""
    failure: list[str] = []

    async def main() -> None:
        controller = Controller(texts, lambda request: None, leave_quits=leave_quits)
        app = build_app(controller)

        def welcome(msg: dict, resumed: bool) -> None:
            if script is None and not resumed:
                net.send({"t": "list_tables"})
                net.send({"t": "variants"})

        def deliver(msg: dict) -> None:
            if script is not None:
                script(net, msg)
            never_connected = controller.state.session is None
            controller.receive(msg)
            if never_connected and msg.get("t") == "_connection" and msg.get("status") == "closed":
                controller.on_quit()  # nothing to show: say why on the terminal instead

        def done(exc: BaseException | None) -> None:
            if exc is not None:  # a bug on the network side: say so, keep the screen usable
                controller.receive({"t": "_connection", "status": "closed", "reason": _describe(exc)})

        net = Net(host, port, hello_fields(name, password), deliver, on_welcome=welcome, on_done=done)
        controller.send = net.send
        controller.state = controller.state.__class__(name=name)
        net.start()
        refresh = asyncio.ensure_future(_refresh_lobby(controller, net))
        try:
            await app.run_async()
        finally:
            refresh.cancel()
            await net.aclose()
            state = controller.state
            if state.session is None and state.connection == "closed":
                failure.append(
                    next(
                        (str(x.args.get("reason")) for x in reversed(state.log) if x.key == "conn_closed"),
                        f"cannot connect to {host}:{port}",
                    )
                )

    asyncio.run(main())
    if failure:
        print(f"neveryu: {failure[0]}", file=sys.stderr)
        return 1
    return 0
