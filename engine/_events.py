"""Events: what happened in a deal. ``Deal.apply`` returns them in order.

Events hold the whole truth; ``project(event, seat, counts_public)`` gives the copy a seat may see
(``seat=None``: a spectator, who sees no hand). Projection is where hidden information is
protected: a hidden field becomes None, an event a seat may not see at all becomes None.

Each class says how far its projection varies (``Event.projection``), so that a caller feeding
many seats projects an event once per distinct copy, not once per seat (the simulator).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from ._cards import Card, Rank

Hands = tuple[tuple[Card, ...] | None, ...]

PUBLIC = "public"
OWNER = "owner"
EACH = "each"


@attrs.frozen
class Event:
    """What happened; ``type`` names it on the wire.

    ``projection`` says how the copies ``for_seat`` gives differ: ``PUBLIC``: every seat and a
    spectator see the event whole (``for_seat`` returns it); ``OWNER``: the seat in the event's
    ``seat`` field sees it whole, and every other seat sees the same copy as a spectator does
    (``for_seat(None, ...)``, possibly None); ``EACH``: the copy depends on the seat."""

    type: ClassVar[str] = "event"
    projection: ClassVar[str] = PUBLIC

    def for_seat(self, seat: int | None, counts_public: bool) -> Event | None:
        return self


@attrs.frozen
class OwnedEvent(Event):
    """An event whose projection is ``OWNER``: the seat in ``seat`` sees it whole, every other
    seat the spectator's copy."""

    projection: ClassVar[str] = OWNER
    seat: int


@attrs.frozen
class DealerDrawn(Event):
    """First dealer by a draw (``first_dealer = lowest_draw``): ``draws`` holds one tuple of
    ``(seat, card)`` per round of drawing; the lowest rank deals, ties draw again. Public."""

    type: ClassVar[str] = "dealer_drawn"
    draws: tuple[tuple[tuple[int, Card], ...], ...]
    dealer: int


@attrs.frozen
class DealStarted(Event):
    """The cards are dealt. ``hands[s]`` is seat s's hand (None where hidden from the viewer);
    ``hand_counts`` None where counts are not public; ``hidden``, ``set_aside`` and ``stock`` are
    counts of face-down cards out of the hands."""

    type: ClassVar[str] = "deal_started"
    projection: ClassVar[str] = EACH
    dealer: int
    deck: str
    hands: Hands
    hand_counts: tuple[int, ...] | None
    hidden: int
    set_aside: int
    stock: int

    def for_seat(self, seat: int | None, counts_public: bool) -> Event | None:
        hands = tuple(h if s == seat else None for s, h in enumerate(self.hands))
        counts = self.hand_counts if counts_public else None
        return attrs.evolve(self, hands=hands, hand_counts=counts)


@attrs.frozen
class Turn(Event):
    """``seat`` is to act. ``ranks``: the ranks it may claim (one where the claim is forced);
    ``set_no``: the set it may answer, or None when it leads."""

    type: ClassVar[str] = "turn"
    seat: int
    ranks: tuple[Rank, ...]
    set_no: int | None


@attrs.frozen
class SetLaid(OwnedEvent):
    """``seat`` laid set ``set_no`` claiming ``count`` × ``rank``. ``cards``: only the layer sees
    them; ``size``: the number of cards, None where counts may lie and are not public."""

    type: ClassVar[str] = "set_laid"
    set_no: int
    rank: Rank
    count: int
    cards: tuple[Card, ...] | None
    size: int | None

    def for_seat(self, seat: int | None, counts_public: bool) -> Event | None:
        if seat == self.seat:
            return self
        return SetLaid(
            seat=self.seat,
            set_no=self.set_no,
            rank=self.rank,
            count=self.count,
            cards=None,
            size=self.size if counts_public else None,
        )


@attrs.frozen
class NoneDeclared(Event):
    """``seat`` claims to hold no card of ``rank`` (``declare_none``); the claim is ``set_no``."""

    type: ClassVar[str] = "none_declared"
    seat: int
    set_no: int
    rank: Rank


@attrs.frozen
class SetHeld(OwnedEvent):
    """``seat`` laid early; its set waits for the challenge window to close. Only ``seat`` sees it."""

    type: ClassVar[str] = "set_held"
    cards: tuple[Card, ...]
    rank: Rank
    count: int

    def for_seat(self, seat: int | None, counts_public: bool) -> Event | None:
        return self if seat == self.seat else None


@attrs.frozen
class SetReturned(OwnedEvent):
    """A challenge came first: ``seat``'s held set goes back to its hand unplayed. Only ``seat``
    sees it."""

    type: ClassVar[str] = "set_returned"
    cards: tuple[Card, ...]

    def for_seat(self, seat: int | None, counts_public: bool) -> Event | None:
        return self if seat == self.seat else None


@attrs.frozen
class WindowClosed(Event):
    """Set ``set_no``'s challenge window closed (`anyone` variants); a held set follows."""

    type: ClassVar[str] = "window_closed"
    set_no: int


