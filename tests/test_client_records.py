"""The player's own deals in the terminal client (fetched from the server's records; client/ui/
controller_own_deals.py, record_pages.py): ``p`` lists the deals this session played, Enter fetches
one; a whole record opens in the replay over the client's screen and ``q`` comes back; a seat's view
reads as a page in words. Against a real server on 127.0.0.1 with a real database, and with
prompt-toolkit's pipe input for the keys."""

from __future__ import annotations

import asyncio
import time

import attrs
import pytest
from records_deals import played_deals
from test_client_app import _until

from neveryu.client.ui import model
from neveryu.client.ui.app import build_app
from neveryu.client.ui.controller import Controller
from neveryu.client.ui.net import Net
from neveryu.client.ui.record_pages import record_text
from neveryu.client.ui.replay import Replay
from neveryu.client.ui.session import hello_fields
from neveryu.client.ui.texts import Texts
from neveryu.server import check_record, record_json

LOBBY = [
    {"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok", "records": True},
    {"t": "tables", "re": 2, "tables": []},
]
SUMMARY = {
    "id": 7,
    "ended_ms": 1_700_000_000_000,
    "variant": "verish",
    "table": 1,
    "deal_no": 1,
    "deals": 1,
    "seats": [
        {"seat": 0, "name": "ann", "bot": None},
        {"seat": 1, "name": "bot 2", "bot": "sharp"},
        {"seat": 2, "name": "bot 3", "bot": "honest"},
    ],
    "loser": 1,
    "winner": None,
    "out": [0, 2],
    "seat": 0,
}


def lobby(records: bool = True) -> tuple[Controller, list[dict]]:
    sent: list[dict] = []
    c = Controller(Texts("en"), sent.append, clock=lambda: 100.0)
    c.records = records
    for m in LOBBY:
        c.receive(m)
    return c, sent


def a_record(variant: str = "verish", view: int | None = 1) -> dict:
    record, _ = played_deals(variant, 1, seed=5)[0]
    record = attrs.evolve(record, id=7)
    return record_json(record, check_record(record), view)


def plain(fragments) -> str:
    return "".join(f[1] for f in fragments)


# -- the model and the controller ---------------------------------------------------------------


def test_ones_own_deals_are_kept_apart_from_the_lobbys_list():
    s = model.reduce_all([*LOBBY, {"t": "records", "re": 3, "records": [SUMMARY]}])
    assert s.recent == (SUMMARY,) and s.my_deals is None
    s = model.reduce(s, {"t": "_my_records", "re": 4, "records": [SUMMARY, {**SUMMARY, "id": 6}]})
    assert [r["id"] for r in s.my_deals] == [7, 6] and s.recent == (SUMMARY,)


def test_p_asks_for_ones_deals_and_enter_fetches_the_chosen_one():
    c, sent = lobby()
    c.open_deals()
    assert sent == [{"t": "list_records", "mine": True, "limit": 50}] and c.dialog.kind == "deals"
    c.receive({"t": "_my_records", "re": 3, "records": [SUMMARY, {**SUMMARY, "id": 6, "seat": 2}]})
    c.deals_move(1)
    c.open_deal()
    assert sent[-1] == {"t": "get_record", "deal": 6} and c.current_notice().text == "Fetching deal 6…"
    c.deals_move(1)  # round to the first
    assert c.dialog.index == 0


@pytest.mark.parametrize(
    ("records", "table_state", "said"),
    [
        (False, None, "This server keeps no records of its deals."),
        (True, "playing", "Your deals open between matches: a match is on at this table."),
    ],
)
def test_p_says_why_when_ones_deals_cannot_open(records, table_state, said):
    c, sent = lobby(records)
    if table_state is not None:
        c.receive(
            {
                "t": "table_joined",
                "re": 3,
                "seat": 0,
                "table": {"id": 1, "variant": "verish", "state": table_state},
            }
        )
    c.open_deals()
    assert sent == [] and c.dialog is None and c.current_notice().text == said


