"""A deal rebuilt from one seat's view and a guess of the cards it cannot see (a determinization,
for search: the ``expert`` bot plays sampled deals forward). Engine-side, because it sets the
deal's state as the engine's own steps would.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._actions import DeclareNone, LaySet
from ._cards import Card
from ._deal import Deal
from ._rules import Rules
from ._view import View


def world(
    rules: Rules,
    view: View,
    hands: Sequence[Sequence[Card]],
    pile: Sequence[Card],
    last_cards: Sequence[Card] = (),
    discard: Sequence[Card] = (),
    hidden: Sequence[Card] = (),
    set_aside: Sequence[Card] = (),
    stock: Sequence[Card] = (),
) -> Deal:
    """A deal in the state ``view`` describes, with these cards where it shows only counts:
    ``hands`` (``view.seat``'s own as the view shows it), ``pile`` (the pile under the last set),
    ``last_cards`` (the last set's cards, when ``view.last`` is set: laid again here by its
    claimant, so the deal answers it as the real one would), and the rest.

    Not kept: a set held while a window is open, quads windows and rights, stale-call bars.
    Raises a RuleViolation when the last set cannot be laid again from these cards.
    """
    last = view.last
    deal = Deal(
        rules,
        deck=view.deck,
        dealer=view.dealer,
        hands=[list(h) for h in hands],
        turn=last.seat if last is not None else view.turn,
        pile=pile,
        discard=discard,
        hidden=hidden,
        set_aside=set_aside,
        stock=stock,
    )
    deal.out = list(view.out)
    deal.first_set = False
    deal.set_no = view.set_no - 1 if last is not None else view.set_no
    if last is None:
        deal._claimable = view.ranks
        return deal
    if last.seat not in view.waiting:
        deal.waiting = [s for s in view.waiting if s != last.seat]
    else:
        deal.waiting = list(view.waiting)
    deal.hands[last.seat].extend(last_cards)
    deal._claimable = deal._any_ranks
    count = last.count if rules.count_may_lie else None
    if last.none:
        deal.rank = last.rank
        deal._claimable = (last.rank,)
        deal.apply(DeclareNone(last.seat))
    else:
        deal.apply(LaySet(last.seat, tuple(last_cards), last.rank, count))
    deal.actions = 0
    return deal
