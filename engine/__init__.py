"""The rules of «Верю — не верю» in every variant of RULES.md: pure, synchronous, no I/O.

A deal is a state machine (``Deal.apply(action) -> list[Event]``); ``Deal.legal_actions(seat)`` says what a
seat may do, ``Deal.view(seat)`` what it may know, ``project(event, seat, counts_public)`` which
copy of an event it may see. Variants are data (``VARIANTS``, ``variant(name, **options)``).
"""

from ._actions import (
    Action,
    Believe,
    Challenge,
    Challenges,
    CloseWindow,
    DeclareNone,
    DiscardQuads,
    LaySet,
    Timeout,
)
from ._cards import (
    DECK_KINDS,
    RANKS,
    SUITS,
    Card,
    Rank,
    deck_ranks,
    is_card,
    new_deck,
    next_rank,
    quad_ranks,
    rank_of,
    sort_key,
    sorted_cards,
)
from ._deal import Deal, LaidSet, score_deal
from ._dealing import deal_cards, draw_for_dealer
from ._errors import (
    ChallengeBarred,
    DealOver,
    IllegalAction,
    NotYourTurn,
    PrematureChallenge,
    RuleViolation,
    StaleSet,
)
from ._events import (
    Believed,
    ChallengeVoid,
    Challenged,
    DealEnded,
    DealerDrawn,
    DealStarted,
    Event,
    NoneDeclared,
    PileDiscarded,
    PileTaken,
    PlayerOut,
    QuadsDiscarded,
    SetHeld,
    SetLaid,
    SetReturned,
    SetRevealed,
    StockDrawn,
    TimedOut,
    Turn,
    WindowClosed,
    project,
)
from ._events import EACH, OWNER, PUBLIC
from ._match import Match
from ._records import builder
from ._rules import DEFAULT_VARIANT, VARIANTS, Rules, variant
from ._view import NO_ACTION, LastSet, LayBounds, Legal, View

EVENT_TYPES = {
    cls.type: cls
    for cls in (
        DealerDrawn, DealStarted, Turn, SetLaid, NoneDeclared, SetHeld, SetReturned, WindowClosed,
        ChallengeVoid, Challenged, Believed, SetRevealed, PileTaken, PileDiscarded, QuadsDiscarded,
        StockDrawn, TimedOut, PlayerOut, DealEnded,
    )
}

__all__ = [name for name in list(globals()) if not name.startswith("_")]
