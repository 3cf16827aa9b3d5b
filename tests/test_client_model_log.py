"""The client's model (client/ui/model.py) as the player reads it: the log per table, names of their
time, the recap after a drop, who came and went, and the deal summary; on hand-made message
sequences, without a terminal. The model following recorded deals: tests/test_client_model.py."""

from __future__ import annotations

import pytest
from client_messages import deal_snapshot

from neveryu.client.ui import model
from neveryu.client.ui.texts import Texts

# -- what the log says: per table, names of their time, the recap, who came and went ----------


def _seats(*names, away=(), absent=()):
    return [
        {
            "seat": i,
            "name": n,
            "bot": "sharp" if n and n.startswith("bot") else None,
            "ready": True,
            "away": i in away,
            "absent": i in absent,
        }
        for i, n in enumerate(names)
    ]


def _table(tid, *names, away=(), absent=(), spectators=0, state="playing"):
    return {
        "id": tid,
        "variant": "verish",
        "state": state,
        "seats": _seats(*names, away=away, absent=absent),
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


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_drop_and_a_resume_within_the_grace_time_are_told_to_the_others_only(lang):
    s = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "table_update", "seq": 1, "ts": 0, "table": _table(1, "Ann", "Bob", absent=(1,))},
            {"t": "table_update", "seq": 2, "ts": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "table_update", "seq": 3, "ts": 0, "table": _table(1, "Ann", "Bob", absent=(1,))},
            {
                "t": "table_update",
                "seq": 4,
                "ts": 0,
                "table": _table(1, "Ann", "Bob", absent=(1,), away=(1,)),
            },
            {"t": "table_update", "seq": 5, "ts": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "table_update", "seq": 6, "ts": 0, "table": _table(1, "Ann", "Bob", absent=(0,))},
            {"t": "table_update", "seq": 7, "ts": 0, "table": _table(1, "Ann", "Bob")},
        ]
    )
    t = Texts(lang)
    said = {
        "en": [
            "Bob's connection dropped: the table waits for Bob to come back.",
            "Bob is back at the table.",
            "Bob's connection dropped: the table waits for Bob to come back.",
            "Bob's client dropped: a bot plays the seat until Bob is back.",
            "Bob is back at the table.",
        ],
        "ru": [
            "Bob: связь потеряна, стол ждёт возвращения.",
            "Bob снова за столом.",
            "Bob: связь потеряна, стол ждёт возвращения.",
            "У Bob оборвалась связь: место играет бот, пока Bob не вернётся.",
            "Bob снова за столом.",
        ],
    }
    assert [t.log_line(s, x) for x in s.log[1:]] == said[lang]  # (Ann's own drop: not a line)


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
        "Пока вас не было: положено 2 набора (из них 1 положил бот на вашем месте); Bob забрал стопку "
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


def _resumed_at_table(*names, away=()):
    return {
        "t": "welcome",
        "re": 1,
        "resumed": True,
        "session": "tok",
        "table": _table(1, *names, away=away),
        "seat": 1,
    }


