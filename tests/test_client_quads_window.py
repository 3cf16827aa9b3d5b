"""The quads window of ``verish`` in the terminal client (docs/RULES.md, ``verish``, quads after taking):
the model follows ``quads_window_opened`` and ``quads_window_closed`` (a close by time is
logged); the taker sees a countdown at a timed table, none at an untimed one (the window waits
for him), and the keys (``d`` discards, ``k`` goes on, ``в`` and ``л`` on a Russian layout),
also over a dialog that hides the table; everyone else sees a neutral line that is the same
whatever the taker holds; a set laid early waits for the window. Model, controller, screen
texts and pipe-input keys; no server."""

from __future__ import annotations

import attrs
import pytest
from test_client_app import press

from neveryu.client.ui import keybar, model
from neveryu.client.ui.controller import Controller
from neveryu.client.ui.layout import Screen
from neveryu.client.ui.moments import moment
from neveryu.client.ui.status import status
from neveryu.client.ui.texts import Texts

ANN, BOB, CID = 0, 1, 2
SEATS = [
    {"seat": ANN, "name": "Ann", "bot": None, "ready": True, "away": False},
    {"seat": BOB, "name": "Bob", "bot": None, "ready": True, "away": False},
    {"seat": CID, "name": "Cid", "bot": None, "ready": True, "away": False},
]
HANDS = {
    # Ann holds three nines; the nine Cid laid makes her a quad when she takes the pile
    True: ("9S", "9H", "9D", "7C", "KD"),
    # the same hand size without the three nines
    False: ("6S", "8H", "TD", "7C", "KD"),
}
NO_LEGAL = {"lay": None, "challenge": None, "believe": None, "declare_none": None, "discard_quads": []}
ALL_RANKS = list("6789TJQKA")


