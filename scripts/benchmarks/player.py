"""A measuring client's view of its seat: the hand and the latest ``legal`` event, kept from
the protocol's events (docs/PROTOCOL.md), and the request it sends when it may act.

The policy is the one the engine once used for timed-out seats: the smallest legal set,
truthful if possible; a challenge where laying is impossible, or, with
probability ``challenge_rate``, whenever a challenge is open. It never believes, declares none
or discards quads (all optional in every variant).
"""

from __future__ import annotations

import random
from collections import Counter

CHANGES_HAND = frozenset(
    {"deal_started", "state", "set_laid", "set_returned", "pile_taken", "stock_drawn", "quads_discarded"}
)


class Player:
    """One seat's state. ``on_message(msg)`` takes every frame the client decodes;
    ``request(i, rng)`` is the request to send now (with id ``i``), or None when the seat may not
    act (or has acted and waits for its next ``legal``)."""

    def __init__(self, challenge_rate: float = 0.0) -> None:
        self.seat: int | None = None
        self.hand: list[str] = []
        self.legal: dict | None = None
        self.challenge_rate = challenge_rate
        self.errors: Counter[str] = Counter()
        self.deals_ended = 0
        self._sent_legal: dict | None = None

    def on_message(self, msg: dict) -> None:
        t = msg["t"]
        if t == "legal":
            self.legal = msg if (msg.get("lay") or msg.get("challenge") is not None) else None
        elif t == "error":
            self.errors[msg.get("code")] += 1
            if self.legal is None:
                self.legal = self._sent_legal  # the action was refused: the seat still may act
        elif t == "deal_ended":
            self.deals_ended += 1
        elif t in CHANGES_HAND:
            self._hand_change(t, msg)

    def _hand_change(self, t: str, msg: dict) -> None:
        if t in ("deal_started", "state"):
            self.hand = list(msg.get("hand") or ())
            return
        if msg.get("seat") != self.seat:
            return
        if t == "set_laid":
            for c in msg.get("cards") or ():
                self.hand.remove(c)
        elif t in ("set_returned", "pile_taken", "stock_drawn"):
            self.hand.extend(msg.get("cards") or ())
        elif t == "quads_discarded":
            for rank in msg.get("ranks") or ():
                for _ in range(4):
                    self.hand.remove(next(c for c in self.hand if c[0] == rank))

    def request(self, i: int, rng: random.Random) -> dict | None:
        legal = self.legal
        if legal is None:
            return None
        self._sent_legal, self.legal = legal, None
        lay, challenge = legal.get("lay"), legal.get("challenge")
        if challenge is not None and (lay is None or rng.random() < self.challenge_rate):
            return {"t": "challenge", "id": i, "set_no": challenge}
        size = lay["min"]
        counts = Counter(c[0] for c in self.hand)
        truthful = [r for r in lay["ranks"] if counts[r] >= size]
        rank = truthful[0] if truthful else lay["ranks"][0]
        cards = [c for c in self.hand if c[0] == rank][:size]
        cards += [c for c in self.hand if c[0] != rank][: size - len(cards)]
        msg = {"t": "lay", "id": i, "cards": cards, "rank": rank}
        if lay.get("count_min") is not None:
            msg["count"] = size
        return msg


def result_of(request: dict, seat: int):
    """Which message is the event ``request`` (sent by ``seat``) causes: a predicate on messages.
    ``lay`` → ``set_laid`` by ``seat``; ``challenge`` → ``challenged`` of its set by ``seat``."""
    if request["t"] == "challenge":
        set_no = request["set_no"]
        return lambda m: m["t"] == "challenged" and m.get("set_no") == set_no and m.get("seat") == seat
    return lambda m: m["t"] == "set_laid" and m.get("seat") == seat
