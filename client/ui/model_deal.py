"""The model's handlers of a deal's events: the deal dealt, turns, sets, challenges and reveals,
players out, the deal's end and ``legal`` (where the cards go after a set, piles taken and
discarded, quads and the stock: ``model_pile``; the ``state`` snapshot: ``model_snapshot``).
Each handler is ``(state, msg, now) -> state``; ``HANDLERS`` maps every deal event's type to
them. Game events mirror engine/_events.py field for field (docs/PROTOCOL.md).
"""

from __future__ import annotations

import attrs

from . import model_pile
from .model_fair import FAIR_LOG, fair_check, fair_of
from .model_state import (
    Msg,
    State,
    add_count,
    add_log,
    as_int,
    as_ints,
    remove_cards,
    sort_hand,
)


def _dealer_drawn(s: State, m: Msg, now: float) -> State:
    s = attrs.evolve(s, dealer=m.get("dealer"))
    return add_log(s, "dealer_drawn", seat=m.get("dealer"), draws=m.get("draws"))


def _deal_started(s: State, m: Msg, now: float) -> State:
    hand = m.get("hand")
    counts = as_ints(m.get("hand_counts"))
    players = len(counts) if counts is not None else (len(s.seats) or s.players)
    deal_no = as_int(m.get("deal_no")) or s.deal_no + 1
    s = attrs.evolve(
        s,
        screen="table",
        in_deal=True,
        deal_no=deal_no,
        players=players,
        dealer=m.get("dealer"),
        deck=str(m.get("deck") or ""),
        hand=None if hand is None else sort_hand(hand),
        hand_counts=counts,
        pile=0 if counts is not None else None,
        pile_claimed=0,
        discard=0,
        stock=as_int(m.get("stock")),
        hidden=as_int(m.get("hidden")),
        set_aside=as_int(m.get("set_aside")),
        last=None,
        set_no=0,
        reveal=None,
        ranks=(),
        turn=None,
        answer_set_no=None,
        turn_deadline=None,
        window_open=False,
        legal=None,
        held=None,
        barred=None,
        quads_window=None,
        out=(),
        waiting=(),
        over=False,
        result=None,
        match_over=None,
        commitment=m.get("commitment"),
        fair=fair_of(s.next_fair, m, deal_no, hand),
        next_fair=None,
        error=None,
    )
    return add_log(
        s,
        "deal_started",
        deal_no=deal_no,
        deals=(s.table or {}).get("deals"),
        dealer=m.get("dealer"),
        deck=m.get("deck"),
        hidden=s.hidden,
        set_aside=s.set_aside,
        stock=s.stock,
    )


def _turn(s: State, m: Msg, now: float) -> State:
    time_ms = m.get("time_ms")
    # A replayed turn's time was counted when it was sent, not now; but after the replay the
    # server tells the turn again, the same seat answering the same set, with the time left now.
    again = s.in_deal and s.turn == m.get("seat") and s.answer_set_no == m.get("set_no")
    if s.recapping and not again:
        time_ms = None
    return attrs.evolve(
        s,
        turn=m.get("seat"),
        ranks=tuple(m.get("ranks") or ()),
        answer_set_no=m.get("set_no"),
        turn_deadline=None if not isinstance(time_ms, int) else now + time_ms / 1000.0,
    )


def _anyone_challenges(s: State) -> bool:
    rules = s.rules
    return rules is not None and rules.challengers == "anyone"


def _set_laid(s: State, m: Msg, now: float) -> State:
    seat, size, count = m.get("seat"), m.get("size"), m.get("count")
    mine = seat == s.seat and s.seat is not None
    last = {
        "set_no": m.get("set_no"),
        "seat": seat,
        "rank": m.get("rank"),
        "count": count,
        "size": size,
        "none": False,
    }
    counts = add_count(s.hand_counts, seat, None if size is None else -size)
    waiting = s.waiting
    if counts is not None and isinstance(seat, int) and seat < len(counts) and not counts[seat]:
        waiting = waiting if seat in waiting else waiting + (seat,)  # docs/RULES.md, last cards
    s = attrs.evolve(
        s,
        hand=remove_cards(s.hand, m.get("cards")) if mine else s.hand,
        held=None if mine else s.held,
        hand_counts=counts,
        waiting=waiting,
        pile=None if s.pile is None or size is None else s.pile + size,
        pile_claimed=s.pile_claimed + as_int(count),
        last=last,
        set_no=as_int(m.get("set_no"), s.set_no),
        reveal=None,
        window_open=_anyone_challenges(s),
        quads_window=None,
    )
    return add_log(
        s,
        "set_laid",
        seat=seat,
        rank=m.get("rank"),
        count=count,
        size=size,
        cards=m.get("cards") if mine else None,
    )


def _none_declared(s: State, m: Msg, now: float) -> State:
    seat = m.get("seat")
    last = {
        "set_no": m.get("set_no"),
        "seat": seat,
        "rank": m.get("rank"),
        "count": 0,
        "size": 0,
        "none": True,
    }
    s = attrs.evolve(
        s,
        last=last,
        set_no=as_int(m.get("set_no"), s.set_no),
        reveal=None,
        held=None if seat == s.seat else s.held,
        window_open=_anyone_challenges(s),
    )
    return add_log(s, "none_declared", seat=seat, rank=m.get("rank"))


def _set_held(s: State, m: Msg, now: float) -> State:
    held = {"cards": tuple(m.get("cards") or ()), "rank": m.get("rank"), "count": m.get("count")}
    s = attrs.evolve(s, held=held)
    key = "set_held_quads" if s.quads_window is not None else "set_held"
    return add_log(s, key, rank=m.get("rank"), count=m.get("count"))


