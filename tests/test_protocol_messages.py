"""Message classes of protocol v1: requests validate (a bool is not an int, uint32 ids, card
strings), every class round-trips, the game events mirror engine/_events.py, and what a real
deal of every variant produces fits the classes."""

from __future__ import annotations

import random

import attrs
import msgpack
import pytest

from neveryu import engine, protocol
from neveryu.protocol import EVENTS, REPLIES, REQUESTS, ProtocolError, parse_request

TABLE = {
    "id": 1,
    "variant": "verish",
    "options": {},
    "state": "waiting",
    "spectators": 0,
    "password": False,
    "seats": [
        {"seat": 0, "name": "ann", "bot": None, "ready": False, "away": False},
        {"seat": 1, "name": "bot 2", "bot": "normal", "ready": True, "away": False},
    ],
    "turn_ms": 60000,
    "challenge_window_ms": 1500,
    "tie_window_ms": 250,
    "deals": 5,
    "deal_no": 0,
    "seeded": False,
}
LEGAL = {
    "lay": {"min": 1, "max": 3, "ranks": ["Q"]},
    "challenge": 4,
    "believe": None,
    "declare_none": None,
    "discard_quads": [],
    "decline_quads": False,
}
EV = {"seq": 1, "ts": 1_764_450_000_000}

