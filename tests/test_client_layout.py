"""What the table screen says (client/ui/layout.py and its parts), read as text: the status line
with the countdown, only the actions ``legal`` allows, the deal's end with the fair-deal check,
ASCII cards, marks that do not need colour, text wrapped at word boundaries, a key bar that
keeps ``? help`` at any width. No terminal: the screen's text callables are called directly."""

from __future__ import annotations

import hashlib

import pytest
from test_client_app import SEATS, deal_messages

from neveryu.client.ui import keybar, model
from neveryu.client.ui.controller import Controller
from neveryu.client.ui.layout import Screen
from neveryu.client.ui.status import status
from neveryu.client.ui.text_tables import to_ascii
from neveryu.client.ui.texts import Texts
from neveryu.client.ui.wrap import Scroll, fit, wrap, wrap_text


def plain(fragments) -> str:
    return "".join(f[1] for f in fragments if not f[0].startswith("[")).rstrip()


def lines(drawn) -> list[str]:
    return ["".join(text for _, text in line).rstrip() for line in drawn]


def screen_for(messages, lang="en", ascii=False, now=100.0):
    clock = [now]
    c = Controller(Texts(lang, ascii=ascii), lambda r: None, clock=lambda: clock[0])
    for m in messages:
        c.receive(m)
    return Screen(c), c, clock


def test_status_line_counts_down_on_the_local_clock():
    _, c, clock = screen_for(deal_messages())
    assert plain(status(c.state, c.t, clock[0])) == "▶ Your turn! · lead with queens · 0:30 left"
    clock[0] += 21.2
    assert plain(status(c.state, c.t, clock[0])).endswith("0:09 left")
    clock[0] += 60
    assert plain(status(c.state, c.t, clock[0])).endswith("0:00 left")


@pytest.mark.parametrize("away", [False, True])
def test_a_turn_of_unknown_time_says_the_clock_runs_only_for_a_player_not_away(away):
    """A turn told without its time (replayed after a resume) at a timed table: the clock runs;
    but not while the seat is away, where a bot plays it and no clock runs for the player."""
    msgs = deal_messages()
    msgs[1]["table"] = dict(msgs[1]["table"], turn_ms=15000)
    msgs[1]["table"]["seats"] = [dict(SEATS[0], away=away), *SEATS[1:]]
    msgs[3] = dict(msgs[3], time_ms=None)
    _, c, clock = screen_for(msgs)
    said = plain(status(c.state, c.t, clock[0]))
    assert said == (
        "▶ Your turn: a bot plays it (s takes your seat back) · lead with queens"
        if away
        else "▶ Your turn! · lead with queens · the clock runs (15 s a turn)"
    )


def test_only_the_legal_actions_are_offered_with_their_keys():
    _, c, _ = screen_for(deal_messages())
    bar = [(k.key, k.label) for k in keybar.entries(c)]
    assert ("Enter", "lay 1–3 as queens") in bar and "n" not in dict(bar) and "y" not in dict(bar)
    legal = {"lay": None, "challenge": 4, "believe": 4, "declare_none": None, "discard_quads": ["K"]}
    _, c, _ = screen_for(deal_messages("veryu", legal=legal))
    bar = {k.key: k.label for k in keybar.entries(c)}
    assert bar["n"] == "«Не верю»" and bar["y"] == "«Верю»" and bar["d"] == "discard quads"
    assert "Enter" not in bar


@pytest.mark.parametrize("width", [64, 40, 30, 24])
def test_the_key_bar_keeps_help_and_quit_at_any_width(width):
    legal = {"lay": {"min": 1, "max": 4, "ranks": ["Q"]}, "challenge": 4, "believe": 4, "declare_none": "Q"}
    _, c, _ = screen_for(deal_messages("veryu", legal={**legal, "discard_quads": ["K"]}))
    rows = keybar.fit(keybar.entries(c), width, 3)
    keys = [k.key for row in rows for k in row]
    assert len(rows) <= 3 and "?" in keys and "q" in keys and "n" in keys and "y" in keys
    assert all(sum(k.width for k in row) + keybar.GAP * (len(row) - 1) <= width for row in rows)


