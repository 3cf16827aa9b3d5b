"""``neveryu stats`` over real databases in a temporary folder: a player's statistics by name and
as "you" (the player key in the state folder), the leaderboards, ``--json`` in the protocol's
shapes, ``--rebuild``, deals not counted yet, and the player key file itself
(client/player_key.py)."""

from __future__ import annotations

import json
import os
import stat

import attrs
import pytest
from records_deals import played_deals

from neveryu import engine, protocol
from neveryu.client.cli import main
from neveryu.client.player_key import player_key, read_player_key
from neveryu.server.records.database import connect
from neveryu.server.records.derive import keep_deal, pending
from neveryu.server.records.history import insert_deal
from neveryu.server.records.players import key_hash, person_key

KEY_ANN = "ann-" + "Q" * 40
TAG = key_hash(KEY_ANN)[:4]


@pytest.fixture
def db(tmp_path, monkeypatch):
    """Three deals of verish and three of hoyle (seed 5), ann (player key ``KEY_ANN``) at seat 0,
    whom a sharp bot plays for, against sharp, random and honest bots; kept as the writer keeps
    them. The state folder is the test's own."""
    monkeypatch.setenv("NEVERYU_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "records.sqlite3"
    conn = connect(path, write=True)
    for variant in ("verish", "hoyle"):
        for record, _ in played_deals(variant, 3, seed=5):
            seat = attrs.evolve(record.seats[0], key=person_key(KEY_ANN))
            keep_deal(conn, attrs.evolve(record, seats=(seat, *record.seats[1:])))
    conn.close()
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


ANN = [
    f"ann#{TAG}, id 1 in these records",
    "  hoyle: 3 deals; won 0 (0%); chips -3",
    "    rating 22.56 ± 15.80 (low end 6.8, rank 3)",
    "    sets 34, bluffs 7 (21%): caught 7, survived 0",
    "    «не верю» 7 (right 71%), «верю» 0 (right -)",
    "    cards taken 21; 41 actions, 0.7 s each; timeouts 0",
    "  verish: 3 deals; lost 0 (0%); went out 2nd once, 3rd twice",
    "    rating 25.40 ± 15.43 (low end 10.0, rank 3)",
    "    sets 53, bluffs 25 (47%): caught 18, survived 7",
    "    «не верю» 14 (right 79%), «верю» 0 (right -)",
    "    cards taken 93; 70 actions, 0.7 s each; timeouts 0",
]


def test_stats_of_a_player_by_name(db, capsys):
    assert run(capsys, "stats", "--db", db, "ann") == (0, "\n".join(ANN) + "\n", "")
    code, out, _ = run(capsys, "stats", "--db", db, f"ANN#{TAG}", "--variant", "verish")
    assert (code, out.splitlines()) == (0, [ANN[0], *ANN[6:]])
    assert run(capsys, "stats", "--db", db, "zoya") == (
        1,
        "",
        "neveryu stats: nobody called zoya has played here\n",
    )
    code, out, _ = run(capsys, "stats", "--db", db, "hard")  # a bot by its level, as the client names it
    assert (code, out.splitlines()[0]) == (0, "hard (bot), id 2 in these records")
    assert run(capsys, "stats", "--db", db, "sharp")[1] == out


def test_stats_of_you_are_those_of_your_player_key(db, capsys, tmp_path):
    code, out, err = run(capsys, "stats", "--db", db)
    assert (code, out) == (1, "")
    assert err == (
        f"neveryu stats: you have no player key ({tmp_path / 'state' / 'player_key'}):"
        " name a player, neveryu stats NAME\n"
    )
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "player_key").write_text(KEY_ANN + "\n")
    assert run(capsys, "stats", "--db", db) == (0, "\n".join(ANN) + "\n", "")


def test_the_leaderboards(db, capsys):
    code, out, err = run(capsys, "stats", "--db", db, "--top", "--variant", "hoyle")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "hoyle: 4 players rated",
        "    #  player        low end  rating (± 2 sigma)  deals",
        "    1  hard (bot)       13.4       29.47 ± 16.08  3",
        "    2  normal (bot)      9.5       25.42 ± 15.88  3",
        f"    3  ann#{TAG}          6.8       22.56 ± 15.80  3",  # two tied: by mu, then id
        "    4  easy (bot)        6.8       22.56 ± 15.80  3",
        "Ranked by the low end (the rating less 2 sigma): what a player has shown at least, so that"
        " a new player's wide range does not rank him high.",
    ]
    code, out, _ = run(capsys, "stats", "--db", db, "--top", "--limit", "1")
    assert out.split("\n\n")[0].splitlines()[0] == "verish: 4 players rated"
    assert [line.split()[:2] for line in out.splitlines() if line.startswith("    1")] == [
        ["1", "hard"],
        ["1", "hard"],
    ]


