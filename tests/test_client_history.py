"""The client keeps the deal's history across a snapshot, even one after a server restart: the
model, fed a ``state`` with its ``history`` (docs/PROTOCOL.md, "state: a snapshot"), shows in its
log what happened in the deal, in order, as its log had it, adds only what it had not seen (then
summed up as "while you were away"), says when a restarted server lost moves it had shown, and
counts the claims on the pile (``Pile: N claimed``, where the variant hides sizes) from it."""

from __future__ import annotations

from typing import Any

from neveryu.client.ui import model
from neveryu.client.ui.standings import standings
from neveryu.client.ui.status import status
from neveryu.client.ui.texts import Texts

COMMITMENT = "ab" * 32
TABLE = {
    "id": 1,
    "variant": "cheat",
    "options": {},
    "deals": 3,
    "state": "playing",
    "seats": [
        {"seat": 0, "name": "ann", "bot": None, "ready": True, "away": False},
        {"seat": 1, "name": "bob", "bot": None, "ready": True, "away": False},
        {"seat": 2, "name": "bot 3", "bot": "sharp", "ready": True, "away": False},
    ],
}
STARTED = {
    "t": "deal_started", "dealer": 2, "deck": "52", "hand": ["2S", "3S", "4S", "AH", "AD"],
    "hand_counts": None, "hidden": 0, "set_aside": 0, "stock": 0, "commitment": COMMITMENT, "deal_no": 1,
}  # fmt: skip
DEAL = [
    STARTED,
    {"t": "set_laid", "seat": 0, "set_no": 1, "rank": "A", "count": 1, "cards": ["2S"], "size": 1},
    {"t": "set_laid", "seat": 1, "set_no": 2, "rank": "A", "count": 1, "cards": None, "size": None},
    {"t": "challenged", "seat": 2, "set_no": 2, "tied": []},
    {"t": "set_revealed", "seat": 1, "set_no": 2, "rank": "A", "count": 1, "cards": ["AS"],
     "claim_true": True},
    {"t": "pile_taken", "seat": 2, "count": None, "cards": None},
    {"t": "set_laid", "seat": 2, "set_no": 3, "rank": "K", "count": 1, "cards": None, "size": None},
    {"t": "set_laid", "seat": 0, "set_no": 4, "rank": "K", "count": 1, "cards": ["3S"], "size": None},
]  # fmt: skip
"""A deal of `cheat` as seat 0 (ann) was sent it, without seq and ts: the pile holds two sets of
one claimed card each at its end."""


