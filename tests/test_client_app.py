"""The terminal client's application with prompt-toolkit's pipe input and dummy output: key presses
lead to the right requests, and only the actions the server's ``legal`` allows are offered.

pytest-trio claims async tests, so these are sync tests that run their own asyncio loop."""

from __future__ import annotations

import asyncio
import time

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from neveryu.client.ui import keybar
from neveryu.client.ui.app import build_app
from neveryu.client.ui.controller import Controller
from neveryu.client.ui.pages import dialog_text
from neveryu.client.ui.texts import Texts

SEATS = [
    {"seat": 0, "name": "Ann", "bot": None, "ready": True, "away": False},
    {"seat": 1, "name": "bot 2", "bot": "honest", "ready": True, "away": False},
    {"seat": 2, "name": "bot 3", "bot": "honest", "ready": True, "away": False},
]


def deal_messages(variant="verish", hand=("QS", "6H", "QD", "9C"), legal=None, ranks=("Q",), turn=0):
    legal = legal or {
        "lay": {"min": 1, "max": 3, "ranks": list(ranks)},
        "challenge": None,
        "believe": None,
        "declare_none": None,
        "discard_quads": [],
    }
    return [
        {"t": "welcome", "re": 1, "server": {"name": "test"}, "session": "tok"},
        {
            "t": "table_joined",
            "re": 2,
            "seat": 0,
            "table": {"id": 1, "variant": variant, "state": "playing", "seats": SEATS},
        },
        {
            "t": "deal_started",
            "seq": 1,
            "ts": 0,
            "dealer": 2,
            "deck": "36",
            "hand": list(hand),
            "hand_counts": [len(hand), 5, 5],
            "hidden": 1,
            "set_aside": 0,
            "stock": 0,
            "commitment": "c",
            "deal_no": 1,
        },
        {
            "t": "turn",
            "seq": 2,
            "ts": 0,
            "seat": turn,
            "ranks": list(ranks),
            "set_no": None,
            "time_ms": 30000,
        },
        {"t": "legal", "seq": 3, "ts": 0, **legal},
    ]


