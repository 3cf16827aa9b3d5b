"""Bots (engine.bots): legal everywhere, blind to hidden cards, side-effect free choices, and the
sharp bot's reasoning on written deals."""

import copy
import random

import pytest

from neveryu import engine
from neveryu.engine import Challenge, DiscardQuads, LaySet, project
from neveryu.engine.bots import (
    BOTS,
    LEVELS,
    STRENGTHS,
    Bot,
    HonestBot,
    SharpBot,
    level_of,
    make_bot,
    strength_of,
)
from neveryu.engine.simulate import simulate


def feed(bots, events, rules):
    for e in events:
        for bot in bots:
            bot.observe(project(e, bot.seat, rules.hand_counts_public))


def table(rules, strengths, **arrangement):
    """A deal from a written arrangement, with one bot per seat fed its opening events."""
    deal = engine.Deal(rules, **arrangement)
    bots = [make_bot(s, seat, rules, deal.players) for seat, s in enumerate(strengths)]
    feed(bots, deal.opening(), rules)
    return deal, bots


def play(deal, bots, rules, action):
    feed(bots, deal.apply(action), rules)


def test_four_strengths_by_name():
    assert STRENGTHS == ("random", "honest", "sharp", "expert")
    assert isinstance(make_bot("sharp", 2, engine.variant("hoyle"), 4), SharpBot)
    assert all(issubclass(cls, Bot) for cls in BOTS.values())
    known = "random, honest, sharp, expert"
    with pytest.raises(ValueError, match=f"unknown bot strength 'genius'; known: {known}"):
        make_bot("genius", 0, engine.variant("verish"), 4)


def test_one_table_of_levels_names_every_strength():
    assert LEVELS == {"easy": "random", "normal": "honest", "hard": "sharp", "expert": "expert"}
    assert sorted(LEVELS.values()) == sorted(STRENGTHS)
    assert [strength_of(n) for n in ("hard", " Normal ", "EASY", "sharp", "random")] == [
        "sharp",
        "honest",
        "random",
        "sharp",
        "random",
    ]
    assert [level_of(s) for s in STRENGTHS] == ["easy", "normal", "hard", "expert"]
    assert level_of("mystery") == "mystery"
    with pytest.raises(
        ValueError, match=r"level .genius.; known: easy, normal, hard, expert \(or random, honest, sharp\)"
    ):
        strength_of("genius")


def test_play_takes_levels_and_strengths_alike():
    from neveryu.client.commands.play import seats_and_bots

    assert seats_and_bots("verish", None, None) == (4, ["sharp"] * 3)
    assert seats_and_bots("verish", None, "easy,Normal,sharp") == (4, ["random", "honest", "sharp"])
    assert seats_and_bots("verish", None, "easy,normal") == (3, ["random", "honest"])  # as --help says
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        seats_and_bots("verish", None, "genius")


@pytest.mark.parametrize("strength", [s for s in STRENGTHS if s != "expert"])
@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_every_strength_plays_only_legal_actions(name, strength):
    rules = engine.variant(name)
    players = max(3, rules.players[0])
    result = simulate(rules, players, 3, seed=21, bots=strength)
    assert (result.completed, result.invariant_violations, result.bot_errors) == (3, 0, 0)


@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_expert_plays_only_legal_actions(name):
    # one expert (its search plays sharp bots in sampled deals), the seats rotating
    rules = engine.variant(name)
    result = simulate(rules, 3, 3, seed=21, bots="expert,sharp,honest")
    assert (result.completed, result.invariant_violations, result.bot_errors) == (3, 0, 0)


