"""The referee alone (server/_referee.py), on a clock the test moves: the quads window of
`verish` (docs/RULES.md, quads after_taking, Decision; timed at a timed table, waiting for the taker
at an untimed one, and the same whatever he holds) and the tie window that no set cuts short
(docs/RULES.md, "Timing rules"), at their exact boundaries. Deals are arranged by hand, as the
scenario files arrange them."""

from __future__ import annotations

import random

import pytest

from neveryu import engine
from neveryu.server._referee import Referee
from neveryu.server._settings import TableError, TableSettings
from neveryu.server._timers import Deadline, TimerKey, Timers

A, B, C, D = range(4)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def settings(variant: str, **times: int) -> TableSettings:
    values = {"turn_ms": 0, "challenge_window_ms": 1_000, "tie_window_ms": 200, "quads_window_ms": 2_000}
    return TableSettings(variant=variant, options={}, seats=3, **{**values, **times})


def referee(deal: engine.Deal, table: TableSettings, bots: set[int] = frozenset()) -> tuple[Referee, Clock]:
    clock = Clock()
    ref = Referee(
        deal,
        table,
        timers=Timers(clock),
        by_bot=lambda seat: seat in bots,
        choose=lambda seat: None,
        rng=random.Random(1),
    )
    return ref, clock


def fire_at(ref: Referee, clock: Clock, at: float) -> list[engine.Event]:
    """Move the clock to ``at`` and fire each of the referee's deadlines that is due, earliest
    first, as its table's task does (``Timers.run``, ``Table._fire``): their events."""
    clock.now = at
    events: list[engine.Event] = []
    while (key := ref.timers.due()) is not None:
        events += ref.fired(key.kind)
    return events


def types(events: list[engine.Event]) -> list[str]:
    return [e.type for e in events]


# -- the quads window ---------------------------------------------------------------------------


def verish_take() -> engine.Deal:
    """C lays a true nine, A challenges and takes it (four nines in hand): B is to lead."""
    deal = engine.Deal(
        engine.variant("verish"),
        deck="36",
        dealer=B,
        turn=C,
        hands=[["9S", "9H", "9D", "7C", "7D"], ["8S", "8H", "JH"], ["9C", "JS", "JD"]],
    )
    deal.apply(engine.LaySet(C, ("9C",), "9", None))
    return deal


TIMED = {"turn_ms": 30_000}  # a timed table: its quads window has a time limit


def test_a_persons_take_opens_the_quads_window_and_the_next_set_waits_for_its_end():
    deal = verish_take()
    ref, clock = referee(deal, settings("verish", **TIMED))
    events = ref.act(engine.Challenge(A, 1))
    assert types(events)[-1] == "quads_window_opened" and events[-1].seat == A
    assert ref.timers.next() == pytest.approx(102.0)
    held = ref.act(engine.LaySet(B, ("8S",), "8", None))
    assert types(held) == ["set_held"]
    assert fire_at(ref, clock, 101.999) == []
    closed = fire_at(ref, clock, 102.0)
    assert types(closed) == ["quads_window_closed", "set_laid", "turn"]
    assert closed[1].seat == B and deal.quads_offer is None  # the set ended A's right


def test_the_takers_decline_lays_the_held_set_at_once():
    deal = verish_take()
    ref, clock = referee(deal, settings("verish"))
    ref.act(engine.Challenge(A, 1))
    ref.act(engine.LaySet(B, ("8S",), "8", None))
    clock.now = 100.5
    assert types(ref.act(engine.DeclineQuads(A))) == [
        "quads_declined",
        "quads_window_closed",
        "set_laid",
        "turn",
    ]
    assert ref.timers.next() == float("inf")


def test_the_takers_discard_lays_the_held_set_at_once():
    deal = verish_take()
    ref, clock = referee(deal, settings("verish", **TIMED))
    ref.act(engine.Challenge(A, 1))
    ref.act(engine.LaySet(B, ("JH",), "J", None))
    events = ref.act(engine.DiscardQuads(A, ("9",)))
    assert types(events) == ["quads_discarded", "quads_window_closed", "set_laid", "turn"]
    assert fire_at(ref, clock, 102.0) == []


def test_the_window_opens_whatever_the_taker_holds():
    deal = engine.Deal(
        engine.variant("verish"),
        deck="36",
        dealer=B,
        turn=C,
        hands=[["TS", "KH", "7D"], ["8S", "8H", "JH"], ["9C", "JS", "JD"]],
    )
    deal.apply(engine.LaySet(C, ("9C",), "9", None))
    ref, _ = referee(deal, settings("verish"))
    assert types(ref.act(engine.Challenge(A, 1)))[-1] == "quads_window_opened"  # A holds no quad


def test_at_an_untimed_table_the_window_waits_for_the_takers_decision():
    deal = verish_take()
    ref, clock = referee(deal, settings("verish"))  # turn_ms 0
    assert types(ref.act(engine.Challenge(A, 1)))[-1] == "quads_window_opened"
    assert ref.quads_time_ms() is None and ref.timers.next() == float("inf")
    assert types(ref.act(engine.LaySet(B, ("8S",), "8", None))) == ["set_held"]
    assert fire_at(ref, clock, 100_000.0) == [] and deal.quads_window == A  # no clock ends it
    closed = ref.act(engine.DeclineQuads(A))
    assert types(closed) == ["quads_declined", "quads_window_closed", "set_laid", "turn"]


