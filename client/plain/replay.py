"""A recorded deal in the line mode: the replay of the full-screen client (client/ui/replay.py:
the deal folded through the client's own reducer, every view and every step), read as the log's
lines, one step at a time. Enter steps on; a number goes to that step; ``q`` ends the replay.
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

    def start(self) -> None:
        self.out(speakable(self.t("plain.replay_start", id=self.player.deal.id), self.t.lang))
        self.step()

    def step(self) -> None:
        """The next step's lines; after the last, the deal's end."""
        if self.done:
            self.out(speakable(self.t("plain.replay_end", id=self.player.deal.id), self.t.lang))
            return
        self.go(self.index + 1)

    def go(self, index: int) -> None:
        """Step ``index`` (0: the deal as dealt), with what its log added since the last said."""
        index = max(0, min(self.player.steps - 1, index))
        self.index = index
        state = self.player.states[self.view][index]
        ms = self.player.deal.times[index]
        when = f"{ms // 60000}:{ms // 1000 % 60:02d}"
        t = self.t
        self.out(
            speakable(t("plain.replay_step", step=index + 1, steps=self.player.steps, time=when), t.lang)
        )
        if index == 0 and state.hand:
            hand = t("plain.hand", count=t.n_cards(len(state.hand)), cards=t.cards(state.hand))
            self.out(speakable(hand, t.lang))
        before = {id(x) for x in self.player.states[self.view][index - 1].log} if index else set()
        for line in state.log:
            if id(line) not in before:
                self.out(speakable(t.log_line(state, line), t.lang))