def press(keys: list, messages, lang="en", leave_quits=True, until=None, prefs=None):
    """Run the application on ``messages``, type ``keys`` in order (an item that is a function is
    a condition on the controller to wait for before typing on), wait for ``until(controller)`` if
    given, then press Ctrl-C; returns (requests sent, controller)."""
    sent: list[dict] = []

    async def main():
        with create_pipe_input() as inp:
            c = Controller(Texts(lang), sent.append, leave_quits=leave_quits, prefs=prefs)
            for m in messages:
                c.receive(m)
            app = build_app(c, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            await _until(lambda: app.is_running)
            for item in keys:
                if callable(item):
                    await _until(lambda item=item: item(c))
                else:
                    inp.send_text(item)
            if until is not None:
                await _until(lambda: until(c))
            if not task.done():
                inp.send_text("\x03")
            await asyncio.wait_for(task, 5)
            return c

    c = asyncio.run(main())
    return sent, c


async def _until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def test_space_selects_and_enter_lays_the_selected_cards():
    # hand sorted: 6H 9C QS QD; cursor starts on 6H
    sent, _c = press(["ll", " ", "l", " ", "\r"], deal_messages())
    assert sent == [{"t": "lay", "cards": ["QS", "QD"], "rank": "Q"}]


def test_h_and_left_move_back_and_space_unselects():
    sent, _ = press([" ", "l", " ", "h", " ", "\x1b[D", "\x1b[D", " ", "\r"], deal_messages())
    # select 6H, 9C; unselect 6H; left twice wraps to QS... cursor: 0->1->0->(wrap)3->2 ; select QS
    assert sent == [{"t": "lay", "cards": ["9C", "QS"], "rank": "Q"}]


def test_enter_with_nothing_selected_sends_nothing_and_says_why():
    sent, c = press(["\r"], deal_messages())
    assert sent == [] and c.notice is not None and c.notice.text == "Select 1–3 cards with Space first."


def test_rank_is_asked_only_when_the_player_may_choose_it():
    sent, c = press(
        [" ", "\r"], deal_messages(ranks=tuple("6789TJQKA")), until=lambda c: c.dialog is not None
    )
    assert sent == [] and c.dialog.kind == "rank" and c.dialog.options[c.dialog.index] == "6"
    sent, _ = press([" ", "\r", "k", "\r"], deal_messages(ranks=tuple("6789TJQKA")))
    assert sent == [{"t": "lay", "cards": ["6H"], "rank": "K"}]
    sent, _ = press([" ", "\r", "д", "\r"], deal_messages(ranks=tuple("6789TJQKA")), lang="ru")
    assert sent == [{"t": "lay", "cards": ["6H"], "rank": "Q"}]
    sent, _ = press([" ", "\r", "1", "\r"], deal_messages(ranks=tuple("6789TJQKA")))
    assert sent == [{"t": "lay", "cards": ["6H"], "rank": "T"}]


def test_count_is_asked_where_counts_may_lie():
    legal = {
        "lay": {"min": 1, "max": 4, "ranks": ["7"], "count_min": 1, "count_max": 4},
        "challenge": None,
        "believe": None,
        "declare_none": None,
        "discard_quads": [],
    }
    sent, _ = press([" ", "\r", "\x1b[C", "\x1b[C", "\r"], deal_messages("cheat", legal=legal, ranks=("7",)))
    assert sent == [{"t": "lay", "cards": ["6H"], "rank": "7", "count": 3}]


def test_challenge_and_believe_keys_and_their_russian_twins():
    legal = {
        "lay": {"min": 1, "max": 4, "ranks": ["Q"]},
        "challenge": 5,
        "believe": 5,
        "declare_none": None,
        "discard_quads": [],
    }
    for keys, want in ((["n"], "challenge"), (["т"], "challenge"), (["y"], "believe"), (["н"], "believe")):
        sent, _ = press(keys, deal_messages("veryu", legal=legal))
        assert sent == [{"t": want, "set_no": 5}]


def test_keys_not_allowed_now_send_nothing():
    sent, _ = press(["n", "y", "d", "0", "т"], deal_messages())
    assert sent == []


def test_discard_quads_and_declare_none():
    legal = {
        "lay": {"min": 1, "max": 4, "ranks": ["K"]},
        "challenge": None,
        "believe": None,
        "declare_none": "K",
        "discard_quads": ["9"],
    }
    sent, _ = press(["d"], deal_messages("hoyle", legal=legal))
    assert sent == [{"t": "discard_quads", "ranks": ["9"]}]
    sent, _ = press(["0"], deal_messages("hoyle", legal=legal))
    assert sent == [{"t": "declare_none"}]


def test_one_press_one_action_until_the_server_answers():
    legal = {
        "lay": {"min": 1, "max": 4, "ranks": ["Q"]},
        "challenge": 5,
        "believe": 5,
        "declare_none": None,
        "discard_quads": [],
    }
    sent, c = press(["n", "n", "y"], deal_messages("veryu", legal=legal))
    assert sent == [{"t": "challenge", "set_no": 5}] and c.legal == {}
    c.receive(
        {"t": "error", "re": 7, "code": "STALE_SET", "msg": "set 5 is no longer the last set", "fatal": False}
    )
    assert c.legal["challenge"] == 5 and c.notice.text == "Refused: set 5 is no longer the last set"


def test_chat_field_takes_the_keys_while_open():
    sent, c = press(["/", "no tricks, yes?", "\r"], deal_messages())
    assert sent == [{"t": "chat", "text": "no tricks, yes?"}] and c.dialog is None


def test_esc_closes_a_dialog_and_plays_nothing():
    legal = {
        "lay": {"min": 1, "max": 4, "ranks": ["Q"]},
        "challenge": 5,
        "believe": None,
        "declare_none": None,
        "discard_quads": [],
    }
    opened = lambda c: c.dialog is not None and c.dialog.kind == "chat"  # noqa: E731
    sent, c = press(["/", "n", opened, "\x1b", lambda c: c.dialog is None], deal_messages(legal=legal))
    assert sent == [] and c.dialog is None


def test_quit_during_a_deal_asks_first():
    sent, c = press(["q"], deal_messages(), until=lambda c: c.dialog is not None)
    assert c.dialog.kind == "quit" and sent == []
    sent, c = press(["q", "n"], deal_messages())
    assert c.dialog is None


def test_ready_and_start_in_a_waiting_table():
    msgs = [
        {"t": "welcome", "re": 1, "server": {"name": "t"}, "session": "s"},
        {
            "t": "table_joined",
            "re": 2,
            "seat": 0,
            "table": {
                "id": 4,
                "variant": "verish",
                "state": "waiting",
                "seats": [dict(SEATS[0], ready=False)] + SEATS[1:],
            },
        },
    ]
    sent, _ = press(["s"], msgs)
    assert sent == [{"t": "ready", "ready": True}]
    msgs.append(
        {
            "t": "table_update",
            "seq": 1,
            "ts": 0,
            "table": {"id": 4, "variant": "verish", "state": "waiting", "seats": SEATS},
        }
    )
    sent, _ = press(["s"], msgs)
    assert sent == [{"t": "start"}]


def test_lobby_join_spectate_and_create():
    tables = [
        {"id": 7, "variant": "hoyle", "seats": SEATS, "state": "waiting", "spectators": 0, "password": False},
        {"id": 9, "variant": "cheat", "seats": SEATS, "state": "playing", "spectators": 1, "password": False},
    ]
    msgs = [
        {"t": "welcome", "re": 1, "server": {"name": "t"}, "session": "s"},
        {"t": "tables", "re": 2, "tables": tables},
    ]
    sent, _ = press(["j", "\r", "v"], msgs, leave_quits=False)
    assert sent == [{"t": "join_table", "table": 9}, {"t": "spectate", "table": 9}]
    sent, c = press(["j", "k", "\r"], msgs, leave_quits=False)  # the help's "↑↓ or k j": k goes up
    assert sent == [{"t": "join_table", "table": 7}]
    c.open_help()
    assert "↑↓ or k j   choose a table\n" in "".join(f[1] for f in dialog_text(c))
    # c: the form; right: verish -> veryu; down twice to bots, right: 1 -> 2 bots; Enter creates
    sent, _ = press(["c", "\x1b[C", "\x1b[B", "\x1b[B", "\x1b[C", "\r"], msgs, leave_quits=False)
    assert sent == [
        {
            "t": "create_table",
            "variant": "veryu",
            "options": {},
            "seats": 4,
            "bots": ["sharp", "sharp"],
            "turn_ms": 60000,
            "deals": 5,
        }
    ]


def test_help_opens_and_closes():
    _, c = press(["?"], deal_messages(), until=lambda c: c.dialog is not None)
    assert c.dialog.kind == "help"
    _, c = press(["?", "?"], deal_messages())
    assert c.dialog is None


def test_selection_follows_the_cards_when_the_hand_changes():
    msgs = deal_messages()
    _sent, c = press(["lll", " "], msgs)  # QD selected
    assert c.selected_cards() == ["QD"]
    c.receive({"t": "pile_taken", "seq": 9, "ts": 0, "seat": 0, "count": 2, "cards": ["7S", "AH"]})
    assert c.selected_cards() == ["QD"] and c.hand == ("6H", "7S", "9C", "QS", "QD", "AH")


def test_alt_keys_do_nothing():
    legal = {
        "lay": {"min": 1, "max": 4, "ranks": ["Q"]},
        "challenge": 5,
        "believe": 5,
        "declare_none": None,
        "discard_quads": [],
    }
    sent, _ = press(["\x1bn", "\x1by", "\x1b\r"], deal_messages("veryu", legal=legal))
    assert sent == []


def test_a_table_with_a_password_asks_for_it():
    tables = [
        {"id": 5, "variant": "lozh", "seats": SEATS, "state": "waiting", "spectators": 0, "password": True}
    ]
    msgs = [
        {"t": "welcome", "re": 1, "server": {"name": "t"}, "session": "s"},
        {"t": "tables", "re": 2, "tables": tables},
    ]
    sent, c = press(["\r", "n0tq", "\r"], msgs, leave_quits=False)
    assert sent == [{"t": "join_table", "table": 5, "password": "n0tq"}] and c.dialog is None


def test_backspace_unselects_all():
    sent, _c = press([" ", "l", " ", "\x7f", "l", " ", "\r"], deal_messages())
    assert sent == [{"t": "lay", "cards": ["QS"], "rank": "Q"}]


def test_play_another_match_after_the_match_ended():
    msgs = deal_messages()
    msgs += [
        {
            "t": "deal_ended",
            "seq": 9,
            "ts": 0,
            "loser": 1,
            "winner": None,
            "out": [0, 2],
            "scores": [0, 1, 0],
            "hand_counts": [0, 4, 0],
            "salt": "s",
            "deck": [],
            "match_scores": [0, 1, 0],
        },
        {"t": "match_ended", "seq": 10, "ts": 0, "scores": [0, 1, 0], "deals": 1},
        {
            "t": "table_update",
            "seq": 11,
            "ts": 0,
            "table": {
                "id": 1,
                "variant": "verish",
                "state": "waiting",
                "seats": [dict(SEATS[0], ready=False)] + SEATS[1:],
            },
        },
    ]
    sent, _ = press(["s"], msgs, leave_quits=True)
    assert sent == [{"t": "ready", "ready": True}, {"t": "start"}]


def long_log(n=60):
    msgs = deal_messages()
    msgs += [{"t": "timed_out", "seq": 100 + i, "ts": 0, "seat": 1} for i in range(n)]
    return msgs


def test_page_keys_scroll_the_log_and_end_follows_it_again():
    _, c = press(["\x1b[5~", "\x1b[5~"], long_log(), until=lambda c: c.log_scroll.top is not None)
    top = c.log_scroll.top
    assert top is not None and top < c.log_scroll.total - c.log_scroll.page
    _, c = press(["\x1b[5~", "\x1b[6~", "\x1b[6~"], long_log(), until=lambda c: c.log_scroll.top is None)
    assert c.log_scroll.top is None  # PgDn to the end follows it again
    watching = long_log()
    watching[1] = {**watching[1], "seat": None}
    _, c = press(["\x1b[5~", "\x1b[H"], watching, until=lambda c: c.log_scroll.top == 0)
    assert c.log_scroll.top == 0  # Home and End are the log's where no hand is held
    _, c = press(["\x1b[5~", "\x1b[F"], watching)
    assert c.log_scroll.top is None


def test_a_long_hand_is_crossed_by_rank_and_its_ends():
    hand = ("2S", "2H", "5C", "5D", "5H", "9C", "TS", "TD", "QS", "AS", "AH")
    msgs = deal_messages(hand=hand)
    msgs[2] = {**msgs[2], "hand_counts": [len(hand), 5, 5]}
    _, c = press(["\x1b[F"], msgs, until=lambda c: c.cursor == 10)  # End: the last card
    _, c = press(["\x1b[F", "\x1b[H"], msgs, until=lambda c: c.cursor == 0)  # Home: the first
    _, c = press(["\x1b[B", "\x1b[B"], msgs, until=lambda c: c.cursor == 5)  # ↓ ↓: 2s, 5s, to the 9
    _, c = press(["\x1b[B", "\x1b[B", "\x1b[A"], msgs, until=lambda c: c.cursor == 2)  # ↑: back to the 5s
    _, c = press(["\x1b[A"], msgs, until=lambda c: c.cursor == 9)  # ↑ from the first rank: the last
    _, c = press(["1"], msgs, until=lambda c: c.cursor == 6)  # 1: the tens
    _, c = press(["Q"], msgs, until=lambda c: c.cursor == 8)
    _, c = press(["Q", "9"], msgs, until=lambda c: c.cursor == 5)
    _, c = press(["K"], msgs, until=lambda c: c.notice is not None)
    assert c.notice.text == "You hold no kings." and c.cursor == 0
    assert [k.label for k in keybar.entries(c)][:3] == ["select", "by rank", "lay 1–3 as queens"]


def test_the_mouse_wheel_scrolls_the_log():
    # SGR mouse reports: button 64 is the wheel up, at column 5, row 12 (inside the log)
    _, c = press(["\x1b[<64;5;12M"], long_log(), until=lambda c: c.log_scroll.top is not None)
    assert c.log_scroll.top == c.log_scroll.total - c.log_scroll.page - 3


def test_tab_shows_the_scores_r_the_rules_and_help_has_the_rules_too():
    _, c = press(["\t"], deal_messages(), until=lambda c: c.dialog is not None)
    assert c.dialog.kind == "scores"
    _, c = press(["r"], deal_messages(), until=lambda c: c.dialog is not None)
    assert c.dialog.kind == "rules"
    from neveryu.client.ui.pages import dialog_text

    _, c = press(["?"], deal_messages(), until=lambda c: c.dialog is not None)
    text = "".join(f[1] for f in dialog_text(c))
    assert "«Не верю»: challenge the last set" in text and "verish «Веришь — не веришь»: 2–6 players" in text
    _, c = press(
        ["?", lambda c: c.dialog is not None, "\x1b"], deal_messages(), until=lambda c: c.dialog is None
    )


def test_confirmed_calls_take_two_presses_and_esc_takes_it_back():
    from neveryu.client.ui.controller import Prefs

    legal = {"lay": None, "challenge": 5, "believe": 5, "declare_none": None, "discard_quads": []}
    msgs = deal_messages("veryu", legal=legal)
    asked = lambda c: c.dialog is not None and c.dialog.kind == "confirm"  # noqa: E731
    sent, c = press(
        ["n", asked, "\x1b"], msgs, prefs=Prefs(confirm_calls=True), until=lambda c: c.dialog is None
    )
    assert sent == [] and c.legal["challenge"] == 5
    sent, _ = press(
        ["n", asked, "n"], msgs, prefs=Prefs(confirm_calls=True), until=lambda c: c.dialog is None
    )
    assert sent == [{"t": "challenge", "set_no": 5}]


def test_q_quits_at_once_after_the_server_said_goodbye():
    msgs = deal_messages() + [{"t": "bye", "seq": 50, "ts": 0, "reason": "shutdown"}]

    async def main():
        with create_pipe_input() as inp:
            c = Controller(Texts("en"), lambda r: None)
            for m in msgs:
                c.receive(m)
            app = build_app(c, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            await _until(lambda: app.is_running)
            inp.send_text("q")
            await asyncio.wait_for(task, 5)  # no Ctrl-C needed: q quit
            return c

    c = asyncio.run(main())
    assert c.quitting and c.dialog is None


def test_a_key_that_means_nothing_says_so():
    _, c = press(["z"], deal_messages(), until=lambda c: c.notice is not None)
    assert c.notice.text == "The key z does nothing here: ? shows the keys."
