"""The engine's fast record constructors (engine/_records.py) and the projection kinds of events
(``Event.projection``) that the simulator relies on to project an event once per distinct copy."""

import random

import attrs
import pytest

from neveryu import engine
from neveryu.engine._records import builder
from neveryu.engine.bots import make_bot

RECORDS = [
    *engine.EVENT_TYPES.values(),
    engine.View,
    engine.Legal,
    engine.LayBounds,
    engine.LastSet,
    engine.LaidSet,
]


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_builder_makes_the_same_frozen_record(cls):
    values = {f.name: (i, f"v{i}") for i, f in enumerate(attrs.fields(cls))}
    made = builder(cls)(**values)
    plain = cls(**values)
    assert type(made) is cls
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    name = attrs.fields(cls)[0].name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(made, name, 1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(made, name)


def test_builder_takes_every_field_by_keyword_only():
    make = builder(engine.Legal)
    with pytest.raises(TypeError):
        make(None, 1, None, None, (), False)  # positional: no list kept in order by comments
    with pytest.raises(TypeError):
        make(lay=None, challenge=1)  # every field, even those with a default
    fields = {"lay": None, "challenge": 1, "believe": None, "declare_none": None, "discard_quads": ()}
    with pytest.raises(TypeError):
        make(**fields, decline_quads=False, bogus=1)
    assert make(**fields, decline_quads=True) == engine.Legal(challenge=1, decline_quads=True)


def test_builder_refuses_a_record_it_cannot_build_faithfully():
    with pytest.raises(TypeError, match="post-init"):
        builder(engine.Rules)


@pytest.mark.parametrize("name", sorted(engine.VARIANTS))
def test_projection_kind_of_every_event_holds(name):
    rules = engine.variant(name)
    players = max(rules.players[0], 4 if name != "hoyle-three" else 3)
    rng = random.Random(11)
    match = engine.Match(rules, players, random.Random(3))
    seen = set()
    for _ in range(3):
        deal, events = match.start()
        bots = [make_bot("random", s, rules, players) for s in range(players)]
        while True:
            for e in events:
                seen.add(type(e))
                for public in (False, True):
                    spectator = engine.project(e, None, public)
                    for seat in range(players):
                        copy = engine.project(e, seat, public)
                        if e.projection == engine.PUBLIC:
                            assert copy is e
                        elif e.projection == engine.OWNER:
                            assert copy is e if seat == e.seat else copy == spectator
            if deal.over or deal.actions > 3000:
                break
            for seat in range(players):  # the seat to act, else anyone who may challenge
                action = bots[seat].choose(deal.view(seat), rng) if seat == deal.turn else None
                if action is not None:
                    break
            if deal.window_open:
                action = engine.CloseWindow(deal.last.set_no)
            if action is None:
                action = engine.timeout_for(deal, deal.turn, None, rng)
            try:
                events = deal.apply(action)
            except engine.RuleViolation:
                events = deal.apply(engine.timeout_for(deal, deal.turn, None, rng))
        if deal.over:
            match.finish(deal)
        else:
            match.deal = None
    assert {engine.SetLaid, engine.Turn, engine.SetRevealed} <= seen
