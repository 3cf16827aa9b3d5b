"""Fair deal 2 (docs/PROTOCOL.md, section 9): the deck as a function of the server's secret seed
and every seated player's contribution, so that nobody, the host included, chooses it.

Standard library only, so that a client in any language can do the same from the documentation:

1. The server draws a **seed** of 32 random bytes for each deal and sends its commitment,
   ``seed_hash(seed)``: the lowercase hex SHA-256 of the 32 bytes.
2. Each seat contributes 32 random bytes, or nothing (``None``).
3. The **shuffle key** is ``HMAC-SHA-256(key=seed, msg=M)`` where ``M`` is, byte by byte:
   the 19 ASCII bytes ``neveryu fair deal 2``, a 0 byte, the deck kind in ASCII (``36``, ``52``,
   ``2x36``, ``2x52``), a 0 byte, one byte holding the number of seats, then for each seat in
   seat order (0 first) one byte holding its contribution's length (32, or 0 for none) followed by
   the contribution's bytes.
4. The **byte stream** is ``B0 || B1 || B2 || ...`` with ``Bk = HMAC-SHA-256(key=shuffle key,
   msg=k as 4 bytes big-endian)``; it is read 4 bytes at a time as unsigned big-endian integers.
5. The deck starts in the kind's **order** (``deck_order``: ranks from the lowest of the kind up,
   within a rank the suits ``S H D C``; a double deck is that order twice) and is shuffled by
   Fisher–Yates from the end: for ``i`` from ``n-1`` down to 1, draw ``j`` uniformly in ``0..i``
   and swap cards ``i`` and ``j``. To draw ``j`` with ``m = i + 1``: read the next integer ``u``
   from the stream; while ``u >= 2**32 - (2**32 % m)`` read another (rejection sampling: no
   modulo bias); then ``j = u % m``.
6. The result is the deck in dealing order, top (index 0) first.

A seeded table (``create_table.seed``) derives each deal's seed instead (``seeded_deal_seed``)
and asks for no contributions, so its deals are reproducible; whoever knows the table's seed can
compute every deck in advance.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

FAIR_SCHEME = 2
"""The value of ``deal_started.fair`` for a deal shuffled this way (a server that sends no
``fair`` uses only the commitment of section 9.1, scheme 1)."""

SEED_BYTES = 32
"""Length of the server's seed and of a contribution (bytes); both travel as lowercase hex."""

CONTRIBUTION_BYTES = 32

DOMAIN = b"neveryu fair deal 2"
"""The first bytes of the message the shuffle key is made from (step 3)."""

SEEDED_DOMAIN = b"neveryu seeded deal"
"""The first bytes of the message a seeded table's deal seed is made from."""

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK_KINDS = ("36", "52", "2x36", "2x52")

_LIMIT = 2**32


def deck_order(kind: str) -> list[str]:
    """The unshuffled deck of ``kind`` (one of ``DECK_KINDS``) as card strings: for each rank from
    the lowest of the kind (6 for ``36`` decks, 2 for ``52``) up to the ace, the suits ``S H D C``;
    a ``2x`` deck is that order twice. 36, 52, 72 or 104 cards; the same order as the engine's
    ``new_deck``. Raises ValueError for an unknown kind."""
    if kind not in DECK_KINDS:
        raise ValueError(f"unknown deck {kind!r}; expected one of {', '.join(DECK_KINDS)}")
    ranks = RANKS[4:] if kind.endswith("36") else RANKS
    one = [r + s for r in ranks for s in SUITS]
    return one * (2 if kind.startswith("2x") else 1)


def seed_hash(seed: bytes) -> str:
    """The commitment to a seed: lowercase hex SHA-256 of its bytes (64 characters)."""
    return hashlib.sha256(seed).hexdigest()


def from_hex(text: str, size: int = SEED_BYTES) -> bytes:
    """The bytes of a lowercase hex string of exactly ``2 * size`` characters. Raises ValueError
    for anything else (upper case too: the protocol writes hex in lower case)."""
    if len(text) != 2 * size or text != text.lower():
        raise ValueError(f"expected {2 * size} lowercase hex characters, got {text[:80]!r}")
    return bytes.fromhex(text)


