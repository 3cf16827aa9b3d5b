"""The model's part of the fair deal (docs/PROTOCOL.md, section 9): what ``seed_committed`` and
``deal_started`` said of a deal's shuffle, what became of this client's contribution, and the
check made at the deal's end (client/fairdeal.py).
"""

from __future__ import annotations

from typing import Any

import attrs

from neveryu.client import fairdeal

from .model_state import Msg, State


def fair_of(announced: Msg | None, m: Msg, deal_no: int, hand: Any) -> Msg:
    """The fair-deal data of a deal from its ``deal_started`` (or ``state``) ``m``, with what
    ``seed_committed`` announced of it (``announced``, when it is the same deal's) and the hand
    dealt (None: unknown, the deal was joined midway)."""
    a = announced if announced is not None and announced.get("deal_no") == deal_no else {}
    contributions = m.get("contributions")
    return {
        "scheme": m.get("fair"),
        "seed_hash": m.get("seed_hash"),
        "contributions": None if contributions is None else tuple(contributions),
        "announced": {k: a.get(k) for k in ("seed_hash", "dealer", "contributions")} if a else None,
        "mine": a.get("mine"),
        "mine_status": a.get("mine_status"),
        "hand": None if hand is None else tuple(hand),
    }


def _seed_committed(s: State, m: Msg, now: float) -> State:
    """Fair deal 2: the server committed to the next deal's seed (this client contributes: the
    ``_contribution`` note follows)."""
    announced = {k: m.get(k) for k in ("deal_no", "seed_hash", "dealer", "deck", "contributions")}
    before = s.next_fair or {}
    if before.get("seed_hash") == announced["seed_hash"]:  # seen again (a replay): keep what was sent
        announced.update({k: before[k] for k in ("mine", "mine_status") if k in before})
    return attrs.evolve(s, next_fair=announced)


def _contribution(s: State, m: Msg, now: float) -> State:
    """What became of this client's contribution (the module's docstring, local notes)."""
    status = m.get("status")
    if status == "sent":
        nxt = s.next_fair or {"deal_no": m.get("deal_no")}
        if nxt.get("deal_no") != m.get("deal_no") or nxt.get("mine") is not None:
            return s  # another deal's, or a second one: the first is the one the server has
        return attrs.evolve(s, next_fair={**nxt, "mine": m.get("contribution"), "mine_status": "sent"})
    if s.next_fair is not None and s.next_fair.get("mine") is not None:
        return attrs.evolve(s, next_fair={**s.next_fair, "mine_status": status})
    if s.fair is not None and s.fair.get("mine") is not None and not s.over:  # the reply came after the deal
        return attrs.evolve(s, fair={**s.fair, "mine_status": status})
    return s


def fair_check(s: State, m: Msg) -> fairdeal.Verdict:
    """The fair-deal check of the deal that ``deal_ended`` ``m`` ends (client/fairdeal.py)."""
    fair = s.fair or {}
    deck = m.get("deck")
    seed = m.get("seed")
    return fairdeal.check(
        fairdeal.Disclosure(
            deal_no=s.deal_no,
            variant=(s.table or {}).get("variant") or s.variant or None,
            options=dict((s.table or {}).get("options") or {}),
            players=s.players or None,
            dealer=s.dealer,
            kind=s.deck or None,
            commitment=s.commitment,
            salt=m.get("salt"),
            deck=None if deck is None else tuple(str(c) for c in deck),
            fair=fair.get("scheme"),
            seed_hash=fair.get("seed_hash"),
            seed=None if seed is None else str(seed),
            contributions=fair.get("contributions"),
            announced=fair.get("announced"),
            seeded=bool((s.table or {}).get("seeded")),
            seat=s.seat,
            hand=fair.get("hand"),
            mine=fair.get("mine"),
            mine_status=fair.get("mine_status"),
        )
    )


FAIR_LOG = {
    "fair": "fair_nobody",
    "checked": "fair_checked",
    "seeded": "fair_seeded",
    "unprotected": "fair_unprotected",
    "committed": "fair_ok",
    "unknown": "fair_unknown",
}
"""The log line of each fair-deal verdict but ``bad`` (texts.py, ``log.<key>``)."""


HANDLERS = {"seed_committed": _seed_committed, "_contribution": _contribution}
