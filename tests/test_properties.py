"""Property tests of the rules engine (what holds whatever is played): many seeded deals of all
seven variants at their fewest, four and most seats (and the double decks the variants allow), and
after every action of every deal:

- the card invariant (docs/RULES.md: hands + pile + discard + hidden + set-aside + stock = the deck);
- no seat's view, and no event projected for it (nor a spectator's), holds a card it may not
  see, nor (where ``hand_counts_public`` is false) an exact hand or pile size; a taken pile's
  cards reach the taker sorted as a hand is (their order says nothing about where they lay);
  the cards of a discarded quad reach its owner only. The first deal of each case checks the
  msgpack bytes of every copy too (the server's wire form, server/_wire.py), the others the
  objects;
- while a deal goes on, the seat to act has a legal action (or the referee has one: a held set
  waits for ``close_window``), and every action built from ``legal_actions(seat)`` is accepted
  (the quads right of `verish` used, declined, or let lapse);
- an illegal action raises a RuleViolation, agrees with ``check``, and changes no state;
- each reveal's truth, taker and next leader, and the deal's result, are those docs/RULES.md gives;
- deals played by a simple bot end within ``ACTION_CAP`` actions.

Pure Python and derandomized: every deal is seeded by its case and number (``deal_seed``), the
same deals on every run, and a failure names the seed that reproduces it. The variants'
parameters, dealing and dealers, and malformed actions: tests/test_engine_variants.py.
"""

from __future__ import annotations

import pickle
import random
import re
from collections import Counter

import attrs
import msgpack
import pytest
from server_checks import TABLE_OWN

from neveryu import engine
from neveryu.engine import (
    Believe,
    Challenge,
    Challenges,
    CloseWindow,
    Deal,
    DeclareNone,
    DeclineQuads,
    DiscardQuads,
    LaySet,
    RuleViolation,
    Timeout,
    project,
)
from neveryu.server import _wire

ACTION_CAP = 5000
"""A deal played by ``simple_action`` ends within this many applied actions (referee actions
included); docs/RULES.md's variants all end: cards leave the game only by going out or discards."""


Options = tuple[tuple[str, object], ...]


def sweep_cases() -> list[tuple[str, int, Options]]:
    """(variant, seats, table options): every variant at its fewest, four and most seats, the
    double decks (and the one-deck choices) the variants allow, and `hoyle`'s options."""
    cases: list[tuple[str, int, Options]] = []
    for name, rules in engine.VARIANTS.items():
        lo, hi = rules.players
        cases += [(name, n, ()) for n in sorted({lo, max(lo, min(4, hi)), hi})]
    return cases + [
        ("hoyle", 5, (("deck", "2x52"),)),
        ("veryu", 3, (("deck", "2x36"),)),
        ("veryu", 10, (("deck", "2x52"),)),
        ("lozh", 4, (("deck", "52"),)),
        ("hoyle-three", 5, (("deck", "2x52"), ("declare_none", True))),
        ("hoyle", 4, (("declare_none", True), ("scoring", "chips_per_card"), ("packet_size", 2))),
        ("cheat", 7, ()),  # 2x52: sets of 1-4 all the same
    ]


CASES = sweep_cases()
CASE_IDS = [f"{n}-{p}" + "".join(f"-{v}" for _, v in o) for n, p, o in CASES]

DEALS_PER_CASE = 40
"""Seeded deals per case: half random play (every kind of action, illegal ones mixed in, up to
``RANDOM_BUDGET`` actions), half a simple bot to the deal's end."""


def deal_seed(name: str, players: int, options: Options, number: int) -> str:
    """The seed of deal ``number`` of a case (``random.Random`` hashes a string the same way on
    every run and machine)."""
    return f"{name}/{players}/{dict(options)}/{number}"


# -- the bots --------------------------------------------------------------------------------------