SAMPLES: dict[tuple[str, str], dict] = {
    ("request", "hello"): {
        "id": 1,
        "proto": [1, 1],
        "client": {"name": "x", "version": "1"},
        "name": "ann",
        "password": "pw",
        "resume": {"token": "abc", "last_seq": 12},
        "player_key": "x4Kd9_pQ-2mZ8tLr0aVbNcYeFgHiJkLmNoPqRsTuVwX",
    },
    ("request", "ping"): {"id": 2},
    ("request", "schema"): {"id": 3},
    ("request", "variants"): {"id": 4},
    ("request", "list_tables"): {"id": 5},
    ("request", "create_table"): {
        "id": 6,
        "variant": "hoyle",
        "options": {"declare_none": True, "deck": "2x52", "packet_size": 2},
        "seats": 4,
        "bots": ["random", None],
        "turn_ms": 0,
        "challenge_window_ms": 1500,
        "tie_window_ms": 250,
        "password": "p",
        "seed": 7,
        "deals": 3,
    },
    ("request", "join_table"): {"id": 7, "table": 1, "seat": 2, "password": "p"},
    ("request", "spectate"): {"id": 8, "table": 1},
    ("request", "leave"): {"id": 9},
    ("request", "ready"): {"id": 10, "ready": True},
    ("request", "start"): {"id": 11},
    ("request", "chat"): {"id": 12, "text": "привет"},
    ("request", "lay"): {"id": 13, "cards": ["QS", "7C"], "rank": "Q", "count": 3},
    ("request", "challenge"): {"id": 14, "set_no": 3},
    ("request", "believe"): {"id": 15, "set_no": 3},
    ("request", "declare_none"): {"id": 16},
    ("request", "discard_quads"): {"id": 17, "ranks": ["7", "7"]},
    ("request", "decline_quads"): {"id": 18},
    ("request", "seat_bot"): {"id": 19, "seat": 2, "strength": "sharp"},
    ("request", "seat_free"): {"id": 20, "seat": 2},
    ("request", "contribute"): {"id": 21, "deal_no": 2, "contribution": "5e" * 32},
    ("request", "list_records"): {"id": 22, "mine": True, "before": 40, "limit": 10},
    ("request", "get_record"): {"id": 23, "deal": 39},
    ("request", "player_stats"): {"id": 24, "name": "ann#3f2a", "variant": "verish"},
    ("request", "leaderboard"): {"id": 25, "variant": "verish", "limit": 10, "offset": 10},
    ("reply", "ok"): {"re": 1},
    ("reply", "error"): {"re": None, "code": "BAD_FRAME", "msg": "no", "fatal": True},
    ("reply", "welcome"): {
        "re": 1,
        "proto": 1,
        "server": {"name": "dorm", "version": "0.1.0"},
        "session": "tok",
        "resumed": False,
        "table": None,
        "seat": None,
        "heartbeat_ms": 10000,
        "limits": {"max_client_frame": 16384, "max_server_frame": 1048576, "max_chat": 500, "idle_ms": 45000},
        "bots": ["random", "honest", "sharp"],
        "default_bot": "sharp",
        "records": True,
        "player": {"tag": "3f2a"},
    },
    ("reply", "pong"): {"re": 2},
    ("reply", "schema"): {"re": 3, "schema": {"title": "x", "$defs": {"a": {"type": "integer"}}}},
    ("reply", "variants"): {
        "re": 4,
        "variants": [
            {
                "name": "hoyle",
                "title": "Не верю",
                "players": [2, 12],
                "options": {"packet_size": {"default": 3, "choices": [2, 3]}},
            }
        ],
    },
    ("reply", "tables"): {"re": 5, "tables": [TABLE]},
    ("reply", "table_joined"): {"re": 6, "table": TABLE, "seat": 0},
    ("reply", "records"): {
        "re": 19,
        "records": [
            {
                "id": 39,
                "ended_ms": 1_764_450_000_000,
                "variant": "verish",
                "table": 2,
                "deal_no": 1,
                "deals": 5,
                "seats": [
                    {"seat": 0, "name": "ann", "bot": None},
                    {"seat": 1, "name": "bot 2", "bot": "sharp"},
                ],
                "loser": 1,
                "winner": None,
                "out": [0],
                "seat": 0,
            }
        ],
    },
    ("reply", "record"): {"re": 20, "record": {"format": "neveryu-record", "version": 1, "view": 0}},
    ("reply", "player_stats"): {
        "re": 24,
        "players": [
            {
                "player": {"id": 7, "name": "ann", "tag": "3f2a", "kind": "person"},
                "variants": [
                    {
                        "variant": "verish",
                        "deals": 3,
                        "seats": 3,
                        "lost": 1,
                        "won": 0,
                        "places": [1, 0, 1],
                        "score": 1,
                        "sets": 40,
                        "bluffs": 17,
                        "bluffs_caught": 6,
                        "challenges": 12,
                        "challenges_right": 8,
                        "believes": 0,
                        "believes_right": 0,
                        "cards_taken": 66,
                        "actions": 52,
                        "action_ms": 104_000,
                        "timeouts": 1,
                        "rating": {
                            "mu": 2710,
                            "sigma": 640,
                            "low": 1430,
                            "high": 3990,
                            "deals": 3,
                            "rank": 2,
                        },
                    }
                ],
            }
        ],
    },
    ("reply", "leaderboard"): {
        "re": 25,
        "variant": "verish",
        "total": 12,
        "players": [
            {
                "player": {"id": 2, "name": "sharp", "tag": None, "kind": "bot"},
                "rating": {"mu": 3812, "sigma": 141, "low": 3530, "high": 4094, "deals": 412, "rank": 11},
            }
        ],
    },
    ("event", "heartbeat"): {**EV},
    ("event", "bye"): {**EV, "reason": "shutdown"},
    ("event", "table_update"): {**EV, "table": TABLE},
    ("event", "table_closed"): {**EV, "table": 1, "reason": "its players left"},
    ("event", "chat"): {**EV, "seat": None, "name": "bob", "text": "hi"},
    ("event", "player_joined"): {**EV, "seat": 1, "name": "bob"},
    ("event", "player_left"): {**EV, "seat": 1, "name": "bob", "reason": "removed", "by": 0},
    ("event", "seat_changed"): {
        **EV,
        "seat": 2,
        "by": 0,
        "action": "bot",
        "name": "bob",
        "strength": "sharp",
    },
    ("event", "match_started"): {**EV, "table": TABLE, "deals": 5},
    ("event", "match_ended"): {**EV, "scores": [1, 0, 2], "deals": 5},
    ("event", "legal"): {**EV, **LEGAL},
    ("event", "seed_committed"): {
        **EV,
        "deal_no": 2,
        "seed_hash": "a1" * 32,
        "dealer": 1,
        "deck": "36",
        "contributions": [None, None, "b2" * 32],
        "time_ms": 1000,
    },
}


def sample(kind: str, t: str) -> dict:
    return {"t": t, **SAMPLES[(kind, t)]}


@pytest.mark.parametrize(("kind", "t"), list(SAMPLES), ids=[f"{k}.{t}" for k, t in SAMPLES])
def test_samples_round_trip(kind, t):
    cls = {"request": REQUESTS, "reply": REPLIES, "event": EVENTS}[kind][t]
    msg = sample(kind, t)
    obj = cls.from_wire(msg)
    assert received(obj.to_wire()) == msg
    assert cls.from_wire(obj.to_wire()) == obj


def received(msg: dict) -> dict:
    """``msg`` as a peer decodes it (a tuple is packed as an array, decoded as a list)."""
    return msgpack.unpackb(msgpack.packb(msg))