def test_json_is_in_the_protocols_shapes(db, capsys):
    code, out, _ = run(capsys, "stats", "--db", db, "ann", "--json")
    assert code == 0
    stats = json.loads(out)
    protocol.PlayerStats.from_wire({"t": "player_stats", "re": 0, **stats})
    (ann,) = stats["players"]
    assert ann["player"] == {"id": 1, "name": "ann", "tag": TAG, "kind": "person"}
    verish = ann["variants"][1]
    assert (verish["variant"], verish["places"], verish["sets"], verish["rating"]["mu"]) == (
        "verish",
        [0, 1, 2],
        53,
        2540,
    )
    _, out, _ = run(capsys, "stats", "--db", db, "--top", "--json")
    boards = json.loads(out)
    assert [b["variant"] for b in boards] == list(engine.VARIANTS)
    for board in boards:
        protocol.Leaderboard.from_wire({"t": "leaderboard", "re": 0, **board})
    assert [b["total"] for b in boards if b["total"]] == [4, 4]


def test_rebuild_says_the_figures_came_out_the_same(db, capsys):
    before = run(capsys, "stats", "--db", db, "--top", "--json")[1]
    code, out, err = run(capsys, "stats", "--db", db, "--rebuild", "--top", "--json")
    assert (code, err) == (0, "neveryu stats: 6 deals counted again; reproduced exactly.\n")
    assert out == before


def test_deals_not_counted_yet_are_counted_first_or_said(db, capsys, monkeypatch):
    import neveryu.server

    conn = connect(db, write=True)
    extra = played_deals("verish", 4, seed=5)[3][0]  # a fourth deal, written without its counts
    insert_deal(conn, extra)
    assert pending(conn) == 1
    conn.close()
    connect_records = neveryu.server.connect_records

    def read_only(path, *, write=False):  # (the tests run as root, whom file modes do not stop)
        if write:
            raise neveryu.server.StoreError(f"{path} is read-only")
        return connect_records(path)

    monkeypatch.setattr(neveryu.server, "connect_records", read_only)
    code, out, _ = run(capsys, "stats", "--db", db, "--top", "--variant", "verish")
    assert code == 0
    assert out.splitlines()[-1] == "(1 deal recorded is not counted yet: the records cannot be written here)"
    assert run(capsys, "stats", "--db", db, "--rebuild")[::2] == (1, f"neveryu stats: {db} is read-only\n")
    monkeypatch.undo()
    code, out, _ = run(capsys, "stats", "--db", db, "--top", "--variant", "verish")
    assert code == 0 and "not counted" not in out
    assert pending(connect(db, write=False)) == 0


def test_bad_arguments(db, capsys):
    assert run(capsys, "stats", "--db", db, "--variant", "poker")[::2] == (
        2,
        "neveryu stats: there is no variant 'poker'\n",
    )
    assert run(capsys, "stats", "--db", db + ".none")[::2] == (
        1,
        f"neveryu stats: there is no records database at {db}.none\n",
    )


# -- the player key file ------------------------------------------------------------------------------


def test_the_player_key_is_made_once_and_readable_by_its_user_only(tmp_path):
    folder = tmp_path / "state"
    key = player_key(folder)
    assert (
        key is not None
        and len(key) == 43
        and protocol.Hello.from_wire(
            {
                "t": "hello",
                "id": 1,
                "proto": [1, 1],
                "client": {"name": "x", "version": "1"},
                "name": "a",
                "player_key": key,
            }
        )
    )
    assert player_key(folder) == key == read_player_key(folder)
    if os.name == "posix":
        assert stat.S_IMODE((folder / "player_key").stat().st_mode) == 0o600
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        os.chmod(folder / "player_key", 0o644)
        assert player_key(folder) == key
        assert stat.S_IMODE((folder / "player_key").stat().st_mode) == 0o600  # made private again


def test_a_damaged_key_file_is_left_alone_and_the_player_is_a_guest(tmp_path):
    folder = tmp_path / "state"
    folder.mkdir()
    (folder / "player_key").write_text("not a key!\n")
    said: list[str] = []
    assert player_key(folder, problem=said.append) is None
    assert said == [
        f"{folder / 'player_key'} holds no valid player key (it is left as it is); you play as a guest"
    ]
    assert (folder / "player_key").read_text() == "not a key!\n"


def test_counts_read_as_words():
    from neveryu.client.commands.stats import ordinal, plural, times

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "103rd",
    ]
    assert [times(n) for n in (1, 2, 3)] == ["once", "twice", "3 times"]
    assert (plural(1, "deal"), plural(0, "deal"), plural(2, "seat")) == ("1 deal", "0 deals", "2 seats")


def test_counts_agree_with_their_nouns():
    """One of a thing is said in the singular: "1 player rated", "1 action"."""
    from neveryu.client.commands._words import plural
    from neveryu.client.commands.stats import _board_text

    assert _board_text("hoyle", 1, []) == "hoyle: 1 player rated"
    assert _board_text("hoyle", 2, []) == "hoyle: 2 players rated"
    assert [plural(n, "match", "matches") for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
