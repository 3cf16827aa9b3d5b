"""The arena (engine.arena, ``neveryu arena``): duplicate deals from the seed, exact figures,
the records, Ctrl-C."""

from __future__ import annotations

import io
import json

from neveryu import engine
from neveryu.client.cli import main
from neveryu.client.commands import _arena_stats, arena
from neveryu.client.commands._arena_progress import Progress
from neveryu.engine.arena import Played, group_seed, play_group

LINEUP = ("sharp", "honest", "random", "honest")


def test_a_group_plays_one_deck_once_per_rotation_of_the_lineup():
    deals = play_group("verish", LINEUP, seed=5, group=3, check=True)
    assert [d.rotation for d in deals] == [0, 1, 2, 3]
    assert len({d.deck for d in deals}) == 1
    assert all(d.ended and d.group == 3 and d.dealer == 0 for d in deals)
    # each bot sits at each seat once: seat s of rotation r is lineup[(s + r) % 4]
    assert [d.bots for d in deals] == [
        ("sharp", "honest", "random", "honest"),
        ("honest", "random", "honest", "sharp"),
        ("random", "honest", "sharp", "honest"),
        ("honest", "sharp", "honest", "random"),
    ]
    assert sorted(deals[0].deck) == sorted(engine.new_deck("52"))


def test_decks_follow_from_the_seed_and_differ_between_groups_and_variants():
    a = play_group("verish", LINEUP, seed=5, group=0)
    assert play_group("verish", LINEUP, seed=5, group=0) == a
    assert play_group("verish", LINEUP, seed=5, group=1)[0].deck != a[0].deck
    assert play_group("verish", LINEUP, seed=6, group=0)[0].deck != a[0].deck
    assert group_seed(5, "verish", 0) != group_seed(5, "veryu", 0)


def _played(group: int, bots: tuple[str, ...], out: tuple[int, ...], loser: int) -> Played:
    return Played(
        variant="verish", group=group, rotation=0, bots=bots, deck=(), dealer=0, ended=True, out=out,
        loser=loser, winner=None, scores=tuple(int(s == loser) for s in range(len(bots))),
        hand_counts=(0,) * len(bots), actions=(), bot_errors=0,
    )  # fmt: skip


def test_figures_count_places_losses_and_the_pair_interval():
    # two groups; in both, a goes out first, b second, c loses
    deals = [_played(g, ("a", "b", "c"), (0, 1), 2) for g in range(2)]
    f = _arena_stats.figures("verish", deals, seed=1)
    by = {b.name: b for b in f.bots}
    assert [b.name for b in f.bots] == ["a", "b", "c"]
    assert (by["a"].place, by["b"].place, by["c"].place) == (1.0, 2.0, 3.0)
    assert (by["c"].losses, by["c"].score, by["a"].losses) == (2, 2, 0)
    pair = f.pairs[0]
    assert (pair.a, pair.b, pair.diff, pair.low, pair.high, pair.groups) == ("a", "b", -1.0, -1.0, -1.0, 2)
    assert pair.apart
    assert by["a"].mu > by["b"].mu > by["c"].mu


def test_the_table_shows_the_results_of_the_variants_kind_and_says_apart_in_plain_words():
    from neveryu.client.commands import _arena_report

    deals = [_played(g, ("a", "b", "c"), (0, 1), 2) for g in range(2)]
    lines = _arena_report.table(_arena_stats.figures("verish", deals, seed=1)).splitlines()
    assert lines[1].split() == ["bot", "seats", "place", "losses", "rating", "(mu", "±", "2σ)"]
    assert lines[4].split()[:4] == ["c", "2", "3.000", "2"]  # deals lost, no sign, no wins column
    assert lines[5].endswith(" over 2 groups: apart")
    assert lines[-1] == (
        "  place 1 is best; apart: one bot finishes better (95 % CI without 0), else no clear difference."
    )
    assert _arena_report.verdict(False) == "no clear difference"
    assert [name for name, _ in _arena_report.results("hoyle")] == ["wins", "chips"]
    assert [name for name, _ in _arena_report.results("cheat")] == ["wins"]


