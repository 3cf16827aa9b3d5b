"""The parameters of docs/RULES.md as one frozen, validated record, and the named variants.

A variant is data: the values of every parameter of docs/RULES.md ("The parameters"). Behaviour that
differs by variant is chosen by these values in the deal, never by the variant's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args

import attrs

from ._cards import DECK_KINDS, decks_in

# The values of each parameter of docs/RULES.md ("The parameters") that is one of a few words:
# a Literal type for the checker, and its values as a tuple for the check at run time.
Dealing = Literal["one_by_one", "packets", "equal_with_stock", "equal_set_aside"]
FirstDealer = Literal["random", "lowest_draw"]
NextDealer = Literal["left", "loser"]
FirstPlayer = Literal["left_of_dealer", "dealer"]
RankOrder = Literal["hold", "free", "ascending", "descending"]
FirstRank = Literal["any", "ace"]
Challengers = Literal["next", "anyone"]
Quads = Literal["never", "after_taking", "on_turn"]
Leader = Literal["by_outcome", "taker", "sequence"]
LastCards = Literal["next_decides", "final_call", "covered_or_survived"]
Result = Literal["last_loses", "first_wins"]
Scoring = Literal["none", "losses", "chips_per_player", "chips_per_card"]

DEALS: tuple[Dealing, ...] = get_args(Dealing)
FIRST_DEALERS: tuple[FirstDealer, ...] = get_args(FirstDealer)
NEXT_DEALERS: tuple[NextDealer, ...] = get_args(NextDealer)
FIRST_PLAYERS: tuple[FirstPlayer, ...] = get_args(FirstPlayer)
RANK_ORDERS: tuple[RankOrder, ...] = get_args(RankOrder)
FIRST_RANKS: tuple[FirstRank, ...] = get_args(FirstRank)
CHALLENGERS: tuple[Challengers, ...] = get_args(Challengers)
QUADS: tuple[Quads, ...] = get_args(Quads)
LEADERS: tuple[Leader, ...] = get_args(Leader)
LAST_CARDS: tuple[LastCards, ...] = get_args(LastCards)
RESULTS: tuple[Result, ...] = get_args(Result)
SCORINGS: tuple[Scoring, ...] = get_args(Scoring)


def _one_of(choices: tuple[str, ...]) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    return attrs.validators.in_(choices)


def _pair(_inst: Any, attribute: attrs.Attribute[tuple[int, int]], value: tuple[int, int]) -> None:
    lo, hi = value
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
        raise ValueError(f"{attribute.name} must be (min, max) with 1 <= min <= max, got {value!r}")


@attrs.frozen
class Rules:
    """Every parameter of docs/RULES.md for one variant (and the table's chosen options).

    Fields are named as in docs/RULES.md, "The parameters". Extra fields:

    - ``deck_auto``: ``((max_players, deck), ...)``, ascending; what ``deck = "auto"`` picks.
    - ``deck_choices``: the decks a table may choose instead of ``auto``.
    - ``deck_choice_players``: (min, max) seats at which a table may choose its deck (`hoyle`:
      only 5 players choose); None: at any seat count.
    - ``packet_size``: 2 or 3, for ``deal = "packets"``.
    - ``set_size``: (min, max) cards claimed per set for one deck; with ``set_size_per_deck``
      the maximum is multiplied by the number of decks (``hoyle`` only: 1–8 with 2×52; `cheat`
      stays 1–4 with two decks).
    - ``options``: the names of fields a table may set (``Rules.with_options``).

    Raises ValueError on any value outside docs/RULES.md.
    """

    name: str
    title: str
    players: tuple[int, int] = attrs.field(validator=_pair)
    deck_auto: tuple[tuple[int, str], ...]
    deck: str = attrs.field(default="auto", validator=_one_of(("auto",) + DECK_KINDS))
    deck_choices: tuple[str, ...] = ()
    deck_choice_players: tuple[int, int] | None = None
    hidden_card: bool = False
    deal: Dealing = attrs.field(default="one_by_one", validator=_one_of(DEALS))
    packet_size: int = attrs.field(default=3, validator=attrs.validators.in_((2, 3)))
    first_dealer: FirstDealer = attrs.field(default="random", validator=_one_of(FIRST_DEALERS))
    next_dealer: NextDealer = attrs.field(default="left", validator=_one_of(NEXT_DEALERS))
    first_player: FirstPlayer = attrs.field(default="left_of_dealer", validator=_one_of(FIRST_PLAYERS))
    rank_order: RankOrder = attrs.field(default="hold", validator=_one_of(RANK_ORDERS))
    first_rank: FirstRank = attrs.field(default="any", validator=_one_of(FIRST_RANKS))
    set_size: tuple[int, int] = attrs.field(default=(1, 4), validator=_pair)
    set_size_per_deck: bool = False
    count_may_lie: bool = False
    hand_counts_public: bool = True
    challengers: Challengers = attrs.field(default="next", validator=_one_of(CHALLENGERS))
    believe: bool = False
    declare_none: bool = False
    quads: Quads = attrs.field(default="never", validator=_one_of(QUADS))
    leader_after_reveal: Leader = attrs.field(default="by_outcome", validator=_one_of(LEADERS))
    last_cards: LastCards = attrs.field(default="next_decides", validator=_one_of(LAST_CARDS))
    result: Result = attrs.field(default="last_loses", validator=_one_of(RESULTS))
    scoring: Scoring = attrs.field(default="none", validator=_one_of(SCORINGS))
    scoring_choices: tuple[str, ...] = ()
    options: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        if self.believe and self.challengers != "next":
            raise ValueError("believe needs challengers = next")
        if self.count_may_lie and self.last_cards != "covered_or_survived":
            raise ValueError("count_may_lie is only defined with covered_or_survived")
        if self.result == "first_wins" and self.last_cards != "covered_or_survived":
            raise ValueError("first_wins needs last_cards = covered_or_survived")
        if self.scoring_choices and self.scoring not in self.scoring_choices:
            raise ValueError(f"scoring must be one of {self.scoring_choices}")
        if self.deck != "auto" and self.deck_choices and self.deck not in self.deck_choices:
            raise ValueError(f"deck must be auto or one of {', '.join(self.deck_choices)}")

    # -- derived values -------------------------------------------------------------------

    def deck_for(self, players: int) -> str:
        """The deck kind for ``players`` seats: the table's choice, else ``deck_auto``.

        Raises ValueError when ``players`` is outside ``self.players`` or the deck is too small
        to give every player two cards.
        """
        lo, hi = self.players
        if not lo <= players <= hi:
            raise ValueError(f"{self.name} is for {lo}–{hi} players, not {players}")
        kind = self.deck
        auto = next(d for most, d in self.deck_auto if players <= most)
        if kind == "auto":
            kind = auto
        elif kind != auto and self.deck_choice_players is not None:
            clo, chi = self.deck_choice_players
            if not clo <= players <= chi:
                chosen = f"{clo}" if clo == chi else f"{clo}–{chi}"
                why = f"a deck is chosen at {chosen} only"
                raise ValueError(f"{self.name} deals the {auto} deck to {players} players ({why})")
        size = (36 if kind.endswith("36") else 52) * decks_in(kind)
        if size - int(self.hidden_card) < 2 * players:
            raise ValueError(f"a {kind} deck is too small for {players} players")
        return kind

    def set_bounds(self, deck: str) -> tuple[int, int]:
        """(min, max) cards per set with ``deck``; see ``set_size_per_deck``."""
        lo, hi = self.set_size
        return (lo, hi * decks_in(deck) if self.set_size_per_deck else hi)

    def with_options(self, **options: Any) -> Rules:
        """A copy with the table's options set; only names in ``self.options`` are accepted.

        Raises ValueError for an option this variant does not offer or a value it forbids.
        """
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            offered = ", ".join(self.options) or "none"
            raise ValueError(f"{self.name} has no option {', '.join(unknown)} (options: {offered})")
        return attrs.evolve(self, **options)


_HOYLE = Rules(  # docs/RULES.md, `hoyle` (seed 000)
    name="hoyle",
    title="Не верю",
    players=(2, 12),
    deck_auto=((5, "52"), (12, "2x52")),
    deck_choices=("52", "2x52"),
    deck_choice_players=(5, 5),
    deal="packets",
    first_dealer="random",
    next_dealer="left",
    first_player="left_of_dealer",
    rank_order="descending",
    first_rank="ace",
    set_size=(1, 4),
    set_size_per_deck=True,
    challengers="anyone",
    leader_after_reveal="sequence",
    last_cards="covered_or_survived",
    result="first_wins",
    scoring="chips_per_player",
    scoring_choices=("chips_per_player", "chips_per_card"),
    options=("deck", "packet_size", "declare_none", "scoring"),
)

_CHEAT = Rules(  # docs/RULES.md, `cheat` (seed 004)
    name="cheat",
    title="Обманщик",
    players=(3, 12),
    deck_auto=((6, "52"), (12, "2x52")),
    deck_choices=("52", "2x52"),
    deal="one_by_one",
    rank_order="ascending",
    # Sets of 1–4 cards with one deck or two (seed 004: "lays one to four cards"); the 1–8 of
    # two decks is `hoyle`'s only (docs/RULES.md, `cheat`).
    set_size=(1, 4),
    set_size_per_deck=False,
    # **Decision** (docs/RULES.md, `cheat`): the claimed count may differ from the cards laid either
    # way, more cards than claimed (the seed's second way to cheat) or fewer; both within 1–4.
    count_may_lie=True,
    hand_counts_public=False,
    challengers="anyone",
    leader_after_reveal="taker",
    last_cards="covered_or_survived",
    result="first_wins",
    scoring="none",
    options=("deck",),
)

VARIANTS: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules(  # docs/RULES.md, `verish` (seed 001; the default)
            name="verish",
            title="Веришь — не веришь",
            players=(2, 6),
            deck_auto=((3, "36"), (6, "52")),
            hidden_card=True,
            deal="one_by_one",
            first_player="left_of_dealer",
            rank_order="hold",
            set_size=(1, 3),
            quads="after_taking",
            leader_after_reveal="by_outcome",
            last_cards="next_decides",
            result="last_loses",
            scoring="losses",
        ),
        Rules(  # docs/RULES.md, `veryu` (seed 002)
            name="veryu",
            title="Верю — не верю",
            players=(2, 12),
            deck_auto=((4, "36"), (8, "52"), (12, "2x52")),
            deck_choices=DECK_KINDS,
            deal="one_by_one",
            next_dealer="loser",
            first_player="dealer",
            rank_order="hold",
            set_size=(1, 4),
            believe=True,
            quads="on_turn",
            leader_after_reveal="by_outcome",
            last_cards="final_call",
            result="last_loses",
            scoring="losses",
            options=("deck",),
        ),
        Rules(  # docs/RULES.md, `lozh` (seed 003)
            name="lozh",
            title="Ложь во спасение",
            players=(2, 12),
            deck_auto=((6, "36"), (10, "52"), (12, "2x52")),
            deck_choices=DECK_KINDS,
            deal="equal_set_aside",
            # **Decision** (docs/RULES.md, `lozh`): only a tie for the lowest card draws again
            # (engine/_dealing.py, draw_for_dealer).
            first_dealer="lowest_draw",
            next_dealer="loser",
            first_player="left_of_dealer",
            rank_order="hold",
            set_size=(1, 4),
            believe=True,
            leader_after_reveal="by_outcome",
            last_cards="next_decides",
            result="last_loses",
            scoring="losses",
            options=("deck",),
        ),
        _HOYLE,
        attrs.evolve(  # docs/RULES.md, `hoyle-three` (seed 000, the stock sub-variant): as `hoyle` except
            _HOYLE,
            name="hoyle-three",
            title="Не верю (по три)",
            # **Decision** (docs/RULES.md, `hoyle-three`): 3–8 players; three cards a set need at least
            # three, and 52 cards over more than 8 leave a stock larger than a hand.
            players=(3, 8),
            deal="equal_with_stock",
            first_rank="any",
            set_size=(3, 3),
            set_size_per_deck=False,
            options=("deck", "declare_none", "scoring"),
        ),
        _CHEAT,
        attrs.evolve(_CHEAT, name="cheat-free", title="Переменный обманщик", rank_order="free"),  # seed 004
    )
}

DEFAULT_VARIANT = "verish"


def variant(name: str, **options: Any) -> Rules:
    """The named variant of docs/RULES.md with a table's options applied.

    Raises ValueError for an unknown name (the message lists the known ones) or a bad option.
    """
    try:
        rules = VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None
    return rules.with_options(**options) if options else rules