def shuffle_key(seed: bytes, kind: str, contributions: Sequence[bytes | None]) -> bytes:
    """Step 3: ``HMAC-SHA-256(key=seed, msg=M)``, 32 bytes; ``contributions`` holds one entry per
    seat in seat order (None: that seat contributed nothing). Raises ValueError for a seed or a
    contribution that is not 32 bytes, an unknown kind, or no seat or more than 255."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
    deck_order(kind)
    if not 1 <= len(contributions) <= 255:
        raise ValueError(f"expected 1..255 seats, got {len(contributions)}")
    msg = bytearray(DOMAIN + b"\x00" + kind.encode("ascii") + b"\x00" + bytes([len(contributions)]))
    for c in contributions:
        c = c or b""
        if len(c) not in (0, CONTRIBUTION_BYTES):
            raise ValueError(f"a contribution is {CONTRIBUTION_BYTES} bytes, not {len(c)}")
        msg += bytes([len(c)]) + c
    return hmac.new(seed, bytes(msg), hashlib.sha256).digest()


def byte_stream(key: bytes) -> Iterator[int]:
    """Step 4: the unsigned 32-bit big-endian integers of ``B0 || B1 || ...``, 8 per block,
    ``Bk = HMAC-SHA-256(key, k as 4 bytes big-endian)``. Endless (a deck never needs 2**32
    blocks)."""
    k = 0
    while True:
        block = hmac.new(key, k.to_bytes(4, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def uniform_below(stream: Iterator[int], m: int) -> int:
    """Step 5's draw: an integer uniform in ``0..m-1`` (``1 <= m <= 2**32``) from ``stream``,
    rejecting every ``u >= 2**32 - (2**32 % m)``."""
    limit = _LIMIT - _LIMIT % m
    while True:
        u = next(stream)
        if u < limit:
            return u % m


def shuffled(cards: Sequence[str], key: bytes) -> list[str]:
    """Step 5: ``cards`` shuffled by Fisher–Yates from the end, driven by ``byte_stream(key)``."""
    deck = list(cards)
    stream = byte_stream(key)
    for i in range(len(deck) - 1, 0, -1):
        j = uniform_below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def fair_deck(seed: bytes, kind: str, contributions: Sequence[bytes | None]) -> list[str]:
    """The deck of a fair deal 2 in dealing order, top first: ``deck_order(kind)`` shuffled with
    ``shuffle_key(seed, kind, contributions)`` (steps 3-6). Raises ValueError as
    ``shuffle_key`` does."""
    return shuffled(deck_order(kind), shuffle_key(seed, kind, contributions))


def fair_deck_hex(seed: str, kind: str, contributions: Sequence[str | None]) -> list[str]:
    """``fair_deck`` from the wire's forms: the seed and the contributions as 64 lowercase hex
    characters (None: no contribution). Raises ValueError for malformed hex."""
    return fair_deck(from_hex(seed), kind, [None if c is None else from_hex(c) for c in contributions])


def seeded_deal_seed(table_seed: int, deal_no: int) -> bytes:
    """A seeded table's seed for deal ``deal_no`` of a match (from 1): ``HMAC-SHA-256(key=the
    table's seed as 8 bytes big-endian, msg="neveryu seeded deal" || deal_no as 4 bytes
    big-endian)``. ``table_seed`` in ``0..2**63-1`` (``create_table.seed``); ValueError outside."""
    if not 0 <= table_seed < 2**63 or not 0 <= deal_no < 2**32:
        raise ValueError(f"a table seed is 0..2**63-1 and a deal number 0..2**32-1: {table_seed}, {deal_no}")
    return hmac.new(
        table_seed.to_bytes(8, "big"), SEEDED_DOMAIN + deal_no.to_bytes(4, "big"), hashlib.sha256
    ).digest()
