"""``neveryu replay``: a recorded deal stepped through in the terminal client (client/ui/replay.py).

The model of every view is fed the messages the server's projection gives that view, and at every
step it holds what the engine holds (each seat its own hand, a spectator none); the keys move
through the deal and never send anything; the screen shows every hand, or one seat's. Then the
real command in tmux.

Sync tests with their own asyncio loop, as tests/test_client_app.py."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import sys
import time
from collections import Counter

import attrs
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from records_deals import played_deals

from neveryu import engine
from neveryu.client.ui.app import build_app
from neveryu.client.ui.layout import Screen
from neveryu.client.ui.replay import Deal, Replay, ReplayController, replay_keys
from neveryu.client.ui.texts import Texts
from neveryu.server import seat_messages, table_summary
from neveryu.server.records.database import connect
from neveryu.server.records.history import insert_deal
from neveryu.server.records.replay import replay, start


def deal_of(record) -> Deal:
    steps = replay(record)
    views = {seat: seat_messages(record, steps, seat) for seat in (None, *range(record.players))}
    return Deal(id=7, table=table_summary(record), views=views, times=tuple(s.ms for s in steps), server="t")


@pytest.mark.parametrize("variant", ["verish", "veryu", "hoyle-three", "cheat"])
def test_every_view_holds_what_the_engine_holds_at_every_step(variant):
    record, _ = played_deals(variant, 1, seed=6)[0]
    r = Replay(deal_of(record))
    deal, _opening = start(record)
    public = record.rules.hand_counts_public
    for i in range(r.steps):
        if i:
            deal.apply(record.actions[i - 1][1])
        spectator = r.states[None][i]
        assert spectator.hand is None and spectator.seat is None
        assert spectator.hand_counts == (tuple(len(h) for h in deal.hands) if public else None)
        assert [(s, Counter(h)) for s, h in r.hands(i)] == [(s, Counter(h)) for s, h in enumerate(deal.hands)]
        for seat in range(record.players):
            state = r.states[seat][i]
            assert Counter(state.hand or ()) == Counter(deal.hands[seat]), (variant, i, seat)
            assert state.seat == seat and state.turn == (None if deal.over else deal.turn)
    last = r.states[None][-1]
    assert last.over and last.result["loser"] == record.result.loser
    assert last.result["winner"] == record.result.winner and last.result["fair"] is True
    assert r.reveals == tuple(
        i for i, s in enumerate(replay(record)) if any(isinstance(e, engine.SetRevealed) for e in s.events)
    )


def press(keys: list[str], deal: Deal, seat=None) -> ReplayController:
    """Run the replay's application on ``deal``, type ``keys``, then q; returns the controller."""

    async def main() -> ReplayController:
        with create_pipe_input() as inp:
            c = ReplayController(Texts("en"), Replay(deal), seat)
            app = build_app(c, input=inp, output=DummyOutput(), keys=replay_keys(c))
            task = asyncio.ensure_future(app.run_async())
            await _until(lambda: app.is_running)
            for key in keys:
                inp.send_text(key)
                await asyncio.sleep(0.02)
            inp.send_text("q")
            await asyncio.wait_for(task, 5)
            return c

    return asyncio.run(main())


async def _until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def test_the_keys_step_jump_and_change_the_view():
    record, _ = played_deals("veryu", 1, seed=6)[0]
    deal = deal_of(record)
    r = Replay(deal)
    first, second = r.reveals[:2]
    c = press(["l", "l", "\x1b[C", " "], deal)  # → l Space: four steps
    assert (c.index, c.view) == (4, None)
    c = press(["l", "l", "h", "\x7f"], deal)  # back with h and Backspace
    assert c.index == 0
    c = press(["j", "j", "k"], deal)
    assert c.index == first
    c = press(["\x1b[F"], deal)  # End
    assert c.index == r.steps - 1 and c.state.over
    c = press(["\x1b[F", "\x1b[H"], deal)  # End, Home
    assert c.index == 0
    c = press(["v", "v"], deal)
    assert c.view == 1 and c.state.seat == 1 and c.replay.hands is None
    c = press(["3", "j", "j"], deal)
    assert (c.view, c.index) == (2, second) and c.state.hand is not None
    c = press(["n", "y", "d", "0", "\r", "/"], deal, seat=0)  # the table's game keys: nothing
    assert (c.index, c.view, c.dialog) == (0, 0, None)


