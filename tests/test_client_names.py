"""Players of one name (docs/PLAYERS.md, "Who is who"): the client tells them apart by their tag
(``ann#3f2a``) wherever a name is shown (the table, the log, the chat); a guest, who has no tag,
by his seat's number."""

from __future__ import annotations

from neveryu.client.ui import model
from neveryu.client.ui.texts import Texts

SEATS = [
    {"seat": 0, "name": "ann", "bot": None, "ready": True, "away": False, "tag": "3f2a"},
    {"seat": 1, "name": "ann", "bot": None, "ready": True, "away": False, "tag": "9b01"},
    {"seat": 2, "name": "bob", "bot": None, "ready": True, "away": False},
    {"seat": 3, "name": "bob", "bot": None, "ready": True, "away": False},
    {"seat": 4, "name": "cyril", "bot": None, "ready": True, "away": False, "tag": "0c0c"},
]


def joined() -> model.State:
    table = {"id": 1, "variant": "cheat", "state": "waiting", "seats": SEATS}
    return model.reduce_all(
        [
            {"t": "welcome", "re": 1, "server": {"name": "t"}, "session": "s"},
            {"t": "table_joined", "re": 2, "seat": 0, "table": table},
        ],
        model.State(name="ann"),
    )


def test_names_that_collide_show_the_tag_others_only_the_name():
    s, t = joined(), Texts("en")
    assert [t.seat_name(s, seat, you=False) for seat in range(5)] == [
        "ann#3f2a",
        "ann#9b01",
        "bob #3",  # guests: no tag, the seat tells them apart
        "bob #4",
        "cyril",
    ]
    assert t.seat_name(s, 0) == "ann#3f2a (you)"


def test_chat_and_log_tell_speakers_of_one_name_apart():
    s = joined()
    s = model.reduce(s, {"t": "chat", "seq": 3, "ts": 0, "seat": 1, "name": "ann", "text": "hi"})
    s = model.reduce(s, {"t": "chat", "seq": 4, "ts": 0, "seat": 0, "name": "ann", "text": "hello"})
    s = model.reduce(s, {"t": "chat", "seq": 5, "ts": 0, "seat": 4, "name": "cyril", "text": "yo"})
    s = model.reduce(s, {"t": "chat", "seq": 6, "ts": 0, "seat": None, "name": "ann", "text": "watching"})
    t = Texts("en")
    assert [t.speaker(line) for line in s.chat] == ["ann#9b01", "ann#3f2a", "cyril", "ann (watching)"]
    s = model.reduce(s, {"t": "player_left", "seq": 7, "ts": 0, "seat": 1, "name": "ann", "reason": "left"})
    assert t.log_line(s, s.log[-1]) == "ann#9b01 leaves the table."
    # the line said before she left keeps its tag, though no other ann sits there now
    assert t.speaker(s.chat[0]) == "ann#9b01"


def test_a_newcomer_of_a_taken_name_is_logged_with_his_tag():
    s = joined()
    s = model.reduce(s, {"t": "player_left", "seq": 3, "ts": 0, "seat": 4, "name": "cyril", "reason": "left"})
    s = model.reduce(s, {"t": "player_joined", "seq": 4, "ts": 0, "seat": 4, "name": "ann"})
    seats = [*SEATS[:4], dict(SEATS[4], name="ann", tag="77aa")]
    table = {"id": 1, "variant": "cheat", "state": "waiting", "seats": seats}
    s = model.reduce(s, {"t": "table_update", "seq": 5, "ts": 0, "table": table})
    assert Texts("en").log_line(s, s.log[-1]) == "ann#77aa sits down."


def test_a_removed_player_reads_the_hosts_tag_when_two_share_his_name():
    s = joined()
    table = {"id": 1, "variant": "cheat", "state": "waiting", "seats": SEATS, "host": 1}
    s = model.reduce(s, {"t": "table_update", "seq": 3, "ts": 0, "table": table})
    s = model.reduce(
        s, {"t": "player_left", "seq": 4, "ts": 0, "seat": 0, "name": "ann", "reason": "removed", "by": 1}
    )
    assert (
        Texts("en").log_line(s, s.log[-1])
        == "ann#9b01, the table's host, took your seat: you are back in the lobby."
    )


def test_the_lobby_tells_players_of_one_name_apart():
    from neveryu.client.ui.controller import Controller
    from neveryu.client.ui.layout import Screen

    c = Controller(Texts("en"), lambda r: None)
    c.receive({"t": "welcome", "re": 1, "server": {"name": "t"}, "session": "s"})
    table = {"id": 1, "variant": "cheat", "state": "waiting", "seats": SEATS}
    c.receive({"t": "tables", "re": 2, "tables": [table]})
    (line,) = ["".join(f[1] for f in row) for row in Screen(c)._lobby_lines(100, 5)][1:]
    assert line.rstrip().endswith("ann#3f2a, ann#9b01, bob #3, bob #4, cyril")
