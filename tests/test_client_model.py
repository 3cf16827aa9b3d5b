"""The client's model: a pure reducer of protocol messages (client/ui/model.py), tested on message
sequences recorded from seeded deals of every variant, without a terminal."""

from __future__ import annotations

import hashlib

import attrs
import pytest
from client_messages import record_deal

from neveryu.client.ui import model
from neveryu.client.ui.texts import Texts

PLAYERS = {"verish": 3, "veryu": 4, "lozh": 4, "hoyle": 4, "hoyle-three": 4, "cheat": 4, "cheat-free": 3}


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_model_follows_the_deal_at_every_step(variant):
    checkpoints: list = []
    msgs, deal = record_deal(variant, PLAYERS[variant], seed=11, seat=1, checkpoints=checkpoints)
    state = model.State()
    done = 0
    for upto, view in checkpoints:
        state = model.reduce_all(msgs[done:upto], state)
        done = upto
        assert state.hand == model.sort_hand(view.hand)
        assert state.hand_counts == view.hand_counts
        assert state.pile == view.pile
        assert state.discard == view.discard
        assert state.stock == view.stock
        assert state.out == view.out
        assert state.over == view.over
        if not view.over:
            assert state.turn == view.turn
            assert state.ranks == view.ranks
        if view.last is not None:
            assert state.last is not None
            assert (state.last["set_no"], state.last["seat"], state.last["rank"], state.last["count"]) == (
                view.last.set_no,
                view.last.seat,
                view.last.rank,
                view.last.count,
            )
        legal = view.legal
        if legal:
            assert state.legal["challenge"] == legal.challenge
            assert state.legal["believe"] == legal.believe
            assert (state.legal["lay"] is None) == (legal.lay is None)
        else:
            assert state.legal is None
    assert state.over and state.result["fair"] is True
    assert state.result["loser"] == deal.loser and state.result["winner"] == deal.winner


def test_reducer_is_pure():
    msgs, _ = record_deal("verish", 3, seed=2)
    before = model.reduce_all(msgs[:10])
    snapshot = (before.hand, before.log, before.last_seq)
    after = model.reduce(before, msgs[10])
    assert (before.hand, before.log, before.last_seq) == snapshot
    assert after is not before and after.last_seq == msgs[10]["seq"]


def test_unknown_message_types_and_fields_are_ignored():
    state = model.reduce_all([{"t": "welcome", "re": 1, "server": {"name": "x"}, "session": "s"}])
    same = model.reduce(state, {"t": "from_the_future", "seq": 7, "ts": 0, "whatever": [1]})
    assert same == model.State(**{**_fields(state), "last_seq": 7})


def _fields(state):
    import attrs

    return {a.name: getattr(state, a.name) for a in attrs.fields(model.State)}


def test_lay_then_challenge_false_claim_layer_takes_pile():
    """RULES.md, `verish` worked example: A lays K♥ 7♣ as two kings, B challenges, A takes all 6."""
    state = model.reduce_all(
        [
            {
                "t": "table_joined",
                "re": 1,
                "seat": 0,
                "table": {
                    "id": 3,
                    "variant": "verish",
                    "seats": [{"seat": 0, "name": "A", "bot": None}, {"seat": 1, "name": "B", "bot": None}],
                },
            },
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 1,
                "deck": "36",
                "hand": ["KH", "7C", "6S"],
                "hand_counts": [3, 3],
                "hidden": 1,
                "set_aside": 0,
                "stock": 0,
                "commitment": "c",
                "deal_no": 1,
            },
            {
                "t": "set_laid",
                "seq": 2,
                "ts": 0,
                "seat": 0,
                "set_no": 1,
                "rank": "K",
                "count": 2,
                "cards": ["KH", "7C"],
                "size": 2,
            },
        ]
    )
    assert state.hand == ("6S",) and state.hand_counts == (1, 3) and state.pile == 2
    assert state.last == {"set_no": 1, "seat": 0, "rank": "K", "count": 2, "size": 2, "none": False}
    state = model.reduce_all(
        [
            {"t": "challenged", "seq": 3, "ts": 0, "seat": 1, "set_no": 1, "tied": []},
            {
                "t": "set_revealed",
                "seq": 4,
                "ts": 0,
                "seat": 0,
                "set_no": 1,
                "rank": "K",
                "count": 2,
                "cards": ["KH", "7C"],
                "claim_true": False,
            },
            {"t": "pile_taken", "seq": 5, "ts": 0, "seat": 0, "count": 2, "cards": ["KH", "7C"]},
        ],
        state,
    )
    assert state.hand == ("6S", "7C", "KH") and state.hand_counts == (3, 3) and state.pile == 0
    assert state.reveal["caller"] == 1 and state.reveal["claim_true"] is False and state.last is None
    t = Texts("en")
    assert [t.log_line(state, x) for x in state.log[-4:]] == [
        "A (you): 2 kings (really K♥ 7♣).",
        "B: «Не верю!»",
        "Revealed: K♥ 7♣ — the claim of 2 kings is false.",
        "A (you) takes the pile (2 cards).",
    ]
    t = Texts("ru")
    assert t.log_line(state, state.log[-1]) == "A (вы) забирает стопку (2 карты)."