@pytest.mark.parametrize(("times", "due"), [({}, None), (TIMED, 102.0)])
def test_a_window_restored_from_the_journal_keeps_the_tables_timing(times, due):
    deal = verish_take()
    ref, _ = referee(deal, settings("verish", **times))
    ref.act(engine.Challenge(A, 1))
    again, _ = referee(deal, settings("verish", **times))  # the server started again: a new referee
    again.resume()
    assert again.timers.deadline(TimerKey(Deadline.QUADS)) == due


@pytest.mark.parametrize("times", [{}, TIMED])
def test_the_windows_time_and_end_are_the_same_whatever_the_taker_holds(times):
    """Hidden information (docs/RULES.md, `verish`): what everyone sees of the window, its opening,
    its time limit and when the clock closes it, depends on the table, not on the taker's hand."""

    def seen(hand: list[str]) -> tuple[list[str], int | None, float, list[str]]:
        deal = engine.Deal(
            engine.variant("verish"),
            deck="36",
            dealer=B,
            turn=C,
            hands=[hand, ["8S", "8H", "JH"], ["9C", "JS", "JD"]],
        )
        deal.apply(engine.LaySet(C, ("9C",), "9", None))
        ref, clock = referee(deal, settings("verish", **times))
        opened = types(ref.act(engine.Challenge(A, 1)))
        ref.act(engine.LaySet(B, ("8S",), "8", None))
        due = ref.timers.deadline(TimerKey(Deadline.QUADS))
        closed = types(fire_at(ref, clock, 102.0))
        return opened, ref.quads_time_ms(), due if due is not None else float("inf"), closed

    assert seen(["9S", "9H", "9D", "7C", "7D"]) == seen(["TS", "KH", "7D", "7C", "6D"])


@pytest.mark.parametrize(("bots", "window_ms"), [({A}, 2_000), (set(), 0)])
def test_no_window_after_a_bots_take_or_when_the_table_has_none(bots, window_ms):
    deal = verish_take()
    ref, _ = referee(deal, settings("verish", quads_window_ms=window_ms), bots)
    assert "quads_window_opened" not in types(ref.act(engine.Challenge(A, 1)))
    assert types(ref.act(engine.LaySet(B, ("8S",), "8", None))) == ["set_laid", "turn"]


# -- the tie window: no set cuts it short ---------------------------------------------------------


def hoyle_after_window() -> tuple[engine.Deal, Referee, Clock]:
    """hoyle, 4 seats: A lays an ace (a bluff); its challenge window closes; B is to lay."""
    deal = engine.Deal(
        engine.variant("hoyle"),
        deck="52",
        dealer=D,
        turn=A,
        hands=[["2S", "5D", "9C"], ["KS", "KD", "4C"], ["QS", "3D", "6C"], ["JS", "8D", "7C"]],
    )
    table = TableSettings(
        variant="hoyle", options={}, seats=4, turn_ms=0, challenge_window_ms=1_000, tie_window_ms=200
    )
    clock = Clock()
    ref = Referee(
        deal,
        table,
        timers=Timers(clock),
        by_bot=lambda seat: False,
        choose=lambda seat: None,
        rng=random.Random(1),
    )
    ref.act(engine.LaySet(A, ("2S",), "A", None))
    assert types(fire_at(ref, clock, 101.0)) == ["window_closed"]
    return deal, ref, clock


def test_a_set_after_a_far_challenge_is_refused_and_the_nearer_tie_challenge_wins():
    deal, ref, clock = hoyle_after_window()
    clock.now = 101.5
    assert ref.act(engine.Challenge(D, 1)) == []  # the far seat speaks first
    clock.now = 101.55
    with pytest.raises(TableError) as refused:
        ref.act(engine.LaySet(B, ("KS",), "K", None))  # a moment later, B's set
    assert refused.value.code == "CHALLENGE_PENDING"
    clock.now = 101.699  # within the tie window of D's challenge
    assert ref.act(engine.Challenge(B, 1)) == []
    assert fire_at(ref, clock, 101.6999) == []
    settled = fire_at(ref, clock, 101.7)
    challenged = next(e for e in settled if type(e) is engine.Challenged)
    assert (challenged.seat, challenged.tied) == (B, (D,))  # B is nearer the claimant's left
    assert deal.hands[B] == ["KS", "KD", "4C"]  # his set was never laid


def test_a_challenge_after_the_tie_window_is_stale_once_the_first_settled():
    _deal, ref, clock = hoyle_after_window()
    clock.now = 101.5
    ref.act(engine.Challenge(D, 1))
    settled = fire_at(ref, clock, 101.7)
    assert next(e for e in settled if type(e) is engine.Challenged).seat == D
    clock.now = 101.71
    with pytest.raises(engine.StaleSet):
        ref.act(engine.Challenge(B, 1))