@attrs.frozen
class ChallengeVoid(Event):
    """``seat`` challenged set ``set_no`` before it was laid: void, and ``seat`` may not
    challenge that set (docs/RULES.md, `hoyle`, premature challenges)."""

    type: ClassVar[str] = "challenge_void"
    seat: int
    set_no: int


@attrs.frozen
class Challenged(Event):
    """``seat`` said «не верю» to ``set_no``; ``tied``: the others who spoke within the tie window
    and lost on seat order."""

    type: ClassVar[str] = "challenged"
    seat: int
    set_no: int
    tied: tuple[int, ...] = ()


@attrs.frozen
class Believed(Event):
    """``seat`` said «верю» to ``set_no``."""

    type: ClassVar[str] = "believed"
    seat: int
    set_no: int


@attrs.frozen
class SetRevealed(Event):
    """Set ``set_no`` of ``seat`` is turned up: ``cards`` (for a declared none, the declarer's
    cards of that rank); ``claim_true`` says whether the claim held. Public."""

    type: ClassVar[str] = "set_revealed"
    seat: int
    set_no: int
    rank: Rank
    count: int
    cards: tuple[Card, ...]
    claim_true: bool


@attrs.frozen
class PileTaken(OwnedEvent):
    """``seat`` takes the pile. ``count``: cards taken (None where counts are hidden); ``cards``:
    only the taker sees them."""

    type: ClassVar[str] = "pile_taken"
    count: int | None
    cards: tuple[Card, ...] | None

    def for_seat(self, seat: int | None, counts_public: bool) -> Event | None:
        if seat == self.seat:
            return self
        return PileTaken(seat=self.seat, count=self.count if counts_public else None, cards=None)


@attrs.frozen
class PileDiscarded(Event):
    """The pile goes to the discard (a believed true set). ``count``: its cards."""

    type: ClassVar[str] = "pile_discarded"
    count: int


@attrs.frozen
class QuadsDiscarded(OwnedEvent):
    """``seat`` discards ``count`` quads. ``ranks``: public where the quads are shown
    (``after_taking``), else only ``seat`` sees them (``on_turn``: face down); ``cards``: the
    cards that went, only ``seat`` sees them (with two decks he may hold more than four of a rank
    and must learn which suits went)."""

    type: ClassVar[str] = "quads_discarded"
    count: int
    ranks: tuple[Rank, ...] | None
    shown: bool
    cards: tuple[Card, ...] | None

    def for_seat(self, seat: int | None, counts_public: bool) -> QuadsDiscarded:
        if seat == self.seat:
            return self
        return QuadsDiscarded(
            seat=self.seat,
            count=self.count,
            ranks=self.ranks if self.shown else None,
            shown=self.shown,
            cards=None,
        )


@attrs.frozen
class QuadsDeclined(Event):
    """``seat``, who has just taken the pile, gives up his right to discard quads
    (``quads = after_taking``, docs/RULES.md `verish`). Public."""

    type: ClassVar[str] = "quads_declined"
    seat: int


@attrs.frozen
class QuadsWindowOpened(Event):
    """The next set waits while ``seat``, who has just taken the pile, may discard quads (the
    quads window, docs/RULES.md `verish`, **Decision**). Public: the window opens after every take by
    a person, whatever he holds, so it tells nothing of his hand."""

    type: ClassVar[str] = "quads_window_opened"
    seat: int


@attrs.frozen
class QuadsWindowClosed(Event):
    """``seat``'s quads window closed (its time was up, or he discarded or declined); a set held
    for it is applied next. Public."""

    type: ClassVar[str] = "quads_window_closed"
    seat: int


@attrs.frozen
class StockDrawn(OwnedEvent):
    """``seat`` draws ``count`` cards from the stock (`hoyle-three`); only ``seat`` sees ``cards``."""

    type: ClassVar[str] = "stock_drawn"
    count: int
    cards: tuple[Card, ...] | None

    def for_seat(self, seat: int | None, counts_public: bool) -> Event | None:
        return self if seat == self.seat else StockDrawn(seat=self.seat, count=self.count, cards=None)


@attrs.frozen
class TimedOut(Event):
    """``seat``'s turn time ran out; the action that follows was made for it."""

    type: ClassVar[str] = "timed_out"
    seat: int


@attrs.frozen
class PlayerOut(Event):
    """``seat`` has finished (docs/RULES.md, "out"); ``place`` is 1 for the first out."""

    type: ClassVar[str] = "player_out"
    seat: int
    place: int


@attrs.frozen
class DealEnded(Event):
    """The deal is over. ``loser`` (``last_loses``) or ``winner`` (``first_wins``); ``out``: seats in
    the order they went out; ``scores``: this deal's score change per seat; ``hand_counts``:
    cards left per seat."""

    type: ClassVar[str] = "deal_ended"
    loser: int | None
    winner: int | None
    out: tuple[int, ...]
    scores: tuple[int, ...]
    hand_counts: tuple[int, ...]


def project(event: Event, seat: int | None, counts_public: bool) -> Event | None:
    """The copy of ``event`` that ``seat`` may see (None: a spectator), or None if it sees none.

    ``counts_public`` is the variant's ``hand_counts_public``.
    """
    return event.for_seat(seat, counts_public)
