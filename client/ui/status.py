"""The status line: whose turn it is, what may be claimed, the time left, and where the table
stands between deals and matches. It is drawn on its own line just under the header, so that it
is on screen at every size the client allows (64×20 and up).

``status(state, texts, now)`` returns formatted text (prompt-toolkit ``(style, text)`` pairs);
``table_waiting(state)`` says what a table between matches waits for (a texts.py key and its
arguments).
"""

from __future__ import annotations

import math
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .layout_common import deal_of
from .model import State
from .standings import standings
from .texts import Texts


def time_left(state: State, now: float) -> int | None:
    """Whole seconds left of the turn (rounded up), or None when untimed."""
    return seconds_left(state.turn_deadline, now)


def seconds_left(deadline: float | None, now: float) -> int | None:
    """Whole seconds from ``now`` to ``deadline`` (rounded up, at least 0), or None."""
    if deadline is None:
        return None
    return max(0, math.ceil(deadline - now))


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def table_waiting(s: State) -> tuple[str, dict[str, Any]]:
    """What a table with no deal on waits for: free seats, players not ready, or the start; with
    a match on (a client that came back between its deals), its next deal."""
    if (s.table or {}).get("state") == "playing":
        return ("wait.next_deal", {})
    seats = s.seats
    free = sum(1 for x in seats if not x.get("name") and not x.get("bot"))
    if free:
        return ("wait.seats", {"n": free})
    unready = [x.get("seat") for x in seats if not x.get("bot") and not x.get("ready")]
    if s.seat in unready:
        return ("wait.you", {})
    if unready:
        return ("wait.ready", {"seats": tuple(unready)})
    return ("wait.start", {})


def status(s: State, t: Texts, now: float) -> StyleAndTextTuples:
    """The status line for the table screen."""
    if s.screen != "table":
        return []
    if s.connection != "connected":  # nothing on the table moves meanwhile
        key = "status.bye." + (s.bye or "") if s.bye else "status.conn." + s.connection
        return [("class:warn", t(key) if key in t.table else t("status.conn.closed"))]
    out: StyleAndTextTuples = []
    if s.seat is None and t.live:
        out.append(("class:dim", t("status.watching") + " "))
    window = s.quads_window if s.playing else None
    if window is not None and window.get("seat") == s.seat and s.seat is not None and t.live:
        return out + my_quads_window(s, t, now, window)
    if s.playing and s.turn is not None:
        return out + _turn(s, t, now, window)
    if s.playing:
        out.append(("", t("status.dealing")))
        return out
    return out + _between_deals(s, t)


def _turn(s: State, t: Texts, now: float, window: dict[str, Any] | None) -> StyleAndTextTuples:
    """A turn: whose, what may be claimed, the time left; and someone else's quads ``window``."""
    out: StyleAndTextTuples = []
    if s.my_turn and t.live:
        mine = "turn.you_away" if s.seat_info().get("away") else "turn.you"  # (a bot plays it)
        out.append(("class:myturn", t.glyph("turn") + " " + t(mine)))
    else:
        out.append(("class:turn", t("turn", name=t.seat_name(s, s.turn))))
    if s.ranks:
        key = "status.lead" if s.last is None else "status.claim"
        out.append(("", " " + t.glyph("dot") + " " + t(key, ranks=t.ranks(s.ranks))))
    left = time_left(s, now)
    turn_ms = (s.table or {}).get("turn_ms")
    away = s.seat_info().get("away")  # a bot plays the seat: no clock runs for the player
    if left is None and s.my_turn and not away and isinstance(turn_ms, int) and turn_ms > 0:
        # after a resume the replayed turn's time is stale: say the clock runs all the same
        out.append(("", " " + t.glyph("dot") + " "))
        out.append(("class:warn", t("status.timed", s=turn_ms // 1000)))
    if left is not None:
        out.append(("", " " + t.glyph("dot") + " "))
        out.append(
            (
                "class:warn" if left <= 10 else "class:time",
                t("time_left", time=_clock(left)),
            )
        )
    if window is not None:  # someone else's quads window: neutral, whatever he holds
        left = seconds_left(window.get("deadline"), now)
        text = t("status.quads.other", name=t.seat_name(s, window.get("seat")))
        out.append(("", " " + t.glyph("dot") + " "))
        out.append(("class:turn", text + ("" if left is None else " " + _clock(left))))
    return out


def _between_deals(s: State, t: Texts) -> StyleAndTextTuples:
    """No deal on: a deal's end with the match going on, the match's end, or what the table waits for."""
    table = s.table or {}
    if s.in_deal and s.over and s.result and table.get("state") == "playing":
        r = s.result
        if r.get("loser") is not None:
            who = t("status.lost", name=t.seat_name(s, r["loser"]))
        elif r.get("winner") is not None:
            who = t("status.won", name=t.seat_name(s, r["winner"]))
        else:
            who = ""
        deals = table.get("deals")
        key = "status.deal_over" if t.live else "status.replay_over"  # a replay: nothing comes next
        return [("class:turn", t(key, deal=deal_of(s.deal_no, deals), who=who))]
    board = standings(s) if s.match_over is not None else None
    if board is not None:
        if board.first:
            names = t.names(board.names, board.first)
            return [("class:good", t("status.match_won", names=names, n=len(board.first)))]
        return [("class:turn", t("status.match_over"))]
    return [("class:turn", waiting_text(t, s))]


def my_quads_window(s: State, t: Texts, now: float, window: dict[str, Any]) -> StyleAndTextTuples:
    """The taker's own quads window (docs/RULES.md, ``verish``): the countdown, then whose turn waits."""
    out: StyleAndTextTuples = [("class:myturn", t.glyph("turn") + " " + t("status.quads.you"))]
    left = seconds_left(window.get("deadline"), now)
    if left is not None:
        out.append(("", " " + t.glyph("dot") + " "))
        out.append(("class:warn", t("time_left", time=_clock(left))))
    if s.turn is not None:
        out.append(("", " " + t.glyph("dot") + " "))
        out.append(("class:turn", t("turn", name=t.seat_name(s, s.turn))))
    return out


def waiting_text(t: Texts, s: State) -> str:
    """``table_waiting`` in words."""
    key, args = table_waiting(s)
    if "seats" in args:
        args = {**args, "names": t.names(s.names, args["seats"]), "n": len(args["seats"])}
    if "n" in args and key == "wait.seats":
        args = {"seats": t.count(args["n"], "seats")}
    return t(key, **args)