def lay_from(deal: Deal, seat: int, rng: random.Random, truthful: float) -> LaySet:
    """A legal set built from ``deal.legal_actions(seat).lay``: truthful with probability ``truthful``
    where the hand allows it."""
    bounds = deal.legal_actions(seat).lay
    hand = list(deal.hands[seat])
    rank = rng.choice(bounds.ranks)
    n = rng.randint(bounds.min, bounds.max)
    own = [c for c in hand if c[0] == rank]
    if not own:
        mine = [r for r in bounds.ranks if any(c[0] == r for c in hand)]
        if mine and rng.random() < truthful:
            rank = rng.choice(mine)
            own = [c for c in hand if c[0] == rank]
    if own and rng.random() < truthful:
        n = max(bounds.min, min(bounds.max, len(own)))
        cards = own[:n]
        cards += [c for c in hand if c[0] != rank][: n - len(cards)]
    else:
        cards = rng.sample(hand, n)
    count = None
    if bounds.count_min is not None:
        count = rng.randint(bounds.count_min, bounds.count_max) if rng.random() < 0.2 else n
        count = min(max(count, bounds.count_min), bounds.count_max)
    return LaySet(seat, tuple(cards), rank if len(bounds.ranks) > 1 or rng.random() < 0.5 else None, count)


def impossible(deal: Deal, seat: int) -> bool:
    """Whether ``seat``'s own hand proves the last claim false (more of the rank than the deck
    holds)."""
    last = deal.last
    if last is None or last.seat == seat or last.none:
        return False
    per_rank = 8 if deal.deck.startswith("2x") else 4
    return sum(c[0] == last.rank for c in deal.hands[seat]) + last.count > per_rank


def random_action(deal: Deal, rng: random.Random):
    """Random legal play for every seat and the referee, built from ``legal`` and the own hand:
    every kind of action (early sets that are held, premature challenges, groups of simultaneous
    challenges, believe, declare none, quads) with sets of random sizes, some truthful. Returns
    an action that must be accepted."""
    turn = deal.turn
    if deal.window_open:
        last = deal.last
        r = rng.random()
        callers = [s for s in deal.active if deal.legal_actions(s).challenge is not None]
        sure = [s for s in callers if impossible(deal, s)]
        if sure:
            return Challenge(rng.choice(sure), last.set_no)
        if callers and r < 0.06:
            return Challenge(rng.choice(callers), last.set_no)
        if len(callers) >= 2 and r < 0.09:
            return Challenges(tuple(rng.sample(callers, rng.randint(2, min(3, len(callers))))), last.set_no)
        if r < 0.12:
            seat = rng.choice(deal.active)
            if (seat, deal.set_no + 1) not in deal.barred:
                return Challenge(seat, deal.set_no + 1)  # premature: void, bars the seat
        if deal.held is None and deal.legal_actions(turn).lay is not None and r < 0.6:
            return lay_from(deal, turn, rng, 0.7)
        return CloseWindow(last.set_no)
    if deal.quads_offer is not None:  # `verish`: the taker's right, until the next set
        seat = deal.quads_offer
        r = rng.random()
        if deal.legal_actions(seat).discard_quads and r < 0.5:
            return DiscardQuads(seat, deal.legal_actions(seat).discard_quads[:1])
        if r < 0.7:
            return DeclineQuads(seat)  # else the next set ends the right
    legal = deal.legal_actions(turn)
    if legal.discard_quads and rng.random() < 0.7:
        return DiscardQuads(turn, legal.discard_quads)
    if rng.random() < 0.03:  # the turn time runs out: a random turn action is made for it
        return Timeout(turn, engine.random_turn_action(deal.view(turn), rng))
    r = rng.random()
    if legal.challenge is not None and (legal.lay is None or r < 0.15 or impossible(deal, turn)):
        if legal.believe is not None and rng.random() < 0.4:
            return Believe(turn, legal.believe)
        return Challenge(turn, legal.challenge)
    if legal.declare_none is not None and r < 0.3:
        return DeclareNone(turn)
    if legal.lay is not None:
        return lay_from(deal, turn, rng, 0.7)
    raise AssertionError(f"seat {turn} has no legal action: {legal}")