def test_hand_marks_cursor_and_selection_without_colour():
    screen, c, _ = screen_for(deal_messages())
    c.move(1)
    c.toggle()
    c.move(1)
    assert lines(screen._hand_lines(64, 5)) == ["  6♥ * 9♣ [ Q♠]  Q♦"]
    assert screen._hand_title() == "Your hand: 4 cards · selected 1: 9♣"


def test_ascii_cards_and_names():
    msgs = deal_messages(hand=("TS", "AH"))
    msgs[1]["table"]["seats"] = [dict(SEATS[0], name="Аня"), *SEATS[1:]]
    screen, c, _ = screen_for(msgs, ascii=True)
    assert lines(screen._hand_lines(64, 5)) == ["[10S]  AH"]
    assert c.t.seat_name(c.state, 0) == "Anya (you)"
    assert to_ascii("«Не верю» · Q♠ — ok…") == '"Ne veryu" | QS - ok...'


def test_deal_end_shows_order_loser_and_fair_deal_until_the_next_deal():
    salt = "5a" * 32
    deck = ["QS", "6H", "QD", "9C"]
    commitment = hashlib.sha256((salt + ":" + ",".join(deck)).encode()).hexdigest()
    msgs = deal_messages()
    msgs[1]["table"]["deals"] = 5
    msgs[2] = {**msgs[2], "commitment": commitment}
    msgs.append(
        {
            "t": "deal_ended",
            "seq": 9,
            "ts": 0,
            "loser": 1,
            "winner": None,
            "out": [0, 2],
            "scores": [0, 1, 0],
            "hand_counts": [0, 4, 0],
            "salt": salt,
            "deck": deck,
            "match_scores": [0, 3, 1],
            "deal_no": 1,
        }
    )
    msgs.append({"t": "legal", "seq": 10, "ts": 0, "lay": None, "challenge": None, "believe": None})
    screen, c, clock = screen_for(msgs)
    text = plain(screen._table_text())
    assert text.startswith("Deal 1/5 over. Bot 2 loses.\nOut in order: 1. Ann (you), 2. Bot 3\n")
    assert "Fair deal: verified ✓" in text
    assert plain(status(c.state, c.t, clock[0])).startswith("Deal 1/5 over: Bot 2 loses.")
    clock[0] += 30  # it stays while the deal is over, however long
    assert plain(screen._table_text()) == text
    c.receive({**msgs[2], "seq": 11, "deal_no": 2})
    assert "over" not in plain(screen._table_text())
    msgs[-2] = {**msgs[-2], "salt": "00" * 32}
    screen, _c, _ = screen_for(msgs, lang="ru")
    assert "Проверка сдачи НЕ прошла" in plain(screen._table_text())


def test_sizes_hidden_where_the_variant_hides_them():
    msgs = deal_messages("cheat")
    msgs[2] = {**msgs[2], "hand_counts": None}
    msgs.append(
        {
            "t": "set_laid",
            "seq": 9,
            "ts": 0,
            "seat": 1,
            "set_no": 1,
            "rank": "Q",
            "count": 3,
            "cards": None,
            "size": None,
        }
    )
    screen, _c, _ = screen_for(msgs)
    table = plain(screen._table_text())
    assert "Pile: 3 claimed" in table and "#1 Bot 2: 3 queens" in table
    players = lines(screen._player_cells(SEATS, 36))
    assert players == [  # only one's own count: the others' are hidden
        "▶ Ann (you)    4 cards",
        "  Bot 2                       normal",
        "  Bot 3                dealer normal",
    ]


