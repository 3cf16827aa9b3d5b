"""The ``state`` snapshot of protocol v1 (docs/PROTOCOL.md, "state: a snapshot") and the game
events its ``history`` holds."""

from __future__ import annotations

from typing import Any

import attrs

from ._errors import error
from ._maps import CONTRIBUTIONS, DECK, FAIR, HEX64, LAST_SET, LEGAL, SCORES, TABLE
from ._message import EVENTS, MAX_CARDS, MAX_SET, Event, event, wire
from ._types import CARD, COUNT, MAX_SEATS, MS, RANK, SEAT, Array, Bool, Field, Int, Map, Nullable, Str, Type

HISTORY_EVENTS = frozenset(
    {
        "deal_started",
        "set_laid",
        "none_declared",
        "set_held",
        "set_returned",
        "challenge_void",
        "challenged",
        "believed",
        "set_revealed",
        "pile_taken",
        "pile_discarded",
        "quads_discarded",
        "quads_declined",
        "quads_window_opened",
        "quads_window_closed",
        "stock_drawn",
        "timed_out",
        "player_out",
        "deal_ended",
    }
)
"""The game events a ``state.history`` holds (docs/PROTOCOL.md, "state: a snapshot"): the deal's,
from ``deal_started`` on, but ``turn`` and ``window_closed``, whose outcome the snapshot itself
tells (and not the draw for the first dealer, which comes before the deal)."""

HISTORY_MAX = 1_000
"""The most events a ``state.history`` holds: a longer deal's oldest are left out."""


@attrs.frozen
class HistoryEvent(Type):
    """One event of ``state.history``: a game event of ``HISTORY_EVENTS`` as its receiver was
    sent it (the same fields, checked by its event class), without ``seq`` and ``ts``."""

    def check(self, value: Any, where: str) -> Any:
        if type(value) is not dict or value.get("t") not in HISTORY_EVENTS:
            raise error("BAD_MESSAGE", f"{where}: expected a game event of the deal, got {value!r:.40}")
        EVENTS[value["t"]].from_wire({**value, "seq": 1, "ts": 0})  # raises for a bad field
        return value

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "description": "a game event as the receiver was sent it (its fields as in the event "
            "of type t), without seq and ts",
            "properties": {"t": {"enum": sorted(HISTORY_EVENTS)}},
            "required": ["t"],
        }


@event("state")
class State(Event):
    """A full snapshot of what the receiver may know of the deal (after join, spectate or resume
    during a match), plus the table's summary; it never holds another seat's cards.

    The deal fields mirror engine/_view.py View."""

    variant: str = wire(Str(32, 1), "the variant")
    seat: int | None = wire(Nullable(SEAT), "the receiver's seat; nil: spectating")
    players: int = wire(Int(2, MAX_SEATS), "seats in the deal")
    deck: str = wire(DECK, "the deck kind")
    dealer: int = wire(SEAT, "the dealer")
    hand: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_CARDS)), "the receiver's hand; nil for a spectator"
    )
    hand_counts: tuple[int, ...] | None = wire(
        Nullable(Array(COUNT, MAX_SEATS)), "cards per seat; nil where hidden"
    )
    pile: int | None = wire(Nullable(COUNT), "cards in the pile; nil where hidden")
    discard: int = wire(COUNT, "cards in the discard")
    stock: int = wire(COUNT, "cards in the stock")
    hidden: int = wire(COUNT, "hidden cards")
    set_aside: int = wire(COUNT, "cards set aside")
    last: dict[str, Any] | None = wire(Nullable(LAST_SET), "the last set, apart from the pile; nil: none")
    ranks: tuple[str, ...] = wire(Array(RANK, 13), "the ranks the next set may claim")
    turn: int | None = wire(Nullable(SEAT), "the seat to act; nil when the deal is over")
    set_no: int = wire(COUNT, "the number of the latest set laid (0: none yet)")
    window_open: bool = wire(Bool(), "the last set's challenge window is open")
    out: tuple[int, ...] = wire(Array(SEAT, MAX_SEATS), "seats out, in order")
    waiting: tuple[int, ...] = wire(Array(SEAT, MAX_SEATS), "empty-handed seats not yet out (last cards)")
    over: bool = wire(Bool(), "the deal has ended")
    loser: int | None = wire(Nullable(SEAT), "the loser once over (last_loses)")
    winner: int | None = wire(Nullable(SEAT), "the winner once over (first_wins)")
    legal: dict[str, Any] = wire(LEGAL, "what the receiver may do now")
    quads_window: int | None = wire(
        Nullable(SEAT),
        "the taker whose quads window holds the next set (`verish`); absent or nil: none",
        required=False,
    )
    table: dict[str, Any] = wire(TABLE, "the table")
    deal_no: int = wire(Int(1), "the deal's number in the match")
    commitment: str = wire(HEX64, "the deal's commitment")
    match_scores: tuple[int, ...] | None = wire(Nullable(SCORES), "the match's scores so far")
    time_ms: int | None = wire(Nullable(MS), "turn time left; nil: untimed")
    fair: int | None = wire(FAIR, "the fair-deal scheme, as in deal_started", required=False)
    seed_hash: str | None = wire(HEX64, "fair deal 2: SHA-256 of the server's seed", required=False)
    contributions: tuple[str | None, ...] | None = wire(
        CONTRIBUTIONS, "fair deal 2: each seat's contribution in seat order; nil: none", required=False
    )
    held: dict[str, Any] | None = wire(
        Nullable(Map({"cards": Field(Array(CARD, MAX_SET)), "rank": Field(RANK), "count": Field(COUNT)})),
        "the receiver's own set laid early and still held, as set_held told it; nil or absent: none",
        required=False,
    )
    history: tuple[dict[str, Any], ...] | None = wire(
        Array(HistoryEvent(), HISTORY_MAX),
        "the deal's events so far, oldest first, as the receiver may see them (docs/PROTOCOL.md, "
        "state); absent: not sent",
        required=False,
    )
