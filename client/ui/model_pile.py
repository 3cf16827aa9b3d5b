"""The model's handlers of where the cards go once a set is settled: the pile taken (into a
hand) or discarded, quads discarded or kept (``verish``: their window, opened after a take and
closed by the taker's decision or his time), and cards drawn from the stock. Each handler is
``(state, msg, now) -> state``; ``HANDLERS`` maps message types to them (client/ui/model_deal.py
joins them to the deal's). Game events mirror engine/_events.py field for field (docs/PROTOCOL.md).
"""

from __future__ import annotations

import attrs

from .model_state import Msg, State, add_count, add_log, as_int, remove_cards, sort_hand


def _pile_taken(s: State, m: Msg, now: float) -> State:
    seat, count = m.get("seat"), m.get("count")
    mine = seat == s.seat and s.seat is not None
    hand = sort_hand((s.hand or ()) + tuple(m.get("cards") or ())) if mine and s.hand is not None else s.hand
    s = attrs.evolve(
        s,
        hand=hand,
        hand_counts=add_count(s.hand_counts, seat, count),
        pile=0 if s.pile is not None else None,
        pile_claimed=0,
        waiting=tuple(w for w in s.waiting if w != seat),
    )
    return add_log(s, "pile_taken", seat=seat, count=count)


def _pile_discarded(s: State, m: Msg, now: float) -> State:
    count = as_int(m.get("count"))
    s = attrs.evolve(s, pile=0 if s.pile is not None else None, pile_claimed=0, discard=s.discard + count)
    return add_log(s, "pile_discarded", count=count)


def _quads_discarded(s: State, m: Msg, now: float) -> State:
    seat, count, ranks, cards = m.get("seat"), as_int(m.get("count")), m.get("ranks"), m.get("cards")
    hand = s.hand
    if seat == s.seat and s.hand is not None and cards:  # the very cards (two decks: more than 4)
        hand = remove_cards(s.hand, cards)
    elif seat == s.seat and s.hand is not None and ranks:
        left = list(s.hand)
        for r in ranks:
            for c in [c for c in left if c[0] == r][:4]:
                left.remove(c)
        hand = tuple(left)
    s = attrs.evolve(
        s,
        hand=hand,
        hand_counts=add_count(s.hand_counts, seat, -4 * count),
        discard=s.discard + 4 * count,
        quads_window=_decided(s.quads_window, seat),
    )
    return add_log(
        s, "quads_discarded", seat=seat, count=count, ranks=None if ranks is None else tuple(ranks)
    )


def _quads_declined(s: State, m: Msg, now: float) -> State:
    """The taker gave up his right to discard quads (``verish``): it says nothing of his hand."""
    s = attrs.evolve(s, quads_window=_decided(s.quads_window, m.get("seat")))
    return add_log(s, "quads_declined", seat=m.get("seat"))


def _decided(window: Msg | None, seat: object) -> Msg | None:
    """The quads window, marked as closed by its taker's own decision (a discard or a decline),
    which the log has said: its close needs no line of its own."""
    if window is None or window.get("seat") != seat:
        return window
    return {**window, "decided": True}


def _quads_window_opened(s: State, m: Msg, now: float) -> State:
    """docs/RULES.md, ``verish``: the quads window opens after every take by a person, whatever he
    holds; the next set waits until it closes. No log line: the status line shows it, with its
    countdown (``deadline``; None: it waits for the taker, at an untimed table)."""
    time_ms = m.get("time_ms")
    if s.recapping or isinstance(time_ms, bool) or not isinstance(time_ms, int):
        deadline = None  # a replayed window's time was counted when it was sent, not now
    else:
        deadline = now + time_ms / 1000.0
    return attrs.evolve(s, quads_window={"seat": m.get("seat"), "deadline": deadline})


def _quads_window_closed(s: State, m: Msg, now: float) -> State:
    """The quads window closed. Unless its taker's discard or decline closed it (the log said
    that), its time was up: the log says so, in words that tell nothing of his hand."""
    window = s.quads_window
    if window is None:
        return s
    s = attrs.evolve(s, quads_window=None)
    return s if window.get("decided") else add_log(s, "quads_window_closed", seat=window.get("seat"))


def _stock_drawn(s: State, m: Msg, now: float) -> State:
    seat, count = m.get("seat"), as_int(m.get("count"))
    mine = seat == s.seat and s.seat is not None
    hand = sort_hand((s.hand or ()) + tuple(m.get("cards") or ())) if mine and s.hand is not None else s.hand
    s = attrs.evolve(
        s, hand=hand, hand_counts=add_count(s.hand_counts, seat, count), stock=max(0, s.stock - count)
    )
    return add_log(s, "stock_drawn", seat=seat, count=count)


HANDLERS = {
    "pile_taken": _pile_taken,
    "pile_discarded": _pile_discarded,
    "quads_discarded": _quads_discarded,
    "quads_declined": _quads_declined,
    "quads_window_opened": _quads_window_opened,
    "quads_window_closed": _quads_window_closed,
    "stock_drawn": _stock_drawn,
}