def test_turn_countdown_is_a_local_deadline():
    state = model.reduce(
        model.State(),
        {"t": "turn", "seq": 1, "ts": 0, "seat": 0, "ranks": ["Q"], "set_no": None, "time_ms": 15000},
        now=100.0,
    )
    assert state.turn_deadline == 115.0 and state.ranks == ("Q",)
    untimed = model.reduce(
        state,
        {"t": "turn", "seq": 2, "ts": 0, "seat": 1, "ranks": ["Q"], "set_no": 1, "time_ms": None},
        now=101.0,
    )
    assert untimed.turn_deadline is None and untimed.answer_set_no == 1


def test_fair_deal_check_recomputes_the_commitment():
    deck = ["AS", "7H", "TD"]
    salt = "0f" * 32
    good = hashlib.sha256((salt + ":" + "AS,7H,TD").encode()).hexdigest()
    assert model.fair_deal_holds(good, salt, deck) is True
    assert model.fair_deal_holds(good, salt, ["7H", "AS", "TD"]) is False
    assert model.fair_deal_holds(None, salt, deck) is None
    ended = model.reduce_all(
        [
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 0,
                "deck": "36",
                "hand": [],
                "hand_counts": None,
                "hidden": 0,
                "set_aside": 0,
                "stock": 0,
                "commitment": good,
                "deal_no": 1,
            },
            {
                "t": "deal_ended",
                "seq": 2,
                "ts": 0,
                "loser": None,
                "winner": 1,
                "out": [1],
                "scores": [-1, 1],
                "hand_counts": [3, 0],
                "salt": salt,
                "deck": list(reversed(deck)),
                "match_scores": [-1, 1],
            },
        ]
    )
    assert ended.result["fair"] is False and ended.match_scores == (-1, 1)
    assert ended.log[-1].key == "fair_bad"


def test_held_set_leaves_the_playable_hand_until_returned():
    state = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 2, "table": {"id": 1, "variant": "hoyle", "seats": []}},
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 0,
                "deck": "52",
                "hand": ["2C", "KD", "KS"],
                "hand_counts": [3, 3, 3],
                "hidden": 0,
                "set_aside": 0,
                "stock": 0,
                "commitment": "x",
                "deal_no": 1,
            },
            {"t": "set_held", "seq": 2, "ts": 0, "seat": 2, "cards": ["KD"], "rank": "K", "count": 1},
        ]
    )
    assert state.playable_hand == ("2C", "KS") and state.hand == ("2C", "KS", "KD")
    state = model.reduce(state, {"t": "set_returned", "seq": 3, "ts": 0, "seat": 2, "cards": ["KD"]})
    assert state.playable_hand == ("2C", "KS", "KD") and state.held is None


