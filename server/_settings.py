"""A table's settings, fixed when it is made (``create_table``), and the table's refusals."""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import TYPE_CHECKING, Any

import attrs

from neveryu import engine, protocol

from ._bots import default_strength, new_bot
from ._password import Digest

if TYPE_CHECKING:
    from ._config import TableDefaults


def table_seed(seed: int, table_id: int) -> int:
    """The seed of table ``table_id``'s shuffles and bots (0..2**63-1), from a fixed ``seed``:
    the first 8 bytes (big-endian) of SHA-256 of the UTF-8 ``"neveryu table {seed} {table_id}"``,
    the top bit cleared. Two tables with the same seed, or every table of a server started with
    ``--seed``, deal decks of their own: one table's disclosed decks tell nothing of another's."""
    digest = hashlib.sha256(f"neveryu table {seed} {table_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


def match_rng(seed: int | None) -> random.Random:
    """The random source of a match at a table seeded ``seed`` (None: from ``secrets``)."""
    return random.Random(seed if seed is not None else secrets.randbits(128))


class TableError(Exception):
    """A request the table refuses: ``code`` is the protocol's error code."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(msg)
        self.code = code
        self.msg = msg


@attrs.frozen(kw_only=True)
class TableSettings:
    """One table's settings, fixed when it is made (``create_table``). Times in ms; ``turn_ms``
    0 means untimed. ``seed`` None seeds every deal from ``secrets`` and asks the players for
    contributions to its shuffle for ``contribute_ms`` (fair deal 2, ``_shuffle``); a fixed one
    (chosen by ``seed_from``: the table's maker, or the server) makes the table's deals
    reproducible, each table's its own (``table_seed``). ``reveal_after_deal``: the players may
    fetch each ended deal's whole record, every hand (docs/RECORDS.md), not only what they saw."""

    variant: str
    options: dict[str, Any]
    seats: int
    bots: tuple[str, ...] = ()
    turn_ms: int = 60_000
    challenge_window_ms: int = 1_500
    tie_window_ms: int = 250
    quads_window_ms: int = 10_000
    bot_delay_ms: int = 800
    deal_pause_ms: int = 4_000
    contribute_ms: int = 1_000
    deals: int = 5
    grace_ms: int = 30_000
    close_ms: int = 60_000
    password: str | Digest | None = None  # a Digest: a table restored from the journal
    seed: int | None = None
    seed_from: str | None = None  # who chose ``seed``: "table" (its create_table) or "server"
    max_chat: int = 500
    reveal_after_deal: bool = False

    @classmethod
    def from_request(
        cls, req: protocol.CreateTable, defaults: TableDefaults, seed: int | None, max_chat: int
    ) -> TableSettings:
        """The settings a ``create_table`` request asks for, with ``defaults`` for what it leaves
        out. Raises TableError(BAD_OPTION) for a variant, option, seat count or bot strength the
        rules do not allow."""
        variant = req.variant or defaults.variant
        options = dict(req.options or {})
        seats = req.seats if req.seats is not None else defaults.seats
        bots = tuple(strength or default_strength() for strength in req.bots or ())
        try:
            rules = engine.variant(variant, **options)
            rules.deck_for(seats)
            for strength in bots:
                new_bot(strength, 0, rules, seats)
        except (ValueError, TypeError) as exc:
            raise TableError("BAD_OPTION", str(exc)) from None
        if len(bots) >= seats:
            raise TableError("BAD_OPTION", f"{len(bots)} bots leave no seat of {seats} for a player")

        def ms(name: str) -> int:
            value = getattr(req, name)
            return getattr(defaults, name) if value is None else value  # type: ignore[no-any-return]

        return cls(
            variant=variant,
            options=options,
            seats=seats,
            bots=bots,
            turn_ms=ms("turn_ms"),
            challenge_window_ms=ms("challenge_window_ms"),
            tie_window_ms=ms("tie_window_ms"),
            quads_window_ms=ms("quads_window_ms"),
            bot_delay_ms=defaults.bot_delay_ms,
            deal_pause_ms=defaults.deal_pause_ms,
            contribute_ms=defaults.contribute_ms,
            deals=req.deals or defaults.deals,
            grace_ms=defaults.grace_ms,
            close_ms=defaults.close_ms,
            password=req.password or None,
            seed=req.seed if req.seed is not None else seed,
            seed_from="table" if req.seed is not None else "server" if seed is not None else None,
            max_chat=max_chat,
            reveal_after_deal=_given(getattr(req, "reveal_after_deal", None), defaults.reveal_after_deal),
        )


def _given(value: bool | None, default: bool) -> bool:
    return default if value is None else value