@pytest.mark.parametrize("name", ["verish", "cheat", "hoyle-three"])
def test_bots_are_fed_only_their_seats_projection(name, monkeypatch):
    # Wrap every real bot so that what it observes (by observe or by a handler) is recorded,
    # then look for hidden cards.
    rules = engine.variant(name)
    seen = []
    real_observe, real_handler = Bot.observe, Bot.handler

    def observe(self, event):
        seen.append((self.seat, event))
        real_observe(self, event)

    def handler(self, kind):
        handle = real_handler(self, kind)
        if handle is None:
            return None

        def record(event):
            seen.append((self.seat, event))
            handle(event)

        return record

    for cls in BOTS.values():
        monkeypatch.setattr(cls, "observe", observe)
        monkeypatch.setattr(cls, "handler", handler)
    simulate(rules, 3 if name != "verish" else 4, 2, seed=8, bots="sharp")
    assert seen
    for seat, e in seen:
        if isinstance(e, engine.DealStarted):
            assert all(h is None for s, h in enumerate(e.hands) if s != seat)
            assert e.hands[seat] is not None
        if isinstance(e, (engine.SetLaid, engine.PileTaken, engine.StockDrawn)) and e.seat != seat:
            assert e.cards is None
        if isinstance(e, (engine.SetHeld, engine.SetReturned)):
            assert e.seat == seat
        if isinstance(e, engine.QuadsDiscarded) and not e.shown and e.seat != seat:
            assert e.ranks is None
        if not rules.hand_counts_public and isinstance(e, engine.SetLaid) and e.seat != seat:
            assert e.size is None


def test_choose_changes_nothing_and_repeats():
    rules = engine.variant("verish")
    deal, bots = table(
        rules,
        ["honest", "sharp"],
        deck="36",
        dealer=1,
        hands=[["KS", "6H", "7H", "8D"], ["KH", "KD", "9S", "9C"]],
        turn=0,
    )
    play(deal, bots, rules, LaySet(0, ("6H",), "K"))
    sharp = bots[1]
    before = copy.deepcopy(sharp.__dict__)
    view = deal.view(1)
    first = sharp.choose(view, random.Random(5))
    again = sharp.choose(view, random.Random(5))
    assert first == again
    after = sharp.__dict__
    for key in ("my_pile", "my_pile_ranks", "pile_sets", "sizes", "truth", "calls", "chances"):
        assert after[key] == before[key], key
    assert after["memory"].groups == before["memory"].groups


def test_sharp_challenges_a_claim_its_hand_disproves():
    # verish, kings held: sharp holds two kings; the claim of three more cannot be true.
    rules = engine.variant("verish")
    deal, bots = table(
        rules,
        ["honest", "sharp"],
        deck="36",
        dealer=1,
        rank="K",
        turn=0,
        hands=[["KS", "6H", "7H", "8D"], ["KH", "KD", "9S", "9C"]],
        pile=["6S", "6C", "7S", "7C", "8S", "8C"],
    )
    play(deal, bots, rules, LaySet(0, ("KS", "6H", "7H"), "K"))
    assert bots[1].p_true(deal.view(1), {"K": 2}) == 0.0
    assert bots[1].choose(deal.view(1), random.Random(1)) == Challenge(1, 1)


def test_sharp_remembers_revealed_cards_in_the_takers_hand():
    # veryu, 3 players. Seat 0 lays two true queens, seat 1 challenges and takes them; sharp
    # (seat 2) holds the other two queens, so seat 0's next claim of a queen cannot be true.
    rules = engine.variant("veryu")
    deal, bots = table(
        rules,
        ["honest", "honest", "sharp"],
        deck="36",
        dealer=0,
        turn=0,
        hands=[
            ["QS", "QH", "6S", "7S", "8S", "9S"],
            ["6H", "7H", "8H", "9H", "TH", "JH"],
            ["QD", "QC", "6D", "7D", "8D", "9D"],
        ],
    )
    play(deal, bots, rules, LaySet(0, ("QS", "QH"), "Q"))
    play(deal, bots, rules, Challenge(1, 1))
    sharp = bots[2]
    assert sharp.memory.known_in(1, "Q") == (2, 0)
    assert sharp.memory.excluded(0, "Q") == 2
    # seat 1 took the pile; seat 2 (next after the challenger) leads
    assert deal.turn == 2
    play(deal, bots, rules, LaySet(2, ("6D",), "6"))
    play(deal, bots, rules, LaySet(0, ("6S",), "6"))
    play(deal, bots, rules, Challenge(1, 3))  # true: seat 1 takes again; seat 2 leads
    play(deal, bots, rules, LaySet(2, ("7D",), "Q"))
    play(deal, bots, rules, LaySet(0, ("7S",), "Q"))
    view = deal.view(1)
    assert view.turn == 1
    # seat 2 (sharp) watches seat 0 claim a queen: mine 2 + seat 1's 2 = all four.
    assert sharp.p_true(deal.view(2), {"Q": 2}) == 0.0


