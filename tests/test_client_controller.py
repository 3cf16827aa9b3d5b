"""The controller (client/ui/controller.py) without a terminal: keys that do nothing say why,
notices go when their moment has passed, the screen is redrawn only when something changed or a
visible countdown ticks, the bell and the title, confirmed calls, the new-table form, the host's
seats, quitting when the server is gone, and what is printed after the screen closes."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest
from test_client_app import SEATS, deal_messages

from neveryu.client.ui import controller as controller_module
from neveryu.client.ui.controller import Controller, Prefs
from neveryu.client.ui.create_form import CreateForm
from neveryu.client.ui.session import exit_note
from neveryu.client.ui.strings import EN, RU
from neveryu.client.ui.texts import Texts

WELCOME = {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "s"}


def make(messages=(), lang="en", prefs=None, now=100.0):
    clock = [now]
    sent: list[dict] = []
    redraws: list[int] = []
    c = Controller(Texts(lang), sent.append, clock=lambda: clock[0], prefs=prefs)
    c.invalidate = lambda: redraws.append(1)
    for m in messages:
        c.receive(m)
    return c, sent, clock, redraws


def notice(c):
    n = c.current_notice()
    return n.text if n is not None else None


def test_keys_that_do_nothing_now_say_why():
    legal = {"lay": None, "challenge": None, "believe": None, "declare_none": None, "discard_quads": []}
    c, sent, _, _ = make(deal_messages(legal=legal, turn=1))
    c.challenge()
    assert notice(c) == "Not your turn: Bot 2 plays now."
    c.believe()
    assert notice(c) == "There is no «Верю» in this variant."
    c.declare_none()
    assert notice(c) == "Declaring none is not part of this table's rules."
    c.discard_quads()
    assert notice(c) == "No quads to discard now."
    c.lay()
    assert notice(c) == "Not your turn: Bot 2 plays now."
    c.ready()
    assert notice(c) == "The match is on: the next deal starts by itself."
    c.unknown_key("z")
    assert notice(c) == "The key z does nothing here: ? shows the keys."
    assert sent == []


def test_a_stale_notice_goes_when_its_moment_has_passed():
    c, _, clock, _ = make(deal_messages())
    c.lay()  # nothing selected
    assert notice(c) == "Select 1–3 cards with Space first."
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
    assert notice(c) is not None  # shown at least NOTICE_MIN_S, even when the moment passes at once
    clock[0] += controller_module.NOTICE_MIN_S
    c.receive({"t": "turn", "seq": 9, "ts": 0, "seat": 2, "ranks": ["Q"], "set_no": 1, "time_ms": None})
    assert notice(c) is None
    c.lay()
    clock[0] += controller_module.NOTICE_S
    assert notice(c) is None  # and each goes after NOTICE_S whatever happens


def test_an_idle_lobby_redraws_nothing_and_needs_no_timer():
    tables = {
        "t": "tables",
        "re": 2,
        "tables": [{"id": 1, "variant": "verish", "seats": SEATS, "state": "waiting"}],
    }
    c, _, clock, redraws = make([WELCOME, tables])
    before = len(redraws)
    for _ in range(5):  # the lobby's refresh every few seconds: the same list, nothing to draw
        c.receive(dict(tables))
    assert len(redraws) == before
    assert c.next_tick(clock[0]) is None


def test_a_visible_countdown_ticks_on_whole_seconds():
    c, _, clock, _ = make(deal_messages())  # my turn, 30 s
    clock[0] += 0.25
    assert c.next_tick(clock[0]) == pytest.approx(0.76)  # to 29 s left, and a hair
    c.receive({"t": "turn", "seq": 9, "ts": 0, "seat": 1, "ranks": ["Q"], "set_no": 1, "time_ms": None})
    assert c.next_tick(clock[0]) is None  # a bot's untimed turn: nothing runs on the clock


def test_the_bell_rings_for_my_turn_and_for_my_name_in_chat():
    rang: list[str] = []
    c, _, _, _ = make(deal_messages(turn=1, legal={"lay": None, "challenge": None, "believe": None}))
    c.state = attrs.evolve(c.state, name="Ann")  # the name this client said hello with
    c.on_attention = rang.append
    c.receive({"t": "chat", "seq": 11, "ts": 0, "seat": 1, "name": "Bob", "text": "your move, ann!"})
    c.receive({"t": "chat", "seq": 12, "ts": 0, "seat": 1, "name": "Bob", "text": "Annabel?"})
    c.receive({"t": "chat", "seq": 13, "ts": 0, "seat": 0, "name": "Ann", "text": "Ann here"})
    c.receive({"t": "turn", "seq": 14, "ts": 0, "seat": 0, "ranks": ["Q"], "set_no": None, "time_ms": None})
    assert rang == ["chat", "turn"]


def test_confirmed_calls_need_a_second_press():
    legal = {"lay": None, "challenge": 5, "believe": 5, "declare_none": None, "discard_quads": []}
    c, sent, _, _ = make(deal_messages("veryu", legal=legal), prefs=Prefs(confirm_calls=True))
    c.challenge()
    assert sent == [] and c.dialog.kind == "confirm"
    c.close_dialog()
    c.believe()
    c.confirm_call()
    assert sent == [{"t": "believe", "set_no": 5}]


def test_the_new_table_form_is_friends_first_and_sends_what_it_shows():
    f = CreateForm()
    assert (f.variant, f.seats, f.bots, f.strength, f.turn, f.deals) == ("verish", 4, 1, "sharp", 60, 5)
    assert f.fields() == ["variant", "seats", "bots", "strength", "turn", "deals", "password"]
    assert f.request() == {
        "t": "create_table",
        "variant": "verish",
        "options": {},
        "seats": 4,
        "bots": ["sharp"],
        "turn_ms": 60000,
        "deals": 5,
    }
    f.field = f.fields().index("password")
    f.type("hunter2")
    f.backspace()
    f.field = f.fields().index("turn")
    f.change(-4)  # 60 s -> off
    assert f.request()["password"] == "hunter" and f.request()["turn_ms"] == 0
    served = [
        {"name": "verish", "title": "x", "players": [2, 6], "options": {}, "quads_window_ms": 2000},
        {
            "name": "hoyle",
            "title": "y",
            "players": [2, 12],
            "options": {"packet_size": {"default": 3, "choices": [2, 3]}},
        },
    ]
    f = CreateForm(variants=tuple(served), strengths=("honest", "random", "sharp"))
    assert "quads_window" in f.fields() and f.request()["quads_window_ms"] == 2000
    f.field = 0
    f.change(1)  # hoyle: no quads window, its own option
    assert "quads_window" not in f.fields() and "quads_window_ms" not in f.request()
    assert f.fields()[-1] == "packet_size" and f.value("packet_size") == 3


def test_the_form_reads_in_russian_without_internal_names():
    c, _, _, _ = make([WELCOME], lang="ru")
    c.open_create()
    from neveryu.client.ui.pages import dialog_text

    for variant in ("verish", "hoyle", "cheat"):
        c.form.set_variant(variant)
        text = "".join(f[1] for f in dialog_text(c))
        for internal in ("packet_size", "declare_none", "chips_per_player", "False", "True", "sharp", "deck"):
            assert internal not in text, (variant, internal, text)
    assert "Сила ботов" in text and "сильный" in text


def test_host_controls_wait_for_the_server_to_offer_them():
    c, sent, _, _ = make(deal_messages())
    c.open_seats()
    assert notice(c) == "This server does not let the table's host change seats." and c.dialog is None
    msgs = deal_messages()
    msgs[1]["table"]["host"] = 0
    away = [SEATS[0], dict(SEATS[1], name="Bob", bot=None, away=True), SEATS[2]]
    msgs[1]["table"]["seats"] = away
    c, sent, _, _ = make(msgs)
    c.open_seats()
    assert c.dialog.kind == "seats"
    c.dialog_move(1)
    c.seat_bot()
    assert sent == [] and c.dialog.data["confirm"] == ("b", 1)  # Bob's seat: asked first
    c.seat_bot()
    assert sent == [{"t": "seat_bot", "seat": 1, "strength": "sharp"}]
    c.seat_free()
    assert notice(c) == "Seats are emptied only between matches." and len(sent) == 1


def test_the_host_confirms_before_a_player_loses_his_seat():
    from neveryu.client.ui import keybar
    from neveryu.client.ui.pages import dialog_text

    msgs = deal_messages()
    msgs[1]["table"].update(host=0, state="waiting")
    msgs[1]["table"]["seats"] = [SEATS[0], dict(SEATS[1], name="Bob", bot=None), SEATS[2]]
    c, sent, _, _ = make(msgs)
    c.open_seats()
    c.dialog_move(1)
    c.seat_free()
    assert sent == []
    text = "".join(f[1] for f in dialog_text(c))
    assert text.endswith(
        "Take seat 2 from Bob? Bob goes back to the lobby and the seat stays empty until someone sits"
        " down. Press x again to do it, Esc not to."
    )
    assert [(k.key, k.label) for k in keybar.entries(c)][:2] == [("x", "yes, empty the seat"), ("Esc", "no")]
    c.close_dialog()  # Esc answers the question, and the dialog stays
    assert c.dialog.kind == "seats" and "confirm" not in c.dialog.data
    c.seat_free()
    c.dialog_move(1)  # another seat: the question is gone
    c.dialog_move(-1)
    c.seat_free()
    assert sent == []
    c.seat_free()
    assert sent == [{"t": "seat_free", "seat": 1}]
    c.dialog_move(1)  # a bot's seat is emptied at once: nobody loses anything
    c.seat_free()
    assert sent[-1] == {"t": "seat_free", "seat": 2}


def test_emptying_a_free_seat_says_it_is_free_in_the_players_language():
    msgs = deal_messages()
    msgs[1]["table"].update(host=0, state="waiting")
    msgs[1]["table"]["seats"] = [SEATS[0], dict(SEATS[1], name=None, bot=None), SEATS[2]]
    c, sent, _, _ = make(msgs, lang="ru")
    c.open_seats()
    c.dialog_move(1)
    c.seat_free()
    assert sent == [] and notice(c) == "Место 2 уже свободно."


@pytest.mark.parametrize("playing", [True, False])
def test_the_removed_player_reads_the_hosts_name_and_what_became_of_his_seat(playing):
    msgs = deal_messages()
    msgs[1]["table"].update(host=1, state="playing" if playing else "waiting")
    msgs[1]["table"]["seats"] = [SEATS[0], dict(SEATS[1], name="Vera", bot=None), SEATS[2]]
    c, _, _, _ = make(msgs)
    c.receive({"t": "player_left", "seq": 30, "ts": 0, "seat": 0, "name": "me", "reason": "removed", "by": 1})
    assert c.state.screen == "lobby"
    what = "gave your seat to a bot" if playing else "took your seat"
    assert (
        c.t.log_line(c.state, c.state.log[-1])
        == f"Vera, the table's host, {what}: you are back in the lobby."
    )


def test_the_host_may_ask_for_a_present_looking_seat_and_the_server_decides():
    """The summary does not say whose client dropped (its grace runs before he is ``away``): the
    client asks, and a player who is here keeps his seat, said in words (a case first seen in a real
    terminal)."""
    msgs = deal_messages()
    msgs[1]["table"]["host"] = 0
    msgs[1]["table"]["seats"] = [SEATS[0], dict(SEATS[1], name="Bob", bot=None), SEATS[2]]
    c, sent, _, _ = make(msgs)
    c.open_seats()
    c.dialog_move(1)
    c.seat_bot()
    c.seat_bot()
    assert sent == [{"t": "seat_bot", "seat": 1, "strength": "sharp"}]
    c.receive({"t": "error", "re": 9, "code": "SEAT_TAKEN", "msg": "Bob holds seat 1", "fatal": False})
    assert notice(c) == (
        "Bob is at the table: a bot takes only the seat of a player whose client has dropped, or who is away."
    )
    c.receive({"t": "error", "re": 10, "code": "SEAT_TAKEN", "msg": "Bob holds seat 1", "fatal": False})
    assert notice(c) == "Refused: Bob holds seat 1"  # no question of the dialog's open any more


def test_q_quits_at_once_when_the_server_is_gone_and_says_how_to_come_back():
    quit: list[int] = []
    c, sent, _, _ = make(deal_messages())
    c.on_quit = lambda: quit.append(1)
    c.receive({"t": "bye", "seq": 20, "ts": 0, "reason": "shutdown"})
    c.quit_key()
    assert quit == [1] and sent == []
    assert exit_note(c, "10.0.0.5:7420", "neveryu join 10.0.0.5:7420") == (
        "The server at 10.0.0.5:7420 has stopped. When it runs again: neveryu join 10.0.0.5:7420"
    )
    c, _, _, _ = make(deal_messages())
    assert (
        exit_note(c, "h:1", "neveryu join h:1")
        == "Your seat at table 1 is kept. To come back: neveryu join h:1"
    )


def test_every_text_used_exists_in_both_languages():
    root = Path(__file__).resolve().parent.parent / "client"
    used: set[str] = set()
    for path in root.rglob("*.py"):
        for key in re.findall(r"""\bt\(\s*"([a-z_]+\.[a-z_.]+)\"""", path.read_text(encoding="utf-8")):
            if not key.endswith("."):  # a key made up at run time: its parts are checked apart
                used.add(key)
    missing = sorted(k for k in used if k not in EN)
    assert missing == []
    assert sorted(set(EN) - set(RU)) == [] and sorted(set(RU) - set(EN)) == []
    for key, text in EN.items():  # the same fields to fill in, in both languages
        assert set(re.findall(r"{(\w+)", text)) == set(re.findall(r"{(\w+)", RU[key])), key
