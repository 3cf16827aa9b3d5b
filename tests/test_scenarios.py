"""Every scenario file in tests/scenarios/ passes (docs/SCENARIOS.md), and the runner itself
reports mismatches, refused steps and unreadable files."""

from __future__ import annotations

from pathlib import Path

import pytest

from neveryu.client.cli import main
from neveryu.engine import scenario

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.toml"))


def test_there_are_scenarios():
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_passes(path):
    mismatches = scenario.run_file(path)
    assert not mismatches, "\n".join(str(m) for m in mismatches)


BROKEN = """
variant = "verish"
seats = ["A", "B"]
[[deal]]
dealer = "B"
rank = "K"
hands.A = "KH 7C"
hands.B = "KD"
  [[deal.step]]
  do = "lay"
  seat = "A"
  cards = "KH"
  expect.turn = "A"
  expect.events = ["set_laid"]
  [[deal.step]]
  do = "lay"
  seat = "A"
  cards = "7C"
  expect.error = "ILLEGAL_ACTION"
"""


def test_runner_reports_each_mismatch(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text(BROKEN)
    found = scenario.run_file(path)
    assert [m.what for m in found] == ["turn", "events", "error"]
    assert found[0].expected == "A" and found[0].got == "B"
    assert "set_laid(" in found[1].got and "turn(" in found[1].got
    assert found[2].expected == "ILLEGAL_ACTION" and found[2].got.startswith("NOT_YOUR_TURN")


def test_cli_exit_codes(tmp_path, capsys):
    good = FILES[0]
    assert main(["scenario", str(good)]) == 0
    bad = tmp_path / "broken.toml"
    bad.write_text(BROKEN)
    assert main(["scenario", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "turn: expected A, got B" in out and "1 passed, 1 failed" in out
    unreadable = tmp_path / "unknown.toml"
    unreadable.write_text('variant = "verish"\nseats = ["A", "B"]\nbogus = 1\n')
    assert main(["scenario", str(unreadable)]) == 2
    assert "unknown key bogus" in capsys.readouterr().err


def test_unknown_seat_or_card_is_a_scenario_error(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('variant = "verish"\nseats = ["A", "B"]\n[[deal]]\ndealer = "B"\nhands.A = "KX"\n')
    with pytest.raises(scenario.ScenarioError, match="'KX' is not a card"):
        scenario.run_file(path)