def test_connection_lost_and_resumed_is_said():
    state = model.reduce_all(
        [
            {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"},
            {"t": "_connection", "status": "lost", "reason": "reset"},
        ]
    )
    assert state.connection == "lost" and state.server_name == "dorm"
    assert Texts("en").log_line(state, state.log[-1]) == "Connection lost (reset); resuming…"
    state = model.reduce(state, {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"})
    assert state.connection == "connected"


def test_state_snapshot_restores_a_deal():
    snap = {
        "t": "state",
        "seq": 40,
        "ts": 0,
        "variant": "verish",
        "seat": 1,
        "players": 3,
        "deck": "36",
        "dealer": 0,
        "hand": ["QS", "6H"],
        "hand_counts": [5, 2, 7],
        "pile": 4,
        "discard": 0,
        "stock": 0,
        "hidden": 1,
        "set_aside": 0,
        "last": {"set_no": 3, "seat": 0, "rank": "Q", "count": 2, "size": 2, "none": False},
        "ranks": ["Q"],
        "turn": 1,
        "set_no": 3,
        "window_open": False,
        "out": [],
        "waiting": [],
        "over": False,
        "loser": None,
        "winner": None,
        "legal": {
            "lay": {"min": 1, "max": 2, "ranks": ["Q"]},
            "challenge": 3,
            "believe": None,
            "declare_none": None,
            "discard_quads": [],
        },
        "table": {"id": 2, "variant": "verish", "seats": []},
        "deal_no": 2,
        "commitment": "c",
        "time_ms": 5000,
    }
    state = model.reduce(model.State(), snap, now=10.0)
    assert state.screen == "table" and state.hand == ("6H", "QS") and state.my_turn
    assert state.legal["challenge"] == 3 and state.turn_deadline == 15.0 and state.last_seq == 40


def test_dealer_drawn_is_told_with_the_cards():
    state = model.reduce_all(
        [
            {
                "t": "dealer_drawn",
                "seq": 1,
                "ts": 0,
                "dealer": 2,
                "draws": [[[0, "9S"], [1, "6H"], [2, "6C"]], [[1, "TS"], [2, "7D"]]],
            }
        ]
    )
    assert state.dealer == 2
    assert Texts("en").log_line(state, state.log[-1]) == (
        "Draw for the dealer: Seat 1 9♠, Seat 2 6♥, Seat 3 6♣; again: Seat 2 10♠, Seat 3 7♦. "
        "Seat 3 drew the lowest card and deals."
    )


@pytest.mark.parametrize("variant", ["verish", "veryu", "cheat"])
def test_model_on_a_session_recorded_from_the_real_server(variant):
    """tests/data/client_session_<variant>.json: everything seat 0 got from a real server during
    one deal (tests/record_client_session.py made it). The model follows it to the end: the hand
    it keeps is the one the deal's end counts, the fair deal holds, and every log line reads."""
    import json
    from pathlib import Path

    msgs = json.loads((Path(__file__).parent / "data" / f"client_session_{variant}.json").read_text())
    state = model.reduce_all(msgs)
    assert state.screen == "table" and state.seat == 0 and state.over
    assert len(state.hand) == state.result["hand_counts"][0]
    assert state.result["fair"] is True
    assert state.out == tuple(state.result["out"])
    for lang in ("en", "ru"):
        t = Texts(lang)
        lines = [t.log_line(state, line) for line in state.log]
        assert all(lines) and not any("{" in x for x in lines)
    ended = next(m for m in msgs if m["t"] == "deal_ended")
    assert state.match_scores == tuple(ended["match_scores"])


def test_back_from_away_on_ones_turn_restarts_the_countdown():
    seats = [
        {"seat": 0, "name": "A", "bot": None, "ready": True, "away": True},
        {"seat": 1, "name": "bot 2", "bot": "honest", "ready": True, "away": False},
    ]
    table = {"id": 1, "variant": "verish", "state": "playing", "turn_ms": 20000, "seats": seats}
    state = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 0, "table": table},
            {
                "t": "deal_started",
                "seq": 1,
                "ts": 0,
                "dealer": 1,
                "deck": "36",
                "hand": ["6S"],
                "hand_counts": [1, 1],
                "hidden": 1,
                "set_aside": 0,
                "stock": 0,
                "commitment": "c",
                "deal_no": 1,
            },
            {"t": "turn", "seq": 2, "ts": 0, "seat": 0, "ranks": ["6"], "set_no": None, "time_ms": None},
        ]
    )
    assert state.turn_deadline is None
    back = {**table, "seats": [dict(seats[0], away=False), seats[1]]}
    state = model.reduce(state, {"t": "table_update", "seq": 3, "ts": 0, "table": back}, now=50.0)
    assert state.turn_deadline == 70.0