def take(seat: int, quads: bool, window_ms: int | None = 2000) -> list[dict]:
    """What ``seat`` is sent as Cid leads a true nine, Ann challenges it and takes the pile, and
    the quads window opens (``window_ms`` None: the table has none). ``quads``: Ann's hand makes a
    quad of nines with the taken card; nothing another seat is sent depends on it."""
    hand = HANDS[quads] if seat == ANN else ("6H", "8C", "JS", "QS", "AD")
    msgs: list[dict] = [
        {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok"},
        {
            "t": "table_joined",
            "re": 2,
            "seat": seat,
            "table": {"id": 1, "variant": "verish", "state": "playing", "seats": SEATS, "deals": 3},
        },
        {
            "t": "deal_started",
            "seq": 1,
            "ts": 0,
            "dealer": BOB,
            "deck": "36",
            "hand": list(hand),
            "hand_counts": [5, 5, 5],
            "hidden": 1,
            "set_aside": 0,
            "stock": 0,
            "commitment": "c",
            "deal_no": 1,
        },
        {"t": "turn", "seq": 2, "ts": 0, "seat": CID, "ranks": ALL_RANKS, "set_no": None, "time_ms": 30000},
        {"t": "legal", "seq": 3, "ts": 0, **NO_LEGAL},
        {
            "t": "set_laid",
            "seq": 4,
            "ts": 0,
            "seat": CID,
            "set_no": 1,
            "rank": "9",
            "count": 1,
            "size": 1,
            "cards": None,
        },
        {"t": "turn", "seq": 5, "ts": 0, "seat": ANN, "ranks": ["9"], "set_no": 1, "time_ms": 30000},
        {"t": "challenged", "seq": 6, "ts": 0, "seat": ANN, "set_no": 1, "tied": []},
        {
            "t": "set_revealed",
            "seq": 7,
            "ts": 0,
            "seat": CID,
            "set_no": 1,
            "rank": "9",
            "count": 1,
            "cards": ["9C"],
            "claim_true": True,
        },
        {
            "t": "pile_taken",
            "seq": 8,
            "ts": 0,
            "seat": ANN,
            "count": 1,
            "cards": ["9C"] if seat == ANN else None,
        },
        {"t": "turn", "seq": 9, "ts": 0, "seat": BOB, "ranks": ALL_RANKS, "set_no": None, "time_ms": 30000},
    ]
    if seat == ANN:
        legal = {**NO_LEGAL, "discard_quads": ["9"] if quads else [], "decline_quads": True}
    elif seat == BOB:
        legal = {**NO_LEGAL, "lay": {"min": 1, "max": 3, "ranks": ALL_RANKS}, "decline_quads": False}
    else:
        legal = {**NO_LEGAL, "decline_quads": False}
    msgs.append({"t": "legal", "seq": 10, "ts": 0, **legal})
    if window_ms is not None:
        msgs.append({"t": "quads_window_opened", "seq": 11, "ts": 0, "seat": ANN, "time_ms": window_ms})
    return msgs


def controller(messages, lang="en", now=100.0):
    clock = [now]
    sent: list[dict] = []
    c = Controller(Texts(lang), sent.append, clock=lambda: clock[0])
    for m in messages:
        c.receive(m)
    return c, sent, clock


def plain(fragments) -> str:
    return "".join(f[1] for f in fragments).rstrip()


def what_is_shown(c: Controller) -> tuple[str, str, list[tuple[str, str]]]:
    """The status line, the notice line and the key bar, as text."""
    screen = Screen(c)
    return (
        plain(status(c.state, c.t, c.clock())),
        plain(screen._notice_text()),
        [(k.key, k.label) for k in keybar.entries(c)],
    )


# -- the model ---------------------------------------------------------------------------------


def test_the_window_opens_with_its_deadline_on_the_local_clock_and_closes():
    s = model.reduce_all(take(BOB, quads=False), now=50.0)
    assert s.quads_window == {"seat": ANN, "deadline": 52.0}
    assert model.engine_view(s).quads_window == ANN
    closed = model.reduce(s, {"t": "quads_window_closed", "seq": 12, "ts": 0, "seat": ANN}, 51.0)
    assert closed.quads_window is None and closed.log[:-1] == s.log  # its time was up: one line
    assert Texts("en").log_line(closed, closed.log[-1]) == "Ann's quads window has closed: its time is up."
    assert Texts("ru").log_line(closed, closed.log[-1]) == "Окно четвёрок (Ann) закрылось: время вышло."
    mine = model.reduce_all(
        [*take(ANN, quads=True), {"t": "quads_window_closed", "seq": 12, "ts": 0, "seat": ANN}]
    )
    assert Texts("en").log_line(mine, mine.log[-1]) == "Your quads window has closed: its time is up."


@pytest.mark.parametrize(
    "decision",
    [
        {"t": "quads_declined", "seat": ANN},
        {"t": "quads_discarded", "seat": ANN, "count": 1, "ranks": ["9"], "shown": True, "cards": None},
    ],
)
def test_a_window_the_taker_closed_is_logged_once_by_his_decision(decision):
    s = model.reduce_all(take(BOB, quads=True))
    s = model.reduce(s, {**decision, "seq": 12, "ts": 0})
    closed = model.reduce(s, {"t": "quads_window_closed", "seq": 13, "ts": 0, "seat": ANN})
    assert closed.quads_window is None and closed.log == s.log  # the decision's line said it all


def test_a_set_laid_ends_the_window_and_a_new_deal_starts_without_one():
    msgs = take(BOB, quads=False)
    s = model.reduce_all(msgs)
    laid = {
        "t": "set_laid",
        "seq": 12,
        "ts": 0,
        "seat": BOB,
        "set_no": 2,
        "rank": "Q",
        "count": 1,
        "size": 1,
        "cards": ["QS"],
    }
    assert model.reduce(s, laid).quads_window is None
    assert model.reduce(s, {**msgs[2], "seq": 12, "deal_no": 2}).quads_window is None


def test_a_snapshot_and_a_replayed_window_have_no_deadline():
    s = model.reduce_all(take(CID, quads=False)[:2])
    snapshot = {
        "t": "state",
        "seq": 20,
        "ts": 0,
        "variant": "verish",
        "seat": CID,
        "players": 3,
        "deck": "36",
        "dealer": BOB,
        "hand": ["6H"],
        "hand_counts": [6, 5, 5],
        "pile": 0,
        "turn": BOB,
        "set_no": 1,
        "quads_window": ANN,
        "legal": NO_LEGAL,
        "time_ms": 20000,
    }
    assert model.reduce(s, snapshot, 10.0).quads_window == {"seat": ANN, "deadline": None}
    assert model.reduce(s, {**snapshot, "quads_window": None}).quads_window is None
    before = attrs.evolve(model.reduce_all(take(CID, quads=False)[:-1]), recap_seen=3, recapping=True)
    replayed = model.reduce(before, take(CID, quads=False)[-1], 10.0)
    assert replayed.quads_window == {"seat": ANN, "deadline": None}


def test_a_set_laid_early_waits_for_the_quads_window_and_says_so():
    s = model.reduce_all(take(BOB, quads=False))
    held = {"t": "set_held", "seq": 12, "ts": 0, "seat": BOB, "cards": ["QS"], "rank": "Q", "count": 1}
    s = model.reduce(s, held)
    assert s.held == {"cards": ("QS",), "rank": "Q", "count": 1} and s.playable_hand == (
        "6H",
        "8C",
        "JS",
        "AD",
    )
    assert Texts("en").log_line(s, s.log[-1]) == "Your set (1 queen) waits for the quads window."
    assert Texts("ru").log_line(s, s.log[-1]) == "Ваш набор (1 дама) ждёт закрытия окна четвёрок."
    assert moment(s) == ("why.held_quads", {"rank": "Q", "count": 1})


def test_a_decline_is_logged_in_words_that_tell_nothing_of_the_hand():
    s = model.reduce_all(take(CID, quads=True))
    s = model.reduce(s, {"t": "quads_declined", "seq": 12, "ts": 0, "seat": ANN})
    assert Texts("en").log_line(s, s.log[-1]) == "Ann discards no quads."
    assert Texts("ru").log_line(s, s.log[-1]) == "Ann не сбрасывает четвёрок."


def test_a_discard_takes_the_very_cards_the_server_names():
    s = model.reduce_all(take(ANN, quads=True))
    assert s.hand == ("7C", "9S", "9H", "9D", "9C", "KD")
    s = model.reduce(
        s,
        {
            "t": "quads_discarded",
            "seq": 12,
            "ts": 0,
            "seat": ANN,
            "count": 1,
            "ranks": ["9"],
            "shown": True,
            "cards": ["9S", "9H", "9D", "9C"],
        },
    )
    assert s.hand == ("7C", "KD") and s.hand_counts == (2, 5, 4) and s.discard == 4


# -- what each seat sees -----------------------------------------------------------------------


def test_the_taker_with_quads_sees_a_countdown_and_both_keys():
    c, _, clock = controller(take(ANN, quads=True))
    shown = what_is_shown(c)
    assert shown[0] == "▶ You took the pile: quads? · 0:02 left · Turn: Bob"
    assert shown[1] == (
        "You have just taken the pile: d discards your quads of nines, k goes on without. "
        "The next set waits meanwhile."
    )
    assert ("d", "discard quads") in shown[2] and ("k", "go on") in shown[2]
    clock[0] += 1.5
    assert plain(status(c.state, c.t, clock[0])) == "▶ You took the pile: quads? · 0:01 left · Turn: Bob"


@pytest.mark.parametrize("quads", [True, False])
def test_at_an_untimed_table_the_taker_sees_no_clock_and_the_window_waits(quads):
    c, _, clock = controller(
        take(ANN, quads=quads, window_ms=None)
        + [{"t": "quads_window_opened", "seq": 11, "ts": 0, "seat": ANN, "time_ms": None}]
    )
    status_line, notice, bar = what_is_shown(c)
    assert status_line == "▶ You took the pile: quads? · Turn: Bob"
    assert notice.endswith("The next set waits meanwhile.") and ("k", "go on") in bar
    clock[0] += 3600.0
    assert what_is_shown(c) == (status_line, notice, bar)  # an hour on: nothing ran out
    assert c.next_tick(clock[0]) is None  # nothing on the screen runs on the clock


def test_the_taker_without_quads_is_offered_only_to_go_on():
    c, _, _ = controller(take(ANN, quads=False))
    status_line, notice, bar = what_is_shown(c)
    assert status_line == "▶ You took the pile: quads? · 0:02 left · Turn: Bob"
    assert notice == (
        "You have just taken the pile and hold no quads: k goes on at once. The next set waits meanwhile."
    )
    assert ("k", "go on") in bar and "d" not in dict(bar)


@pytest.mark.parametrize(
    ("quads", "said"),
    [
        (
            True,
            "You have just taken the pile: discard your quads (d) or go on without (k)."
            " There is no set to answer now.",
        ),
        (False, "You have just taken the pile and hold no quads: k goes on. There is no set to answer now."),
    ],
)
def test_a_call_in_the_takers_window_names_only_the_keys_that_work(quads, said):
    c, sent, _ = controller(take(ANN, quads=quads))
    c.challenge()
    assert sent == [] and what_is_shown(c)[1] == said


def test_the_taker_reads_it_in_russian():
    c, _, _ = controller(take(ANN, quads=True), lang="ru")
    status_line, notice, bar = what_is_shown(c)
    assert status_line == "▶ Вы забрали стопку: четвёрки? · осталось 0:02 · Ходит Bob"
    assert notice.startswith("Вы только что забрали стопку: d сбросит четвёрки (девятки), k пойдёт дальше")
    assert ("d", "сбросить четвёрки") in bar and ("k", "дальше") in bar


@pytest.mark.parametrize("seat", [BOB, CID])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_everyone_else_sees_the_same_neutral_wait_whatever_the_taker_holds(seat, lang):
    with_quads, _, _ = controller(take(seat, quads=True), lang=lang)
    without, _, _ = controller(take(seat, quads=False), lang=lang)
    shown = what_is_shown(with_quads)
    assert shown == what_is_shown(without)
    assert "d" not in dict(shown[2]) and "k" not in dict(shown[2])
    expected = {
        ("en", BOB): (
            "▶ Your turn! · lead with any rank · 0:30 left · Ann: quads 0:02",
            "Ann has just taken the pile and may discard quads: you may lay now; your set goes on "
            "the pile when that is done.",
        ),
        ("en", CID): (
            "Turn: Bob · lead with any rank · 0:30 left · Ann: quads 0:02",
            "Ann has just taken the pile and may discard quads: the next set waits for that.",
        ),
        ("ru", BOB): (
            "▶ Ваш ход! · заход: любой ранг · осталось 0:30 · Ann: четвёрки 0:02",
            "Окно четвёрок (Ann): забравший стопку может сбросить четвёрки. Кладите уже сейчас: "
            "набор ляжет в стопку, когда окно закроется.",
        ),
        ("ru", CID): (
            "Ходит Bob · заход: любой ранг · осталось 0:30 · Ann: четвёрки 0:02",
            "Окно четвёрок (Ann): забравший стопку может сбросить четвёрки, следующий набор ждёт.",
        ),
    }[(lang, seat)]
    assert shown[:2] == expected


def test_without_a_window_the_taker_is_told_only_when_he_holds_quads():
    c, _, _ = controller(take(ANN, quads=True, window_ms=None))
    assert what_is_shown(c)[1] == (
        "You have just taken the pile: d discards your quads of nines, k goes on without; "
        "the right ends with the next set."
    )
    c, _, _ = controller(take(ANN, quads=False, window_ms=None))
    status_line, notice, bar = what_is_shown(c)
    assert status_line == "Turn: Bob · lead with any rank · 0:30 left" and notice == ""
    assert "k" not in dict(bar)  # nothing waits and nothing to discard: no key to press


# -- the controller ----------------------------------------------------------------------------


def test_k_goes_on_and_d_discards_each_once():
    c, sent, _ = controller(take(ANN, quads=True))
    c.decline_quads()
    assert sent == [{"t": "decline_quads"}] and c.state.legal is None
    c.decline_quads()  # the offer is down until the server's next legal
    assert sent == [{"t": "decline_quads"}]
    c, sent, _ = controller(take(ANN, quads=True))
    c.discard_quads()
    assert sent == [{"t": "discard_quads", "ranks": ["9"]}]


def test_k_when_there_is_nothing_to_give_up_says_why():
    c, sent, _ = controller(take(BOB, quads=True))
    c.decline_quads()
    assert sent == [] and c.current_notice().text == (
        "Not your call yet: Ann has just taken the pile and may discard quads; then you play."
    )


def test_the_countdown_redraws_each_second_and_rings_only_for_the_taker():
    def watch(seat: int) -> tuple[Controller, list[str]]:
        rang: list[str] = []
        c = Controller(Texts("en"), lambda r: None, clock=lambda: 100.0)
        for m in take(seat, quads=False)[:-1]:
            c.receive(m)
        c.on_attention = rang.append
        c.receive(take(seat, quads=False)[-1])  # the window opens
        return c, rang

    c, rang = watch(ANN)
    assert rang == ["turn"]  # Ann's own moment to act, as a turn is
    c.receive(
        {"t": "turn", "seq": 12, "ts": 0, "seat": BOB, "ranks": ALL_RANKS, "set_no": None, "time_ms": None}
    )
    assert c.next_tick(100.25) == pytest.approx(0.76)  # the window's 0:02 becomes 0:01
    c.receive({"t": "quads_window_closed", "seq": 13, "ts": 0, "seat": ANN})
    assert c.next_tick(100.25) is None  # nothing on the screen runs on the clock now
    assert watch(CID)[1] == []


# -- the keys (pipe input) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "key", "wanted"),
    [
        ("en", "k", {"t": "decline_quads"}),
        ("ru", "л", {"t": "decline_quads"}),
        ("en", "d", {"t": "discard_quads", "ranks": ["9"]}),
        ("ru", "в", {"t": "discard_quads", "ranks": ["9"]}),
    ],
)
def test_the_takers_keys_send_the_request(lang, key, wanted):
    sent, _ = press([key], take(ANN, quads=True), lang=lang, until=lambda c: c.state.legal is None)
    assert sent == [wanted]