def test_away_is_never_cut_beside_the_dealer_and_the_cards():
    seats = [dict(SEATS[0], away=True), *SEATS[1:]]
    msgs = deal_messages()
    msgs[1]["table"]["seats"] = seats
    msgs[2] = {**msgs[2], "dealer": 0}
    screen, _c, _ = screen_for(msgs)
    for width in (40, 30, 26, 24):
        row = lines(screen._player_cells(seats, width))[0]
        assert len(row) <= width and "away" in row and "4" in row.split(), (width, row)
    assert lines(screen._player_cells(seats, 40)) == [  # each tag in a column of its own
        "▶ Ann (you)   4 cards away dealer",
        "  Bot 2       5 cards             normal",
        "  Bot 3       5 cards             normal",
    ]


def test_the_players_columns_line_up_whatever_the_counts_and_tags():
    seats = [
        dict(SEATS[0], away=True),
        dict(SEATS[1], name="Vera", bot=None),
        dict(SEATS[2], name="bot 3", bot="sharp"),
    ]
    msgs = deal_messages()
    msgs[1]["table"].update(seats=seats, host=1)
    msgs[2] = {**msgs[2], "dealer": 2, "hand_counts": [1, 13, 5]}
    screen, _c, _ = screen_for(msgs)
    assert lines(screen._player_cells(seats, 48)) == [
        "▶ Ann (you)        1 card  away",
        "  Vera            13 cards                  host",
        "  Bot 3            5 cards      dealer hard",
    ]


def test_the_ready_screen_says_what_it_waits_for():
    table = {"id": 4, "variant": "verish", "state": "waiting", "turn_ms": 60000, "deals": 5}
    welcome = {"t": "welcome", "re": 1, "server": {"name": "t"}, "session": "s"}
    waiting = [dict(SEATS[0], ready=False), dict(SEATS[1], name=None, bot=None, ready=False), SEATS[2]]
    _, c, _ = screen_for(
        [welcome, {"t": "table_joined", "re": 2, "seat": 0, "table": {**table, "seats": waiting}}]
    )
    assert plain(status(c.state, c.t, 0)) == "Waiting for players: 1 seat free."
    bob = [dict(SEATS[0], ready=True), dict(SEATS[1], name="Bob", bot=None, ready=False), SEATS[2]]
    c.receive({"t": "table_update", "seq": 1, "ts": 0, "table": {**table, "seats": bob}})
    assert plain(status(c.state, c.t, 0)) == "Waiting for Bob to get ready."
    ready = [dict(x, ready=True) for x in bob]
    c.receive({"t": "table_update", "seq": 2, "ts": 0, "table": {**table, "seats": ready}})
    assert plain(status(c.state, c.t, 0)) == "Everyone is ready: s starts the match."
    assert c.ready_action() == "start"


def test_words_wrap_at_spaces_and_keep_their_styles():
    assert wrap_text("The terminal is 50×15; neveryu needs at least 64×20.", 20) == [
        "The terminal is",
        "50×15; neveryu needs",
        "at least 64×20.",
    ]
    assert wrap_text("Bot 2 claims 2 queens, again and again", 14, indent=2) == [
        "Bot 2 claims 2",
        "  queens,",
        "  again and",
        "  again",
    ]
    assert wrap_text("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap([("a", "red words "), ("b", "and blue")], 8) == [
        [("a", "red")],
        [("a", "words")],
        [("b", "and"), ("b", " "), ("b", "blue")],
    ]
    assert fit("a long name", 6) == "a lon…" and fit("ab", 4) == "ab  "


def test_a_scroll_follows_the_end_until_moved_and_again_from_the_end():
    s = Scroll()
    assert s.start(100, 10) == 90
    s.page, s.total = 10, 100
    s.page_up()
    assert s.top == 81 and s.below() == 9
    s.home()
    assert s.top == 0
    s.page_down()
    assert s.top == 9
    s.end()
    assert s.top is None and s.start(120, 10) == 110


