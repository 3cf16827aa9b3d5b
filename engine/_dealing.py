"""How cards reach hands (docs/RULES.md, parameter ``deal``), and the first dealer by a draw."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ._cards import RANK_INDEX, Card, new_deck
from ._rules import Rules


class Dealt:
    """The result of dealing: ``hands`` (one list per seat), ``hidden``, ``set_aside``, ``stock``."""

    __slots__ = ("hands", "hidden", "set_aside", "stock")

    def __init__(self, players: int) -> None:
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.hidden: list[Card] = []
        self.set_aside: list[Card] = []
        self.stock: list[Card] = []


def _one_by_one(cards: list[Card], dealt: Dealt, first: int) -> None:
    n = len(dealt.hands)
    for i, card in enumerate(cards):
        dealt.hands[(first + i) % n].append(card)


def deal_cards(rules: Rules, deck: list[Card], players: int, dealer: int) -> Dealt:
    """Deal ``deck`` (top first) to ``players`` seats; dealing starts left of ``dealer``.

    - ``hidden_card``: the top card is removed face down first (`verish`).
    - ``one_by_one``: one card at a time, clockwise, until none is left (hands may differ by one).
    - ``packets``: packets of ``packet_size`` while every seat can take a whole packet, then one
      at a time (`hoyle`, **Decision**).
    - ``equal_with_stock`` / ``equal_set_aside``: one at a time while every seat can take a card;
      the rest forms the stock (`hoyle-three`) or is set aside face down (`lozh`).
    """
    dealt = Dealt(players)
    rest = list(deck)
    if rules.hidden_card:
        dealt.hidden.append(rest.pop(0))
    first = (dealer + 1) % players
    if rules.deal == "one_by_one":
        _one_by_one(rest, dealt, first)
    elif rules.deal == "packets":
        size = rules.packet_size
        rounds = len(rest) // (size * players)
        i = 0
        for _ in range(rounds):
            for k in range(players):
                dealt.hands[(first + k) % players].extend(rest[i : i + size])
                i += size
        _one_by_one(rest[i:], dealt, first)
    else:
        equal = len(rest) - len(rest) % players
        _one_by_one(rest[:equal], dealt, first)
        leftover = dealt.stock if rules.deal == "equal_with_stock" else dealt.set_aside
        leftover.extend(rest[equal:])
    return dealt


def draw_for_dealer(
    players: int, kind: str, rng: random.Random, pack: Sequence[Card] | None = None
) -> tuple[tuple[tuple[tuple[int, Card], ...], ...], int]:
    """docs/RULES.md, `lozh`: every player draws a card, the lowest rank deals (2 lowest, ace highest),
    ties draw again among the tied; **Decision**: only a tie for the lowest card draws again (a
    tie between higher cards decides nothing). Returns (the draws, round by round, and the dealer's seat).
    The cards come from a shuffled ``kind`` deck, reshuffled when it runs out; ``pack`` (tests,
    scenarios) gives the cards drawn instead, in order, seat by seat from seat 0 (ValueError when
    it runs out)."""
    rounds: list[tuple[tuple[int, Card], ...]] = []
    tied = list(range(players))
    given = list(pack) if pack is not None else None
    cards: list[Card] = []
    while True:
        draws = []
        for seat in tied:
            if given is not None:
                if not given:
                    raise ValueError("the cards given for the draw ran out before one seat was lowest")
                draws.append((seat, given.pop(0)))
                continue
            if not cards:
                cards = new_deck(kind)
                rng.shuffle(cards)
            draws.append((seat, cards.pop()))
        rounds.append(tuple(draws))
        low = min(RANK_INDEX[c[0]] for _, c in draws)
        tied = [s for s, c in draws if RANK_INDEX[c[0]] == low]  # only the lowest card's tie redraws
        if len(tied) == 1:
            return tuple(rounds), tied[0]
