"""What the line mode says after each message: the log's new lines (the full-screen client's
log, in its words), chat, the notices the controller gives (refusals, the recap after a
resume), the pages asked for when their replies come, and the seat's turn: announced once, with
what may be done, and its time told at a few moments (half the turn, 10 s, 5 s), never as a
ticking line.

``Narrator(c, out, later, waiting)``: ``out(line)`` prints one line; ``later(seconds, fn)`` runs
``fn`` after ``seconds`` (the session's event loop; tests pass their own); ``waiting``: say what
a table with no match on waits for (not where the session seats the player and starts the
match by itself). ``told(msg, said)`` is
called after the controller took each message, with the notices it gave meanwhile.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from neveryu.client.ui.model_state import ChatLine, Line
from neveryu.client.ui.status import table_waiting, waiting_text

from . import answers
from .actions import PlainController
from .words import speakable

REMEMBERED = 4000  # log lines remembered as printed (a table's log is at most 300 of them)
TIME_MARKS_S = (10.0, 5.0)  # besides half the turn


class Narrator:
    def __init__(
        self,
        c: PlainController,
        out: Callable[[str], None],
        later: Callable[[float, Callable[[], None]], Any],
        waiting: bool = True,
    ) -> None:
        self.c = c
        self.tells_waiting = waiting  # (``neveryu play`` seats the player and starts by itself)
        self.out = out
        self.later = later
        self.printed: OrderedDict[int, Line] = OrderedDict()  # id -> line (kept: ids stay unique)
        self.chat_seen: ChatLine | None = None
        self.announced: tuple[Any, ...] | None = None
        self.offer: Any = None  # the ``legal`` announced (each offer of the server is a new one)
        self.answered = 0  # ``actions_sent`` when it was announced
        self.match_over: Any = None
        self.waiting: tuple[str, Any] | None = None  # what the table was said to wait for

    def say(self, text: str) -> None:
        self.out(speakable(text, self.c.t.lang))

    def told(self, msg: dict[str, Any], said: list[str]) -> None:
        """Say what ``msg`` changed; ``said``: the controller's notices meanwhile."""
        c = self.c
        s = c.state
        new = [line for line in s.log if id(line) not in self.printed]
        texts = [c.t.log_line(s, line) for line in new]
        for line in new:
            self.printed[id(line)] = line
        while len(self.printed) > REMEMBERED:
            self.printed.popitem(last=False)
        for text in texts:
            self.say(text)
        for text in said:
            if text not in texts:
                self.say(text)
        self._chat()
        self._pages(msg)
        self._waiting()
        self._turn()

    def _waiting(self) -> None:
        """At a table with no deal on: what it waits for (free seats, players to get ready, the
        start; with a match on, come back between its deals: its next deal), said when that
        changes, as the full-screen client's table shows it."""
        c = self.c
        s = c.state
        if not self.tells_waiting or s.screen != "table" or s.in_deal or s.match_over is not None:
            self.waiting = None
            return
        key, args = table_waiting(s)
        if (key, args) == self.waiting or (key == "wait.next_deal" and not (s.table or {}).get("deal_no")):
            return  # (said already; or the match has just started, as its line says)
        self.waiting = (key, args)
        plain = {"wait.you": "plain.wait_you", "wait.start": "plain.wait_start"}
        self.say(c.t(plain[key]) if key in plain else waiting_text(c.t, s))

    def _chat(self) -> None:
        chat = self.c.state.chat
        if not chat or chat[-1] is self.chat_seen:
            return
        start = next((i + 1 for i in range(len(chat) - 1, -1, -1) if chat[i] is self.chat_seen), 0)
        for line in chat[start:]:
            name = self.c.t.seat_name(self.c.state, line.seat) if line.seat is not None else line.name
            self.say(self.c.t("plain.chat", name=name, text=line.text))
        self.chat_seen = chat[-1]

    def _pages(self, msg: dict[str, Any]) -> None:
        c, t = self.c, msg.get("t")
        lines: list[str] = []
        if t == "player_stats" and "stats" in c.asked:
            c.asked.discard("stats")
            lines = answers.stats_lines(c)
        elif t == "leaderboard" and "top" in c.asked:
            c.asked.discard("top")
            lines = answers.page(c, "players", variant=msg.get("variant") or c.top_variant)
        elif t == "tables" and "tables" in c.asked:
            c.asked.discard("tables")
            lines = answers.tables_lines(c)
        elif t == "_my_records" and "history" in c.asked:
            c.asked.discard("history")
            lines = answers.history_lines(c)
        elif t == "record" and c.dialog is not None and c.dialog.kind == "record":
            lines = answers.page(c, "record", **c.dialog.data)
            c.dialog = None
        elif t == "error" and msg.get("code") in ("RECORDS_OFF", "NO_SUCH_PLAYER", "NO_SUCH_RECORD"):
            c.asked.clear()
        s = c.state
        if s.match_over is not None and s.match_over is not self.match_over:
            lines += answers.match_over_lines(c)
        self.match_over = s.match_over
        for line in lines:
            self.out(line)

    # -- the turn ---------------------------------------------------------------------------

    def _turn(self) -> None:
        c = self.c
        s = c.state
        window = s.seat is not None and s.playing and (s.quads_window or {}).get("seat") == s.seat
        if not (s.my_turn or window) or not c.legal:
            return
        key = (s.deal_no, s.set_no, s.turn, window, tuple(sorted(c.legal)))
        if s.legal is self.offer:  # the same offer (put back after a refusal): told already
            return
        if key == self.announced and s.legal == self.offer and c.actions_sent == self.answered:
            return  # sent again unchanged (another seat's action between) and not answered yet
        self.announced, self.offer, self.answered = key, s.legal, c.actions_sent
        self.out(answers.turn_line(c, window))
        deadline = (s.quads_window or {}).get("deadline") if window else s.turn_deadline
        if deadline is not None:
            self._time_marks(key, deadline)

    def _time_marks(self, key: tuple[Any, ...], deadline: float) -> None:
        """Tell the time left at half the turn, 10 s and 5 s, while the turn lasts."""
        c = self.c
        left = deadline - c.clock()
        turn_ms = (c.state.table or {}).get("turn_ms")
        marks: set[float] = set(TIME_MARKS_S)
        half = turn_ms / 2000.0 if isinstance(turn_ms, int) and turn_ms > 0 else left / 2
        marks.add(round(half))
        for mark in sorted(marks, reverse=True):
            if 0 < mark < left - 0.5:
                self.later(left - mark, functools.partial(self._tell_time, key, mark))

    def _tell_time(self, key: tuple[Any, ...], mark: float) -> None:
        if self.announced != key or not self.c.legal:
            return
        s = self.c.state
        if not (s.my_turn or (s.quads_window or {}).get("seat") == s.seat):
            return
        self.say(self.c.t("plain.time_left", time=self.c.t.count(int(mark), "seconds")))