@pytest.mark.parametrize("over_client", [False, True])
def test_the_bar_and_the_help_say_what_q_does(over_client):
    """``neveryu replay``: q quits; a deal opened with p over the client's screen: q goes back to
    it. PgUp/PgDn scroll the log; Home and End are the deal's start and end, not the log's."""
    from neveryu.client.ui import keybar
    from neveryu.client.ui.pages import dialog_text

    record, _ = played_deals("verish", 1, seed=6)[0]
    c = ReplayController(Texts("en"), Replay(deal_of(record)), over_client=over_client)
    assert [(k.key, k.label) for k in keybar.entries(c)][-1] == ("q", "back" if over_client else "quit")
    c.open_help()
    help_text = "".join(f[1] for f in dialog_text(c))
    q_line = "close the replay: back to the client's screen" if over_client else "quit"
    assert f"q (й)       {q_line}\n" in help_text
    assert "PgUp PgDn   scroll the log (the mouse wheel too)\n" in help_text


def test_no_reveal_left_is_said():
    record, _ = played_deals("verish", 1, seed=6)[0]
    c = ReplayController(Texts("en"), Replay(deal_of(record)))
    c.reveal(-1)
    assert c.index == 0 and c.notice.text == "No set is revealed before this step."
    c.go(-1)
    c.reveal(1)
    assert c.notice.text == "No set is revealed after this step."


def test_the_screen_shows_every_hand_or_one_seats():
    record, _ = played_deals("verish", 1, seed=6)[0]
    c = ReplayController(Texts("en", ascii=True), Replay(deal_of(record)))
    screen = Screen(c)
    lines = ["".join(text for _style, text in line) for line in screen._hand_lines(100, 10)]
    dealt = engine.deal_cards(record.rules, list(record.deck), 4, record.dealer).hands
    for seat, line in enumerate(lines):
        name = ["ann", "Bot 2", "Bot 3", "Bot 4"][seat]
        assert line.startswith(name)
        shown = line[len(name) :].split()
        assert Counter(shown) == Counter(Texts("en", ascii=True).card(card) for card in dealt[seat])
    assert screen._hand_title() == "Every hand"
    c.go(-1)
    header = "".join(text for _style, text in Screen(ReplayController(Texts("en"), c.player))._header_text())
    # the steps counted from 1, as the line mode says them (client/plain/replay.py)
    assert header.rstrip().endswith(f"replay of deal 7 · step 1/{c.index + 1} · 0:00 · every hand")
    c.show_seat(2)
    assert screen._hand_title() == "Bot 3's hand: 0 cards" and c.notice.text == "as Bot 3 saw it"


def test_a_replay_names_no_seat_you_and_promises_no_next_deal():
    """A seat's view is the view of a seat, not the reader's: no "(you)", no "Your turn!"; and
    after the recorded deal nothing starts."""
    from neveryu.client.ui.status import status

    record, _ = played_deals("verish", 1, seed=6)[0]
    c = ReplayController(Texts("en"), Replay(deal_of(record)), seat=1)
    screen = Screen(c)
    c.step(1)
    while c.state.turn != 1:
        c.step(1)
    assert "".join(f[1] for f in status(c.state, c.t, 0)).startswith("Turn: Bot 2")
    assert c.t.seat_name(c.state, 1) == "Bot 2"
    assert screen._hand_title().startswith("Bot 2's hand: ")
    c.go(-1)
    shown = "".join(f[1] for f in status(c.state, c.t, 0))
    assert shown.startswith("Deal ") and shown.endswith(" loses.") and "Watching" not in shown
    c.next_view()  # every hand
    assert "".join(f[1] for f in status(c.state, c.t, 0)) == shown


