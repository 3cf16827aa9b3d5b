"""The simulator (engine.simulate) and ``neveryu simulate``: seeded, checked, exact."""

import json

import pytest

from neveryu import engine
from neveryu.client.cli import main
from neveryu.engine.simulate import parse_lineup, simulate


@pytest.mark.parametrize("name", list(engine.VARIANTS))
def test_every_variant_completes_checked_deals_with_mixed_bots(name):
    rules = engine.variant(name)
    players = max(3, rules.players[0])
    result = simulate(
        rules, players, 6, seed=3, bots=["honest", "random", "sharp"][:players] + ["honest"] * (players - 3)
    )
    assert result.completed == 6
    assert result.invariant_violations == 0
    assert result.bot_errors == 0
    assert sum(s.seats for s in result.strengths.values()) == 6 * players


def test_same_seed_same_figures():
    rules = engine.variant("verish")
    a = simulate(rules, 4, 10, seed=11, bots="honest,sharp,random,honest")
    b = simulate(rules, 4, 10, seed=11, bots="honest,sharp,random,honest")
    assert a.as_dict() == b.as_dict()
    assert a.deals_per_s is None and a.seconds is None


def test_last_loses_deal_has_one_loser_first_wins_one_winner():
    loses = simulate(engine.variant("veryu"), 3, 12, seed=2, bots="honest")
    assert loses.strengths["honest"].losses == 12 and loses.strengths["honest"].wins == 0
    wins = simulate(engine.variant("cheat"), 3, 12, seed=2, bots="honest")
    assert wins.strengths["honest"].wins == 12 and wins.strengths["honest"].losses == 0


def test_strengths_rotate_through_the_seats():
    # 4 deals at 4 seats: each strength plays each seat once, so each has 4 seat-deals.
    result = simulate(engine.variant("verish"), 4, 4, seed=5, bots="sharp,honest,random,honest")
    assert result.strengths["sharp"].seats == 4
    assert result.strengths["random"].seats == 4
    assert result.strengths["honest"].seats == 8


def test_parse_lineup_one_for_all_or_one_per_seat():
    assert parse_lineup("honest", 3) == ("honest",) * 3
    assert parse_lineup("sharp, random", 2) == ("sharp", "random")
    assert parse_lineup("hard, Easy,normal", 3) == ("sharp", "random", "honest")
    with pytest.raises(ValueError, match=r"level .genius.; known: easy, normal, hard, expert \(or random"):
        parse_lineup("genius", 3)
    with pytest.raises(ValueError, match="2 strengths for 3 seats"):
        parse_lineup("sharp,random", 3)


def test_a_seat_count_the_variant_forbids_is_refused():
    with pytest.raises(ValueError, match="3–12 players"):
        simulate(engine.variant("cheat"), 2, 1, seed=1)


def test_cli_json_has_the_promised_fields(capsys):
    code = main(
        [
            "simulate",
            "--variant",
            "lozh",
            "--players",
            "3",
            "--deals",
            "5",
            "--seed",
            "4",
            "--bots",
            "honest",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["variant"] == "lozh" and out["players"] == 3 and out["deals"] == 5
    assert out["completed"] == 5 and out["invariant_violations"] == 0
    assert out["deals_per_s"] > 0


def test_cli_text_report_and_bad_arguments(capsys):
    assert main(["simulate", "--variant", "hoyle", "--players", "2", "--deals", "3", "--bots", "random"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == "hoyle, 2 players, bots easy,easy, seed 1"
    assert lines[1] == "deals completed      3 of 3"
    assert lines[3] == "invariant violations 0"
    assert lines[5].startswith("  easy     seats ")
    assert lines[6].startswith("deals per second     ")
    assert main(["simulate", "--variant", "hoyle", "--players", "2", "--deals", "1", "--bots", "hard"]) == 0
    assert "bots hard,hard" in capsys.readouterr().out
    assert main(["simulate", "--players", "9", "--deals", "1"]) == 2
    assert "2–6 players" in capsys.readouterr().err


def level_rows(capsys, variant):
    assert main(["simulate", "--variant", variant, "--deals", "8", "--bots", "easy,hard,easy,hard"]) == 0
    return [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]


def test_the_score_is_said_as_the_variant_counts_it(capsys):
    """``losses`` (verish) counts deals lost: no signed score beside them, which read as a gain;
    chips (hoyle: every other player pays the winner one chip) are won less paid, with a sign;
    ``none`` (cheat) tallies nothing. docs/RULES.md, ``scoring``."""
    verish = level_rows(capsys, "verish")
    assert [row[0] + " " + row[3] for row in verish] == ["easy losses", "hard losses"]
    assert all(len(row) == 7 for row in verish)  # seats, losses, rate: nothing after
    hoyle = {row[0]: row for row in level_rows(capsys, "hoyle")}
    wins = {name: int(row[4]) for name, row in hoyle.items()}
    chips = {name: int(row[row.index("chips") + 1]) for name, row in hoyle.items()}
    # 4 seats: a winner gets 3 chips, each other seat pays 1; a level holds two seats of each deal.
    assert chips == {name: 3 * wins[name] - (16 - wins[name]) for name in hoyle}
    assert hoyle["hard"][hoyle["hard"].index("chips") + 1].startswith("+")
    assert all("chips" not in row for row in level_rows(capsys, "cheat"))
