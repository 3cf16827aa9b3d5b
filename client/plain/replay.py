"""A recorded deal in the line mode: the replay of the full-screen client (client/ui/replay.py:
the deal folded through the client's own reducer, every view and every step), read as the log's
lines, one step at a time, with the full-screen viewer's moves as words:

- Enter steps on; ``back`` steps back; a number goes to that step; ``start`` and ``end`` go to
  the deal's start and end; ``reveal`` and ``reveal back`` go to the next or previous step that
  revealed a set;
- ``view`` changes the view (every hand, then each seat as it saw the deal), ``view all`` shows
  every hand, ``view N`` seat N's view; ``hands`` says every seat's hand at this step (the
  every-hand view) or the seat's own;
- ``q`` ends the replay.
"""

from __future__ import annotations

from collections.abc import Callable

from neveryu.client.ui.replay import Replay
from neveryu.client.ui.replay_deal import Deal
from neveryu.client.ui.texts import Texts

from .words import speakable


class PlainReplay:
    """``deal`` from ``seat``'s view (None: every hand), said through ``out(line)``."""

    def __init__(self, deal: Deal, seat: int | None, texts: Texts, out: Callable[[str], None]) -> None:
        self.player = Replay(deal)
        self.view = seat if seat in self.player.states else None
        self.t = texts
        self.out = out
        self.index = -1

    @property
    def done(self) -> bool:
        return self.index >= self.player.steps - 1

    def say(self, text: str) -> None:
        self.out(speakable(text, self.t.lang))

    def start(self) -> None:
        self.say(self.t("plain.replay_start", id=self.player.deal.id))
        self.step()

    def step(self) -> None:
        """The next step's lines; after the last, the deal's end."""
        if self.done:
            self.say(self.t("plain.replay_end", id=self.player.deal.id))
            return
        self.go(self.index + 1)

    def order(self, line: str) -> bool:
        """Do the replay's order ``line`` (the module's docstring; Enter and ``q`` are the
        session's: they end the replay too); False when it is none."""
        words = line.strip().lower().split()
        if not words:
            return False
        if words[0].isdigit() and len(words) == 1:
            self.go(int(words[0]) - 1)
        elif words == ["back"]:
            self.go(self.index - 1, since=self.index - 2)
        elif words == ["start"]:
            self.go(0)
        elif words == ["end"]:
            self.go(self.player.steps - 1, since=self.index)
        elif words[0] == "reveal" and words[1:] in ([], ["back"]):
            self.reveal(-1 if words[1:] else 1)
        elif words[0] == "view" and len(words) <= 2:
            self.change_view(words[1] if len(words) == 2 else None)
        elif words == ["hands"]:
            self.hands()
        else:
            return False
        return True

    def go(self, index: int, since: int | None = None) -> None:
        """Step ``index`` (0: the deal as dealt), with what its log added since step ``since``
        (default: the step before it)."""
        index = max(0, min(self.player.steps - 1, index))
        self.index = index
        state = self.player.states[self.view][index]
        ms = self.player.deal.times[index]
        when = f"{ms // 60000}:{ms // 1000 % 60:02d}"
        t = self.t
        self.say(t("plain.replay_step", step=index + 1, steps=self.player.steps, time=when))
        if index == 0:
            self.hands()
        since = index - 1 if since is None else since
        before = {id(x) for x in self.player.states[self.view][since].log} if 0 <= since < index else set()
        for line in state.log:
            if id(line) not in before:
                self.say(t.log_line(state, line))

    def reveal(self, by: int) -> None:
        """To the next (``by`` 1) or previous (-1) step that revealed a set."""
        steps = [i for i in self.player.reveals if (i > self.index if by > 0 else i < self.index)]
        if not steps:
            self.say(self.t("replay.no_reveal_after" if by > 0 else "replay.no_reveal_before"))
            return
        self.go(steps[0] if by > 0 else steps[-1])

    def change_view(self, word: str | None) -> None:
        """``None``: the next view (every hand, then each seat); ``all``; a seat's number."""
        views: list[int | None] = [None, *self.player.seats]
        if word is None:
            view = views[(views.index(self.view) + 1) % len(views)]
        elif word == "all":
            view = None
        elif word.isdigit() and int(word) - 1 in self.player.seats:
            view = int(word) - 1
        else:
            self.say(self.t("plain.replay_no_seat", word=word, n=len(self.player.seats)))
            return
        self.view = view
        state = self.player.states[view][max(0, self.index)]
        name = self.t.seat_name(state, view, you=False) if view is not None else ""
        shown = self.t("replay.view.seat", name=name) if view is not None else self.t("replay.view.all")
        self.say(self.t("plain.replay_view", view=shown))
        self.hands()

    def hands(self) -> None:
        """The hands this view shows at this step: every seat's, or the seat's own."""
        t, index = self.t, max(0, self.index)
        seats = self.player.seats if self.view is None else [self.view]
        for seat in seats:
            state = self.player.states[seat][index]
            cards = t.cards(state.hand) if state.hand else t("replay.no_cards")
            name = t.seat_name(state, seat, you=False)
            self.say(t("plain.replay_hand", name=name, count=t.n_cards(len(state.hand or ())), cards=cards))
