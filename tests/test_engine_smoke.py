import random

from neveryu import engine


def test_every_variant_deals_and_conserves_cards():
    for rules in engine.VARIANTS.values():
        lo, hi = rules.players
        for n in (lo, hi):
            deal, events = engine.Match(rules, n, random.Random(7)).start()
            deal.check_invariant()
            assert events[-1].type == "turn"


def test_sorted_cards_orders_as_sort_key_does():
    """``sorted_cards`` reads precomputed keys; the order is ``sort_key``'s, rank then suit."""
    for kind in engine.DECK_KINDS:
        deck = engine.new_deck(kind)
        random.Random(kind).shuffle(deck)
        assert engine.sorted_cards(deck) == sorted(deck, key=engine.sort_key)
    assert engine.sorted_cards(["AS", "2H", "TD", "2C", "AC"]) == ["2C", "2H", "TD", "AC", "AS"]