def test_every_hand_lines_up_its_cards_and_an_empty_hand():
    record, _ = played_deals("verish", 1, seed=6)[0]
    c = ReplayController(Texts("en"), Replay(deal_of(record)))
    c.go(-1)
    lines = ["".join(text for _style, text in line) for line in Screen(c)._hand_lines(100, 10)]
    assert any("no cards" in line for line in lines) and any("no cards" not in line for line in lines)
    # a one-character rank is right-aligned in three columns: its face starts one column in
    starts = {len(line) - len(line[7:].lstrip()) for line in lines}
    assert len(starts) == 1, lines


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_neveryu_replay_in_tmux(tmp_path):
    from test_client_tmux import UTF8, Tmux

    db = tmp_path / "records.sqlite3"
    conn = connect(db, write=True)
    for record, _ in played_deals("veryu", 2, seed=6):
        insert_deal(conn, record)
    conn.close()
    neveryu = f"{sys.executable} -m neveryu.client.cli"
    tmux = Tmux(width=90, height=30)
    try:
        tmux.start(f"{neveryu} replay 2 --db {db} --lang en; echo exit=$?; sleep 600", env=UTF8)
        screen = tmux.wait_for(lambda s: "Every hand" in s, what="the replay")
        assert "replay of deal 2 · step 1/" in screen and "every hand" in screen
        tmux.keys("End")
        screen = tmux.wait_for(lambda s: "Deal 2/2 over" in s, what="the deal's end")
        tmux.keys("v")
        screen = tmux.wait_for(lambda s: "ann's hand" in s and "as ann saw it" in s, what="ann's view")
        assert "(you)" not in screen and "starts in a moment" not in screen
        tmux.keys("q")
        tmux.wait_for(lambda s: "exit=0" in s, what="the replay to quit")
        conn = sqlite3.connect(db)
        conn.execute("UPDATE deals SET loser = 3 - loser WHERE id = 1")
        conn.commit()
        conn.close()
        tmux.kill()
        tmux = Tmux(width=90, height=30)
        tmux.start(f"{neveryu} replay 1 --db {db}; echo exit=$?; sleep 600", env=UTF8)
        screen = tmux.wait_for(lambda s: "exit=" in s, what="the refusal")
        assert "neveryu replay: deal 1 does not replay: the replay ends loser" in screen
        assert "exit=1" in screen
    finally:
        tmux.kill()


# -- the lobby shows the server's last deals ----------------------------------------------------------


def test_the_lobby_shows_the_servers_last_deals():
    from neveryu.client.ui import model
    from neveryu.client.ui.controller import Controller

    sent: list[dict] = []
    c = Controller(Texts("en"), sent.append)
    c.receive({"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok", "records": True})
    c.records = True  # (run_client sets it from welcome.records)
    summary = {
        "id": 41,
        "ended_ms": 1_700_000_000_000,
        "variant": "verish",
        "table": 3,
        "deal_no": 2,
        "deals": 5,
        "seats": [
            {"seat": 0, "name": "bob", "bot": None},
            {"seat": 1, "name": "ann", "bot": None},
            {"seat": 2, "name": "bot 3", "bot": "random"},
        ],
        "loser": 0,
        "winner": None,
        "out": [2, 1],
        "seat": None,
    }
    c.receive({"t": "records", "re": 2, "records": [summary]})
    assert c.state.screen == "lobby" and c.state.recent == (summary,)
    lines = ["".join(text for _s, text in line).rstrip() for line in Screen(c)._recent_lines(90, 5)]
    when = time.strftime("%H:%M", time.localtime(1_700_000_000))
    assert lines == [f"  41 verish      {when}  lost: bob · bob, ann, Bot 3 (easy)"]
    c.refresh()
    assert sent == [{"t": "list_tables"}, {"t": "list_records", "limit": 5}]
    assert model.reduce(c.state, {"t": "_left"}).recent == (summary,)  # kept across the lobby


def test_a_table_that_reveals_its_records_says_so_before_the_deal():
    from neveryu.client.ui.controller import Controller

    c = Controller(Texts("en"), lambda request: None)
    table = {"id": 1, "variant": "verish", "state": "waiting", "turn_ms": 0, "deals": 5, "seats": []}
    for reveal, shown in ((True, True), (False, False)):
        c.receive({"t": "table_joined", "re": 1, "seat": 0, "table": {**table, "reveal_after_deal": reveal}})
        first = "".join(text for _s, text in Screen(c)._waiting_text()).splitlines()[0]
        assert ("every hand in the records after each deal" in first) is shown, first


def test_the_header_drops_whole_words_first_and_keeps_the_deal_at_100_columns(monkeypatch):
    """At 100 columns the program's name gives way, whole, before the server's, the table, the
    variant and the deal are cut."""
    from neveryu.client.ui import layout_header

    monkeypatch.setattr(layout_header, "screen_size", lambda: (100, 40))
    record, _ = played_deals("verish", 1, seed=6)[0]
    c = ReplayController(Texts("en"), Replay(deal_of(record)))
    c.go(c.player.steps)
    c.state = attrs.evolve(c.state, server_name="neveryu play")  # (the records' test server is "t")
    header = "".join(text for _style, text in Screen(c)._header_text()).rstrip()
    assert "…" not in header
    assert header.startswith(" neveryu play · table ")
    assert "· verish · deal " in header and header.endswith("· every hand")