def test_a_bot_holding_several_seats_is_one_player_with_its_mean_place():
    deals = [_played(0, ("a", "b", "b"), (1, 0), 2), _played(1, ("b", "a", "b"), (1, 0), 2)]
    f = _arena_stats.figures("verish", deals, seed=1)
    by = {b.name: b for b in f.bots}
    assert (by["a"].seats, by["b"].seats) == (2, 4)
    assert (by["a"].place, by["b"].place) == (1.5, 2.25)  # a: 2nd, 1st; b: 1st, 3rd, 2nd, 3rd


def test_cli_json_is_the_same_for_any_number_of_workers(capsys):
    argv = ["arena", "--lineup", ",".join(LINEUP), "--deals", "8", "--seed", "3", "--json", "--quiet"]
    assert main([*argv, "--jobs", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*argv, "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one["variants"] == two["variants"]
    verish = one["variants"]["verish"]
    assert verish["deals"] == 8 and verish["unfinished"] == 0 and verish["bot_errors"] == 0
    assert {b: v["seats"] for b, v in verish["bots"].items()} == {"sharp": 8, "honest": 16, "random": 8}
    assert sum(v["losses"] for v in verish["bots"].values()) == 8


def test_cli_table_report_and_bad_arguments(capsys, tmp_path):
    report = tmp_path / "r.md"
    assert main(["arena", "--lineup", "sharp,random,honest", "--deals", "3", "--jobs", "1",
                 "--variant", "cheat", "--report", str(report), "--quiet"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "cheat: 3 deals" in out and "sharp − " in out
    text = report.read_text("utf-8")
    assert "## cheat" in text and "| sharp |" in text and "```" in text
    assert main(["arena", "--lineup", "sharp,genius", "--deals", "2"]) == 2
    assert "unknown bot level 'genius'" in capsys.readouterr().err
    assert main(["arena", "--variant", "hoyle-three", "--lineup", "sharp,honest", "--deals", "2"]) == 2
    assert main(["arena", "--variant", "nope", "--deals", "2"]) == 2


def test_ctrl_c_stops_the_run_and_prints_what_was_played(capsys, monkeypatch):
    real = arena.play_groups
    calls = []

    def interrupted(*args):
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(arena, "play_groups", interrupted)
    argv = ["arena", "--lineup", "sharp,honest,random", "--deals", "30", "--jobs", "1", "--json", "--quiet"]
    assert main(argv) == 130
    out = json.loads(capsys.readouterr().out)
    assert out["stopped"] is True
    assert out["deals"] == 3 * arena.GROUPS_PER_TASK
    assert out["variants"]["verish"]["deals"] == 3 * arena.GROUPS_PER_TASK


def test_db_keeps_every_deal_for_replay(capsys, tmp_path):
    from neveryu.server.records import database as _store
    from neveryu.server.records import history as _history
    from neveryu.server.records.replay import check

    db = tmp_path / "arena.db"
    assert main(["arena", "--lineup", "sharp,honest,random", "--deals", "6", "--jobs", "1", "--db", str(db),
                 "--quiet", "--variant", "lozh"]) == 0  # fmt: skip
    assert "6 deals written" in capsys.readouterr().out
    conn = _store.connect(db, write=False)
    try:
        ids = _history.deal_ids(conn)
        assert len(ids) == 6
        for i in ids:
            record = _history.load_deal(conn, i)
            assert record is not None and record.variant == "lozh"
            check(record)  # the engine replays it to its recorded result; the commitment holds
    finally:
        conn.close()


def test_progress_shows_the_time_left():
    now = [0.0]
    out = io.StringIO()
    p = Progress(100, enabled=True, out=out, clock=lambda: now[0], every=0)
    now[0] = 10.0
    p.add(25)
    assert out.getvalue().endswith("25/100 deals  25%  30 s left")
    p.close()
    quiet = io.StringIO()
    Progress(5, enabled=False, out=quiet).add(5)
    assert quiet.getvalue() == ""
