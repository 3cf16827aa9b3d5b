"""Actions: what a seat (or the referee) asks a deal to do. ``Deal.apply`` takes one."""

from __future__ import annotations

import attrs

from ._cards import Card, Rank


@attrs.frozen
class LaySet:
    """Lay ``cards`` face down claiming ``count`` cards of ``rank``.

    ``rank`` may be None when only one rank may be claimed; ``count`` may be None where counts
    cannot lie (it is then the number of cards). In `anyone` variants a set laid while the last
    set's challenge window is open is held and applied when the window closes.
    """

    seat: int
    cards: tuple[Card, ...]
    rank: Rank | None = None
    count: int | None = None


@attrs.frozen
class Challenge:
    """Say «не верю» to set number ``set_no`` (docs/RULES.md, "Timing rules")."""

    seat: int
    set_no: int


@attrs.frozen
class Believe:
    """Say «верю» to set number ``set_no`` (variants with ``believe``)."""

    seat: int
    set_no: int


@attrs.frozen
class DeclareNone:
    """Claim to hold none of the rank due now instead of laying (``declare_none``, `hoyle`)."""

    seat: int


@attrs.frozen
class DiscardQuads:
    """Discard one quad per entry of ``ranks`` (a rank twice for eight cards, 2×52). With
    ``quads = after_taking`` (`verish`) this uses up the taker's right (``DeclineQuads``)."""

    seat: int
    ranks: tuple[Rank, ...]


@attrs.frozen
class DeclineQuads:
    """The taker gives up his right to discard quads (``quads = after_taking``, docs/RULES.md
    `verish`, **Decision**: the right ends with the next set laid by anyone, or with the taker's
    own action; this is that action when he keeps his quads). Lets a referee that holds the next
    set for the taker (the quads window) apply it at once."""

    seat: int


@attrs.frozen
class OpenQuadsWindow:
    """The referee holds the next set for ``seat``'s quads window: ``seat`` has just taken the
    pile and may discard quads (``quads = after_taking``, docs/RULES.md `verish`, **Decision**); a set
    the next player lays meanwhile waits, and is applied when the window closes
    (``CloseQuadsWindow``) or at once when ``seat`` discards quads or declines. The referee opens
    one after every take by a seat a person plays, whatever it holds."""

    seat: int


@attrs.frozen
class CloseQuadsWindow:
    """The referee closes ``seat``'s quads window (its time is up); a held set is applied now."""

    seat: int


@attrs.frozen
class Challenges:
    """The referee's group of simultaneous challenges of ``set_no`` (received within the tie
    window); the one nearest to the claimant's left wins (docs/RULES.md, `hoyle`)."""

    seats: tuple[int, ...]
    set_no: int


@attrs.frozen
class CloseWindow:
    """The referee closes set ``set_no``'s challenge window; a held set is applied now."""

    set_no: int


TurnAction = LaySet | DeclareNone | Challenge | Believe
"""The actions that end a seat's turn: what a timeout may make for it."""


@attrs.frozen
class Timeout:
    """The referee: ``seat``'s turn time ran out and ``action`` is made for it (docs/RULES.md, "Timing
    rules"; docs/PROTOCOL.md, "Timers": the server acts for him and reveals nothing).

    ``action`` is one of ``seat``'s own turn actions (a set, a declared none, a challenge or a
    believe of the last set), chosen outside the rules: by the bot that will play the away seat,
    else at random (``random_turn_action``), so that it cannot be predicted from the hand. The
    deal refuses it as it would refuse the seat's own action; a record of the deal holds it whole
    and replays exactly."""

    seat: int
    action: TurnAction


Action = (
    LaySet
    | Challenge
    | Believe
    | DeclareNone
    | DiscardQuads
    | DeclineQuads
    | Challenges
    | CloseWindow
    | OpenQuadsWindow
    | CloseQuadsWindow
    | Timeout
)