def test_honest_lays_every_card_of_the_rank_it_holds():
    rules = engine.variant("verish")
    deal, bots = table(
        rules,
        ["sharp", "honest"],
        deck="36",
        dealer=1,
        rank="Q",
        turn=0,
        hands=[["KS", "6H", "7H"], ["QH", "QD", "9S", "9C"]],
    )
    play(deal, bots, rules, LaySet(0, ("KS",), "Q"))
    action = bots[1].choose(deal.view(1), random.Random(3))
    if isinstance(action, LaySet):
        assert sorted(action.cards) == ["QD", "QH"]
    else:  # the one false-claim answer it may give instead: a rare challenge
        assert action == Challenge(1, 1)


def test_every_strength_discards_a_quad_after_taking_when_sharp_or_honest():
    rules = engine.variant("verish")
    deal, bots = table(
        rules,
        ["honest", "sharp"],
        deck="36",
        dealer=1,
        turn=0,
        hands=[["KS", "6H", "7H"], ["KH", "KD", "KC", "9S"]],
    )
    play(deal, bots, rules, LaySet(0, ("KS",), "K"))  # true
    play(deal, bots, rules, Challenge(1, 1))  # sharp takes the king: four kings
    assert deal.legal_actions(1).discard_quads == ("K",)
    assert bots[1].choose(deal.view(1), random.Random(1)) == DiscardQuads(1, ("K",))
    assert HonestBot(1, rules, 2).choose(deal.view(1), random.Random(1)) == DiscardQuads(1, ("K",))


def test_sharp_challenges_a_last_set_in_first_wins():
    # hoyle: seat 0 lays its last card claiming an ace; the sharp seat 2, off turn, challenges,
    # since an unchallenged last set wins the deal.
    rules = engine.variant("hoyle")
    deal, bots = table(
        rules,
        ["honest", "honest", "sharp"],
        deck="52",
        dealer=2,
        turn=0,
        hands=[["5S"], ["2H", "3H", "4H", "6H"], ["2D", "3D", "4D", "6D", "7D"]],
    )
    play(deal, bots, rules, LaySet(0, ("5S",), "A"))
    assert deal.window_open
    assert bots[2].choose(deal.view(2), random.Random(1)) == Challenge(2, 1)


def test_sharp_beats_honest_in_verish():
    result = simulate(engine.variant("verish"), 4, 60, seed=4, bots="sharp,honest,honest,honest", check=False)
    sharp, honest = result.strengths["sharp"], result.strengths["honest"]
    assert sharp.loss_rate <= 2 / 3 * honest.loss_rate


@pytest.mark.parametrize("name", ["veryu", "hoyle", "cheat"])
def test_sharp_never_counts_more_cards_of_a_rank_than_the_deck_holds(name, monkeypatch):
    rules = engine.variant(name)
    real = SharpBot.choose
    checked = []

    def choose(self, view, rng):
        mine = {}
        for c in tuple(view.hand) + tuple(self.my_pile):
            mine[c[0]] = mine.get(c[0], 0) + 1
        for rank in self.ranks:
            assert self.memory.tracked(rank) + mine.get(rank, 0) <= self.copies, rank
        tracked, loose = self.memory.totals()  # kept up to date: as if counted afresh
        assert ({r: n for r, n in tracked.items() if n}, loose) == self.memory.recount()
        checked.append(1)
        return real(self, view, rng)

    monkeypatch.setattr(SharpBot, "choose", choose)
    result = simulate(rules, 4, 6, seed=13, bots="sharp", check=False)
    assert result.completed == 6 and checked