def test_the_log_reads_with_the_names_of_its_time():
    _, c, _ = screen_for(deal_messages())
    c.receive(
        {
            "t": "set_laid",
            "seq": 8,
            "ts": 0,
            "seat": 1,
            "set_no": 1,
            "rank": "Q",
            "count": 1,
            "cards": None,
            "size": 1,
        }
    )
    renamed = [SEATS[0], dict(SEATS[1], name="Zed", bot=None), SEATS[2]]
    c.receive(
        {
            "t": "table_update",
            "seq": 9,
            "ts": 0,
            "table": {"id": 1, "variant": "verish", "state": "playing", "seats": renamed},
        }
    )
    said = [c.t.log_line(c.state, x) for x in c.state.log]
    assert "Bot 2 claims 1 queen." in said and not any("Zed claims" in x for x in said)
    assert isinstance(c.state.log[-1], model.Line)


def test_players_of_the_same_name_are_told_apart_by_their_seat():
    msgs = deal_messages()
    msgs[1]["table"]["seats"] = [SEATS[0], dict(SEATS[1], name="Ann", bot=None), SEATS[2]]
    _, c, _ = screen_for(msgs)
    assert [c.t.seat_name(c.state, i) for i in range(3)] == ["Ann #1 (you)", "Ann #2", "Bot 3"]


def test_a_stopped_server_leaves_a_lobby_with_no_stale_tables_and_one_message():
    tables = [{"id": 1, "variant": "verish", "seats": SEATS, "state": "waiting"}]
    welcome = {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "s"}
    screen, c, _ = screen_for([welcome, {"t": "tables", "re": 2, "tables": tables}])
    assert [k.key for k in keybar.entries(c)][:3] == ["↑↓", "Enter", "v"]
    lost = screen_for([welcome, {"t": "tables", "re": 2, "tables": tables}])[1]
    lost.receive({"t": "_connection", "status": "lost", "reason": "reset"})
    assert [k.key for k in keybar.entries(lost)] == ["?", "q"]  # the list stays, to come back on resume
    lost_screen = Screen(lost)  # in the lobby no seat is kept: q just quits
    assert plain(lost_screen._notice_text()) == (
        "The connection is lost; the client is resuming your session. q quits."
    )
    at_table = screen_for(deal_messages())[1]
    at_table.receive({"t": "_connection", "status": "lost", "reason": "reset"})
    assert plain(Screen(at_table)._notice_text()).endswith("q quits (your seat is kept).")
    c.receive({"t": "bye", "seq": 3, "ts": 0, "reason": "shutdown"})
    assert lines(screen._lobby_lines(64, 10)) == ["Not connected: no tables to show."]
    assert [(k.key, k.label) for k in keybar.entries(c)] == [("?", "help"), ("q", "quit")]
    log = [c.t.log_line(c.state, line) for line in c.state.log]
    notice = plain(screen._notice_text())
    assert log == ["The server has stopped."]
    assert notice == "q quits; when the server runs again, join it afresh."
    c = screen_for(deal_messages() + [{"t": "bye", "seq": 30, "ts": 0, "reason": "shutdown"}])[1]
    assert plain(status(c.state, c.t, 0)) == "Disconnected: the server has stopped."


def test_the_dealer_keeps_his_tag_at_the_smallest_size():
    """64 columns give the players' list 28 (bot 3 deals, the bots are normal): the counts lose
    their word before a tag goes, so the dealer's tag and the bots' levels both fit; with less
    room the level goes first, the dealer's tag stays."""
    screen, _, _ = screen_for(deal_messages())
    assert lines(screen._players_lines(28, 5)) == [
        "▶ Ann (you)  4",
        "  Bot 2      5        normal",
        "  Bot 3      5 dealer normal",
    ]
    assert lines(screen._players_lines(20, 5)) == ["▶ Ann (you) 4", "  Bot 2     5", "  Bot 3     5 dealer"]
    screen, _, _ = screen_for(deal_messages(), "ru")
    assert lines(screen._players_lines(28, 5))[2] == "  Бот 3      5 сдаёт средний"
