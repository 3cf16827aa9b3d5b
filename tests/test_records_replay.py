"""A record replayed through the engine (server/records/replay.py) gives the very events and result of the
deal it records, in every variant; a record that was tampered with does not replay, and says
where. A seat's view of a record (server/records/hand_history.py) shows no card the seat did not see."""

from __future__ import annotations

import attrs
import pytest
from records_checks import VALIDATOR, check_hand_history
from records_deals import played_deals

from neveryu import engine
from neveryu.server import ReplayError, check_record, record_from_json, record_json, seat_messages
from neveryu.server.records.replay import replay

SEEDS = (1, 2, 3)


@pytest.mark.parametrize("variant", list(engine.VARIANTS))
def test_replay_gives_the_same_events_and_result(variant):
    for seed in SEEDS:
        for record, played in played_deals(variant, 3, seed):
            steps = check_record(record)
            replayed = [e for step in steps for e in step.events]
            assert replayed == played
            assert len(steps) == len(record.actions) + 1
            assert [s.action for s in steps[1:]] == [a for _ms, a in record.actions]
            assert [s.ms for s in steps[1:]] == [ms for ms, _a in record.actions]
            check_hand_history(record, steps)


@pytest.mark.parametrize(
    ("variant", "options"),
    [("veryu", {"deck": "2x52"}), ("hoyle", {"declare_none": True}), ("hoyle", {"deck": "2x52"})],
)
def test_replay_with_options_and_more_seats(variant, options):
    for record, played in played_deals(variant, 2, seed=9, players=6, **options):
        assert [e for step in check_record(record) for e in step.events] == played
        assert record.rules == engine.variant(variant, **options)


def test_the_whole_record_in_json_replays_the_same():
    for record, played in played_deals("cheat", 2, seed=4):
        doc = record_json(record, replay(record))
        VALIDATOR.validate(doc)
        again = record_from_json(doc)
        assert again == attrs.evolve(record, seats=tuple(attrs.evolve(s, session=None) for s in record.seats))
        assert [e for step in check_record(again) for e in step.events] == played


def test_an_action_changed_does_not_replay_and_says_which():
    record, _ = played_deals("verish", 1, seed=2)[0]
    i = next(k for k, (_ms, a) in enumerate(record.actions) if isinstance(a, engine.LaySet))
    ms, lay = record.actions[i]
    other = next(c for c in record.deck if c not in lay.cards)
    forged = attrs.evolve(lay, cards=(other,) + lay.cards[1:])
    actions = record.actions[:i] + ((ms, forged),) + record.actions[i + 1 :]
    with pytest.raises(ReplayError) as caught:
        check_record(attrs.evolve(record, actions=actions))
    message = str(caught.value)
    assert message.startswith(f"action {i + 1} (lay by seat {lay.seat + 1} at {ms} ms) is refused: ")
    assert "\n" not in message


def test_a_missing_last_action_does_not_replay():
    record, _ = played_deals("lozh", 1, seed=2)[0]
    with pytest.raises(ReplayError) as caught:
        check_record(attrs.evolve(record, actions=record.actions[:-1]))
    assert str(caught.value) == f"the deal has not ended after its {len(record.actions) - 1} actions"


def test_a_result_that_differs_does_not_replay():
    record, _ = played_deals("veryu", 1, seed=2)[0]
    r = record.result
    wrong = attrs.evolve(r, loser=(r.loser + 1) % 4)
    with pytest.raises(ReplayError, match=r"^the replay ends loser "):
        check_record(attrs.evolve(record, result=wrong))


def test_a_deck_that_breaks_the_commitment_does_not_replay():
    record, _ = played_deals("hoyle", 1, seed=2)[0]
    salt = "f" * 64
    with pytest.raises(ReplayError) as caught:
        check_record(attrs.evolve(record, fair={**record.fair, "salt": salt}))
    assert str(caught.value) == "the deck does not match the fair deal's commitment"
    with pytest.raises(ReplayError, match=r"^the recorded deck is not a 52 deck$"):
        check_record(attrs.evolve(record, deck=record.deck[:-1] + ("AS",)))


def test_a_seat_view_hides_the_sets_nobody_revealed_and_face_down_quads():
    found_hidden = found_shown = found_quads = 0
    for variant in ("veryu", "verish", "cheat"):
        for record, _ in played_deals(variant, 3, seed=21):
            steps = replay(record)
            revealed = {e.set_no for s in steps for e in s.events if isinstance(e, engine.SetRevealed)}
            laid = {}  # action index -> set_no, from the engine's own events
            for i, s in enumerate(steps[1:]):
                made = s.action.action if isinstance(s.action, engine.Timeout) else s.action
                for e in s.events:
                    if (
                        isinstance(e, engine.SetLaid)
                        and isinstance(made, engine.LaySet)
                        and e.seat == made.seat
                    ):
                        laid[i] = e.set_no
            for seat in range(record.players):
                doc = record_json(record, steps, seat)
                assert doc["view"] == seat
                for i, a in enumerate(doc["actions"]):
                    made = a.get("action", a)
                    if made["t"] == "lay":
                        mine = made["seat"] == seat
                        visible = mine or laid.get(i) in revealed
                        assert (made["cards"] is not None) == visible, (variant, i, seat)
                        found_hidden += not visible
                        found_shown += visible and not mine
                    if made["t"] == "discard_quads" and made["seat"] != seat:
                        shown = record.rules.quads == "after_taking"
                        assert (made["ranks"] is not None) == shown
                        found_quads += not shown
    assert found_hidden and found_shown and found_quads  # the seeds reach every case


def test_a_seats_messages_are_the_tables_projection():
    record, played = played_deals("cheat", 1, seed=8)[0]
    steps = replay(record)
    for seat in (None, 0, 2):
        sent = [m for step in seat_messages(record, steps, seat) for m in step]
        projected = [engine.project(e, seat, False) for e in played]
        assert [m["t"] for m in sent] == [e.type for e in projected if e is not None]
        hands = [m["hand"] and list(m["hand"]) for m in sent if m["t"] == "deal_started"]
        assert hands == [None if seat is None else list(engine.deal_cards(
            record.rules, list(record.deck), 4, record.dealer).hands[seat])]  # fmt: skip
        ended = sent[-1]
        assert (ended["t"], ended["deck"], ended["salt"]) == (
            "deal_ended",
            list(record.deck),
            record.fair["salt"],
        )