@pytest.mark.parametrize(("kind", "t"), list(SAMPLES), ids=[f"{k}.{t}" for k, t in SAMPLES])
def test_the_wire_order_is_the_class_order(kind, t):
    """The bytes follow the class: ``t``, then its fields as declared; the envelope where the
    server has always put it (a request's ``id`` first, ``error``'s ``re`` first, any other
    reply's ``re`` last, an event's ``seq`` and ``ts`` last)."""
    cls = {"request": REQUESTS, "reply": REPLIES, "event": EVENTS}[kind][t]
    keys = list(cls.from_wire(sample(kind, t)).to_wire())
    fields = [a.name for a in attrs.fields(cls) if a.name in keys]
    assert keys == ["t", *fields]
    tail = {"request": keys[1:2], "reply": keys[1:2] if t == "error" else keys[-1:], "event": keys[-2:]}
    assert tail[kind] == list(protocol.ENVELOPE[kind])


def test_a_wire_map_follows_the_class():
    """The server builds what it sends with ``wire_map``, without ``seq``/``ts`` or ``re`` (its
    session stamps them after the fields): the class's order whatever the keywords' order; a
    Nullable optional field says nil, an optional one that is not Nullable is left out; an
    unknown or missing field is a TypeError."""
    left = protocol.PlayerLeft.wire_map(reason="left", name="bob", seat=1)
    assert list(left.items()) == [("t", "player_left"), ("seat", 1), ("name", "bob"), ("reason", "left")]
    dealt = protocol.DealStarted.wire_map(
        dealer=0, deck="36", hand_counts=None, hidden=0, set_aside=0, stock=0, hand=None,
        commitment="a" * 64, deal_no=1,
    )  # fmt: skip
    assert "fair" not in dealt and dealt["hand"] is None
    assert protocol.Ok.wire_map() == {"t": "ok"}
    assert protocol.Error.wire_map(re=None, code="BAD_FRAME", msg="", fatal=True)["re"] is None
    with pytest.raises(TypeError, match="unknown fields"):
        protocol.PlayerLeft.wire_map(seat=1, name="bob", reason="left", why="x")
    with pytest.raises(TypeError, match="missing"):
        protocol.PlayerLeft.wire_map(seat=1, name="bob")


def test_every_request_has_a_sample():
    assert {t for k, t in SAMPLES if k == "request"} == set(REQUESTS)
    assert {t for k, t in SAMPLES if k == "reply"} == set(REPLIES)


def test_every_request_names_a_reply_type():
    assert {cls.REPLY for cls in REQUESTS.values()} <= set(REPLIES)


def test_parse_request_returns_the_class():
    req = parse_request(sample("request", "lay"))
    assert req == protocol.Lay(id=13, cards=("QS", "7C"), rank="Q", count=3)


def test_optional_fields_absent_or_nil_are_the_same():
    a = parse_request({"t": "lay", "id": 1, "cards": ["QS"]})
    b = parse_request({"t": "lay", "id": 1, "cards": ["QS"], "rank": None, "count": None})
    assert a == b
    assert received(a.to_wire()) == {"t": "lay", "id": 1, "cards": ["QS"]}


def test_unknown_fields_are_ignored():
    assert parse_request({"t": "ping", "id": 1, "future": [1, 2]}).to_wire() == {"t": "ping", "id": 1}


