"""A recorded deal replayed in the terminal client: the table's screen, stepped through by keys.

``Deal`` (client/ui/replay_deal.py) holds what the records give (``neveryu replay`` makes it
from the server's replay of a record, the client from a whole record fetched over the network):
for each view (``None``: every hand; a seat: as it saw the deal) and each step (the deal being
dealt, then one step per recorded action) the protocol messages that view was sent, the
server's own projection of each event. ``Replay`` folds them through the client's own reducer
(``model.reduce``) once, into the state after every step of every view, so stepping back is as
cheap as stepping forward. ``ReplayController`` is the table's controller whose keys move
through the deal instead of playing it (client/ui/keys.py, "the replay"); the screen is the
table's (client/ui/layout.py), which shows every hand in the hand's place in the every-hand
view. client/ui/app.py runs it full-screen (``run_replay``), or over the client's screen.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from . import model
from .controller import Controller
from .replay_deal import Deal
from .texts import Texts

__all__ = ["Deal", "Position", "Replay", "ReplayController", "replay_keys"]

Msg = dict[str, Any]


class Replay:
    """The state of every view after every step of ``deal`` (pure: no screen, no clock)."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        table = dict(deal.table)
        self.seats = [x["seat"] for x in table.get("seats") or ()]
        self.states: dict[int | None, list[model.State]] = {}
        for view, steps in deal.views.items():
            state = model.State(
                screen="table",
                connection="connected",
                server_name=deal.server,
                table=table,
                seat=view,
                names=model.names_of(table, view),
                variant=str(table.get("variant") or ""),
            )
            states = []
            for messages in steps:
                state = model.reduce_all(messages, state)
                states.append(state)
            self.states[view] = states
        every = deal.views.get(None) or ()
        self.reveals = tuple(
            i for i, messages in enumerate(every) if any(m.get("t") == "set_revealed" for m in messages)
        )

    @property
    def steps(self) -> int:
        return len(self.deal.times)

    def hands(self, index: int) -> list[tuple[int, tuple[str, ...]]]:
        """Every seat's hand after step ``index``: ``(seat, cards)``, seat by seat."""
        return [(seat, self.states[seat][index].hand or ()) for seat in self.seats if seat in self.states]


@attrs.define
class Position:
    """Where the replay stands, as the screen shows it: step ``index`` of ``steps`` at ``ms``
    from the deal's start; ``view`` (None: every hand); ``hands`` (every seat's, in that view);
    ``over_client``: the replay runs over the client's screen, which ``q`` brings back."""

    deal: int
    index: int
    steps: int
    ms: int
    view: int | None
    hands: list[tuple[int, tuple[str, ...]]] | None
    over_client: bool = False


class ReplayController(Controller):
    """The controller of a replay: the table's, with keys that step through ``replay`` (from
    ``seat``'s view; None: every hand) and never send anything. ``over_client``: it runs over the
    client's screen (a deal opened with ``p``), and ``q`` goes back to it rather than quitting."""

    def __init__(
        self, texts: Texts, replay: Replay, seat: int | None = None, over_client: bool = False, **kw: Any
    ) -> None:
        self.player = replay
        self.over_client = over_client
        self.index = 0
        self.view = seat
        texts = Texts(texts.lang, ascii=texts.ascii, live=False)  # no seat is the reader's own
        super().__init__(texts, lambda request: None, leave_quits=True, state=replay.states[seat][0], **kw)
        self._show()

    def _show(self) -> None:
        r = self.player
        before = self.state
        self.state = r.states[self.view][self.index]
        self.replay = Position(
            deal=r.deal.id,
            index=self.index,
            steps=r.steps,
            ms=r.deal.times[self.index],
            view=self.view,
            hands=r.hands(self.index) if self.view is None else None,
            over_client=self.over_client,
        )
        self._follow_hand()
        if self.state.table != before.table or self.state.seat != before.seat:
            self.log_scroll.end()
        self.invalidate()

    def step(self, by: int) -> None:
        """Move ``by`` steps (negative: back), within the deal."""
        self.index = max(0, min(self.player.steps - 1, self.index + by))
        self._show()

    def go(self, index: int) -> None:
        """To step ``index`` (negative: from the end)."""
        self.index = index % self.player.steps
        self._show()

    def reveal(self, by: int) -> None:
        """To the next (``by`` 1) or previous (-1) step that revealed a set; says so when there
        is none."""
        later = [i for i in self.player.reveals if (i > self.index if by > 0 else i < self.index)]
        if not later:
            self.say(self.t("replay.no_reveal_after" if by > 0 else "replay.no_reveal_before"))
            return
        self.index = later[0] if by > 0 else later[-1]
        self._show()

    def next_view(self) -> None:
        """Every hand, then each seat's view in turn."""
        views = [None, *self.player.seats]
        self.view = views[(views.index(self.view) + 1) % len(views)]
        self._show()
        self.say(self.view_name())

    def show_seat(self, seat: int) -> None:
        """Seat ``seat``'s view (a key that names no seat says so)."""
        if seat not in self.player.seats:
            self.unknown_key(str(seat + 1))
            return
        self.view = seat
        self._show()
        self.say(self.view_name())

    def view_name(self) -> str:
        if self.view is None:
            return self.t("replay.view.all")
        return self.t("replay.view.seat", name=self.t.seat_name(self.state, self.view, you=False))

    # -- the table's keys that would play: here they do nothing, or move -------------------------

    def move(self, step: int) -> None:
        self.step(step)

    def quit_key(self) -> None:
        self.quit()

    def open_chat(self) -> None:
        self.say(self.t("replay.no_chat"))


def replay_keys(c: ReplayController) -> KeyBindings:
    """The replay's own keys (the table's are client/ui/keys.py): Space and Backspace step, ↓↑
    (j k) jump to the next or previous reveal, Home and End go to the deal's start and end, v
    changes the view, digits 1–9 show that seat's view."""
    kb = KeyBindings()
    free = Condition(lambda: c.dialog is None)
    moves: dict[str, Callable[[], None]] = {
        "space": lambda: c.step(1),
        "backspace": lambda: c.step(-1),
        "down": lambda: c.reveal(1),
        "j": lambda: c.reveal(1),
        "о": lambda: c.reveal(1),
        "up": lambda: c.reveal(-1),
        "k": lambda: c.reveal(-1),
        "л": lambda: c.reveal(-1),
        "home": lambda: c.go(0),
        "end": lambda: c.go(-1),
        "v": c.next_view,
        "м": c.next_view,
    }
    for seat in range(9):
        moves[str(seat + 1)] = functools.partial(c.show_seat, seat)
    for key, move in moves.items():

        @kb.add(key, filter=free)
        def _(event: KeyPressEvent, move: Callable[[], None] = move) -> None:
            c.key_pressed()
            move()

    return kb
