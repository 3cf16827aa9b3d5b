"""Small things the client says, each worded as a player reads it: lines about one's own seat said
to him, and the other texts checked here one by one."""

from __future__ import annotations

import pytest
from test_client_app import SEATS, deal_messages

from neveryu.client.plain import answers
from neveryu.client.plain.actions import PlainController
from neveryu.client.plain.commands import lay_order
from neveryu.client.plain.words import PlainTexts
from neveryu.client.ui import keybar
from neveryu.client.ui.controller import Controller
from neveryu.client.ui.texts import Texts


def make(messages, lang="en"):
    c = Controller(Texts(lang), lambda r: None, clock=lambda: 100.0)
    for m in messages:
        c.receive(m)
    return c


def test_ones_own_time_running_out_is_said_to_him_not_about_him():
    msgs = deal_messages()
    c = make(msgs)
    c.receive({"t": "timed_out", "seq": 20, "ts": 0, "seat": 0})
    away = [dict(SEATS[0], away=True), *SEATS[1:]]
    c.receive({"t": "table_update", "seq": 21, "ts": 0, "table": {**msgs[1]["table"], "seats": away}})
    c.receive({"t": "timed_out", "seq": 22, "ts": 0, "seat": 1})
    said = [c.t.log_line(c.state, line) for line in c.state.log[-3:]]
    assert said == [
        "Your time ran out; the server played for you.",
        "A bot plays your seat until you are back (s).",
        "Bot 2's time ran out; the server played for him.",
    ]
    ru = Texts("ru")
    assert [ru.log_line(c.state, line) for line in c.state.log[-3:-1]] == [
        "Ваше время вышло; сервер сходил за вас.",
        "Ваше место играет бот, пока вы не вернётесь (s).",
    ]


def test_a_hint_about_a_passed_moment_gives_way_when_the_turn_comes():
    clock = [100.0]
    msgs = deal_messages(turn=1)
    c = Controller(Texts("en"), lambda r: None, clock=lambda: clock[0])
    for m in msgs:
        c.receive(m)
    c.ready()
    assert c.current_notice().text == "The match is on: the next deal starts by itself."
    clock[0] += 0.5
    c.receive({"t": "turn", "seq": 10, "ts": 0, "seat": 0, "ranks": ["Q"], "set_no": 1, "time_ms": 30000})
    assert c.state.my_turn and c.current_notice() is None
    c.receive({"t": "turn", "seq": 11, "ts": 0, "seat": 1, "ranks": ["Q"], "set_no": 2, "time_ms": 30000})
    c.ready()
    clock[0] += 0.5
    c.receive({"t": "turn", "seq": 12, "ts": 0, "seat": 2, "ranks": ["Q"], "set_no": 3, "time_ms": 30000})
    assert c.current_notice() is not None  # read for a moment first...
    clock[0] += 1.5
    assert c.current_notice() is None  # ...but not for the whole of its time


def test_what_the_terminal_lacks_stays_until_a_key_is_pressed():
    from neveryu.client.ui.app import say_notes

    clock = [100.0]
    c = Controller(Texts("en"), lambda r: None, clock=lambda: clock[0])
    say_notes(c, c.t, ("note.no_cyrillic",))
    clock[0] += 5
    for m in deal_messages():  # the welcome, the table, a deal: moment after moment
        c.receive(m)
    assert c.current_notice().text.startswith("English texts: this terminal cannot show Cyrillic")
    c.key_pressed()
    assert c.current_notice() is None


def test_a_chat_line_too_long_is_kept_in_the_field_and_said_not_cut():
    sent: list[dict] = []
    c = Controller(Texts("en"), sent.append, clock=lambda: 100.0)
    for m in deal_messages():
        c.receive(m)
    c.open_chat()
    assert c.send_chat("a" * 501) is True
    assert sent == [] and c.dialog is not None and c.dialog.kind == "chat"
    assert c.current_notice().text == (
        "Not sent: 501 characters, and a message holds at most 500. Shorten it (Esc drops it)."
    )
    assert c.send_chat(" " + "a" * 500 + " ") is False
    assert sent == [{"t": "chat", "text": "a" * 500}] and c.dialog is None