def _set_returned(s: State, m: Msg, now: float) -> State:
    cards = tuple(m.get("cards") or ())
    # A held set never left the hand; a laid one comes back to it (the set that covered the
    # winner's last set, as a first_wins deal ends: docs/RULES.md, `hoyle`, scoring).
    if s.held is not None:
        return add_log(attrs.evolve(s, held=None), "set_returned", cards=cards)
    hand = sort_hand(s.hand + cards) if s.hand is not None else None
    return add_log(attrs.evolve(s, hand=hand, last=None), "set_returned", cards=cards)


def _window_closed(s: State, m: Msg, now: float) -> State:
    return attrs.evolve(s, window_open=False)


def _challenge_void(s: State, m: Msg, now: float) -> State:
    if m.get("seat") == s.seat and s.seat is not None:
        s = attrs.evolve(s, barred=m.get("set_no"))
    return add_log(s, "challenge_void", seat=m.get("seat"), set_no=m.get("set_no"))


def _challenged(s: State, m: Msg, now: float) -> State:
    tied = tuple(m.get("tied") or ())
    return add_log(s, "challenged", seat=m.get("seat"), set_no=m.get("set_no"), tied=tied)


def _believed(s: State, m: Msg, now: float) -> State:
    return add_log(s, "believed", seat=m.get("seat"), set_no=m.get("set_no"))


def _set_revealed(s: State, m: Msg, now: float) -> State:
    caller, believe = None, False
    for line in reversed(s.log):
        if line.key in ("challenged", "believed") and line.args.get("set_no") == m.get("set_no"):
            caller, believe = line.args.get("seat"), line.key == "believed"
            break
    reveal = {
        "seat": m.get("seat"),
        "set_no": m.get("set_no"),
        "rank": m.get("rank"),
        "count": m.get("count"),
        "cards": tuple(m.get("cards") or ()),
        "claim_true": bool(m.get("claim_true")),
        "caller": caller,
        "believe": believe,
        "none": bool(s.last and s.last.get("none") and s.last.get("set_no") == m.get("set_no")),
    }
    s = attrs.evolve(s, reveal=reveal, last=None, window_open=False)
    return add_log(
        s, "set_revealed", **{k: reveal[k] for k in ("seat", "rank", "count", "cards", "claim_true", "none")}
    )


def _timed_out(s: State, m: Msg, now: float) -> State:
    return add_log(s, "timed_out", seat=m.get("seat"))


def _player_out(s: State, m: Msg, now: float) -> State:
    seat = m.get("seat")
    out = s.out if seat in s.out or not isinstance(seat, int) else s.out + (seat,)
    s = attrs.evolve(s, out=out, waiting=tuple(w for w in s.waiting if w != seat))
    return add_log(s, "player_out", seat=seat, place=m.get("place"))


def _deal_ended(s: State, m: Msg, now: float) -> State:
    verdict = fair_check(s, m)
    holds = verdict.holds
    deal_no = as_int(m.get("deal_no"), s.deal_no)
    out = tuple(x for x in m.get("out") or () if isinstance(x, int))
    result: Msg = {
        "loser": m.get("loser"),
        "winner": m.get("winner"),
        "out": out,
        "scores": as_ints(m.get("scores")),
        "hand_counts": as_ints(m.get("hand_counts")),
        "fair": holds,
        "fair_status": verdict.status,
        "fair_problems": verdict.problems,
        "salt": m.get("salt"),
        "deal_no": deal_no,
        "next_ms": m.get("next_deal_ms"),
    }
    scores = as_ints(m.get("match_scores"))
    seen = {
        "deal_no": deal_no,
        "loser": result["loser"],
        "winner": result["winner"],
        "scores": result["scores"],
    }
    counts, pile = s.hand_counts, s.pile
    if counts is not None and result["hand_counts"] is not None:  # a covering set went back to a hand
        counts = result["hand_counts"]
        pile = None if pile is None else pile + sum(s.hand_counts or ()) - sum(counts)
    s = attrs.evolve(
        s,
        hand_counts=counts,
        pile=pile,
        over=True,
        result=result,
        legal=None,
        turn=None,
        turn_deadline=None,
        held=None,
        window_open=False,
        quads_window=None,
        out=out or s.out,
        match_scores=scores if scores is not None else s.match_scores,
        deal_results=tuple(r for r in s.deal_results if r["deal_no"] != deal_no) + (seen,),
    )
    s = add_log(s, "deal_ended", deal_no=deal_no, loser=result["loser"], winner=result["winner"], out=out)
    if verdict.status == "bad":
        return add_log(s, "fair_bad", problem=verdict.problems[0])
    return add_log(s, FAIR_LOG[verdict.status])


def _legal(s: State, m: Msg, now: float) -> State:
    legal = {
        k: m.get(k) for k in ("lay", "challenge", "believe", "declare_none", "discard_quads", "decline_quads")
    }
    if not any(v for v in legal.values() if v is not None) and not legal.get("discard_quads"):
        return attrs.evolve(s, legal=None)
    return attrs.evolve(s, legal=legal)


HANDLERS = {
    "dealer_drawn": _dealer_drawn,
    "deal_started": _deal_started,
    "turn": _turn,
    "set_laid": _set_laid,
    "none_declared": _none_declared,
    "set_held": _set_held,
    "set_returned": _set_returned,
    "window_closed": _window_closed,
    "challenge_void": _challenge_void,
    "challenged": _challenged,
    "believed": _believed,
    "set_revealed": _set_revealed,
    "timed_out": _timed_out,
    "player_out": _player_out,
    "deal_ended": _deal_ended,
    "legal": _legal,
    **model_pile.HANDLERS,
}