def test_a_whole_record_opens_the_replay_from_ones_own_seat():
    c, _ = lobby()
    opened: list = []
    c.on_open_replay = lambda deal, seat: opened.append((deal, seat))
    c.open_deals()
    c.receive({"t": "_my_records", "re": 3, "records": [{**SUMMARY, "seat": 0}]})
    c.open_deal()
    c.receive({"t": "record", "re": 4, "record": a_record(view=None)})
    ((deal, seat),) = opened
    assert deal.id == 7 and seat == 0 and c.dialog.kind == "deals"  # q in the replay comes back here
    last = Replay(deal).states[0][-1]
    assert last.over and last.result["loser"] == a_record(view=None)["result"]["loser"]


def test_a_seat_view_opens_as_a_page_and_esc_goes_back_to_the_list():
    c, _ = lobby()
    c.open_deals()
    c.receive({"t": "_my_records", "re": 3, "records": [SUMMARY, {**SUMMARY, "id": 6}]})
    c.deals_move(1)
    c.receive({"t": "record", "re": 4, "record": a_record(view=1)})
    assert c.dialog.kind == "record" and c.dialog.data["doc"]["view"] == 1
    c.close_dialog()
    assert c.dialog.kind == "deals" and c.dialog.index == 1


def test_a_seat_view_reads_as_that_seat_saw_it(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        doc = a_record(view=1)
        lines = plain(record_text(Texts("en"), doc)).splitlines()
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert lines[:12] == [
        "Deal 7 (1/1 of its match) · verish (Believe it or not) · 2023-11-14 22:13",
        "As you saw it: the cards of sets nobody turned up stay face down.",
        "Dealt to you: 2♠ 3♣ 4♠ 5♣ 7♠ 8♦ 8♥ 8♠ 9♣ J♣ J♥ Q♥ K♣",
        "0:00 Bot 4 claims 2 kings.",
        "0:00 ann claims 3 kings.",
        "0:01 Bot 2 (you): «Не верю!»",
        "0:01 Revealed: K♥ 2♦ 3♥ — the claim of 3 kings is false.",
        "0:01 ann takes the pile.",
        "0:02 Bot 2 (you): 3 eights (really 8♥ 8♦ 8♠).",
        "0:02 Bot 3 claims 1 eight.",
        "0:03 Bot 4 claims 1 eight.",
        "0:04 ann: «Не верю!»",
    ]
    assert lines[-2].startswith("The deal is over: ") and lines[-1] == (
        "Fair deal checked: the deck matches the commitment."
    )
    # a set's cards show at its laying only for seat 1's own sets; the others' when turned up
    assert all(line.startswith(("0:", "1:")) and "Bot 2 (you)" in line for line in lines if "really" in line)


def test_a_hoyle_record_names_the_ranks_only_one_could_claim():
    lines = plain(record_text(Texts("en"), a_record("hoyle", view=1))).splitlines()
    assert lines[3:6] == ["0:00 Bot 4 claims 1 ace.", "0:01 ann claims 2 kings.", "0:02 Bot 3: «Не верю!»"]


# -- the keys (pipe input) -----------------------------------------------------------------------


def test_keys_open_ones_deals_and_a_whole_one_replays_until_q():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    sent: list[dict] = []

    async def main() -> Controller:
        with create_pipe_input() as inp:
            c = Controller(Texts("ru"), sent.append)
            c.records = True
            for m in LOBBY:
                c.receive(m)
            app = build_app(c, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            await _until(lambda: app.is_running)
            inp.send_text("з")  # p on a Russian layout
            await _until(lambda: c.dialog is not None)
            c.receive({"t": "_my_records", "re": 3, "records": [SUMMARY, {**SUMMARY, "id": 6}]})
            inp.send_text("\x1b[B")  # ↓
            await _until(lambda: c.dialog.index == 1)
            inp.send_text("\r")
            await _until(lambda: sent[-1]["t"] == "get_record")
            c.receive({"t": "record", "re": 4, "record": a_record(view=None)})
            await _until(lambda: c.viewing is not None and c.viewing.replay is not None)
            viewer = c.viewing
            inp.send_text(" ")  # the replay's own keys: Space steps on
            await _until(lambda: viewer.index == 1)
            inp.send_text("q")
            await _until(lambda: c.viewing is None)
            assert c.dialog is not None and c.dialog.kind == "deals"  # back where it was
            inp.send_text("\x1b")
            await _until(lambda: c.dialog is None)
            inp.send_text("\x03")
            await asyncio.wait_for(task, 5)
            return c

    asyncio.run(main())
    assert sent == [{"t": "list_records", "mine": True, "limit": 50}, {"t": "get_record", "deal": 6}]


# -- over a real server --------------------------------------------------------------------------


@pytest.mark.parametrize("reveal", [True, False])
def test_a_player_opens_his_deal_from_a_real_server(records_db, reveal):
    """Ann plays one deal of ``verish`` at a table of three (her time runs out and a bot plays her
    seat: the deal is hers all the same), then lists her deals and opens it: whole where the table
    revealed its records, as her seat saw it otherwise."""
    from neveryu.server import ServerConfig, start_in_thread

    config = ServerConfig(host="127.0.0.1", port=0, name="dorm", db=records_db).evolve(
        table={"bot_delay_ms": 5, "deal_pause_ms": 50, "challenge_window_ms": 0, "quads_window_ms": 0}
    )
    running = start_in_thread(config)
    opened: list = []
    found: list[dict] = []
    c = Controller(Texts("en"), lambda r: None)
    c.on_open_replay = lambda deal, seat: opened.append((deal, seat))

    def deliver(msg: dict) -> None:
        if msg.get("t") == "welcome":
            c.records = bool(msg.get("records"))
        c.receive(msg)

    async def main() -> None:
        net = Net("127.0.0.1", running.port, hello_fields("ann", None), deliver, retry=False)
        c.send = net.send
        net.start()
        try:
            await _until(lambda: c.state.connection == "connected", 10)
            net.send(
                {
                    "t": "create_table",
                    "variant": "verish",
                    "seats": 3,
                    "bots": ["sharp", "honest"],
                    "turn_ms": 50,
                    "deals": 1,
                    "reveal_after_deal": reveal,
                }
            )
            await _until(lambda: c.state.table is not None, 10)
            net.send({"t": "ready", "ready": True})
            net.send({"t": "start"})
            await _until(lambda: c.state.match_over is not None, 30)
            for _ in range(100):  # the record is written a moment after the deal's end
                c.open_deals()
                await _until(lambda: c.state.my_deals is not None, 10)
                if c.state.my_deals:
                    break
                c.close_dialog()
                c.state = attrs.evolve(c.state, my_deals=None)
                await asyncio.sleep(0.05)
            found.extend(c.state.my_deals)
            assert [(r["seat"], r["variant"]) for r in found] == [(0, "verish")]
            c.open_deal()
            await _until(lambda: opened or (c.dialog is not None and c.dialog.kind == "record"), 10)
        finally:
            await net.aclose()

    try:
        asyncio.run(main())
    finally:
        running.stop()
    (summary,) = found
    if reveal:
        ((deal, seat),) = opened
        assert seat == 0 and deal.id == summary["id"]
        ended = Replay(deal).states[0][-1]
        assert ended.over and ended.result["loser"] == summary["loser"]
    else:
        assert opened == []
        doc = c.dialog.data["doc"]
        assert doc["view"] == 0 and doc["id"] == summary["id"]
        text = plain(record_text(Texts("en"), doc))
        assert text.splitlines()[1] == "As you saw it: the cards of sets nobody turned up stay face down."
        assert "Fair deal checked: the deck is the one the server's seed" in text
