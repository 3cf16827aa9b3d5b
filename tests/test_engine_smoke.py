import random

from neveryu import engine


def test_every_variant_deals_and_conserves_cards():
    for rules in engine.VARIANTS.values():
        lo, hi = rules.players
        for n in (lo, hi):
            deal, events = engine.Match(rules, n, random.Random(7)).start()
            deal.check_invariant()
            assert events[-1].type == "turn"