BAD_REQUESTS = [
    ("bool_id", {"t": "ping", "id": True}),
    ("negative_id", {"t": "ping", "id": -1}),
    ("id_over_uint32", {"t": "ping", "id": 2**32}),
    ("bool_set_no", {"t": "challenge", "id": 1, "set_no": True}),
    ("str_set_no", {"t": "believe", "id": 1, "set_no": "3"}),
    ("missing_set_no", {"t": "believe", "id": 1}),
    ("int_ready", {"t": "ready", "id": 1, "ready": 1}),
    ("card_not_str", {"t": "lay", "id": 1, "cards": [12]}),
    ("cards_not_array", {"t": "lay", "id": 1, "cards": "QS"}),
    ("bool_count", {"t": "lay", "id": 1, "cards": ["QS"], "count": True}),
    ("chat_not_a_string", {"t": "chat", "id": 1, "text": 5}),
    (
        "hello_proto_one_int",
        {"t": "hello", "id": 1, "proto": 1, "client": {"name": "x", "version": ""}, "name": "a"},
    ),
    ("hello_no_name", {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "x", "version": ""}}),
    (
        "hello_long_name",
        {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "x", "version": ""}, "name": "a" * 33},
    ),
    ("hello_client_str", {"t": "hello", "id": 1, "proto": [1, 1], "client": "x", "name": "a"}),
    (
        "hello_resume_bool_seq",
        {
            "t": "hello",
            "id": 1,
            "proto": [1, 1],
            "client": {"name": "x", "version": ""},
            "name": "a",
            "resume": {"token": "t", "last_seq": False},
        },
    ),
    (
        "hello_resume_seq_past_2_53",
        {
            "t": "hello",
            "id": 1,
            "proto": [1, 1],
            "client": {"name": "x", "version": ""},
            "name": "a",
            "resume": {"token": "t", "last_seq": 2**53},
        },
    ),
    ("create_one_seat", {"t": "create_table", "id": 1, "seats": 1}),
    ("create_bool_seats", {"t": "create_table", "id": 1, "seats": True}),
    ("create_negative_turn", {"t": "create_table", "id": 1, "turn_ms": -1}),
    ("create_option_map", {"t": "create_table", "id": 1, "options": {"deck": {"x": 1}}}),
    ("join_table_str", {"t": "join_table", "id": 1, "table": "1"}),
    ("join_seat_99", {"t": "join_table", "id": 1, "table": 1, "seat": 99}),
]


@pytest.mark.parametrize(("name", "msg"), BAD_REQUESTS, ids=[b[0] for b in BAD_REQUESTS])
def test_bad_requests_are_fatal_bad_message(name, msg):
    with pytest.raises(ProtocolError) as exc:
        parse_request(msg)
    assert (exc.value.code, exc.value.fatal) == ("BAD_MESSAGE", True)
    rid = msg["id"]
    assert exc.value.re == (rid if type(rid) is int and 0 <= rid < 2**32 else None)


@pytest.mark.parametrize(
    ("msg", "wanted"),
    [
        (
            {"t": "contribute", "id": 1, "deal_no": 0, "contribution": "0" * 64},
            "contribute.deal_no: expected an int >= 1",
        ),
        ({"t": "list_records", "id": 1, "limit": 0}, "list_records.limit: expected an int in 1..100"),
    ],
)
def test_a_bad_message_says_the_range_it_wanted(msg, wanted):
    with pytest.raises(ProtocolError) as exc:
        parse_request(msg)
    assert exc.value.msg.startswith(wanted + ", got ")


# Game requests whose fields have the right kind but an impossible value: an impossible action,
# refused like any other (non-fatal ILLEGAL_ACTION), not a broken protocol.
IMPOSSIBLE_GAME_REQUESTS = [
    ("zero_set_no", {"t": "challenge", "id": 1, "set_no": 0}),
    ("card_ten_as_10", {"t": "lay", "id": 1, "cards": ["10H"]}),
    ("card_lowercase", {"t": "lay", "id": 1, "cards": ["qh"]}),
    ("card_bad_suit", {"t": "lay", "id": 1, "cards": ["QX"]}),
    ("card_rank_only", {"t": "lay", "id": 1, "cards": ["Q"]}),
    ("card_newline", {"t": "lay", "id": 1, "cards": ["Q\n"]}),
    ("no_cards", {"t": "lay", "id": 1, "cards": []}),
    ("nine_cards", {"t": "lay", "id": 1, "cards": ["2S"] * 9}),
    ("rank_is_card", {"t": "lay", "id": 1, "cards": ["QS"], "rank": "QS"}),
    ("rank_one", {"t": "lay", "id": 1, "cards": ["QS"], "rank": "1"}),
    ("zero_count", {"t": "lay", "id": 1, "cards": ["QS"], "count": 0}),
    ("empty_quads", {"t": "discard_quads", "id": 1, "ranks": []}),
]


@pytest.mark.parametrize(
    ("name", "msg"), IMPOSSIBLE_GAME_REQUESTS, ids=[b[0] for b in IMPOSSIBLE_GAME_REQUESTS]
)
def test_impossible_game_requests_are_illegal_not_fatal(name, msg):
    with pytest.raises(ProtocolError) as exc:
        parse_request(msg)
    assert (exc.value.code, exc.value.fatal, exc.value.re) == ("ILLEGAL_ACTION", False, 1)
    assert exc.value.msg.startswith(msg["t"] + ".")  # names the field at fault


