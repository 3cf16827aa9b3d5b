"""What is made for a seat whose turn time ran out (docs/RULES.md, "Timing rules"; docs/PROTOCOL.md,
"Timers"): the server acts for him and reveals nothing.

The action is chosen outside the rules code and passed in whole (``Timeout(seat, action)``), so
that a record of the deal (its deck and accepted actions) replays exactly. The referee offers the
choice of the bot that will play the away seat; when that choice is missing or refused, a
uniformly random turn action (``random_turn_action``): neither is the old fixed rule (the
smallest set, truthful if possible), which told the others the set was true and which rank he
held least.
"""

from __future__ import annotations

import random

from ._actions import Action, Believe, Challenge, DeclareNone, LaySet, Timeout, TurnAction
from ._deal import Deal
from ._errors import RuleViolation
from ._view import View


def random_turn_action(view: View, rng: random.Random) -> TurnAction:
    """A random turn action for ``view.seat`` (``view`` is that seat's own view): where it may
    lay, a random set (a size drawn uniformly from ``legal.lay``'s bounds, that many cards drawn
    at random from the hand, a claimable rank drawn uniformly, the claimed count the number of
    cards); where laying is impossible, a challenge of the last set, else a believe.

    Raises ValueError when the seat has no turn action now (it is not to act, or its set waits
    for the challenge window).
    """
    legal = view.legal
    lay = legal.lay
    seat = view.seat
    if seat is not None and lay is not None and view.hand:
        size = rng.randint(lay.min, lay.max)
        cards = tuple(rng.sample(view.hand, size))
        rank = rng.choice(lay.ranks)
        return LaySet(seat=seat, cards=cards, rank=rank, count=size if lay.count_min is not None else None)
    if seat is not None and legal.challenge is not None:
        return Challenge(seat=seat, set_no=legal.challenge)
    if seat is not None and legal.believe is not None:
        return Believe(seat=seat, set_no=legal.believe)
    raise ValueError(f"seat {seat} has no turn action now")


def timeout_for(deal: Deal, seat: int, choice: Action | None, rng: random.Random) -> Timeout:
    """The ``Timeout`` for ``seat`` of ``deal``: ``Timeout(seat, choice)`` when ``choice`` (the
    away bot's answer to ``deal.view(seat)``) is a turn action the deal accepts for it, else with
    ``random_turn_action(deal.view(seat), rng)``.

    Raises ValueError when ``seat`` has no turn action now (see ``random_turn_action``).
    """
    if isinstance(choice, (LaySet, DeclareNone, Challenge, Believe)):
        timeout = Timeout(seat=seat, action=choice)
        try:
            deal.check(timeout)
        except RuleViolation:
            pass
        else:
            return timeout
    return Timeout(seat=seat, action=random_turn_action(deal.view(seat), rng))
