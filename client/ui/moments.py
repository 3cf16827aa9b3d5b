"""Why the player may do only this now: the special moments of the variants, in one sentence.

``moment(state)`` looks at what the seat may do (the server's ``legal``: the client never needs
the rules to know *what* it may do) and at the deal, and names the reason when it is not plain:
``veryu``'s final call, a set that puts its empty-handed layer out, quads after taking the pile
(``verish``) or on one's turn (``veryu``), the aces that open a ``hoyle`` deal, the rank order of
``hoyle`` and ``cheat``, a challenge open to anyone, a set held for the challenge window, a void
challenge that bars its maker, a smaller set when ``hoyle-three``'s stock is empty, a claimed
count that may lie. It returns a texts.py key (``why.<name>``) and its arguments, or None.

The reasons come from docs/RULES.md (the paragraph named in each branch); the seat's hand, the last
set and ``waiting`` are what the seat itself may see.
"""

from __future__ import annotations

from typing import Any

from .model import State

Why = tuple[str, dict[str, Any]]


def moment(s: State) -> Why | None:
    """The sentence (key, args) that explains the seat's options now, or None."""
    if s.seat is None or not s.playing:
        return None
    if s.seat_info().get("away"):
        return ("why.away", {})
    if s.held:
        key = "why.held_quads" if s.quads_window is not None else "why.held"
        return (key, {"rank": s.held.get("rank"), "count": s.held.get("count")})
    rules = s.rules
    legal = s.legal or {}
    last = s.last or {}
    layer = last.get("seat")
    quads = _quads_after_taking(s, legal)
    if quads is not None:
        return quads
    if not s.my_turn:
        if legal.get("challenge") is not None:  # docs/RULES.md, timing rules: anyone may challenge
            return ("why.anyone", {"seat": layer})
        if s.barred is not None and s.barred == last.get("set_no"):
            return ("why.barred", {"set_no": s.barred})
        return None
    lay = legal.get("lay")
    if legal.get("discard_quads") and rules is not None and rules.quads == "on_turn":
        return ("why.quads_turn", {"ranks": tuple(legal["discard_quads"])})  # docs/RULES.md, veryu
    if lay is None and (legal.get("challenge") is not None or legal.get("believe") is not None):
        if rules is not None and rules.last_cards == "final_call" and s.seat in s.waiting:
            return ("why.final_call", {"seat": layer})  # docs/RULES.md, veryu: last cards, final call
        return ("why.must_call", {"seat": layer, "believe": legal.get("believe") is not None})
    if layer is not None and layer != s.seat and layer in s.waiting and rules is not None:
        if rules.last_cards == "next_decides":  # docs/RULES.md, verish/lozh: next decides
            return ("why.next_decides", {"seat": layer, "believe": legal.get("believe") is not None})
        if rules.last_cards == "covered_or_survived":
            return ("why.cover", {"seat": layer})
    if s.barred is not None and s.barred == last.get("set_no") and legal.get("challenge") is None:
        return ("why.barred", {"set_no": s.barred})
    if not lay:
        return None
    ranks = tuple(lay.get("ranks") or ())
    if rules is not None and lay.get("min") == lay.get("max") and rules.set_size[0] > (lay.get("min") or 0):
        return ("why.short_set", {"n": lay.get("min")})  # docs/RULES.md, hoyle-three: the stock ran out
    if rules is not None and len(ranks) == 1:
        if rules.first_rank == "ace" and s.set_no == 0:
            return ("why.first_aces", {})  # docs/RULES.md, hoyle: the first set claims aces
        if rules.rank_order in ("descending", "ascending") and last:
            return ("why.order_" + rules.rank_order, {"rank": ranks[0]})
        if rules.rank_order == "hold" and last:
            return ("why.hold", {"rank": ranks[0]})
    if lay.get("count_min") is not None:
        return ("why.count_lies", {})  # docs/RULES.md, cheat: count_may_lie
    if len(ranks) > 1 and not last:  # the counts as the key bar says them: lay 1–3
        return ("why.lead", {"lo": lay.get("min"), "hi": lay.get("max")})
    return None


def _quads_after_taking(s: State, legal: dict[str, Any]) -> Why | None:
    """docs/RULES.md, ``verish``: quads after taking. The taker may discard his quads (or go on)
    until the next set is laid, and while his quads window is open the next set waits. Everyone
    else is told only that the window is open: it opens after every take by a person, whatever
    he holds, so the sentence says nothing of his hand."""
    window = s.quads_window
    if window is not None and window.get("seat") != s.seat:
        key = "why.quads_wait_next" if s.my_turn and legal.get("lay") else "why.quads_wait"
        return (key, {"seat": window.get("seat")})
    ranks = tuple(legal.get("discard_quads") or ())
    rules = s.rules
    if rules is None or rules.quads != "after_taking" or not (ranks or legal.get("decline_quads")):
        return None
    if window is not None:
        return ("why.quads_window" if ranks else "why.quads_window_none", {"ranks": ranks})
    return ("why.quads_taken", {"ranks": ranks}) if ranks else None