@pytest.mark.parametrize("variant", sorted(PLAYERS))
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_engine_view_of_the_model_is_the_engines_own_view(variant, seed):
    """issue 21, "one reducer": the headless bot reads the same model as the screen, through
    ``engine_view``; after every batch it equals the engine's ``view(seat)`` (the hand in any
    order; at the deal's end the turn is over, and the next claim and the last set moot: a set
    that covered the winner's last set goes back to its owner, who alone is told)."""
    checkpoints: list = []
    msgs, _deal = record_deal(variant, PLAYERS[variant], seed=seed, seat=1, checkpoints=checkpoints)
    state = model.State()
    done = 0
    for upto, view in checkpoints:
        state = model.reduce_all(msgs[done:upto], state)
        done = upto
        mine = model.engine_view(state)
        mine = attrs.evolve(mine, hand=model.sort_hand(mine.hand))
        want = attrs.evolve(view, hand=model.sort_hand(view.hand))
        if view.over:
            want = attrs.evolve(want, turn=None, ranks=mine.ranks, last=mine.last)
        assert mine == want


# -- issue 22: the log per table, names of their time, the recap, who came and went ------------


def _seats(*names, away=()):
    return [
        {
            "seat": i,
            "name": n,
            "bot": "sharp" if n and n.startswith("bot") else None,
            "ready": True,
            "away": i in away,
        }
        for i, n in enumerate(names)
    ]


def _table(tid, *names, away=(), spectators=0, state="playing"):
    return {
        "id": tid,
        "variant": "verish",
        "state": state,
        "seats": _seats(*names, away=away),
        "spectators": spectators,
    }


def test_each_table_keeps_its_own_log_and_the_lobby_its_own():
    welcome = {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "s"}
    s = model.reduce_all([welcome, {"t": "error", "re": 2, "code": "NO_SUCH_TABLE", "msg": "no table 9"}])
    lobby = s.log
    s = model.reduce(s, {"t": "table_joined", "re": 3, "seat": 1, "table": _table(1, "Ann", "Bob")})
    s = model.reduce(s, {"t": "player_joined", "seq": 1, "ts": 0, "seat": 0, "name": "Ann"})
    first = s.log
    assert [x.key for x in first] == ["joined", "player_joined"]
    s = model.reduce(s, {"t": "_left"})
    assert s.screen == "lobby" and s.log[: len(lobby)] == lobby and s.log[-1].key == "left_table"
    s = model.reduce(s, {"t": "table_joined", "re": 4, "seat": 0, "table": _table(2, "Cid", "Bob")})
    assert [x.key for x in s.log] == ["joined"]  # table 2's log holds nothing of table 1's
    s = model.reduce(s, {"t": "_left"})
    s = model.reduce(s, {"t": "table_joined", "re": 5, "seat": 1, "table": _table(1, "Ann", "Bob")})
    assert s.log[: len(first)] == first  # back at table 1: its log again


def test_log_lines_keep_the_names_of_their_time():
    s = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "timed_out", "seq": 1, "ts": 0, "seat": 1},
            {"t": "table_update", "seq": 2, "ts": 0, "table": _table(1, "Ann", "Zoe")},
            {"t": "timed_out", "seq": 3, "ts": 0, "seat": 1},
        ]
    )
    t = Texts("en")
    said = [t.log_line(s, x) for x in s.log if x.key == "timed_out"]
    assert said == [
        "Bob's time ran out; the server played for him.",
        "Zoe's time ran out; the server played for him.",
    ]