def test_the_next_player_may_lay_during_the_window_and_k_does_nothing_for_him():
    sent, c = press(["k", " ", "\r"], take(BOB, quads=True), until=lambda c: c.dialog is not None)
    assert sent == [] and c.dialog.kind == "rank"  # k sent nothing; the lay asks the rank first


# -- a dialog that hides the table -------------------------------------------------------------


@pytest.mark.parametrize("dialog_key", ["q", "?", "r", "\t"])
def test_a_dialog_over_the_window_shows_it_and_takes_d_and_k(dialog_key):
    """The Leave dialog (or help, rules, scores) covers the status line: it shows the window, its
    countdown and its keys, and ``k`` there goes on, so no dialog uses the window up unseen."""
    sent, c = press(
        [dialog_key, lambda c: c.dialog is not None, "k"],
        take(ANN, quads=True),
        until=lambda c: c.state.legal is None,  # (sending clears the offer)
    )
    assert sent == [{"t": "decline_quads"}] and c.dialog is not None  # the dialog stays open


def test_the_dialog_says_what_the_status_line_would():
    c, _, _ = controller(take(ANN, quads=True))
    c.quit_key()
    assert c.dialog.kind == "quit" and c.quads_over_dialog()
    text = plain(Screen(c)._dialog_text())
    assert text.startswith(
        "▶ You took the pile: quads? · 0:02 left · Turn: Bob\n"
        "You have just taken the pile: d discards your quads of nines, k goes on without. "
        "The next set waits meanwhile.\n\n"
    )
    assert [(k.key, k.label) for k in keybar.entries(c)][:2] == [("d", "discard quads"), ("k", "go on")]
    bystander, _, _ = controller(take(BOB, quads=True))
    bystander.quit_key()
    assert not bystander.quads_over_dialog()  # only the taker's own window


