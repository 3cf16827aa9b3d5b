"""Checking a deal's fairness from what was disclosed (docs/PROTOCOL.md, section 9): the one
check the terminal client (client/ui/model.py) runs at every ``deal_ended`` and ``neveryu
verify`` runs on a recorded deal.

``Disclosure`` is what a client kept of one deal (from ``seed_committed``, ``deal_started`` or
``state``, its own contribution, and ``deal_ended``); ``check(disclosure)`` says what it proves:

- ``fair``: fair deal 2 holds and this seat's own contribution is in the deck: the server
  committed to its seed before it saw the contribution, and nobody but the server knew the seed
  before the deal ended, so nobody could choose the deck;
- ``checked``: fair deal 2 holds, seen without a contribution of one's own (a spectator, a
  record): the deck is the one the committed seed and the contributions shown make;
- ``seeded``: the table has a fixed seed: the deck is the one its committed seed makes, and
  whoever knows the table's seed knew it in advance;
- ``unprotected``: fair deal 2 holds but this seat's contribution is not in it (it came too
  late, or was never sent): the server could have chosen the deck;
- ``committed``: only the commitment of protocol 1.0 (a server without fair deal 2): the deck
  did not change during the deal, but the server could have chosen it;
- ``bad``: something does not match (``problems`` says what: ``PROBLEMS``);
- ``unknown``: nothing was disclosed.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from neveryu import engine, protocol

STATUSES = ("fair", "checked", "seeded", "unprotected", "committed", "bad", "unknown")

PROBLEMS = {
    "commitment": "the deck disclosed is not the one committed to at the deal's start (SHA-256 of salt:deck)",
    "undealable": "the deck disclosed cannot be dealt as the deal was",
    "hand": "your hand is not the one the deck disclosed deals you",
    "undisclosed": "fair deal 2: the seed, its hash or the contributions were not disclosed",
    "malformed": "fair deal 2: the seed or a contribution is not 64 lowercase hex characters",
    "seed": "the seed disclosed is not the one the server committed to (SHA-256 of the seed)",
    "deck": "the deck is not the one the seed and the contributions make",
    "seed_hash_changed": "the seed's hash changed after seed_committed",
    "dealer_changed": "the dealer changed after seed_committed",
    "announced_changed": "a contribution announced with seed_committed changed",
    "mine_replaced": "the contribution used for your seat is not the one you sent",
    "mine_dropped": "your contribution was accepted and then left out",
}
"""Each problem ``check`` can find: its code and what it means, in English (``neveryu verify``;
the terminal client has its own words for each, client/ui/strings.py ``fair_problem.<code>``)."""


def new_contribution() -> str:
    """A seat's contribution to a shuffle: 32 fresh bytes from the operating system's
    cryptographic generator, as 64 lowercase hex characters (``contribute.contribution``)."""
    return secrets.token_hex(protocol.CONTRIBUTION_BYTES)


@attrs.frozen(kw_only=True)
class Disclosure:
    """What one client kept of one deal (all optional; the checks that lack their data are
    skipped, and ``check`` says ``unknown`` when even the commitment is missing).

    ``variant``, ``options``, ``players``, ``dealer``, ``kind`` (the deck kind): the deal, for
    dealing ``deck`` again. ``commitment``, ``salt``, ``deck``: the commitment of section 9.1 and
    its disclosure (``deck`` top first). ``fair``: ``deal_started.fair`` (2, or None for a server
    without fair deal 2); ``seed_hash``, ``contributions``: ``deal_started``'s (or ``state``'s);
    ``seed``: ``deal_ended.seed``. ``announced``: the ``seed_committed`` event of this deal, if
    one came. ``seeded``: the table summary's ``seeded``. ``seat`` and ``hand``: this client's
    seat and the hand ``deal_started`` dealt it (None: spectating, or joined mid-deal). ``mine``:
    the contribution this client sent, and ``mine_status`` what became of it: ``sent`` (no reply
    yet), ``taken`` (``ok``) or ``refused`` (an ``error``: too late).
    """

    deal_no: int | None = None
    variant: str | None = None
    options: dict[str, Any] = attrs.field(factory=dict)
    players: int | None = None
    dealer: int | None = None
    kind: str | None = None
    commitment: str | None = None
    salt: str | None = None
    deck: tuple[str, ...] | None = None
    fair: int | None = None
    seed_hash: str | None = None
    seed: str | None = None
    contributions: tuple[str | None, ...] | None = None
    announced: dict[str, Any] | None = None
    seeded: bool = False
    seat: int | None = None
    hand: tuple[str, ...] | None = None
    mine: str | None = None
    mine_status: str | None = None


def record_disclosure(doc: Mapping[str, Any]) -> Disclosure:
    """The disclosure a deal's record holds: a record in the hand-history format of
    docs/RECORDS.md (whole or a seat's view; ``get_record`` and ``neveryu export`` give it), or
    the same fields of one in the records' database (``variant``, ``options``, ``seats`` (one per
    seat), ``dealer``, ``deck``, ``deal_no``, ``seeded``, ``fair``: ``commitment`` and ``salt``,
    with fair deal 2 also ``fair``, ``seed_hash``, ``contributions``, ``seed``). It is checked as
    a spectator's would be (``checked``): a record does not say which contribution was whose
    own. Raises ValueError for a record without these fields, or of a deal that cannot be dealt."""
    try:
        fair = dict(doc["fair"])
        players = len(doc["seats"])
        variant, options = str(doc["variant"]), dict(doc.get("options") or {})
        kind = engine.variant(variant, **options).deck_for(players)
        contributions = fair.get("contributions")
        return Disclosure(
            deal_no=doc.get("deal_no"),
            variant=variant,
            options=options,
            players=players,
            dealer=doc["dealer"],
            kind=kind,
            commitment=fair.get("commitment"),
            salt=fair.get("salt"),
            deck=tuple(str(c) for c in doc["deck"]),
            fair=fair.get("fair"),
            seed_hash=fair.get("seed_hash"),
            seed=fair.get("seed"),
            contributions=None if contributions is None else tuple(contributions),
            seeded=bool(doc.get("seeded")),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a deal's record: {exc!r}") from None


@attrs.frozen
class Verdict:
    """``status``: one of ``STATUSES`` (the module's docstring says what each proves);
    ``problems``: the codes of what did not match (``PROBLEMS``), empty unless ``bad``."""

    status: str
    problems: tuple[str, ...] = ()

    @property
    def holds(self) -> bool | None:
        """True when nothing failed, False when something did, None when nothing was checked."""
        return None if self.status == "unknown" else self.status != "bad"


def check(d: Disclosure) -> Verdict:
    """Every check the disclosure allows (docs/PROTOCOL.md, section 9): the commitment
    ``SHA-256(salt:deck)``; for fair deal 2 also ``SHA-256(seed) = seed_hash``, the deck is
    ``fair_deck(seed, kind, contributions)`` (so a whole deck), what ``seed_committed`` announced
    (seed hash, dealer, the bots' contributions) did not change, this seat's own contribution is
    the one used, and its hand is the one that deck deals it."""
    if not d.commitment or d.salt is None or d.deck is None:
        return Verdict("unknown")
    deck = list(d.deck)
    problems: list[str] = []
    if hashlib.sha256((d.salt + ":" + ",".join(deck)).encode()).hexdigest() != d.commitment.lower():
        problems.append("commitment")
    if d.fair == protocol.FAIR_SCHEME:  # (a server of protocol 1.0 is checked as a client of it did)
        problems += _fair2_problems(d, deck)
        problems += _hand_problems(d, deck)
    if problems:
        return Verdict("bad", tuple(problems))
    if d.fair != protocol.FAIR_SCHEME:
        return Verdict("committed")
    if d.seeded:
        return Verdict("seeded")
    if d.seat is None:
        return Verdict("checked")
    contributions = d.contributions or ()
    used = contributions[d.seat] if d.seat < len(contributions) else None
    return Verdict("fair" if d.mine is not None and used == d.mine else "unprotected")


def _hand_problems(d: Disclosure, deck: list[str]) -> list[str]:
    """The hand ``deal_started`` gave this seat is the one the disclosed deck deals it."""
    if d.hand is None or d.seat is None or d.dealer is None or d.players is None or d.variant is None:
        return []
    try:
        rules = engine.variant(d.variant, **d.options)
        dealt = engine.deal_cards(rules, deck, d.players, d.dealer).hands[d.seat]
    except (ValueError, TypeError, KeyError, IndexError):
        return ["undealable"]
    if sorted(dealt) != sorted(d.hand):
        return ["hand"]
    return []


def _fair2_problems(d: Disclosure, deck: list[str]) -> list[str]:
    """Fair deal 2: the seed, the deck it makes with the contributions, what was announced
    before the contributions, and this seat's own contribution."""
    if d.seed is None or d.seed_hash is None or d.contributions is None or d.kind is None:
        return ["undisclosed"]
    problems = []
    try:
        seed = protocol.from_hex(d.seed)
        if protocol.seed_hash(seed) != d.seed_hash:
            problems.append("seed")
        if protocol.fair_deck_hex(d.seed, d.kind, d.contributions) != deck:
            problems.append("deck")
    except ValueError:
        problems.append("malformed")
    a = d.announced
    if a is not None:
        if a.get("seed_hash") != d.seed_hash:
            problems.append("seed_hash_changed")
        if a.get("dealer") is not None and a.get("dealer") != d.dealer:
            problems.append("dealer_changed")
        before: Sequence[str | None] = a.get("contributions") or ()
        if any(
            c is not None and (i >= len(d.contributions) or d.contributions[i] != c)
            for i, c in enumerate(before)
        ):
            problems.append("announced_changed")
    if d.seat is not None and d.mine is not None and d.seat < len(d.contributions):
        used = d.contributions[d.seat]
        if used is not None and used != d.mine and d.mine_status != "refused":
            problems.append("mine_replaced")  # (refused: the seat's may be one sent before a restart)
        elif used is None and d.mine_status == "taken":
            problems.append("mine_dropped")
    return problems