def simple_action(deal: Deal, rng: random.Random):
    """The simple bot of the action cap: tells the truth whenever it holds a rank it may claim
    (as many cards as allowed), else bluffs with the fewest cards; discards every quad; challenges
    half the times its own hand proves the claim false, and otherwise rarely; the referee closes
    each window unless a sure challenge comes."""
    turn = deal.turn
    if deal.window_open:
        sure = [s for s in deal.active if deal.legal_actions(s).challenge is not None and impossible(deal, s)]
        if sure and rng.random() < 0.5:
            return Challenge(sure[0], deal.last.set_no)
        return CloseWindow(deal.last.set_no)
    if deal.quads_offer is not None and deal.legal_actions(deal.quads_offer).discard_quads:
        return DiscardQuads(deal.quads_offer, deal.legal_actions(deal.quads_offer).discard_quads)
    legal = deal.legal_actions(turn)
    if legal.discard_quads:
        return DiscardQuads(turn, legal.discard_quads)
    if legal.challenge is not None and (
        legal.lay is None or rng.random() < (0.5 if impossible(deal, turn) else 0.05)
    ):
        if legal.believe is not None and rng.random() < 0.5:
            return Believe(turn, legal.believe)
        return Challenge(turn, legal.challenge)
    bounds = legal.lay
    hand = deal.hands[turn]
    counts = Counter(c[0] for c in hand)
    rank = max(bounds.ranks, key=lambda r: counts[r])
    own = [c for c in hand if c[0] == rank]
    if own:
        cards = own[: bounds.max]
        cards += [c for c in hand if c[0] != rank][: max(0, bounds.min - len(cards))]
    else:
        if legal.declare_none is not None:
            return DeclareNone(turn)
        cards = hand[: bounds.min]
    return LaySet(turn, tuple(cards), rank, len(cards) if bounds.count_min is not None else None)


def random_illegal(deal: Deal, rng: random.Random):
    """An action that is often illegal now: any kind, any seat, any cards, any set number."""
    n = deal.players
    seat = rng.randrange(-1, n + 1)
    set_no = deal.set_no + rng.randint(-2, 2)
    hand = deal.hands[seat] if 0 <= seat < n else []
    everyone = [c for h in deal.hands for c in h] or ["AS"]
    kind = rng.randrange(9)
    if kind == 0:
        pool = hand if hand and rng.random() < 0.5 else everyone
        cards = tuple(rng.choice(pool) for _ in range(rng.randint(0, 9)))
        return LaySet(seat, cards, rng.choice("23456789TJQKAX"), rng.choice([None, 0, 1, 3, 5, 9]))
    if kind == 1:
        return Challenge(seat, set_no)
    if kind == 2:
        return Believe(seat, set_no)
    if kind == 3:
        return DeclareNone(seat)
    if kind == 4:
        return DiscardQuads(seat, tuple(rng.choice("6QKA") for _ in range(rng.randint(0, 2))))
    if kind == 5:
        return CloseWindow(set_no)
    if kind == 7:
        return DeclineQuads(seat)
    if kind == 6:
        return Challenges(tuple(rng.randrange(-1, n + 1) for _ in range(rng.randint(0, 3))), set_no)
    made = rng.choice([Challenge(seat, set_no), LaySet(seat, tuple(hand[:1]), None, None), DeclareNone(seat)])
    return Timeout(rng.choice([seat, (seat + 1) % n]), made)  # often another seat's, or illegal


# -- the checks ------------------------------------------------------------------------------------


def snapshot(deal: Deal) -> bytes:
    """The deal's whole state, every attribute but its rules, as bytes: equal exactly when
    nothing changed."""
    return pickle.dumps({k: v for k, v in vars(deal).items() if k != "rules"})