def test_the_new_table_form_says_how_long_the_window_waits():
    from neveryu.client.ui.create_form import CreateForm
    from neveryu.client.ui.pages import _form_value

    verish = {"name": "verish", "title": "x", "players": [2, 6], "options": {}, "quads_window_ms": 10_000}
    form = CreateForm(variants=(verish,))
    form.set_variant("verish")
    t = Texts("en")
    assert form.turn == 60 and _form_value(t, form, "quads_window") == "10 s"
    form.turn = 0  # untimed turns: the window waits for the taker
    assert _form_value(t, form, "quads_window") == "until the taker decides"
    assert form.request()["quads_window_ms"] == 10_000 and form.request()["turn_ms"] == 0
    form.quads_window = 0
    assert _form_value(t, form, "quads_window") == "off"


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        ([], {"turn_ms": 0}),  # untimed: the window waits for the player (the server's default)
        (["--turn", "60"], {"turn_ms": 60_000}),  # timed: the server's default window, 10 s
        (["--turn", "60", "--quads-window", "20"], {"turn_ms": 60_000, "quads_window_ms": 20_000}),
        (["--quads-window", "0"], {"turn_ms": 0, "quads_window_ms": 0}),  # no window at all
    ],
)
def test_neveryu_play_sets_the_window(argv, wanted):
    from neveryu.client.cli import build_parser
    from neveryu.client.commands.play import table_request

    args = build_parser().parse_args(["play", *argv])
    request = table_request(args, 4, ["sharp"] * 3)
    assert {k: v for k, v in request.items() if k in ("turn_ms", "quads_window_ms")} == wanted


