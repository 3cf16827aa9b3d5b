"""What the table screen says (client/ui/layout.py), read as text: the countdown, only the actions
``legal`` allows, the deal's end with the fair-deal check, ASCII cards, and marks that do not need
colour. No terminal: the screen's text callables are called directly."""

from __future__ import annotations

import hashlib

from test_client_app import deal_messages

from neveryu.client.ui.controller import Controller
from neveryu.client.ui.layout import Screen
from neveryu.client.ui.texts import Texts


def plain(fragments) -> str:
    return "".join(text for style, text in fragments if not style.startswith("[")).rstrip()


def screen_for(messages, lang="en", ascii=False, now=100.0):
    clock = [now]
    c = Controller(Texts(lang, ascii=ascii), lambda r: None, clock=lambda: clock[0])
    for m in messages:
        c.receive(m)
    return Screen(c), c, clock


def test_countdown_runs_down_on_the_local_clock():
    screen, _c, clock = screen_for(deal_messages())
    assert "Your turn!  0:30 left" in plain(screen._table_text())
    clock[0] += 21.2
    assert "Your turn!  0:09 left" in plain(screen._table_text())
    clock[0] += 60
    assert "0:00 left" in plain(screen._table_text())


def test_only_the_legal_actions_are_offered_with_their_keys():
    screen, _c, _ = screen_for(deal_messages())
    bar = plain(screen._actions_text())
    assert "Enter lay 1–3 as queens" in bar and "«Не верю»" not in bar and "«Верю»" not in bar
    legal = {"lay": None, "challenge": 4, "believe": 4, "declare_none": None, "discard_quads": ["K"]}
    screen, _c, _ = screen_for(deal_messages("veryu", legal=legal))
    bar = plain(screen._actions_text())
    assert "n «Не верю»" in bar and "y «Верю»" in bar and "d discard quad" in bar and "Enter" not in bar


def test_hand_marks_cursor_and_selection_without_colour():
    screen, c, _ = screen_for(deal_messages())
    c.move(1)
    c.toggle()
    text = plain(screen._hand_text())
    cards, marks = (line.rstrip() for line in text.splitlines()[:2])
    assert cards == "  6♥ * 9♣   Q♠   Q♦"
    assert marks == "      ^^^"


def test_ascii_cards():
    screen, _c, _ = screen_for(deal_messages(hand=("TS", "AH")), ascii=True)
    assert plain(screen._hand_text()).splitlines()[0].rstrip() == " 10S   AH"


def test_deal_end_shows_order_loser_scores_and_fair_deal():
    salt = "5a" * 32
    deck = ["QS", "6H", "QD", "9C"]
    commitment = hashlib.sha256((salt + ":" + ",".join(deck)).encode()).hexdigest()
    msgs = deal_messages()
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
        }
    )
    screen, _c, _ = screen_for(msgs)
    text = plain(screen._table_text())
    assert "Deal over. Loser: Bot 2" in text
    assert "Out in order: 1. Ann (you), 2. Bot 3" in text
    assert "Match scores: Ann (you): 0, Bot 2: 3, Bot 3: 1" in text
    assert "Fair deal: verified ✓" in text
    msgs[-1] = {**msgs[-1], "salt": "00" * 32}
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
    assert "Pile: 3 claimed" in table and "Last set #1: Bot 2 claims 3 queens" in table
    players = plain(screen._players_text())
    assert "Ann (you)" in players and "4 cards" in players and "Bot 2" in players
    assert players.splitlines()[1].strip() == "Bot 2"