CARD_IN_MSGPACK = re.compile(rb"\xa2([2-9TJQKA][SHDC])")


_FIELDS: dict[type, tuple[str, ...]] = {}
_SCALARS = (str, int, bool, type(None))


def _names(t: type) -> tuple[str, ...]:
    names = _FIELDS.get(t)
    if names is None:
        names = _FIELDS[t] = tuple(f.name for f in attrs.fields(t))
    return names


def plain(obj):
    """``obj`` (attrs objects, tuples, lists, dicts) as msgpack-ready data, every field kept."""
    t = type(obj)
    if t in _SCALARS:
        return obj
    if t is tuple or t is list:
        return [x if type(x) in _SCALARS else plain(x) for x in obj]
    if t is dict:
        return {k: plain(v) for k, v in obj.items()}
    return {n: plain(getattr(obj, n)) for n in _names(t)}


CARD_IN_REPR = re.compile(r"'([2-9TJQKA][SHDC])'")


def cards_of(obj) -> list[str]:
    """Every card anywhere in ``obj``'s fields (events, views, and the records and tuples they
    hold), read from its repr (attrs shows every field; a card is a quoted rank and suit)."""
    return CARD_IN_REPR.findall(repr(obj))


_calls = [0]
WIRE_EVERY = 4
"""With ``wire``, the server's wire form is built for every WIRE_EVERY-th object checked (it is
slow); the object's own fields are packed every time."""


def cards_in(obj) -> list[str]:
    """Every card anywhere in ``obj``'s fields, read from the msgpack bytes of its fields (a card
    is a fixstr 0xa2, rank, suit); every WIRE_EVERY-th call also from the msgpack bytes of the
    server's wire form of it (server/_wire.py), which must hold the same cards."""
    fields = [m.decode() for m in CARD_IN_MSGPACK.findall(msgpack.packb(plain(obj)))]
    _calls[0] += 1
    if _calls[0] % WIRE_EVERY == 0:
        if isinstance(obj, engine.View):
            wire = _wire.view_fields(obj)
        else:
            wire = _wire.event_message(obj, TABLE_OWN.get(obj.type))
        on_wire = [m.decode() for m in CARD_IN_MSGPACK.findall(msgpack.packb(wire))]
        assert sorted(on_wire) == sorted(fields), (obj, on_wire, fields)
    return fields


def check_projection(deal: Deal, events, before: list[list[str]], wire: bool = False) -> None:
    """No seat (nor a spectator) sees in a projected event a card outside its own hand (before or
    after the event) or a revealed set; hidden counts stay hidden; a taken pile arrives sorted;
    a discarded quad's cards reach its owner only. ``wire``: read the cards from the msgpack
    bytes (``cards_in``) rather than the objects."""
    public = deal.rules.hand_counts_public
    read = cards_in if wire else cards_of
    revealed: Counter = Counter()
    for e in events:
        if isinstance(e, engine.SetRevealed):
            revealed.update(e.cards)
    whole = [cards_of(e) for e in events]  # the cards of each event as it happened
    for seat in [None, *range(deal.players)]:
        allowed = None  # made when a copy holds a card
        for e, cards in zip(events, whole):
            p = project(e, seat, public)
            if p is None:
                continue
            assert type(p) is type(e)
            seen = cards if p is e and not wire else read(p)
            if seen:
                if allowed is None:
                    mine = Counter() if seat is None else Counter(before[seat]) | Counter(deal.hands[seat])
                    allowed = mine | revealed
                extra = Counter(seen) - allowed
                assert not extra, f"seat {seat} sees {sorted(extra.elements())} in {p}"
            if isinstance(p, engine.PileTaken) and p.cards is not None:
                assert p.seat == seat, p
                assert list(p.cards) == engine.sorted_cards(p.cards), f"a pile taken in laying order: {p}"
            if isinstance(p, engine.QuadsDiscarded):
                assert (p.cards is not None) == (p.seat == seat), p
                if p.seat == seat:
                    assert Counter(c[0] for c in p.cards) == Counter(r for r in p.ranks for _ in range(4)), p
            if not public:
                if isinstance(p, engine.SetLaid) and p.seat != seat:
                    assert p.size is None, p
                if isinstance(p, engine.PileTaken) and p.seat != seat:
                    assert p.count is None, p
                if isinstance(p, engine.DealStarted):
                    assert p.hand_counts is None, p


