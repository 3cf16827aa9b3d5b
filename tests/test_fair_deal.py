"""Fair deal 2 (docs/PROTOCOL.md, section 9.2, "how a deal's deck is made"): the deck is a
documented function of the server's committed seed and every player's contribution, so nobody, the
host included, chooses it.

- The shuffle: the test vectors of docs/PROTOCOL.md (9.4) against ``protocol.fair_deck`` and
  against the Python code printed in 9.3; its parts one by one.
- A seeded table's seed, deal seeds and first dealer: the vector of docs/PROTOCOL.md (9.6)
  against the formula as written there (SHA-256, HMAC, a Mersenne Twister written here from
  its reference) and against the server's code.
- The client's check (client/fairdeal.py through the terminal client's model) of one deal's
  disclosure, and ``neveryu verify`` of one.

The server (on MockClock and over TCP), test doubles of a cheating server, and ``neveryu verify``
of what a client received: tests/test_fair_deal_server.py.
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import itertools
import pathlib
import random
import re
from typing import Any

import pytest

from neveryu import engine, protocol
from neveryu.client import fairdeal
from neveryu.client.ui import model

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTOCOL_MD = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")


# -- the shuffle and its test vectors --------------------------------------------------------------


def doc_vectors() -> list[dict[str, Any]]:
    """The ```text vector N blocks of docs/PROTOCOL.md, 9.4: ``name = value`` lines, a value
    going on over the indented lines after it."""
    vectors = []
    for body in re.findall(r"```text vector \d+\n(.*?)```", PROTOCOL_MD, re.S):
        fields: dict[str, list[str]] = {}
        name = ""
        for line in body.splitlines():
            if "=" in line and not line.startswith(" "):
                name, _, value = (x.strip() for x in line.partition("="))
                fields[name] = value.split()
            else:
                fields[name] += line.split()
        vectors.append(
            {
                "seed": fields["seed"][0],
                "kind": fields["kind"][0],
                "contributions": [None if c == "-" else c for c in fields["contributions"]],
                "seed_hash": fields["seed_hash"][0],
                "key": fields["key"][0],
                "block0": fields["block 0"][0],
                "deck": fields["deck"],
            }
        )
    return vectors


VECTORS = doc_vectors()


def test_protocol_md_has_the_three_vectors():
    assert [(v["kind"], len(v["contributions"])) for v in VECTORS] == [("36", 3), ("52", 4), ("2x36", 5)]
    assert sum(c is None for v in VECTORS for c in v["contributions"]) == 6


@pytest.mark.parametrize("v", VECTORS, ids=[v["kind"] for v in VECTORS])
def test_vector(v):
    seed = bytes.fromhex(v["seed"])
    contributions = [None if c is None else bytes.fromhex(c) for c in v["contributions"]]
    assert protocol.seed_hash(seed) == v["seed_hash"]
    key = protocol.shuffle_key(seed, v["kind"], contributions)
    assert key.hex() == v["key"]
    first = b"".join(n.to_bytes(4, "big") for n in itertools.islice(protocol.byte_stream(key), 8))
    assert first.hex() == v["block0"]
    assert protocol.fair_deck(seed, v["kind"], contributions) == v["deck"]
    assert protocol.fair_deck_hex(v["seed"], v["kind"], v["contributions"]) == v["deck"]
    assert collections.Counter(v["deck"]) == collections.Counter(engine.new_deck(v["kind"]))


def test_the_python_code_printed_in_the_protocol_gives_the_vectors():
    section = PROTOCOL_MD.split("### 9.3")[1].split("### 9.4")[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    namespace: dict[str, Any] = {}
    exec(compile(code, "PROTOCOL.md 9.3", "exec"), namespace)
    for v in VECTORS:
        assert namespace["fair_deck"](v["seed"], v["kind"], v["contributions"]) == v["deck"]


def test_the_step_by_step_of_vector_1():
    """9.4's walk through vector 1: the message M, the limit, the first three draws."""
    v = VECTORS[0]
    m = b"neveryu fair deal 2\x0036\x00\x03" + b"\x20" + b"\x11" * 32 + b"\x00" + b"\x20" + b"\x22" * 32
    assert len(m) == 91 and m.hex().startswith("6e6576657279752066616972206465616c2032" + "00333600032011")
    import hmac

    assert hmac.new(bytes.fromhex(v["seed"]), m, hashlib.sha256).hexdigest() == v["key"]
    stream = protocol.byte_stream(bytes.fromhex(v["key"]))
    assert [protocol.uniform_below(stream, m) for m in (36, 35, 34)] == [33, 33, 24]
    assert 2**32 - 2**32 % 36 == 4_294_967_292 and int("fa3f0ef9", 16) == 4_198_436_601


def seeded_vector() -> dict[str, list[str]]:
    """The ```text vector seeded block of docs/PROTOCOL.md, 9.6, as ``name: words``."""
    (body,) = re.findall(r"```text vector seeded\n(.*?)```", PROTOCOL_MD, re.S)
    fields: dict[str, list[str]] = {}
    name = ""
    for line in body.splitlines():
        if "=" in line and not line.startswith(" "):
            name, _, value = (x.strip() for x in line.partition("="))
            fields[name] = value.split()
        else:
            fields[name] += line.split()
    return fields


SEEDED = seeded_vector()


class MT19937:
    """The Mersenne Twister of Matsumoto and Nishimura's reference code (mt19937ar.c):
    ``init_by_array`` and ``genrand_int32``, as docs/PROTOCOL.md 9.6 names them."""

    def __init__(self, key: list[int]) -> None:
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i, j = i + 1, (j + 1) % len(key)
            if i >= 624:
                mt[0], i = mt[623], 1
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, 624

    def genrand_uint32(self) -> int:
        mt = self.mt
        if self.index >= 624:
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)


def first_dealer_as_documented(table_seed: int, seats: int) -> int:
    words = [table_seed & 0xFFFFFFFF, table_seed >> 32] if table_seed >= 2**32 else [table_seed]
    mt, k = MT19937(words), seats.bit_length()
    while (u := mt.genrand_uint32() >> (32 - k)) >= seats:
        pass
    return u


def test_the_seeded_tables_vector_follows_the_formula_written_in_9_6():
    seed, table_id = int(SEEDED["seed"][0]), int(SEEDED["table id"][0])
    digest = hashlib.sha256(f"neveryu table {seed} {table_id}".encode()).digest()
    t = int.from_bytes(digest[:8], "big") % 2**63
    assert SEEDED["T"] == [str(t), f"({t:#x})"]
    deal_seed = hmac.new(t.to_bytes(8, "big"), b"neveryu seeded deal" + (1).to_bytes(4, "big"), "sha256")
    assert SEEDED["deal 1 seed"] == [deal_seed.hexdigest()]
    assert SEEDED["seed_hash"] == [hashlib.sha256(deal_seed.digest()).hexdigest()]
    assert SEEDED["first dealer"] == [str(first_dealer_as_documented(t, 3)), "(of", "3", "seats)"]
    assert SEEDED["deck (36)"] == protocol.fair_deck(deal_seed.digest(), "36", [None] * 3)


def test_the_server_makes_the_seeded_tables_seeds_as_9_6_says():
    from neveryu.server._settings import table_seed

    t = table_seed(int(SEEDED["seed"][0]), int(SEEDED["table id"][0]))
    assert SEEDED["T"][0] == str(t)
    assert SEEDED["deal 1 seed"] == [protocol.seeded_deal_seed(t, 1).hex()]
    for big in (t, 1, 0, 2**32 - 1, 2**32, 2**63 - 1):
        for seats in (2, 3, 4, 5, 7, 12):
            assert random.Random(big).randrange(seats) == first_dealer_as_documented(big, seats)


def test_9_7_lists_every_field_of_a_disclosure_and_no_other():
    import attrs

    section = PROTOCOL_MD[PROTOCOL_MD.index("### 9.7") : PROTOCOL_MD.index("## 10.")]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("  | `")]
    documented = {name for cell in rows for name in re.findall(r"`(\w+)`", cell)}
    assert documented == {a.name for a in attrs.fields(fairdeal.Disclosure)}


@pytest.mark.parametrize("kind", engine.DECK_KINDS)
def test_deck_orders_are_the_engines_and_the_documented_ones(kind):
    assert protocol.deck_order(kind) == engine.new_deck(kind)
    shown = PROTOCOL_MD.split("### 9.3")[1].split("2. **Key.**")[0]
    if kind in ("36", "52"):
        start = " ".join(protocol.deck_order(kind)[:5])
        assert f"`{start}" in shown and "KC AS AH AD AC`" in shown


def test_draws_above_the_last_whole_multiple_are_rejected():
    """9.3 step 4: for m = 3 the limit is 2^32 - 1, so 2^32 - 1 is dropped and 5 gives 5 % 3."""
    stream = iter([2**32 - 1, 2**32 - 1, 5, 7])
    assert protocol.uniform_below(stream, 3) == 2
    assert next(stream) == 7
    assert protocol.uniform_below(iter([2**32 - 1]), 2**32) == 2**32 - 1  # no rejection for m = 2^32


def test_the_shuffle_draws_every_order_of_three_cards_alike():
    """The Fisher–Yates with rejection is uniform: 6,000 seeds give each of the 6 orders of three
    cards between 900 and 1,100 times (exact for these seeds)."""
    counts: collections.Counter[tuple[str, ...]] = collections.Counter()
    for n in range(6000):
        key = hashlib.sha256(n.to_bytes(4, "big")).digest()
        counts[tuple(protocol.shuffled(["A", "B", "C"], key))] += 1
    assert len(counts) == 6 and all(900 <= c <= 1100 for c in counts.values()), counts


def test_every_contribution_and_its_seat_count():
    seed, a, b = bytes(32), b"\x01" * 32, b"\x02" * 32
    deck = protocol.fair_deck(seed, "36", [a, b])
    assert protocol.fair_deck(seed, "36", [b, a]) != deck  # bound to its seat
    assert protocol.fair_deck(seed, "36", [a, None]) != protocol.fair_deck(seed, "36", [a, bytes(32)])
    assert protocol.fair_deck(seed, "36", [a, b, None]) != deck  # the seat count is in the key
    assert protocol.fair_deck(seed, "52", [a, b])[:3] != deck[:3]


def test_malformed_seeds_and_contributions_are_refused():
    with pytest.raises(ValueError, match="64 lowercase hex"):
        protocol.from_hex("AB" * 32)  # the protocol writes hex in lower case
    with pytest.raises(ValueError, match="64 lowercase hex"):
        protocol.from_hex("ab" * 31)
    with pytest.raises(ValueError, match="a seed is 32 bytes"):
        protocol.shuffle_key(bytes(31), "36", [None, None])
    with pytest.raises(ValueError, match="a contribution is 32 bytes"):
        protocol.shuffle_key(bytes(32), "36", [b"\x01" * 16, None])
    with pytest.raises(ValueError, match="unknown deck"):
        protocol.shuffle_key(bytes(32), "40", [None, None])
    with pytest.raises(ValueError, match="table seed"):
        protocol.seeded_deal_seed(2**63, 1)


def test_the_engine_deals_a_given_order_and_refuses_one_that_is_no_deck():
    rules = engine.variant("verish")
    order = protocol.fair_deck(bytes(32), "36", [None, None, None])
    deal = engine.Deal.new(rules, 3, 0, rng=None, order=order)  # type: ignore[arg-type]
    assert deal.deck_order == tuple(order) and deal.hidden == [order[0]]
    with pytest.raises(ValueError, match="not a whole 36 deck"):
        engine.Deal.new(rules, 3, 0, rng=None, order=order[:-1] + ["6S"])  # type: ignore[arg-type]


# -- the client's check ---------------------------------------------------------------------------


def test_the_hand_is_checked_against_the_deck_the_seed_makes():
    seed = bytes(range(32))
    contributions = [b"\x11" * 32, None, b"\x22" * 32]
    deck = protocol.fair_deck(seed, "36", contributions)
    rules = engine.variant("verish")
    hand = engine.deal_cards(rules, deck, 3, 2).hands[0]
    salt = "ab" * 32
    d = fairdeal.Disclosure(
        variant="verish",
        players=3,
        dealer=2,
        kind="36",
        commitment=hashlib.sha256((salt + ":" + ",".join(deck)).encode()).hexdigest(),
        salt=salt,
        deck=tuple(deck),
        fair=2,
        seed_hash=protocol.seed_hash(seed),
        seed=seed.hex(),
        contributions=tuple(None if c is None else c.hex() for c in contributions),
        seat=0,
        hand=tuple(sorted(hand)),
        mine=contributions[0].hex(),  # type: ignore[union-attr]
    )
    assert fairdeal.check(d) == fairdeal.Verdict("fair")
    other = engine.deal_cards(rules, deck, 3, 2).hands[1]
    import attrs

    assert fairdeal.check(attrs.evolve(d, hand=tuple(other))).problems == ("hand",)
    assert fairdeal.check(attrs.evolve(d, dealer=0, announced={"dealer": 1})).problems[-2:] == (
        "dealer_changed",
        "hand",
    )
    assert fairdeal.check(attrs.evolve(d, seat=None, hand=None)).status == "checked"
    assert fairdeal.check(attrs.evolve(d, mine=None)).status == "unprotected"
    other_mine = attrs.evolve(d, mine="ff" * 32, mine_status="taken")
    assert fairdeal.check(other_mine).problems == ("mine_replaced",)
    # refused (too late, or a second one after a restart): the seat's contribution may be the
    # first one it sent; it proves nothing, and is no fault of the server's
    assert fairdeal.check(attrs.evolve(other_mine, mine_status="refused")).status == "unprotected"
    assert fairdeal.check(attrs.evolve(d, fair=None)).status == "committed"
    assert fairdeal.check(attrs.evolve(d, salt=None)).status == "unknown"


def test_a_replayed_seed_committed_keeps_the_first_contribution():
    committed = {
        "t": "seed_committed",
        "seq": 1,
        "ts": 0,
        "deal_no": 1,
        "seed_hash": "ab" * 32,
        "dealer": 0,
        "deck": "36",
        "contributions": [None, None],
        "time_ms": 1000,
    }
    first = {"t": "_contribution", "status": "sent", "deal_no": 1, "contribution": "01" * 32}
    second = {**first, "contribution": "02" * 32}
    state = model.reduce_all(
        [committed, first, committed, second, {"t": "_contribution", "status": "refused"}]
    )
    assert state.next_fair["mine"] == "01" * 32 and state.next_fair["mine_status"] == "refused"


# -- neveryu verify -------------------------------------------------------------------------------


def test_neveryu_verify_checks_one_deals_disclosure(tmp_path, capsys):
    import json

    from neveryu.client import cli

    v = VECTORS[1]
    salt = "cd" * 32
    disclosure = {
        "deal_no": 4,
        "variant": "hoyle",
        "players": 4,
        "dealer": 3,
        "kind": "52",
        "commitment": hashlib.sha256((salt + ":" + ",".join(v["deck"])).encode()).hexdigest(),
        "salt": salt,
        "deck": v["deck"],
        "fair": 2,
        "seed_hash": v["seed_hash"],
        "seed": v["seed"],
        "contributions": v["contributions"],
    }
    record = tmp_path / "deal.json"
    record.write_text(json.dumps(disclosure))
    assert cli.main(["verify", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"deal_no": 4, "status": "checked", "problems": []}
    record.write_text(json.dumps({**disclosure, "seed": VECTORS[0]["seed"]}))
    assert cli.main(["verify", str(record)]) == 1
    assert capsys.readouterr().out == (
        "deal 4: FAILED: the seed disclosed is not the one the server committed to (SHA-256 of the seed);"
        " the deck is not the one the seed and the contributions make\n"
    )
    record.write_text(json.dumps({**disclosure, "colour": "red"}))
    assert cli.main(["verify", str(record)]) == 2
    assert "unknown field(s) of a deal's disclosure: colour" in capsys.readouterr().err
    assert cli.main(["verify", "12345"]) == 2
    assert "neveryu verify: there is no records database at " in capsys.readouterr().err  # the default