def events(bodies: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    return [{**b, "seq": seq + i, "ts": 0} for i, b in enumerate(bodies)]


def snapshot(history: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """What a restarted server sends a resumed ann: welcome, table_update, state (and her last set)."""
    state = {
        "t": "state", "seq": seq + 1, "ts": 0, "variant": "cheat", "seat": 0, "players": 3, "deck": "52",
        "dealer": 2, "hand": ["4S", "AH", "AD"], "hand_counts": None, "pile": None, "discard": 0,
        "stock": 0, "hidden": 0, "set_aside": 0, "ranks": ["K", "A", "Q"], "turn": 1, "set_no": 4,
        "last": {"set_no": 4, "seat": 0, "rank": "K", "count": 1, "size": None, "none": False},
        "window_open": False, "out": [], "waiting": [], "over": False, "loser": None, "winner": None,
        "legal": {"lay": None, "challenge": None, "believe": None, "declare_none": None,
                  "discard_quads": [], "decline_quads": False},
        "table": TABLE, "deal_no": 1, "commitment": COMMITMENT, "match_scores": [0, 0, 0],
        "time_ms": None, "history": history,
    }  # fmt: skip
    welcome = {"t": "welcome", "re": 1, "session": "tok", "resumed": True, "restarted": True}
    welcome |= {"table": TABLE, "seat": 0, "minor": 1, "server": {"name": "dorm"}}
    return [welcome, {"t": "table_update", "seq": seq, "ts": 0, "table": TABLE}, state]


def deal_log(state: model.State) -> list[str]:
    """The log's lines from the deal's start, in English."""
    t = Texts("en")
    start = max(i for i, line in enumerate(state.log) if line.key == "deal_started")
    return [t.log_line(state, line) for line in state.log[start:]]


def played(upto: int) -> model.State:
    """Ann's client after the first ``upto`` events of the deal, seated at the table."""
    welcome = {"t": "welcome", "re": 1, "session": "tok", "resumed": False, "server": {"name": "dorm"}}
    joined = {"t": "table_joined", "re": 2, "table": TABLE, "seat": 0}
    return model.reduce_all([welcome, joined, *events(DEAL[:upto], 10)])


def resumed(state: model.State, history: list[dict[str, Any]]) -> model.State:
    lost = {"t": "_connection", "status": "lost", "reason": "reset"}
    return model.reduce_all([lost, *snapshot(history, 100), {"t": "_replayed"}], state)


def test_a_restart_that_lost_nothing_keeps_the_log_and_says_nothing_happened():
    before = played(len(DEAL))
    after = resumed(before, DEAL)
    assert deal_log(after)[: len(deal_log(before))] == deal_log(before)
    assert [line.key for line in after.log[-3:]] == ["conn_lost", "server_restarted", "recap"]
    assert Texts("en").log_line(after, after.log[-1]) == "While you were away: nothing happened."
    assert after.pile_claimed == before.pile_claimed == 2


def test_what_happened_meanwhile_is_logged_in_order_and_summed_up():
    before = played(3)  # away from the challenge on
    after = resumed(before, DEAL)
    assert deal_log(after)[:3] == deal_log(before)
    assert deal_log(after)[3:] == [
        "Connection lost (reset); resuming…",
        "The server restarted; resuming…",
        *deal_log(played(len(DEAL)))[3:],
        "While you were away: 2 sets laid (1 by the bot in your seat); Bot 3 took the pile.",
    ]
    assert after.pile_claimed == 2


def test_moves_a_restarted_server_lost_are_said_to_be_undone():
    before = played(len(DEAL))
    after = resumed(before, DEAL[:-2])  # the journal's last batch was lost
    said = [Texts(lang).log_line(after, after.log[-2]) for lang in ("en", "ru")]
    assert said == [
        "The server came back without the last 2 lines above: they are undone.",
        "Сервер вернулся без последних строк выше (2 строки): они отменены.",
    ]
    assert after.pile_claimed == 0  # the pile taken, and nothing laid on it since


def test_a_second_restart_counts_only_what_it_undid():
    """The lines a first restart undid stay in the log, said undone: a second restart compares
    its history with the lines shown less those, so it undoes nothing that was not lost again,
    and shows again nothing that was shown."""
    first = resumed(played(len(DEAL)), DEAL[:-2])
    again = [  # the deal goes on otherwise after the first restart: bot 3 takes the pile
        {"t": "challenged", "seat": 1, "set_no": 3, "tied": []},
        {"t": "set_revealed", "seat": 2, "set_no": 3, "rank": "K", "count": 1, "cards": ["KS"],
         "claim_true": True},
        {"t": "pile_taken", "seat": 1, "count": None, "cards": None},
    ]  # fmt: skip
    shown = model.reduce_all(events(DEAL[-2:-2] + again, 200), first)
    second = resumed(shown, DEAL[:-2] + again)
    assert deal_log(second)[: len(deal_log(shown))] == deal_log(shown)
    assert [line.key for line in second.log[len(shown.log) :]] == ["conn_lost", "server_restarted", "recap"]
    assert Texts("en").log_line(second, second.log[-1]) == "While you were away: nothing happened."
    third = resumed(second, DEAL[:-2] + again[:1])  # the last two lines lost this time
    assert [Texts("en").log_line(third, line) for line in third.log[len(second.log) + 2 : -1]] == [
        "The server came back without the last 2 lines above: they are undone."
    ]


def test_a_history_without_the_deal_start_is_matched_where_it_overlaps_the_log():
    """A history of over 1,000 events leaves out the oldest (its first is not ``deal_started``):
    it is matched with the log where they overlap, and nothing is shown twice."""
    before = played(len(DEAL))
    after = resumed(before, DEAL[3:])
    assert deal_log(after)[: len(deal_log(before))] == deal_log(before)
    assert [line.key for line in after.log[len(before.log) :]] == ["conn_lost", "server_restarted", "recap"]


def test_only_a_restarted_server_undoes_moves():
    before = played(len(DEAL))
    lost = {"t": "_connection", "status": "lost", "reason": "reset"}
    welcome, update, state = snapshot(DEAL[:-2], 100)
    after = model.reduce_all([lost, {**welcome, "restarted": None}, update, state], before)
    assert [line.key for line in after.log[len(before.log) :]] == ["conn_lost", "conn_resumed"]


def test_a_client_started_afresh_shows_the_whole_deal_and_counts_the_pile():
    after = model.reduce_all(snapshot(DEAL, 100))  # no log at all: `neveryu join` run again
    assert deal_log(after) == deal_log(played(len(DEAL)))
    assert after.pile_claimed == 2
    one_more = {"t": "set_laid", "seq": 102, "ts": 0, "seat": 1, "set_no": 5, "rank": "K", "count": 1}
    after = model.reduce(after, {**one_more, "cards": None, "size": None})
    assert after.pile_claimed == 3
    assert Texts("en")("pile.claimed", n=after.pile_claimed) == "Pile: 3 claimed"


def test_a_snapshot_without_history_still_says_the_game_went_on():
    before = played(3)
    after = model.reduce_all(
        [
            {"t": "_connection", "status": "lost", "reason": "reset"},
            *[{k: v for k, v in m.items() if k != "history"} for m in snapshot(DEAL, 100)],
            {"t": "_replayed"},
        ],
        before,
    )
    assert Texts("en").log_line(after, after.log[-1]) == (
        "While you were away: the game went on, and the server sent where it stands rather than each"
        " move. Now: deal 1/3, bob to play, you hold 3 cards."
    )
    assert Texts("ru").log_line(after, after.log[-1]) == (
        "Пока вас не было: игра шла дальше, и сервер прислал, как она стоит сейчас, а не каждый ход."
        " Сейчас: партия 1/3, ходит bob, у вас 3 карты."
    )


def test_a_client_started_again_between_deals_says_the_match_goes_on():
    """A server restarted between two deals of a match sends a client started again (no log, no
    deal) the table only: the match is on, and the client says the next deal starts by itself
    rather than asking for a start the server would refuse, and shows the match's scores so far
    as the table's summary tells them."""
    table = {**TABLE, "variant": "veryu", "deal_no": 1, "match_scores": [0, 1, 0]}
    welcome = {"t": "welcome", "re": 1, "session": "tok", "resumed": True, "restarted": True}
    welcome |= {"table": table, "seat": 0, "minor": 1, "server": {"name": "dorm"}}
    after = model.reduce_all([welcome, {"t": "table_update", "seq": 100, "ts": 0, "table": table}])
    words = [("".join(text for _style, text in status(after, Texts(lang), 0.0))) for lang in ("en", "ru")]
    assert words == [
        "The match is on: the next deal starts by itself.",
        "Матч идёт: следующая партия начнётся сама.",
    ]
    board = standings(after)  # the match so far, as the summary tells it (no deal's end seen)
    assert board is not None and (board.deals, board.total) == (1, 3)
    assert [(r.seat, r.score, r.place) for r in board.rows] == [(0, 0, 1), (2, 0, 1), (1, 1, 3)]
    waiting = {**table, "state": "waiting", "deal_no": 0, "match_scores": None}
    before = model.reduce_all(
        [{**welcome, "table": waiting}, {"t": "table_update", "seq": 1, "table": waiting}]
    )
    assert (
        "".join(text for _style, text in status(before, Texts("en"), 0.0))
        == "Everyone is ready: s starts the match."
    )