def check_views(deal: Deal, wire: bool = False) -> None:
    """No view holds a card outside its seat's hand, nor a hidden count (every seat and a
    spectator). ``wire``: read the cards from the msgpack bytes."""
    public = deal.rules.hand_counts_public
    read = cards_in if wire else cards_of
    for seat in [None, *range(deal.players)]:
        v = deal.view(seat)
        seen = sorted(read(v))
        mine = sorted(deal.hands[seat]) if seat is not None else []
        assert seen == mine, f"seat {seat}'s view holds {seen}, its hand {mine}"
        if seat is None:
            assert v.hand is None and not v.legal
        if not public:
            assert v.hand_counts is None and v.pile is None
            if v.last is not None and v.last.seat != seat:
                assert v.last.size is None


def check_outcome(deal: Deal, events) -> None:
    """docs/RULES.md's outcomes, recomputed from the events: a revealed claim is true exactly when
    every card is of the claimed rank and (where counts may lie) the count is right; the pile
    goes where "What every variant shares" and `veryu` say; the next leader is the one
    ``leader_after_reveal`` names; the result follows ``result``."""
    kinds = [type(e) for e in events]
    if engine.SetRevealed in kinds:
        i = kinds.index(engine.SetRevealed)
        shown = events[i]
        call = events[i - 1]
        if not (deal.rules.declare_none and shown.count == 0):
            assert shown.claim_true == (
                all(c[0] == shown.rank for c in shown.cards) and len(shown.cards) == shown.count
            ), shown
        else:
            assert shown.claim_true == (not shown.cards), shown
        believed = isinstance(call, engine.Believed)
        after = [e for e in events[i + 1 :] if isinstance(e, (engine.PileTaken, engine.PileDiscarded))]
        assert len(after) == 1, events
        if believed and shown.claim_true:
            assert isinstance(after[0], engine.PileDiscarded), events
            taker = None
        else:
            want = call.seat if believed or shown.claim_true else shown.seat
            assert isinstance(after[0], engine.PileTaken) and after[0].seat == want, events
            taker = want
        turns = [e for e in events[i:] if isinstance(e, engine.Turn)]
        if not deal.over:
            leader = turns[-1].seat
            how = deal.rules.leader_after_reveal
            nxt = deal.next_active
            if how == "sequence":
                assert leader == nxt(shown.seat), events
            elif how == "taker":
                assert leader == taker, events
            elif taker == call.seat:
                assert leader == nxt(call.seat), events
            else:
                assert leader == (call.seat if call.seat not in deal.out else nxt(call.seat)), events
    if deal.over:
        if deal.rules.result == "last_loses":
            assert deal.active == [deal.loser] and deal.winner is None
        else:
            assert deal.out == [deal.winner] and deal.loser is None
    else:
        assert len(deal.active) >= 2 and (deal.rules.result == "last_loses" or not deal.out)


def check_someone_may_act(deal: Deal) -> None:
    if deal.over:
        assert all(not deal.legal_actions(s) for s in range(deal.players))
        return
    if deal.window_open and deal.held is not None:
        return  # the referee closes the window (or a challenge comes first)
    legal = deal.legal_actions(deal.turn)
    assert legal, f"seat {deal.turn} has no legal action"
    assert legal.lay is not None or legal.challenge is not None or legal.declare_none is not None, legal
    assert deal.turn not in deal.out