def test_one_long_chat_message_leaves_room_for_the_others():
    from neveryu.client.ui.layout import Screen
    from neveryu.client.ui.layout_log import CHAT_LINES

    c = make(deal_messages())
    c.receive({"t": "chat", "seq": 20, "ts": 0, "seat": 1, "name": "bot 2", "text": "word " * 100})
    screen = Screen(c)
    text = "".join(f[1] for f in screen._chat_text())
    assert text.endswith("…\n") and len(text) < CHAT_LINES * screen._chat_width() + 20


def test_a_name_too_long_is_refused_not_cut(monkeypatch):
    import pytest

    from neveryu.client.commands._ui import player_name

    assert player_name("a" * 32) == "a" * 32
    with pytest.raises(ValueError, match=r"^--name is 33 characters long; a name holds at most 32$"):
        player_name("a" * 33)
    monkeypatch.setenv("NEVERYU_NAME", "b" * 40)
    with pytest.raises(ValueError, match=r"^NEVERYU_NAME is 40 .* shorter one with --name$"):
        player_name(None)


def test_one_outage_is_said_once_however_many_tries_it_takes():
    c = make(deal_messages())
    for attempt in range(5):
        c.receive({"t": "_connection", "status": "lost", "reason": f"try {attempt}"})
        c.receive({"t": "_connection", "status": "resuming"})
    said = [line.key for line in c.state.log if line.key.startswith("conn_")]
    assert said == ["conn_lost", "conn_resuming"]
    shown = [c.t.log_line(c.state, line) for line in c.state.log[-2:]]
    assert shown == ["Connection lost (try 0); resuming…", "Resuming…"]


def test_one_of_a_thing_is_said_in_the_singular():
    t = Texts("en")
    short = "The stock cannot make your hand up to three: lay the {} you hold."
    assert t.why(None, "why.short_set", {"n": 1}) == short.format("1 card")
    assert t.why(None, "why.short_set", {"n": 2}) == short.format("2 cards")
    assert t("log.scrolled", n=1, lines=t.count(1, "lines")) == "Log (scrolled: 1 line below, End)"
    assert t("about.deals", n=1, deals=t.count(1, "deals")) == "1 deal a match"
    assert t("select_exactly", lo=1, n=2, cards=t.count(1, "cards")) == "Select 1 card (now 2)."
    ru = Texts("ru")
    short = ru.why(None, "why.short_set", {"n": 1})
    assert short == "Прикупа не хватает до трёх: кладите всё, что есть (1 карта)."
    scrolled = ru("log.scrolled", n=2, lines=ru.count(2, "lines"))
    assert scrolled == "Ход игры (прокручено: ниже ещё 2 строки, End)"
    assert ru("about.deals", n=5, deals=ru.count(5, "deals")) == "5 партий в матче"


# A rank named as a verb's object is in the accusative: the same as the nominative for the number
# cards («заявляйте двойки»), the genitive for the animate picture cards and ace («заявляйте королей»).
ACCUSATIVE = {
    "2": "двойки", "3": "тройки", "4": "четвёрки", "5": "пятёрки", "6": "шестёрки", "7": "семёрки",
    "8": "восьмёрки", "9": "девятки", "T": "десятки", "J": "валетов", "Q": "дам", "K": "королей",
    "A": "тузов",
}  # fmt: skip


@pytest.mark.parametrize("rank", list(ACCUSATIVE))
def test_a_rank_after_a_verb_is_in_the_accusative(rank):
    ru, them = Texts("ru"), ACCUSATIVE[rank]
    assert ru.why(None, "why.hold", {"rank": rank}).startswith(f"Заявляйте {them}: ")
    assert ru.why(None, "why.order_descending", {"rank": rank}).startswith(f"Заявляйте {them}: ")
    assert ru.why(None, "why.order_ascending", {"rank": rank}).startswith(f"Заявляйте {them}: ")
    c = make(deal_messages(ranks=(rank,)), lang="ru")
    assert f"положить 1–3 как {them}" in [k.label for k in keybar.entries(c)]
    plain = PlainController(PlainTexts("ru"), lambda request: None, clock=lambda: 100.0)
    for m in deal_messages(ranks=(rank,)):
        plain.receive(m)
    assert answers.options(plain)[0].startswith(f"положить 1–3 как {them} ")
    other = "2" if rank != "2" else "3"
    plain.lay_order(lay_order(("QS", "as", other)))
    assert plain.take_notices() == [f"Сейчас нельзя назвать {ACCUSATIVE[other]}: можно {them}."]