# A chat whose text is a string of the wrong length: refused (non-fatal BAD_OPTION), as a chat
# over the server's own max_chat is (docs/PROTOCOL.md, section 8).
OUT_OF_RANGE_CHATS = [
    ("empty_chat", {"t": "chat", "id": 1, "text": ""}),
    ("long_chat", {"t": "chat", "id": 1, "text": "x" * 501}),
    ("long_cyrillic_chat", {"t": "chat", "id": 1, "text": "ж" * 501}),
]


@pytest.mark.parametrize(("name", "msg"), OUT_OF_RANGE_CHATS, ids=[b[0] for b in OUT_OF_RANGE_CHATS])
def test_a_chat_of_the_wrong_length_is_bad_option_not_fatal(name, msg):
    with pytest.raises(ProtocolError) as exc:
        parse_request(msg)
    assert (exc.value.code, exc.value.fatal, exc.value.re) == ("BAD_OPTION", False, 1)


def test_a_chat_of_500_characters_is_a_chat():
    assert parse_request({"t": "chat", "id": 1, "text": "ж" * 500}).text == "ж" * 500


def test_impossible_game_request_keeps_the_connection():
    server = protocol.Connection("server")
    for msg in (
        {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "x", "version": ""}, "name": "a"},
        {"t": "challenge", "id": 2, "set_no": 0},
        {"t": "ping", "id": 3},
    ):
        server.receive_data(protocol.encode_frame(msg))
    assert server.next_request().t == "hello"
    with pytest.raises(ProtocolError) as exc:
        server.next_request()
    assert (exc.value.code, exc.value.fatal, exc.value.re) == ("ILLEGAL_ACTION", False, 2)
    assert server.next_request().to_wire() == {"t": "ping", "id": 3}


def test_unknown_type_is_not_fatal_and_names_the_id():
    with pytest.raises(ProtocolError) as exc:
        parse_request({"t": "fold", "id": 5})
    assert (exc.value.code, exc.value.fatal, exc.value.re) == ("UNKNOWN_TYPE", False, 5)


def test_from_wire_validates_and_constructors_trust():
    """``from_wire`` checks untrusted input; a constructor takes the typed values the server
    builds its messages from as they are (every test checks each frame it receives)."""
    with pytest.raises(ProtocolError):
        protocol.ChallengeRequest.from_wire({"t": "challenge", "id": 1, "set_no": True})
    assert protocol.Lay.from_wire({"t": "lay", "id": 1, "cards": ["QS"]}).cards == ("QS",)
    assert protocol.Lay(id=1, cards=["QS"]).cards == ["QS"]


# -- game events mirror the engine ----------------------------------------------------------------

EXTRAS = {
    "deal_started": {"commitment", "deal_no", "fair", "seed_hash", "contributions"},
    "turn": {"time_ms"},
    "quads_window_opened": {"time_ms"},
    "deal_ended": {"salt", "deck", "match_scores", "deal_no", "next_deal_ms", "seed"},
}


@pytest.mark.parametrize("t", sorted(engine.EVENT_TYPES))
def test_game_event_fields_are_the_engine_fields(t):
    engine_fields = {a.name for a in attrs.fields(engine.EVENT_TYPES[t])}
    if t == "deal_started":
        engine_fields = engine_fields - {"hands"} | {"hand"}
    wire_fields = set(EVENTS[t].wire_fields()) - {"seq", "ts"}
    assert wire_fields == engine_fields | EXTRAS.get(t, set())


def test_legal_and_state_fields_are_the_engine_fields():
    assert set(EVENTS["legal"].wire_fields()) - {"seq", "ts"} == {a.name for a in attrs.fields(engine.Legal)}
    view = {a.name for a in attrs.fields(engine.View)}
    assert set(EVENTS["state"].wire_fields()) - {"seq", "ts"} == view | {
        "table",
        "deal_no",
        "commitment",
        "match_scores",
        "time_ms",
        "fair",
        "seed_hash",
        "contributions",
        "held",
        "history",
    }


def test_a_history_holds_game_events_of_the_deal_only():
    told_by_state = {"turn", "window_closed"}
    assert set(engine.EVENT_TYPES) - told_by_state - {"dealer_drawn"} == protocol.HISTORY_EVENTS
    state = EVENTS["state"].wire_fields()["history"].type
    state.check([{"t": "challenged", "seat": 1, "set_no": 3, "tied": []}], "state.history")
    for bad in ({"t": "turn", "seat": 1}, {"t": "challenged", "seat": "1", "set_no": 3, "tied": []}):
        with pytest.raises(protocol.RemoteProtocolError):
            state.check([bad], "state.history")


