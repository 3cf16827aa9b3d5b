"""Play against bots on this machine. Until the terminal client lands, this shows a bots-only
deal, move by move."""

from __future__ import annotations

import argparse
import random

import engine


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default=engine.DEFAULT_VARIANT, choices=sorted(engine.VARIANTS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=None, help="make the deal reproducible")


def _simple_action(deal: engine.Deal, rng: random.Random) -> engine.Action:
    if deal.window_open:
        return engine.CloseWindow(deal.last.set_no)
    seat = deal.turn
    legal = deal.legal(seat)
    if legal.challenge is not None and (legal.lay is None or rng.random() < 0.25):
        return engine.Challenge(seat, legal.challenge)
    hand = deal.hands[seat]
    rank = next((r for r in legal.lay.ranks if any(c[0] == r for c in hand)), legal.lay.ranks[0])
    cards = sorted(hand, key=lambda c: c[0] != rank)[: legal.lay.min]
    return engine.LaySet(seat, tuple(cards), rank)


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    match = engine.Match(engine.variant(args.variant), args.players, rng)
    deal, events = match.start()
    while True:
        for e in events:
            print(_describe(e))
        if deal.over:
            return 0
        events = deal.apply(_simple_action(deal, rng))


def _describe(e: engine.Event) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in vars_of(e).items())
    return f"{e.type}: {fields}"


def vars_of(e: engine.Event) -> dict:
    import attrs

    return attrs.asdict(e, recurse=False)
