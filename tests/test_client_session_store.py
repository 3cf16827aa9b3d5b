"""Kept sessions on disk (client/session_store.py): per server, readable by the user only, held
by one running client at a time, released when its process dies (SIGKILL too), and a corrupt or
unreadable file is reported and set aside, never a crash."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time

from neveryu.client.session_store import KEEP_S, Kept, open_slot


def test_a_kept_session_is_found_again_for_the_same_server_only(tmp_path):
    slot = open_slot("10.0.0.5:7420", "ann", folder=tmp_path)
    assert slot is not None and slot.kept is None
    slot.save("ann", "tok-1", 40, 31)
    slot.close()
    assert open_slot("10.0.0.5:7421", "ann", folder=tmp_path).kept is None
    again = open_slot("10.0.0.5:7420", "ann", folder=tmp_path)
    assert again.kept is not None
    assert (again.kept.token, again.kept.seq, again.kept.deal_seq, again.kept.name) == (
        "tok-1",
        40,
        31,
        "ann",
    )
    assert again.kept.replay_from == 30  # a fresh client asks for the whole deal again


def test_the_token_file_is_readable_by_the_user_only(tmp_path):
    slot = open_slot("h:1", "ann", folder=tmp_path)
    slot.save("ann", "secret", 1, 0)
    assert stat.S_IMODE(os.stat(slot.path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "sessions").st_mode) == 0o700
    assert json.loads(slot.path.read_text())["token"] == "secret"


def test_a_second_client_of_the_same_server_does_not_take_the_first_ones_seat(tmp_path):
    first = open_slot("h:1", "ann", folder=tmp_path)
    first.save("ann", "tok-ann", 5, 0)
    second = open_slot("h:1", "ann", folder=tmp_path)
    assert second.kept is None and second.path != first.path
    second.save("bob", "tok-bob", 7, 0)
    first.close()
    second.close()
    assert open_slot("h:1", "bob", folder=tmp_path).kept.token == "tok-bob"  # its own name only
    assert open_slot("h:1", "cid", folder=tmp_path).kept is None


def test_the_lock_goes_with_a_killed_process(tmp_path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path;"
            "from neveryu.client.session_store import open_slot;"
            f"s = open_slot('h:1', 'ann', folder=Path({str(tmp_path)!r}));"
            "s.save('ann', 'tok', 9, 0); print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        assert open_slot("h:1", "ann", folder=tmp_path).kept is None  # held by a running client
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
        kept = open_slot("h:1", "ann", folder=tmp_path).kept
        assert kept is not None and kept.token == "tok"
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_a_corrupt_or_unreadable_file_is_reported_and_set_aside(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir(mode=0o700)
    (folder / "h_1-aaaa.json").write_text("{not json")
    (folder / "h_1-bbbb.json").mkdir()  # unreadable: a folder where a file should be
    (folder / "h_1-cccc.json").write_text(json.dumps({"server": "h:1"}))  # no token
    problems: list[str] = []
    slot = open_slot("h:1", "ann", folder=tmp_path, problem=problems.append)
    assert slot is not None and slot.kept is None
    assert len(problems) == 3 and all("cannot be read" in p and "set aside" in p for p in problems)
    assert sorted(p.name for p in folder.glob("*.bad")) == ["h_1-aaaa.bad", "h_1-bbbb.bad", "h_1-cccc.bad"]


def test_a_folder_that_cannot_be_made_is_reported_and_nothing_is_kept(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    problems: list[str] = []
    assert open_slot("h:1", "ann", folder=blocker, problem=problems.append) is None
    assert problems and "cannot use" in problems[0]


def test_stale_sessions_are_dropped(tmp_path):
    now = [time.time()]
    slot = open_slot("h:1", "ann", folder=tmp_path, clock=lambda: now[0])
    slot.save("ann", "old", 1, 0)
    slot.close()
    now[0] += KEEP_S + 1
    assert open_slot("h:1", "ann", folder=tmp_path, clock=lambda: now[0]).kept is None
    assert not slot.path.exists()


def test_every_change_is_written_at_once(tmp_path):
    """A client killed a moment after an event has that event's seq kept: nothing it showed
    counts as missed when it comes back."""
    now = [1000.0]
    slot = open_slot("h:1", "ann", folder=tmp_path, clock=lambda: now[0])
    for seq, deal_seq in ((1, 0), (2, 0), (3, 3), (4, 3)):
        slot.save("ann", "tok", seq, deal_seq)
        kept = json.loads(slot.path.read_text())
        assert (kept["seq"], kept["deal_seq"]) == (seq, deal_seq)
    slot.forget()
    assert not slot.path.exists()


def test_replay_from_without_a_deal_is_the_last_seq():
    assert Kept("h:1", "ann", "t", 17, 0, 0.0).replay_from == 17


def test_the_last_event_seen_is_kept_when_the_client_stops(tmp_path):
    """While playing, every event seen is written as it comes, so that a client killed then, or
    stopped with its seat kept, has the next client's "while you were away" count only what
    came after it."""
    from test_client_app import deal_messages

    from neveryu.client.ui import model
    from neveryu.client.ui.session import Keeper, resumed_state

    now = time.time()
    slot = open_slot("h:1", "ann", folder=tmp_path, clock=lambda: now)  # all within one second
    keeper, state = Keeper(slot, "ann"), model.State(name="ann")
    laid = {
        "t": "set_laid",
        "seq": 4,
        "ts": 0,
        "seat": 0,
        "set_no": 1,
        "rank": "Q",
        "count": 1,
        "cards": ["QS"],
    }
    for msg in [*deal_messages(), laid]:
        state = model.reduce(state, msg)
        keeper.follow(msg, state)
    assert [json.loads(f.read_text())["seq"] for f in (tmp_path / "sessions").glob("*.json")] == [4]
    keeper.end(state, gone=False)
    slot.close()
    again = open_slot("h:1", "ann", folder=tmp_path)
    kept = again.kept
    assert (kept.token, kept.seq, kept.deal_seq, kept.deal_events) == ("tok", 4, 1, 2)  # the start, a set
    # The next client replays the deal from its start: what it had been shown is not counted again.
    keeper, state = Keeper.of(again, "ann"), resumed_state("ann", kept)
    assert (state.recap_seen, state.recap_known) == (4, 2)
    later = {**laid, "seq": 6, "set_no": 2, "seat": 1, "cards": None}
    for msg in [*deal_messages()[2:], laid, later]:
        state = model.reduce(state, msg)
        keeper.follow(msg, state)
    assert (keeper.seen, keeper.deal_seq, keeper.deal_events) == (6, 1, 3)


def test_neveryu_plays_keeper_forgets_the_game_when_its_match_ends(tmp_path):
    """``neveryu play`` keeps its game only while the match is on: killed after the match's
    end, nothing is left for the next one to offer (``Keeper.match_only``)."""
    from test_client_app import deal_messages

    from neveryu.client.ui import model
    from neveryu.client.ui.session import Keeper

    slot = open_slot("play h:1", "ann", folder=tmp_path)
    keeper, state = Keeper.of(slot, "ann", match_only=True), model.State(name="ann")
    assert keeper is not None
    for msg in deal_messages():
        state = model.reduce(state, msg)
        keeper.follow(msg, state)
    assert slot.path.exists()  # during the match: kept
    waiting = {**deal_messages()[1]["table"], "state": "waiting"}
    for msg in (
        {"t": "match_ended", "seq": 8, "ts": 0, "scores": [0, 1, 0], "deals": 1},
        {"t": "table_update", "seq": 9, "ts": 0, "table": waiting},
    ):
        state = model.reduce(state, msg)
        keeper.follow(msg, state)
    assert not slot.path.exists()
    slot.close()
    assert open_slot("play h:1", "ann", folder=tmp_path).kept is None
