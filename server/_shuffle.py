"""Fair deal 2 at a table (docs/PROTOCOL.md, section 9): the shuffle of one deal, from the
moment the server commits to its seed until the cards are dealt.

The server draws a secret seed (32 bytes from ``secrets``) and sends its SHA-256 and the dealer
(``seed_committed``) before anybody contributes, so neither can change afterwards; the server's
bot seats' contributions are drawn at the same moment and sent with it, so the server cannot
pick them once it has seen the players'. Each connected player's client then sends 32 random
bytes (``contribute``); the deck is ``protocol.fair_deck(seed, kind, contributions)`` once all
have come or the window closed. The seed reaches no client before ``deal_ended``.

A seeded table derives each deal's seed from its own (``protocol.seeded_deal_seed``) and asks
for no contributions: its deals are reproducible, and whoever knows the table's seed knows them.
"""

from __future__ import annotations

import secrets
from typing import Any

from neveryu import protocol

from ._settings import TableError


class Shuffle:
    """The shuffle of deal ``deal_no`` (of a ``kind`` deck at ``players`` seats), dealt by
    ``dealer``. ``seed``: the server's 32-byte seed. ``bots``: the seats whose contributions the
    server draws now (its bot seats). ``awaited``: the seats whose clients are asked for one
    (connected players). A seeded shuffle (``awaited`` and ``bots`` empty) is complete at once."""

    def __init__(
        self,
        deal_no: int,
        kind: str,
        players: int,
        dealer: int,
        seed: bytes,
        *,
        bots: frozenset[int] = frozenset(),
        awaited: frozenset[int] = frozenset(),
    ) -> None:
        self.deal_no = deal_no
        self.kind = kind
        self.dealer = dealer
        self.seed = seed
        self.seed_hash = protocol.seed_hash(seed)
        self.contributions: list[bytes | None] = [
            secrets.token_bytes(protocol.CONTRIBUTION_BYTES) if seat in bots else None
            for seat in range(players)
        ]
        self.awaited = set(awaited)
        self.dealt = False

    @classmethod
    def draw(
        cls,
        deal_no: int,
        kind: str,
        players: int,
        dealer: int,
        *,
        bots: frozenset[int],
        awaited: frozenset[int],
    ) -> Shuffle:
        """A fresh shuffle with a seed from ``secrets``."""
        seed = secrets.token_bytes(protocol.SEED_BYTES)
        return cls(deal_no, kind, players, dealer, seed, bots=bots, awaited=awaited)

    @classmethod
    def seeded(cls, table_seed: int, deal_no: int, kind: str, players: int, dealer: int) -> Shuffle:
        """A seeded table's shuffle: the seed from ``table_seed`` and ``deal_no``, no contribution."""
        return cls(deal_no, kind, players, dealer, protocol.seeded_deal_seed(table_seed, deal_no))

    @classmethod
    def restored(
        cls,
        deal_no: int,
        kind: str,
        players: int,
        dealer: int,
        seed: bytes,
        contributions: list[bytes | None],
    ) -> Shuffle:
        """The shuffle of a deal restored from the journal (``_restore``), dealt already: its
        ``seed`` and the ``contributions`` it took (one a seat, None: none), to disclose when the
        deal ends. Raises ValueError for contributions that are not one a seat."""
        if len(contributions) != players:
            raise ValueError(f"{len(contributions)} contributions for {players} seats")
        shuffle = cls(deal_no, kind, players, dealer, seed)
        shuffle.contributions = list(contributions)
        shuffle.dealt = True
        return shuffle

    @property
    def complete(self) -> bool:
        """Every awaited seat has contributed (or the shuffle has been dealt)."""
        return self.dealt or not self.awaited

    def contribute(self, seat: int, deal_no: int, contribution: str) -> None:
        """Seat ``seat``'s contribution (64 lowercase hex characters) to deal ``deal_no``. Raises
        TableError(BAD_STATE) when it is not taken: another deal, the deal already dealt, a bot's
        seat, or a second contribution."""
        if deal_no != self.deal_no or self.dealt:
            raise TableError("BAD_STATE", f"contributions to deal {deal_no} are closed")
        if self.contributions[seat] is not None:
            raise TableError("BAD_STATE", f"seat {seat + 1} has contributed to deal {deal_no} already")
        self.contributions[seat] = protocol.from_hex(contribution, protocol.CONTRIBUTION_BYTES)
        self.awaited.discard(seat)

    def stop_awaiting(self, seat: int) -> None:
        """Seat ``seat``'s connection dropped: its contribution is no longer waited for (it is
        still taken if it comes before the cards are dealt: docs/PROTOCOL.md, 9.2)."""
        self.awaited.discard(seat)

    def deck(self) -> list[str]:
        """The deck, top first (``protocol.fair_deck``); no contribution is taken after this."""
        self.dealt = True
        return protocol.fair_deck(self.seed, self.kind, self.contributions)

    def hex_contributions(self) -> list[str | None]:
        """The contributions as the wire carries them, in seat order (None: none)."""
        return [None if c is None else c.hex() for c in self.contributions]

    def commit_message(self, time_ms: int) -> dict[str, Any]:
        """The ``seed_committed`` event's wire map."""
        return protocol.SeedCommitted.wire_map(
            deal_no=self.deal_no,
            seed_hash=self.seed_hash,
            dealer=self.dealer,
            deck=self.kind,
            contributions=self.hex_contributions(),
            time_ms=time_ms,
        )

    def started_fields(self) -> dict[str, Any]:
        """The fields fair deal 2 adds to ``deal_started`` and ``state``."""
        return {
            "fair": protocol.FAIR_SCHEME,
            "seed_hash": self.seed_hash,
            "contributions": self.hex_contributions(),
        }