def test_a_drop_to_a_bot_a_return_and_spectators_are_told():
    s = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "table_update", "seq": 1, "ts": 0, "table": _table(1, "Ann", "Bob", away=(1,))},
            {"t": "table_update", "seq": 2, "ts": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "timed_out", "seq": 3, "ts": 0, "seat": 1},
            {"t": "table_update", "seq": 4, "ts": 0, "table": _table(1, "Ann", "Bob", away=(1,))},
            {
                "t": "table_update",
                "seq": 5,
                "ts": 0,
                "table": _table(1, "Ann", "Bob", away=(1,), spectators=2),
            },
            {
                "t": "table_update",
                "seq": 6,
                "ts": 0,
                "table": _table(1, "Ann", "Bob", away=(1,), spectators=1),
            },
        ]
    )
    t = Texts("en")
    assert [t.log_line(s, x) for x in s.log[1:]] == [
        "Bob's client dropped: a bot plays the seat until Bob is back.",
        "Bob is back at the table.",
        "Bob's time ran out; the server played for him.",
        "A bot plays Bob's seat until Bob is back (s).",
        "Someone is watching: 2 spectators now.",
        "A spectator left: 1 spectator now.",
    ]


def _deal(seq, hand=("6S", "7S")):
    return {
        "t": "deal_started",
        "seq": seq,
        "ts": 0,
        "dealer": 1,
        "deck": "36",
        "hand": list(hand),
        "hand_counts": [len(hand), 5],
        "hidden": 1,
        "set_aside": 0,
        "stock": 0,
        "commitment": "c",
        "deal_no": 1,
    }


def _laid(seq, seat, set_no, cards=None):
    return {
        "t": "set_laid",
        "seq": seq,
        "ts": 0,
        "seat": seat,
        "set_no": set_no,
        "rank": "Q",
        "count": 1,
        "cards": cards,
        "size": 1,
    }


def test_after_a_drop_the_replayed_events_are_summed_up_as_a_recap():
    s = model.reduce_all(
        [
            {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"},
            {"t": "table_joined", "re": 2, "seat": 0, "table": _table(1, "Ann", "Bob")},
            _deal(3),
            {"t": "_connection", "status": "lost", "reason": "reset"},
        ]
    )
    assert s.recap_seen == 3
    s = model.reduce_all(
        [
            {
                "t": "welcome",
                "re": 1,
                "resumed": True,
                "session": "tok",
                "table": _table(1, "Ann", "Bob"),
                "seat": 0,
            },
            _laid(4, 1, 1),
            _laid(5, 0, 2, ["6S"]),
            {"t": "chat", "seq": 6, "ts": 0, "seat": 1, "name": "Bob", "text": "hi"},
            {"t": "pile_taken", "seq": 7, "ts": 0, "seat": 1, "count": 2, "cards": None},
            {"t": "_replayed"},
        ],
        s,
    )
    assert s.recap is not None and s.recap is s.log[-1] and not s.recapping
    assert s.recap.args == {
        "sets": 2,
        "mine": 1,
        "piles": [(1, 2)],
        "out": [],
        "deals": [],
        "match": False,
        "timed_out": False,
        "chats": 1,
        "snapshot": False,
        "removed": False,
    }
    assert Texts("en").log_line(s, s.recap) == (
        "While you were away: 2 sets laid (1 by the bot in your seat); Bob took the pile (2 cards); "
        "1 chat message."
    )
    assert Texts("ru").log_line(s, s.recap) == (
        "Пока вас не было: положено: 2 набора (из них 1 — бот на вашем месте); Bob забрал стопку "
        "(2 карты); 1 сообщение в чате."
    )


def test_a_restarted_client_rebuilds_the_deal_and_recaps_only_what_came_after_its_kept_seq():
    s = model.State(recap_seen=5)  # the kept session: seq 5 was seen before the client died
    s = model.reduce_all(
        [
            {
                "t": "welcome",
                "re": 1,
                "resumed": True,
                "session": "tok",
                "table": _table(1, "Ann", "Bob"),
                "seat": 0,
            },
            _deal(3, hand=("6S", "7S", "8S")),
            _laid(4, 0, 1, ["8S"]),  # seen before: rebuilds the deal, not in the recap
            {"t": "turn", "seq": 5, "ts": 0, "seat": 1, "ranks": ["Q"], "set_no": 1, "time_ms": 60000},
            _laid(6, 1, 2),
            {"t": "turn", "seq": 7, "ts": 0, "seat": 0, "ranks": ["Q"], "set_no": 2, "time_ms": 60000},
            {"t": "_replayed"},
        ],
        s,
    )
    assert s.hand == ("6S", "7S") and s.my_turn and s.recap.args["sets"] == 1
    assert s.turn_deadline is None  # a replayed turn's time is not the time left now


def test_a_forgotten_session_starts_afresh_in_the_lobby():
    s = model.reduce_all(
        [
            {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "old"},
            {"t": "table_joined", "re": 2, "seat": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "_fresh", "reason": "no such session"},
        ]
    )
    assert (s.screen, s.session, s.table, s.log[-1].key) == ("lobby", None, None, "fresh")


def test_the_deal_summary_stays_until_the_next_deal_starts():
    ended = {
        "t": "deal_ended",
        "seq": 9,
        "ts": 0,
        "loser": 1,
        "winner": None,
        "out": [0],
        "scores": [0, 1],
        "hand_counts": [0, 3],
        "salt": "x",
        "deck": [],
        "match_scores": [0, 1],
        "deal_no": 1,
    }
    s = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 0, "table": _table(1, "Ann", "Bob")},
            _deal(2),
            ended,
            {"t": "legal", "seq": 10, "ts": 0, "lay": None, "challenge": None, "believe": None},
            {"t": "table_update", "seq": 11, "ts": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "chat", "seq": 12, "ts": 0, "seat": 1, "name": "Bob", "text": "gg"},
        ]
    )
    assert s.over and s.result["loser"] == 1 and s.deal_results[-1]["loser"] == 1
    s = model.reduce(s, {**_deal(13), "deal_no": 2})
    assert not s.over and s.result is None and s.deal_results[-1]["deal_no"] == 1