def test_no_in_a_quads_window_says_whose_call_it_is_not_that_it_is_not_ones_turn():
    """«Не верю» (line mode ``no``) while the window is open: the taker hears that the window is
    his and there is no set to answer; a third player that the window is the taker's, and who
    plays next; ``k`` from anyone but the taker, that the window is the taker's."""
    ann, sent, _ = controller(take(ANN, quads=False))
    ann.challenge()
    assert ann.current_notice().text == (
        "You have just taken the pile and hold no quads: k goes on. There is no set to answer now."
    )
    cid, sent, _ = controller(take(CID, quads=False))
    cid.challenge()
    assert cid.current_notice().text == (
        "Not your call: Ann has just taken the pile and may discard quads; then Bob plays."
    )
    bob, sent, _ = controller(take(BOB, quads=False), lang="ru")
    bob.decline_quads()
    assert bob.current_notice().text == (
        "Сейчас не вам решать: Ann только что взял стопку и может сбросить четвёрки; потом ходите вы."
    )
    assert sent == []


def test_the_line_modes_pages_leave_the_window_to_its_own_lines():
    """The line mode says the window in its own lines: a page asked for meanwhile (``top``,
    ``scores``) is the page alone, without the banner the full-screen dialog shows."""
    from neveryu.client.plain import answers
    from neveryu.client.plain.actions import PlainController
    from neveryu.client.plain.words import PlainTexts

    c = PlainController(PlainTexts("en"), lambda request: None, clock=lambda: 100.0)
    for m in take(ANN, quads=True):
        c.receive(m)
    assert answers.page(c, "players", variant="verish")[0] == "Leaderboard: verish"
    assert answers.page(c, "scores")[0] == "The match so far: deal 1 of 3."
