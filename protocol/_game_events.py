"""The game events of protocol v1 (docs/PROTOCOL.md, Events): they mirror engine/_events.py field
for field, as projected for the receiving seat, plus the table's own fields (the fair deal's,
the deal's number, the turn time) and ``legal``."""

from __future__ import annotations

from typing import Any

from ._maps import CONTRIBUTIONS, DECK, FAIR, HEX64, LAY_BOUNDS, LEGAL_FIELDS, SCORES
from ._message import MAX_CARDS, MAX_SET, Event, event, wire
from ._types import CARD, COUNT, MAX_SEATS, MS, RANK, SEAT, SET_NO, Array, Bool, Int, Nullable, Tuple


@event("dealer_drawn")
class DealerDrawn(Event):
    """The first dealer by a draw (``first_dealer = lowest_draw``)."""

    draws: tuple[tuple[tuple[int, str], ...], ...] = wire(
        Array(Array(Tuple((SEAT, CARD)), MAX_SEATS, 1), 64, 1),
        "one array of [seat, card] per round of drawing",
    )
    dealer: int = wire(SEAT, "the dealer")


@event("seed_committed")
class SeedCommitted(Event):
    """Fair deal 2, before the cards of deal ``deal_no`` are dealt: the server has drawn its
    secret seed and commits to it; every seated player's client answers with ``contribute``
    within ``time_ms`` (docs/PROTOCOL.md, section 9)."""

    deal_no: int = wire(Int(1), "the deal's number in the match")
    seed_hash: str = wire(HEX64, "SHA-256 of the server's 32-byte seed, lowercase hex")
    dealer: int = wire(SEAT, "the dealer, fixed before anyone contributes")
    deck: str = wire(DECK, "the deck kind")
    contributions: tuple[str | None, ...] = wire(
        CONTRIBUTIONS, "the contributions fixed already: the server's bot seats'; nil for the others"
    )
    time_ms: int = wire(MS, "how long the server waits for the contributions")


@event("deal_started")
class DealStarted(Event):
    """The cards are dealt."""

    dealer: int = wire(SEAT, "the dealer")
    deck: str = wire(DECK, "the deck kind")
    hand_counts: tuple[int, ...] | None = wire(
        Nullable(Array(COUNT, MAX_SEATS)), "cards per seat; nil where hidden"
    )
    hidden: int = wire(COUNT, "hidden cards (never shown until the disclosure)")
    set_aside: int = wire(COUNT, "cards set aside face down")
    stock: int = wire(COUNT, "cards in the stock")
    hand: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_CARDS)), "the receiver's own hand; nil for a spectator"
    )
    commitment: str = wire(HEX64, "SHA-256 of salt:deck (fair deal)")
    deal_no: int = wire(Int(1), "the deal's number in the match")
    fair: int | None = wire(
        FAIR, "the fair-deal scheme: 2, the deck comes from seed and contributions; absent: 1", required=False
    )
    seed_hash: str | None = wire(HEX64, "fair deal 2: SHA-256 of the server's seed", required=False)
    contributions: tuple[str | None, ...] | None = wire(
        CONTRIBUTIONS, "fair deal 2: each seat's contribution in seat order; nil: none", required=False
    )


@event("turn")
class Turn(Event):
    """``seat`` is to act."""

    seat: int = wire(SEAT, "the seat to act")
    ranks: tuple[str, ...] = wire(Array(RANK, 13), "the ranks its set may claim")
    set_no: int | None = wire(Nullable(SET_NO), "the set it answers; nil when it leads")
    time_ms: int | None = wire(Nullable(MS), "its turn time; nil: untimed")


@event("set_laid")
class SetLaid(Event):
    """A set is on the pile."""

    seat: int = wire(SEAT, "who laid it")
    set_no: int = wire(SET_NO, "its number in the deal")
    rank: str = wire(RANK, "the claimed rank")
    count: int = wire(COUNT, "the claimed count")
    cards: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_SET)), "the cards: only for the seat that laid them"
    )
    size: int | None = wire(Nullable(COUNT), "its number of cards; nil where counts may lie and are hidden")


@event("none_declared")
class NoneDeclared(Event):
    """``seat`` claims to hold no card of ``rank`` (a claim numbered ``set_no``)."""

    seat: int = wire(SEAT, "the declarer")
    set_no: int = wire(SET_NO, "the claim's number")
    rank: str = wire(RANK, "the rank")


@event("set_held")
class SetHeld(Event):
    """To the layer only: his early set waits for the challenge window to close."""

    seat: int = wire(SEAT, "the receiver")
    cards: tuple[str, ...] = wire(Array(CARD, MAX_SET), "the cards held")
    rank: str = wire(RANK, "the claim's rank")
    count: int = wire(COUNT, "the claim's count")


@event("set_returned")
class SetReturned(Event):
    """To the layer only: a challenge came first; his held set is back in his hand."""

    seat: int = wire(SEAT, "the receiver")
    cards: tuple[str, ...] = wire(Array(CARD, MAX_SET), "the cards returned")


@event("window_closed")
class WindowClosed(Event):
    """Set ``set_no``'s challenge window closed."""

    set_no: int = wire(SET_NO, "the set")


@event("challenge_void")
class ChallengeVoid(Event):
    """A premature challenge: void, and its maker may not challenge that set."""

    seat: int = wire(SEAT, "the challenger")
    set_no: int = wire(SET_NO, "the set not laid yet")


@event("challenged")
class Challenged(Event):
    """«Не верю»: ``seat`` challenges set ``set_no``."""

    seat: int = wire(SEAT, "the challenger")
    set_no: int = wire(SET_NO, "the set")
    tied: tuple[int, ...] = wire(
        Array(SEAT, MAX_SEATS), "others who spoke within the tie window and lost on seat order"
    )