RANDOM_BUDGET = 200
"""Random play (``random_action``) need not end; its deals stop after this many actions."""


def play(deal: Deal, rng: random.Random, *, illegal_rate: float = 0.0, wire: bool = False, bot=None) -> int:
    """Play ``deal`` with ``bot`` (``simple_action`` by default), checking every property after
    every action (``wire``: the hidden-card checks on the msgpack bytes too). The simple bot
    must end the deal within ``ACTION_CAP`` actions; random play stops after ``RANDOM_BUDGET``.
    Returns the number of actions applied."""
    bot = bot or simple_action
    events = deal.opening()
    deal.check_invariant()
    check_projection(deal, events, [list(h) for h in deal.hands], wire)
    check_views(deal, wire)
    applied = 0
    while not deal.over:
        if bot is simple_action:
            assert applied < ACTION_CAP, f"no end after {ACTION_CAP} actions"
        elif applied >= RANDOM_BUDGET:
            break
        if illegal_rate and rng.random() < illegal_rate:
            bad = random_illegal(deal, rng)
            before = snapshot(deal)
            try:
                deal.check(bad)
                checked = None
            except RuleViolation as e:
                checked = e
            hands_before = [list(h) for h in deal.hands]
            try:
                events = deal.apply(bad)
            except RuleViolation as e:
                assert checked is not None and type(checked) is type(e), (bad, checked, e)
                assert snapshot(deal) == before, f"{bad} raised {e.code} but changed the deal"
                continue
            assert checked is None, f"check refused {bad} ({checked}) but apply accepted it"
            check_outcome(deal, events)
        else:
            action = bot(deal, rng)
            deal.check(action)
            hands_before = [list(h) for h in deal.hands]
            events = deal.apply(action)
            check_outcome(deal, events)
        applied += 1
        deal.check_invariant()
        check_projection(deal, events, hands_before, wire)
        check_views(deal, wire)
        check_someone_may_act(deal)
    return applied


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=CASE_IDS)
def test_seeded_deals_keep_every_property(name, players, options):
    """``DEALS_PER_CASE`` seeded deals of the case, every check after every action: even
    numbers random play with illegal actions mixed in, odd numbers the simple bot to the end; deal
    0 checks the msgpack bytes as well."""
    rules = engine.variant(name, **dict(options))
    for number in range(DEALS_PER_CASE):
        seed = deal_seed(name, players, options, number)
        rng = random.Random(seed)
        deal = Deal.new(rules, players, rng.randrange(players), rng)
        try:
            if number % 2 == 0:
                play(deal, rng, illegal_rate=0.15, wire=number == 0, bot=random_action)
            else:
                play(deal, rng)
        except AssertionError as e:
            raise AssertionError(f"deal seed {seed!r}, action {deal.actions}: {e}") from e


@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_simple_bot_deals_end_within_the_cap(name):
    """Whole matches at every seat count the variant allows: each deal ends within the cap."""
    rules = engine.variant(name)
    lo, hi = rules.players
    longest = 0
    for seed in range(12):
        rng = random.Random(seed)
        players = lo + seed % (hi - lo + 1)
        match = engine.Match(rules, players, rng)
        deal, _ = match.start()
        applied = 0
        while not deal.over:
            assert applied < ACTION_CAP, f"seed {seed}: no end after {ACTION_CAP} actions"
            deal.apply(simple_action(deal, rng))
            applied += 1
        longest = max(longest, applied)
        match.finish(deal)
    assert longest < ACTION_CAP


@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_same_seed_same_actions_same_deal(name):
    """docs/ARCHITECTURE.md: the same seed and the same actions give the same deal."""

    def run():
        rng = random.Random(42)
        match = engine.Match(engine.variant(name), engine.variant(name).players[0] + 1, rng)
        deal, events = match.start()
        bot_rng = random.Random(7)
        while not deal.over:
            events += deal.apply(simple_action(deal, bot_rng))
        return events

    assert run() == run()
