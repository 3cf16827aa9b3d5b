"""One run of a client session, as both faces of the client run it (the full screen:
client/ui/app.py, ``run_client``; the line mode: client/plain/session.py, ``run_plain``): the
connection resuming a kept session, the welcome that asks for the lobby, each message delivered
to the controller and the session's keeper, the end with its note on how to come back, and what
is said on the terminal afterwards. Each face subclasses ``SessionRun`` with what is its own
(``received``: after the controller has a message; ``lost``: the network side failed).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from .controller import Controller
from .net import Net
from .session import RECENT_DEALS, Keeper, exit_note, hello_fields, resumed_state, seat_kept

Msg = dict[str, Any]
C = TypeVar("C", bound=Controller)


def describe(exc: BaseException) -> str:
    """One line for an error, the first leaf of an exception group."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"


class PasswordRefused(Exception):
    """The server refused the password ``hello`` gave, or asked for one none was given
    (``WRONG_PASSWORD``, docs/PROTOCOL.md): the caller may ask for it and try again."""


@attrs.define(kw_only=True)
class SessionRun:
    """One run of a session (``run_client``'s arguments, client/ui/app.py), and what it leaves
    to say on the terminal once it is over."""

    host: str
    port: int
    name: str
    texts: Any
    password: str | None = None
    script: Callable[[Net, Msg], None] | None = None
    leave_quits: bool = False
    prefs: Any = None
    slot: Any = None
    notes: tuple[str, ...] = ()
    come_back: str = ""
    player_key: str | None = None
    failure: list[str] = attrs.Factory(list)  # why the connection could never be made
    refused: list[str] = attrs.Factory(list)  # the server's WRONG_PASSWORD, before it welcomed this client
    said: list[str] = attrs.Factory(list)  # how to come back, once the session is over

    def run(self, say: Callable[[str], None] = print) -> int:
        """Run ``main`` until the player quits, close the slot, and say what there is to say
        (``outcome``)."""
        try:
            asyncio.run(self.main())
        finally:
            if self.slot is not None:
                self.slot.close()
        return self.outcome(say)

    async def main(self) -> None:
        """The face's own loop (the screen, or the lines), until the player quits."""
        raise NotImplementedError

    @property
    def kept(self) -> Any:
        """The session kept on disk (client/session_store.py), or None."""
        return self.slot.kept if self.slot is not None else None

    def controller(self, kind: type[C]) -> C:
        """A controller of ``kind`` with the run's preferences, on the model's first state
        (``resumed_state``); it sends nothing until ``connect``."""
        state = resumed_state(self.name, self.kept)
        return kind(
            self.texts, lambda request: None, leave_quits=self.leave_quits, prefs=self.prefs, state=state
        )

    def keeper(self) -> Keeper | None:
        return Keeper.of(self.slot, self.name, match_only=self.leave_quits)

    def connect(self, controller: Controller, keeper: Keeper | None) -> Net:
        """The connection, resuming the kept session if any, feeding ``controller`` and
        ``keeper``; the controller sends through it."""
        kept = self.kept
        net = Net(
            self.host,
            self.port,
            hello_fields(self.name, self.password, self.player_key),
            lambda msg: self.deliver(net, controller, keeper, msg),
            session=kept.token if kept is not None else None,
            last_seq=kept.replay_from if kept is not None else 0,
            on_welcome=lambda msg, resumed: self.welcome(net, controller, msg, resumed),
            on_done=lambda exc: None if exc is None else self.lost(net, controller, keeper, exc),
        )
        controller.send = net.send
        controller.address = net.address
        return net

    def welcome(self, net: Net, controller: Controller, msg: Msg, resumed: bool) -> None:
        """``welcome``: without a script, the lobby's list (and the server's last deals) unless
        a resume went back to a table, and the variants for the new-table form."""
        controller.records = bool(msg.get("records"))
        if self.script is None:
            if not resumed or msg.get("table") is None:
                self.asking_tables(controller)
                net.send({"t": "list_tables"})
                if controller.records:
                    net.send({"t": "list_records", "limit": RECENT_DEALS})
            net.send({"t": "variants"})

    def asking_tables(self, controller: Controller) -> None:
        """The lobby's list is about to be asked for (the line mode prints it when it comes)."""

    def deliver(self, net: Net, controller: Controller, keeper: Keeper | None, msg: Msg) -> None:
        """One message: to the script, the controller and the keeper; a connection never made
        ends the run (the reason is said on the terminal)."""
        if self.script is not None:
            self.script(net, msg)
        never_connected = not net.welcomed
        if never_connected and msg.get("t") == "error" and msg.get("code") == "WRONG_PASSWORD":
            self.refused.append(str(msg.get("msg") or ""))
        controller.receive(msg)
        self.received(controller, msg, before=True)
        if keeper is not None:
            keeper.follow(msg, controller.state)
        if never_connected and msg.get("t") == "_connection" and msg.get("status") == "closed":
            self.failure.append(str(msg.get("reason") or f"cannot connect to {self.host}:{self.port}"))
            controller.on_quit()
            return
        self.received(controller, msg, before=False)

    def received(self, controller: Controller, msg: Msg, before: bool) -> None:
        """What a face does with a message the controller has: ``before`` the keeper follows
        it, and after (not when the connection could never be made)."""

    def lost(self, net: Net, controller: Controller, keeper: Keeper | None, exc: BaseException) -> None:
        """A bug on the network side: say so, keep the client usable."""
        controller.receive({"t": "_connection", "status": "closed", "reason": describe(exc)})

    def end(self, controller: Controller, keeper: Keeper | None, address: str) -> None:
        """The session is over: how to come back, and the session kept or forgotten."""
        if self.failure:
            return
        note = exit_note(controller, address, self.come_back)
        if note:
            self.said.append(note)
        if keeper is not None:
            keeper.end(controller.state, gone=not seat_kept(controller))

    def outcome(self, say: Callable[[str], None] = print) -> int:
        """The run's return: 0, or 1 when the connection could never be made (the reason on
        stderr); the note on how to come back through ``say``. Raises ``PasswordRefused`` first
        when the server refused the password (or its absence)."""
        if self.refused:
            raise PasswordRefused(self.refused[0])
        if self.failure:
            print(f"neveryu: {self.failure[0]}", file=sys.stderr)
            return 1
        for line in self.said:
            say(line)
        return 0