@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_a_bot_taking_a_seat_mid_deal_acts_legally(name):
    # An away player's stand-in starts in the middle of a deal, without DealStarted.
    rules = engine.variant(name)
    players = max(3, rules.players[0])
    deal, _ = engine.Match(rules, players, random.Random(1)).start()
    rng = random.Random(2)
    for _ in range(12):
        seat = deal.turn
        deal.apply(engine.Timeout(seat, engine.random_turn_action(deal.view(seat), rng)))
        if deal.window_open:
            deal.apply(engine.CloseWindow(deal.last.set_no))
    for strength in STRENGTHS:
        bot = make_bot(strength, deal.turn, rules, players)
        action = bot.choose(deal.view(deal.turn), rng)
        deal.check(action)
        assert bot.choose(deal.view(deal.turn), random.Random(9)) is not None


def test_memory_follows_cards_from_hand_to_pile_and_back():
    from neveryu.engine.bots._memory import PILE, CardMemory, hand, places_of

    memory = CardMemory(4)
    memory.add(hand(2), ("JS", "JH"))
    memory.laid(2)  # seat 2 lays a set: its jacks may be in the pile now
    assert memory.known_in(2, "J") == (2, 0) and memory.excluded(3, "J") == 2
    memory.revealed(2, ("TS",))  # the set is revealed: a ten, no jack
    memory.unpile(2)  # its only set in the pile: the jacks are still in its hand
    assert {places_of(p): g for p, g in memory.groups.items()} == {frozenset({2}): {"J": 2}}
    memory.laid(2)
    assert [places_of(p) for p in memory.groups] == [frozenset({2, -1})] and memory.groups[
        hand(2) | PILE
    ] == {"J": 2}
    memory.pile_went(hand(3))  # seat 3 takes the pile: the jacks are with 2 or 3 - forgotten
    assert memory.tracked("J") == 0 and memory.groups == {}


def test_hypergeometric_tails_equal_the_sum_for_each_need():
    # sharp reads P(at least need) from cached rows summed once for all needs: the same floats
    # as the direct sum for one need (its choices must not move by a rounding).
    import math

    from neveryu.engine.bots._sharp import at_least

    def direct(pool, good, drawn, need):
        if need <= 0:
            return 1.0
        drawn, good = min(drawn, pool), min(good, pool)
        if need > good or need > drawn:
            return 0.0
        miss = sum(math.comb(good, x) * math.comb(pool - good, drawn - x) for x in range(need))
        return max(0.0, 1.0 - miss / math.comb(pool, drawn))

    for pool in range(41):
        for good in range(10):
            for drawn in range(21):
                for need in range(-1, 11):
                    assert at_least(pool, good, drawn, need) == direct(pool, good, drawn, need)


class FixedRoll(random.Random):
    """A random source whose every ``random()`` is ``roll`` (choices still come from the seed)."""

    def __init__(self, roll):
        super().__init__(1)
        self.roll = roll

    def random(self):
        return self.roll


def test_honest_challenges_a_seat_it_has_seen_lie_by_its_suspicion():
    # verish: seat 0 lies (a six as a queen); honest, seat 1, challenges it: one lie in one set
    # revealed gives a suspicion of 1 / (1 + TRUST) = 1/3, and honest calls seat 0's next claim
    # with the chance CALL_SHARE * 1/3 = 0.25.
    rules = engine.variant("verish")
    deal, bots = table(
        rules,
        ["sharp", "honest"],
        deck="36",
        dealer=1,
        rank="Q",
        turn=0,
        hands=[["6S", "6H", "7H", "8H"], ["QH", "QD", "9S", "9C"]],
    )
    honest = bots[1]
    assert honest.suspicion(0) == 0.0
    play(deal, bots, rules, LaySet(0, ("6S",), "Q"))
    play(deal, bots, rules, Challenge(1, 1))  # false: seat 0 takes; seat 1 leads any rank
    assert honest.suspicion(0) == 1 / 3
    play(deal, bots, rules, LaySet(1, ("9S",), "9"))
    play(deal, bots, rules, LaySet(0, ("6H",), "9"))
    view = deal.view(1)
    assert honest.choose(view, FixedRoll(0.24)) == Challenge(1, 3)
    assert isinstance(honest.choose(view, FixedRoll(0.26)), LaySet)


