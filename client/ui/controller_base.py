"""The controller's base: what every part of it shares (client/ui/controller.py puts them
together): the player's options (``Prefs``), an open dialog (``Dialog``), a notice (``Notice``),
the screen-only state, and the notices themselves.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import attrs

from . import model
from .create_form import CreateForm
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


class ControllerBase:
    """The client's state and the screen's own, and the notices (the module's docstring).

    ``send(request)`` queues a request dict (no ``id``); ``on_quit()`` ends the application;
    ``invalidate()`` asks the screen to redraw; ``on_attention(kind)`` (``"turn"``, ``"chat"``)
    rings the bell where the player asked for it. ``leave_quits``: leaving the table ends the
    program (``neveryu play``) instead of going back to the lobby; ``left`` then says the player
    gave his seat up (``q``), where Ctrl-C keeps it.
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
        self.left = False  # ``leave_quits``: he left his seat (q), nothing to come back to
        self.address = ""  # the server's address as typed (host:port), for texts that name it
        self.replay: Any = None  # a replay's position (client/ui/replay.py); None at a live table
        self.records = False  # the server keeps records (welcome.records): the lobby shows its deals
        self._hand: tuple[str, ...] = self.state.playable_hand
        self._acted: Msg | None = None  # the offer we answered, until the server says what now
        self.actions_sent = 0  # game actions sent so far (the line mode: was an offer answered?)
        # A whole record to replay (client/ui/controller_own_deals.py): the deal, and the seat to
        # see it from first (None: every hand); client/ui/app.py shows it over the screen.
        self.on_open_replay: Callable[[Any, int | None], None] = lambda deal, seat: None
        self.viewing: Any = None  # the replay's controller while one is shown over this screen
        self.on_open_chat: Callable[[], None] = lambda: None  # the screen focuses its text field
        self.on_close_chat: Callable[[], None] = lambda: None
        self.on_attention: Callable[[str], None] = lambda kind: None

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