def test_a_resume_that_finds_the_seat_given_away_lands_in_the_lobby_and_says_why():
    """A tmux run of #22: bob's client was killed, the host gave his seat to a bot, bob started
    the client again: the server resumes the session into the lobby and replays what the table
    sent meanwhile. The replay does not make a table of it; the recap says what happened."""
    table = {"id": 1, "variant": "verish", "state": "playing", "seats": []}
    replay = [
        {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "s", "resumed": True, "table": None},
        {"t": "match_started", "seq": 6, "ts": 0, "table": table, "deals": 5},
        {
            "t": "deal_started",
            "seq": 7,
            "ts": 0,
            "dealer": 2,
            "deck": "52",
            "hand": ["2D", "3C"],
            "hand_counts": [2, 2, 2, 2],
            "hidden": 1,
            "set_aside": 0,
            "stock": 0,
            "commitment": "c",
            "deal_no": 1,
        },
        {"t": "turn", "seq": 8, "ts": 0, "seat": 0, "ranks": ["5"], "set_no": 1, "time_ms": 50_000},
        {"t": "seat_changed", "seq": 9, "ts": 0, "seat": 1, "by": 0, "action": "bot", "name": "bob"},
        {"t": "player_left", "seq": 10, "ts": 0, "seat": 1, "name": "bob", "reason": "removed", "by": 0},
        {"t": "_replayed"},
    ]
    s = model.reduce_all(replay, model.State(name="bob", recap_seen=5))
    assert (s.screen, s.table, s.seat, s.in_deal, s.hand, s.match_started) == (
        "lobby",
        None,
        None,
        False,
        None,
        False,
    )
    assert [line.key for line in s.log] == ["conn_resumed", "removed_away", "recap"]
    en = Texts("en")
    assert en.log_line(s, s.log[1]) == (
        "While you were away the table's host gave your seat to someone else: you are in the lobby."
    )
    assert en.log_line(s, s.recap) == (
        "While you were away: the table's host gave your seat to someone else, and you are in the lobby."
    )
