"""The model's handler of the ``state`` snapshot (after joining or spectating during a deal, or a
resume that crossed a snapshot, a server restart among them): the deal as it stands, and its
``history`` (docs/PROTOCOL.md, "state: a snapshot") folded into the log: what the log does not
hold yet, a line for moves a restarted server lost, and the claims on the pile counted from it.
"""

from __future__ import annotations

import attrs

from neveryu import protocol

from .model_deal import HANDLERS as DEAL_HANDLERS
from .model_fair import FAIR_LOG, fair_of
from .model_state import Line, Msg, State, add_line, add_log, as_int, as_ints, seat_table, sort_hand


def _state(s: State, m: Msg, now: float) -> State:
    """A full snapshot (after a join or resume mid-deal): engine View's fields plus table info;
    its ``history`` (the deal so far) goes to the log (``_with_history``)."""
    before, history = s, m.get("history")
    if isinstance(m.get("table"), dict):
        s = seat_table(attrs.evolve(s, screen="table"), m["table"], m.get("seat", s.seat))
    hand, legal, last, time_ms = m.get("hand"), m.get("legal"), m.get("last"), m.get("time_ms")
    s = attrs.evolve(
        s,
        screen="table",
        in_deal=True,
        seat=m.get("seat", s.seat),
        variant=str(m.get("variant") or s.variant),
        deal_no=as_int(m.get("deal_no"), s.deal_no),
        players=as_int(m.get("players"), s.players),
        dealer=m.get("dealer"),
        deck=str(m.get("deck") or s.deck),
        hand=None if hand is None else sort_hand(hand),
        hand_counts=as_ints(m.get("hand_counts")),
        pile=m.get("pile"),
        discard=as_int(m.get("discard")),
        stock=as_int(m.get("stock")),
        hidden=as_int(m.get("hidden")),
        set_aside=as_int(m.get("set_aside")),
        last=dict(last) if isinstance(last, dict) else None,
        set_no=as_int(m.get("set_no"), s.set_no),
        reveal=None,
        ranks=tuple(m.get("ranks") or ()),
        turn=m.get("turn"),
        answer_set_no=last.get("set_no")
        if isinstance(last, dict) and last.get("seat") != m.get("turn")
        else None,
        turn_deadline=None if not isinstance(time_ms, int) else now + time_ms / 1000.0,
        window_open=bool(m.get("window_open")),
        quads_window=_snapshot_quads_window(m.get("quads_window")),
        out=tuple(m.get("out") or ()),
        waiting=tuple(m.get("waiting") or ()),
        over=bool(m.get("over")),
        commitment=m.get("commitment", s.commitment),
        fair=fair_of(s.next_fair, m, as_int(m.get("deal_no"), s.deal_no), None)
        if as_int(m.get("deal_no"), s.deal_no) != s.deal_no or s.fair is None
        else s.fair,
        match_scores=as_ints(m.get("match_scores")) or s.match_scores,
        held=_held_of(m.get("held")),
        legal=None,
        recap_snapshot=s.recap_snapshot or (s.recapping and not isinstance(history, list)),
    )
    if isinstance(legal, dict):
        s = DEAL_HANDLERS["legal"](s, legal, now)
    if isinstance(history, list):
        s = _with_history(before, s, history, now)
    return s