@event("believed")
class Believed(Event):
    """«Верю»: ``seat`` believes set ``set_no``."""

    seat: int = wire(SEAT, "the believer")
    set_no: int = wire(SET_NO, "the set")


@event("set_revealed")
class SetRevealed(Event):
    """The last set is turned up (public)."""

    seat: int = wire(SEAT, "who laid it")
    set_no: int = wire(SET_NO, "the set")
    rank: str = wire(RANK, "the claimed rank")
    count: int = wire(COUNT, "the claimed count")
    cards: tuple[str, ...] = wire(
        Array(CARD, MAX_CARDS), "its cards (a declared none: the declarer's cards of that rank)"
    )
    claim_true: bool = wire(Bool(), "whether the claim held")


@event("pile_taken")
class PileTaken(Event):
    """``seat`` takes the pile into his hand."""

    seat: int = wire(SEAT, "the taker")
    count: int | None = wire(Nullable(COUNT), "cards taken; nil where counts are hidden")
    cards: tuple[str, ...] | None = wire(Nullable(Array(CARD, MAX_CARDS)), "the cards: only for the taker")


@event("pile_discarded")
class PileDiscarded(Event):
    """The pile goes to the discard (a believed true set)."""

    count: int = wire(COUNT, "its cards")


@event("quads_discarded")
class QuadsDiscarded(Event):
    """``seat`` discards ``count`` quads."""

    seat: int = wire(SEAT, "the seat")
    count: int = wire(COUNT, "quads discarded")
    ranks: tuple[str, ...] | None = wire(
        Nullable(Array(RANK, 26)), "their ranks: public when shown, else only for the seat"
    )
    shown: bool = wire(Bool(), "shown face up (after_taking) or face down (on_turn)")
    cards: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_CARDS)),
        "the cards discarded: only for the seat (with two decks it may hold more than four of a rank)",
    )


@event("quads_declined")
class QuadsDeclined(Event):
    """``seat``, who has just taken the pile, gives up his right to discard quads (`verish`)."""

    seat: int = wire(SEAT, "the seat")


@event("quads_window_opened")
class QuadsWindowOpened(Event):
    """The quads window: the next set waits while ``seat``, who has just taken the pile, may
    discard quads (`verish`; it opens after every take by a person, whatever he holds).

    docs/RULES.md: quad (`verish`, quads after taking, Decision)."""

    seat: int = wire(SEAT, "the taker")
    time_ms: int | None = wire(
        Nullable(MS),
        "how long the window stays open at most (a timed table); nil: until the taker discards or"
        " declines (an untimed table)",
    )


@event("quads_window_closed")
class QuadsWindowClosed(Event):
    """``seat``'s quads window closed (its time was up, or he discarded or declined); a set held
    for it is laid next."""

    seat: int = wire(SEAT, "the taker")


@event("stock_drawn")
class StockDrawn(Event):
    """``seat`` draws from the stock (`hoyle-three`)."""

    seat: int = wire(SEAT, "the seat")
    count: int = wire(COUNT, "cards drawn")
    cards: tuple[str, ...] | None = wire(Nullable(Array(CARD, MAX_SET)), "the cards: only for the seat")


@event("timed_out")
class TimedOut(Event):
    """``seat``'s turn time ran out; the server acts for it next and marks it away."""

    seat: int = wire(SEAT, "the seat")


@event("player_out")
class PlayerOut(Event):
    """``seat`` has finished: it is out, and skipped from then on.

    docs/RULES.md: out."""

    seat: int = wire(SEAT, "the seat")
    place: int = wire(Int(1, MAX_SEATS), "1 for the first out")


@event("deal_ended")
class DealEnded(Event):
    """The deal is over; the fair-deal disclosure."""

    loser: int | None = wire(Nullable(SEAT), "last_loses: the loser")
    winner: int | None = wire(Nullable(SEAT), "first_wins: the winner")
    out: tuple[int, ...] = wire(Array(SEAT, MAX_SEATS), "seats in the order they went out")
    scores: tuple[int, ...] = wire(SCORES, "this deal's score change per seat")
    hand_counts: tuple[int, ...] = wire(Array(COUNT, MAX_SEATS), "cards left per seat")
    salt: str = wire(HEX64, "the salt of the commitment")
    deck: tuple[str, ...] = wire(Array(CARD, MAX_CARDS), "the shuffled deck in dealing order, top first")
    match_scores: tuple[int, ...] | None = wire(Nullable(SCORES), "the match's scores so far")
    deal_no: int = wire(Int(1), "the deal's number in the match")
    next_deal_ms: int | None = wire(
        Nullable(MS), "the pause before the match's next deal; nil: the match is over", required=False
    )
    seed: str | None = wire(
        HEX64, "fair deal 2: the server's seed, disclosed (its SHA-256 is seed_hash)", required=False
    )


@event("legal")
class LegalEvent(Event):
    """To one seat: what it may do now (after every batch of game events that changes it)."""

    lay: dict[str, Any] | None = wire(Nullable(LAY_BOUNDS), LEGAL_FIELDS["lay"].doc)
    challenge: int | None = wire(Nullable(SET_NO), LEGAL_FIELDS["challenge"].doc)
    believe: int | None = wire(Nullable(SET_NO), LEGAL_FIELDS["believe"].doc)
    declare_none: str | None = wire(Nullable(RANK), LEGAL_FIELDS["declare_none"].doc)
    discard_quads: tuple[str, ...] = wire(Array(RANK, 26), LEGAL_FIELDS["discard_quads"].doc)
    decline_quads: bool = wire(Bool(), LEGAL_FIELDS["decline_quads"].doc)
