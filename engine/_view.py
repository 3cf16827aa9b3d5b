"""What one seat may know: its legal actions and its view of the deal."""

from __future__ import annotations

import attrs

from ._cards import Card, Rank


@attrs.frozen
class LayBounds:
    """How a seat may lay a set now: ``min``..``max`` cards, claiming one of ``ranks``;
    ``count_min``..``count_max`` claimed cards where counts may lie (else None: the claim's
    count is the number of cards)."""

    min: int
    max: int
    ranks: tuple[Rank, ...]
    count_min: int | None = None
    count_max: int | None = None


@attrs.frozen
class Legal:
    """What a seat may do now, compactly (docs/ARCHITECTURE.md, "Turns"). ``lay``: None if it may not lay;
    ``challenge`` / ``believe``: the ``set_no`` it may answer so, or None; ``declare_none``: the
    rank it may declare none of, or None; ``discard_quads``: the quads it may discard (one rank
    per quad); ``decline_quads``: True for the seat that holds the right to discard quads after
    taking the pile (``quads = after_taking``, docs/RULES.md `verish`), whatever it holds: it may give
    the right up (``DeclineQuads``)."""

    lay: LayBounds | None = None
    challenge: int | None = None
    believe: int | None = None
    declare_none: Rank | None = None
    discard_quads: tuple[Rank, ...] = ()
    decline_quads: bool = False

    def __bool__(self) -> bool:
        return bool(
            self.lay
            or self.challenge is not None
            or self.believe is not None
            or self.declare_none is not None
            or self.discard_quads
            or self.decline_quads
        )


NO_ACTION = Legal()


@attrs.frozen
class LastSet:
    """The last set, apart from the pile: its number, who laid it, the claim; ``size`` is the
    number of cards where counts are public; ``none`` marks a declared none."""

    set_no: int
    seat: int
    rank: Rank
    count: int
    size: int | None
    none: bool = False


@attrs.frozen
class View:
    """Everything ``seat`` may know of a deal, and nothing more (``seat`` None: a spectator, who
    holds no hand and has no legal actions). Counts are None where the variant hides them."""

    variant: str
    seat: int | None
    players: int
    deck: str
    dealer: int
    hand: tuple[Card, ...] | None
    hand_counts: tuple[int, ...] | None
    pile: int | None
    discard: int
    stock: int
    hidden: int
    set_aside: int
    last: LastSet | None
    ranks: tuple[Rank, ...]
    turn: int | None
    set_no: int
    window_open: bool
    out: tuple[int, ...]
    waiting: tuple[int, ...]
    over: bool
    loser: int | None
    winner: int | None
    legal: Legal
    quads_window: int | None = None  # the taker whose quads window holds the next set