def test_honest_does_not_call_by_suspicion_where_the_bluffer_would_lead():
    # cheat (the taker leads after a challenge): however much it suspects seat 0, honest lays
    # the truth on its turn when it can; its suspicion only replaces a bluff of its own.
    rules = engine.variant("cheat")
    deal, bots = table(
        rules,
        ["sharp", "honest", "sharp"],
        deck="52",
        dealer=2,
        turn=0,
        hands=[["6S", "6H", "7H", "8H"], ["7S", "7D", "9S", "9C"], ["2S", "3S", "4S", "5S"]],
    )
    honest = bots[1]
    honest.revealed[0] = [0, 5]
    play(deal, bots, rules, LaySet(0, ("8H",), "6"))
    view = deal.view(1)
    assert view.turn == 1
    assert honest.choose(view, FixedRoll(0.0)) == LaySet(1, ("7S", "7D"), "7", count=2)


def _forced_lie_table(seats, claimant=("5S", "6H", "7H", "8C"), watcher=("2S", "3S", "4S", "9S")):
    # hoyle-three: seat 0 lays three cards as kings; seat 1, to act next, holds two kings (its
    # hand proves the claim false) and three queens (the next rank); seat 2 watches.
    rules = engine.variant("hoyle-three")
    others = [["2H", "3H", "4H", "9H"], ["2D", "3D", "4D", "9D"], ["2C", "3C", "4C", "9C"]]
    deal, bots = table(
        rules,
        ["sharp"] + ["honest"] * (seats - 1),
        deck="52",
        dealer=seats - 1,
        turn=0,
        hands=[list(claimant), ["QS", "QH", "QD", "KS", "KH"], list(watcher), *others[: seats - 3]],
    )
    play(deal, bots, rules, LaySet(0, claimant[:3], "K"))
    return deal, bots


def test_honest_calls_forced_lies_by_a_fixed_chance_only():
    # Where every set is of one size, honest calls on its turn with FORCED_CALL_RATE, not on its
    # hand's proof (nor on its suspicion); else it lays the truth it holds.
    deal, bots = _forced_lie_table(4)
    view = deal.view(1)
    assert view.turn == 1
    bots[1].revealed[0] = [0, 5]
    assert bots[1].choose(view, FixedRoll(0.49)) == Challenge(1, 1)
    assert bots[1].choose(view, FixedRoll(0.51)) == LaySet(1, ("QS", "QH", "QD"), "Q")


@pytest.mark.parametrize(("seats", "watch"), [(3, 0.5), (4, 0.5), (6, 1 - 0.25**0.25)])
def test_honest_watches_forced_lies_less_as_the_table_grows(seats, watch):
    # Off its turn, each honest seat calls with the chance that makes the seats off turn call
    # three sets in four between them (1 - 0.25 ** (1 / seats off turn)), at most one in two.
    deal, bots = _forced_lie_table(seats)
    view = deal.view(2)
    assert view.turn == 1
    assert bots[2].choose(view, FixedRoll(watch - 0.001)) == Challenge(2, 1)
    assert bots[2].choose(view, FixedRoll(watch + 0.001)) is None


def test_honest_one_set_from_going_out_calls_only_last_cards():
    # Seat 2 holds three cards (one set): it does not call seat 0's set, however sure the roll,
    # unless that set was seat 0's last cards.
    deal, bots = _forced_lie_table(4, watcher=("2S", "3S", "4S"))
    assert bots[2].choose(deal.view(2), FixedRoll(0.0)) is None
    deal, bots = _forced_lie_table(4, claimant=("5S", "6H", "7H"), watcher=("2S", "3S", "4S"))
    assert deal.view(2).hand_counts[0] == 0
    assert bots[2].choose(deal.view(2), FixedRoll(0.0)) == Challenge(2, 1)