@pytest.mark.parametrize("restarted_client", [False, True])
def test_a_resume_says_who_went_away_and_came_back_as_it_happened_then(restarted_client):
    """The welcome tells the seats as they are now (Bob, seat 2, away); the events replayed after
    it tell them as they were then: Ann's time ran out while Bob played on, then Bob's. No line
    may say Bob came back before he went away."""
    if restarted_client:
        s = model.State(recap_seen=1)
    else:
        s = model.reduce_all(
            [
                {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"},
                {"t": "table_joined", "re": 2, "seat": 1, "table": _table(1, "Ann", "Bob")},
                {"t": "_connection", "status": "lost", "reason": "reset"},
            ]
        )
    s = model.reduce_all(
        [
            _resumed_at_table("Ann", "Bob", away=(1,)),
            {"t": "timed_out", "seq": 2, "ts": 0, "seat": 0},
            {"t": "table_update", "seq": 3, "ts": 0, "table": _table(1, "Ann", "Bob", away=(0,))},
            {"t": "table_update", "seq": 4, "ts": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "timed_out", "seq": 5, "ts": 0, "seat": 1},
            {"t": "table_update", "seq": 6, "ts": 0, "table": _table(1, "Ann", "Bob", away=(1,))},
            {"t": "table_update", "seq": 7, "ts": 0, "table": _table(1, "Ann", "Bob")},  # resumed: back
        ],
        s,
    )
    said = [Texts("en").log_line(s, x) for x in s.log if x.key in ("timed_out", "away_timeout", "back")]
    first = [] if restarted_client else ["A bot plays Ann's seat until Ann is back (s)."]
    assert said == [
        "Ann's time ran out; the server played for him.",
        *first,
        "Ann is back at the table.",
        "Your time ran out; the server played for you.",
        "A bot plays your seat until you are back (s).",
        "You have your seat back.",
    ]


def test_the_matchs_end_clearing_an_away_seat_is_no_coming_back():
    """A seat whose time ran out is away until its player acts; the match's end clears it (no bot
    plays between matches), which is not the player taking his seat back."""
    s = model.reduce_all(
        [
            {"t": "table_joined", "re": 1, "seat": 0, "table": _table(1, "Ann", "Bob")},
            {"t": "table_update", "seq": 2, "ts": 0, "table": _table(1, "Ann", "Bob", away=(0, 1))},
            {"t": "table_update", "seq": 3, "ts": 0, "table": _table(1, "Ann", "Bob", away=(0,))},
            {"t": "table_update", "seq": 4, "ts": 0, "table": _table(1, "Ann", "Bob", state="waiting")},
        ]
    )
    said = [Texts("en").log_line(s, x) for x in s.log if x.key == "back"]
    assert said == ["Bob is back at the table."]  # Bob came back; Ann's seat was only freed


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
    assert [line.key for line in s.log] == ["session_kept", "removed_away", "recap"]
    en = Texts("en")
    assert en.log_line(s, s.log[1]) == (
        "While you were away the table's host took your seat: you are in the lobby."
    )
    assert en.log_line(s, s.recap) == (
        "While you were away: the table's host took your seat, and you are in the lobby."
    )


def _snapshot(seq, history):
    """A ``state`` whose ``history`` holds ``history`` (events without seq and ts)."""
    return deal_snapshot(
        seq=seq,
        seat=0,
        players=2,
        dealer=1,
        hand=["6S", "7S"],
        hand_counts=[2, 4],
        pile=3,
        legal=None,
        table=_table(1, "Ann", "Bob"),
        deal_no=1,
        match_scores=[0, 0],
        time_ms=None,
        history=[{k: v for k, v in e.items() if k not in ("seq", "ts")} for e in history],
    )


@pytest.mark.parametrize("restarted", [False, True])
def test_a_restarted_client_given_the_deal_as_a_snapshot_recaps_only_the_events_it_was_not_shown(restarted):
    """The kept session says the client was shown 2 of the deal's events (its start and Ann's
    set); the snapshot's history holds two more sets. Its seq past the kept one (the server no
    longer kept the events): those two are "while you were away". A server started again goes
    on from the seq the client gave: its history was all sent before it stopped, nothing came
    while the client was away (the sets the kept session had not counted yet were seen)."""
    s = model.State(recap_seen=5, recap_known=2)
    history = [
        _deal(1, hand=("6S", "7S", "8S", "9S")),
        _laid(2, 0, 1, ["8S"]),
        _laid(4, 1, 2),
        _laid(6, 0, 3, ["9S"]),
    ]
    welcome = {"t": "welcome", "re": 1, "resumed": True, "restarted": restarted, "session": "tok"}
    s = model.reduce_all(
        [{**welcome, "table": _table(1, "Ann", "Bob"), "seat": 0}, _snapshot(1 if restarted else 9, history)],
        s,
    )
    s = model.reduce(s, {"t": "_replayed"})
    assert s.recap is not None and (s.recap.args["sets"], s.recap.args["mine"]) == (
        (0, 0) if restarted else (2, 1)
    )
    assert [line.key for line in s.log].count("set_laid") == 3
