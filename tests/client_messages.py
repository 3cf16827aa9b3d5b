"""Protocol message sequences for the client's tests, recorded from the engine the way the server
sends them (docs/PROTOCOL.md: game events mirror engine/_events.py, projected per seat)."""

from __future__ import annotations

import random

import msgpack

from neveryu import engine
from neveryu.server import _wire


def _as_received(body: dict) -> dict:
    """``body`` as a client decodes it (tuples become arrays, then lists)."""
    return msgpack.unpackb(msgpack.packb(body))


def event_message(event, extra=None) -> dict:
    """The wire body the server sends for a projected engine event (server/_wire.py)."""
    return _as_received(_wire.event_message(event, extra))


def legal_message(legal) -> dict:
    return _as_received(_wire.legal_message(legal))


def table_summary(players: int, seat: int, variant: str) -> dict:
    return {
        "id": 1,
        "variant": variant,
        "options": {},
        "state": "playing",
        "spectators": 0,
        "password": False,
        "seats": [
            {
                "seat": s,
                "name": "Ann" if s == seat else f"bot {s + 1}",
                "bot": None if s == seat else "honest",
                "ready": True,
                "away": False,
            }
            for s in range(players)
        ],
    }


def deal_snapshot(**fields) -> dict:
    """A ``state`` snapshot (docs/PROTOCOL.md, "state") of a verish deal on a 36-card deck in
    its third set: seat 0 laid queens last, seat 1 is to act, no window is open and nobody is out;
    ``fields`` give the rest (``seq``, ``seat``, ``hand``, ``legal``, ``table``...) and may
    replace any of these."""
    return {
        "t": "state",
        "ts": 0,
        "variant": "verish",
        "deck": "36",
        "discard": 0,
        "stock": 0,
        "hidden": 1,
        "set_aside": 0,
        "last": {"set_no": 3, "seat": 0, "rank": "Q", "count": 1, "size": 1, "none": False},
        "ranks": ["Q"],
        "turn": 1,
        "set_no": 3,
        "window_open": False,
        "out": [],
        "waiting": [],
        "over": False,
        "commitment": "c",
        **fields,
    }


def simple_action(deal, rng):
    if deal.window_open:
        return engine.CloseWindow(deal.last.set_no)
    seat = deal.turn
    legal = deal.legal_actions(seat)
    if legal.challenge is not None and (legal.lay is None or rng.random() < 0.3):
        return engine.Challenge(seat, legal.challenge)
    hand = deal.hands[seat]
    rank = next((r for r in legal.lay.ranks if any(c[0] == r for c in hand)), legal.lay.ranks[0])
    cards = sorted(hand, key=lambda c: c[0] != rank)[: legal.lay.min]
    count = len(cards) if legal.lay.count_min is not None else None
    return engine.LaySet(seat, tuple(cards), rank, count)


def record_deal(variant: str, players: int, seed: int, seat: int = 0, checkpoints: list | None = None):
    """Play one seeded deal with a simple policy; returns (messages seat ``seat`` receives, deal).
    ``checkpoints`` gets ``(number of messages so far, deal.view(seat))`` after every batch."""
    import hashlib

    rng = random.Random(seed)
    rules = engine.variant(variant)
    match = engine.Match(rules, players, rng)
    deal, events = match.start()
    salt = "ab" * 32
    commitment = hashlib.sha256((salt + ":" + ",".join(deal.deck_order)).encode()).hexdigest()
    seq = 0
    msgs = [
        {"t": "welcome", "re": 1, "proto": 1, "server": {"name": "test", "version": "0"}, "session": "tok"},
        {"t": "table_joined", "re": 2, "table": table_summary(players, seat, variant), "seat": seat},
    ]
    last_legal = None
    while True:
        for e in events:
            seen = engine.project(e, seat, rules.hand_counts_public)
            if seen is None:
                continue
            extra = {}
            if isinstance(e, engine.DealStarted):
                extra = {"commitment": commitment, "deal_no": 1}
            elif isinstance(e, engine.Turn):
                extra = {"time_ms": 30000}
            elif isinstance(e, engine.QuadsWindowOpened):
                extra = {"time_ms": None}
            elif isinstance(e, engine.DealEnded):
                match.finish(deal)
                extra = {
                    "salt": salt,
                    "deck": list(deal.deck_order),
                    "match_scores": list(match.scores),
                    "deal_no": 1,
                }
            seq += 1
            msgs.append({**event_message(seen, extra), "seq": seq, "ts": 0})
        legal = deal.legal_actions(seat)
        if legal != last_legal:
            last_legal = legal
            seq += 1
            msgs.append({**legal_message(legal), "seq": seq, "ts": 0})
        if checkpoints is not None:
            checkpoints.append((len(msgs), deal.view(seat)))
        if deal.over:
            return msgs, deal
        events = deal.apply(simple_action(deal, rng))