def plain(value):
    if attrs.has(type(value)):
        return {a.name: plain(getattr(value, a.name)) for a in attrs.fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


def event_wire(event, seq: int) -> dict:
    body = plain(event)
    extra: dict = {}
    if event.type == "deal_started":
        hands = body.pop("hands")
        body["hand"] = next((h for h in hands if h is not None), None)
        extra = {"commitment": "0" * 64, "deal_no": 1}
    elif event.type == "turn":
        extra = {"time_ms": None if seq % 2 else 1234}
    elif event.type == "deal_ended":
        extra = {
            "salt": "f" * 64,
            "deck": ["AS"] * 36,
            "match_scores": [0] * len(body["scores"]),
            "deal_no": 1,
        }
    return {"t": event.type, "seq": seq, "ts": 1, **body, **extra}


def legal_wire(legal: engine.Legal) -> dict:
    body = plain(legal)
    if body["lay"] is not None and body["lay"]["count_min"] is None:
        del body["lay"]["count_min"], body["lay"]["count_max"]
    return body


def random_action(deal: engine.Deal, rng: random.Random):
    """A random legal-looking action (the engine may still refuse some; the caller retries)."""
    last = deal.last
    if deal.window_open and last is not None:
        callers = [s for s in range(deal.players) if deal.legal_actions(s).challenge is not None]
        r = rng.random()
        if callers and r < 0.2:
            return engine.Challenges(tuple(rng.sample(callers, min(2, len(callers)))), last.set_no)
        if deal.held is not None or r < 0.6:
            return engine.CloseWindow(last.set_no)
    seat = deal.turn
    legal = deal.legal_actions(seat)
    if legal.discard_quads and rng.random() < 0.5:
        return engine.DiscardQuads(seat, legal.discard_quads)
    if legal.challenge is not None and rng.random() < 0.3:
        return engine.Challenge(seat, legal.challenge)
    if legal.believe is not None and rng.random() < 0.3:
        return engine.Believe(seat, legal.believe)
    if legal.declare_none is not None and rng.random() < 0.15:
        return engine.DeclareNone(seat)
    if legal.lay is not None:
        hand = list(deal.hands[seat])
        size = rng.randint(legal.lay.min, legal.lay.max)
        count = None
        if legal.lay.count_min is not None:
            count = rng.randint(legal.lay.count_min, legal.lay.count_max)
        return engine.LaySet(seat, tuple(rng.sample(hand, size)), rng.choice(legal.lay.ranks), count)
    return engine.Timeout(seat, engine.random_turn_action(deal.view(seat), rng))


def deal_messages(name: str, seed: int):
    """Every projected event (each seat and a spectator), legal and state message of one random deal."""
    rng = random.Random(seed)
    rules = engine.variant(name, **({"declare_none": True} if name.startswith("hoyle") else {}))
    players = min(max(rules.players[0], 3 + seed % 3), rules.players[1])
    match = engine.Match(rules, players, random.Random(seed))
    deal, events = match.start()
    seq = 0
    out: list[dict] = []
    for step in range(600):
        for event in events:
            for seat in [*range(players), None]:
                seen = engine.project(event, seat, rules.hand_counts_public)
                if seen is not None:
                    seq += 1
                    out.append(event_wire(seen, seq))
        for seat in [*range(players), None]:
            out.append({"t": "legal", "seq": 1, "ts": 1, **legal_wire(deal.legal_actions(seat))})
            if step % 4 and not deal.over:
                continue
            view = plain(deal.view(seat))
            view["legal"] = legal_wire(deal.view(seat).legal)
            out.append(
                {
                    "t": "state",
                    "seq": 1,
                    "ts": 1,
                    **view,
                    "table": TABLE,
                    "deal_no": 1,
                    "commitment": "a" * 64,
                    "match_scores": None,
                    "time_ms": 5,
                }
            )
        if deal.over:
            return out, True
        events = []
        while not events:
            try:
                events = deal.apply(random_action(deal, rng))
            except engine.RuleViolation:
                continue
    return out, False


@pytest.mark.parametrize("name", sorted(engine.VARIANTS))
def test_real_deals_fit_the_event_classes(name):
    kinds = set()
    for seed in range(2):
        messages, ended = deal_messages(name, seed)
        assert ended
        for msg in messages:
            EVENTS[msg["t"]].from_wire(msg)
            assert protocol.wire_problem(msg, arrays=(list, tuple)) is None
            kinds.add(msg["t"])
    assert {"deal_started", "turn", "set_laid", "set_revealed", "legal", "state"} <= kinds