def _with_history(before: State, s: State, history: list[object], now: float) -> State:
    """``s`` (a snapshot taken) with the deal's ``history`` (``state.history``: its events so
    far, docs/PROTOCOL.md): the log gets the lines of the events it does not hold yet (after a
    restart or a long absence: what happened meanwhile, which a recap then sums up), and, when
    the server restarted without the last moves the log holds, a line that says so. The claims on
    the pile are counted from it (a snapshot does not tell them)."""
    played = attrs.evolve(s, log=(), recapping=False, recap_seen=None, pile_claimed=0, barred=None)
    shown = len(history) if s.recap_known is None else s.recap_known
    lines_shown = 0  # the lines of the events a client started again had been shown
    for k, event in enumerate(history):
        t = event.get("t") if isinstance(event, dict) else None
        if t in protocol.HISTORY_EVENTS and isinstance(event, dict):
            played = DEAL_HANDLERS[str(t)](played, event, now)
        if k < shown:
            lines_shown = len(played.log)
    s = attrs.evolve(s, pile_claimed=played.pile_claimed, barred=played.barred)
    known, undone = _known(before, s.commitment, played.log)
    # A client started again holds no line of the deal. A snapshot past the last seq it saw (the
    # server no longer kept the events it missed): its kept session says how many of the events
    # it was shown, the rest it missed. A snapshot that does not pass it comes from a server
    # started again, which goes on from the seq the client gave: every event in it was sent
    # before the server stopped, none while the client was away (the seq rule).
    restarted_client = (
        not known
        and s.recap_known is not None
        and s.recap_seen is not None
        and s.last_seq > s.recap_seen
        and _from_the_start(history)
    )
    if undone and s.restarted:  # (said right after the lines it undoes: ``_shown`` leaves them out)
        s = add_log(s, "undone", n=undone)
    for k, line in enumerate(played.log[known:], known):
        s = add_line(s, line.key, dict(line.args), (k >= lines_shown) if restarted_client else None)
    return attrs.evolve(s, recap_known=None)


def _from_the_start(history: list[object]) -> bool:
    """``history`` begins with the deal's start (one of more than 1,000 events leaves it out)."""
    first = history[0] if history else None
    return isinstance(first, dict) and first.get("t") == "deal_started"


def _known(before: State, commitment: object, lines: tuple[Line, ...]) -> tuple[int, int]:
    """How many of a history's log ``lines`` the log of ``before`` (the state before the
    snapshot) already holds, in order; and how many lines of the deal it holds past them that
    the history has not (moves a restarted server lost). Either may have lost its oldest lines
    (the log keeps ``LOG_KEEP``, a history the last 1,000 events): they are matched where they
    overlap. (0, 0) when it was not at that deal (its ``commitment``) or holds no line of it."""
    if before.commitment != commitment or not lines:
        return 0, 0
    held = _shown(before.log)
    history = [(line.key, line.args) for line in lines]
    if not held or (held[0][0] == history[0][0] == "deal_started" and held[0] != history[0]):
        return 0, 0
    starts = [(0, k) for k, line in enumerate(history) if line == held[0]]
    starts += [(k, 0) for k, line in enumerate(held) if k and line == history[0]]
    best = (0, 0, 0)  # (lines matched, from held[j], from history[k])
    for j, k in starts:
        n = 0
        while j + n < len(held) and k + n < len(history) and held[j + n] == history[k + n]:
            n += 1
        best = max(best, (n, j, k), key=lambda b: b[0])
    n, j, k = best
    return (k + n, len(held) - j - n) if n else (0, 0)


def _shown(log: tuple[Line, ...]) -> list[tuple[str, object]]:
    """The lines of the latest deal in ``log`` (from its ``deal_started``, or from the oldest
    line kept), as ``(key, args)``, without those a restarted server undid (each ``undone``
    line follows the lines it undoes)."""
    start = next((i for i in range(len(log) - 1, -1, -1) if log[i].key == "deal_started"), 0)
    shown: list[tuple[str, object]] = []
    for line in log[start:]:
        if line.key == "undone":
            del shown[max(0, len(shown) - as_int(line.args.get("n"), 0)) :]
        elif line.key in DEAL_LINES:
            shown.append((line.key, line.args))
    return shown


def _held_of(held: object) -> Msg | None:
    """``state.held`` as ``set_held`` gives it (None: no set held)."""
    if not isinstance(held, dict):
        return None
    return {"cards": tuple(held.get("cards") or ()), "rank": held.get("rank"), "count": held.get("count")}


def _snapshot_quads_window(taker: object) -> Msg | None:
    """``state.quads_window`` (the taker, or null) as the model keeps it; a snapshot does not say
    how long the window has left."""
    if isinstance(taker, bool) or not isinstance(taker, int):
        return None
    return {"seat": taker, "deadline": None}


DEAL_LINES = protocol.HISTORY_EVENTS | {"set_held_quads", "fair_bad", *FAIR_LOG.values()}
"""The keys of the log lines a deal's events write (``state.history`` writes them again)."""

HANDLERS = {"state": _state}
