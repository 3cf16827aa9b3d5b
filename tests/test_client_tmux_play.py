"""``neveryu play`` in a real terminal (tmux), as a person plays it, keeping or ending the game:
Ctrl-C quits and keeps the game; the next ``neveryu play`` on the same records offers to go on with
it and, on Enter, sits him at the same table with the same hand; ``q`` ends the game, and the next
``neveryu play`` deals a new match without asking. The help says the same."""

from __future__ import annotations

import re
import shutil

import pytest
from test_client_tmux import CARD, NEVERYU, ROOT, Tmux, hand_line, play

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def cards(screen: str) -> list[str]:
    return sorted(re.findall(CARD, hand_line(screen)))


def in_the_box(screen: str) -> str:
    """The words of the dialog box on the screen, as one line."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if "┌" in line)
    left, right = lines[top].index("┌"), lines[top].index("┐")
    inside = [line[left + 1 : right] for line in lines[top + 1 :] if len(line) > right and line[right] == "│"]
    return " ".join(" ".join(inside).split())


def test_ctrl_c_keeps_the_game_for_the_next_play_and_q_ends_it(tmp_path):
    args = f"--seed 7 --players 3 --bot-delay 20 --lang en --name Tess --db {tmp_path}/records.sqlite3"
    tmux = Tmux(100, 32)
    exit_file = tmp_path / "exit"
    try:
        tmux.start(play(tmp_path, args))
        screen = tmux.wait_for(lambda s: "Your turn" in s and cards(s), what="Tess's turn")
        hand = cards(screen)  # (it changes only when she acts)
        tmux.keys("?")
        screen = tmux.wait_for(lambda s: "Ctrl-C" in s, what="the help")
        assert "the game is kept, and next time you are offered to go on with it" in in_the_box(screen)
        tmux.keys("Escape")
        tmux.wait_for(lambda s: "┌ Help" not in s, what="the help to close")
        tmux.keys("C-c")
        screen = tmux.wait_for(lambda s: exit_file.exists() and "is kept" in s, what="play to stop")
        assert exit_file.read_text().strip() == "0"
        assert "To come back: neveryu play --db" in " ".join(screen.split())

        exit_file.unlink()
        tmux.run("respawn-pane", "-k", play(tmp_path, args))
        tmux.wait_for(lambda s: "Go on with it? [Y/n]" in s, what="the offer")
        tmux.keys("Enter")
        screen = tmux.wait_for(
            lambda s: "The server restarted" in s and len(cards(s)) == len(hand), what="the same table"
        )  # (the whole hand drawn: a screen caught mid-draw shows part of it)
        assert cards(screen) == hand and "Tess (you)" in screen

        tmux.keys("q")
        tmux.wait_for(lambda s: "The game ends with it" in s, what="the quit dialog")
        tmux.keys("y")
        screen = tmux.wait_for(lambda s: exit_file.exists(), what="play to stop")
        assert "is kept" not in screen
        exit_file.unlink()
        tmux.run("respawn-pane", "-k", play(tmp_path, args))
        screen = tmux.wait_for(lambda s: "The match starts" in s and cards(s), what="a new match")
        assert "Go on with it" not in screen and "The server restarted" not in screen
    finally:
        tmux.kill()


@pytest.mark.skipif(
    NEVERYU != ROOT / ".venv" / "bin" / "neveryu", reason="scripts/play runs the project's own .venv"
)
def test_started_by_scripts_play_the_way_back_is_scripts_play(tmp_path):
    """README's first command is scripts/play, whose neveryu is not on the player's PATH: the
    goodbye names scripts/play as he called it (from the project's folder here)."""
    db = tmp_path / "records.sqlite3"
    args = f"--seed 7 --players 3 --bot-delay 20 --lang en --name Tess --db {db}"
    exit_file = tmp_path / "exit"
    tmux = Tmux(100, 32)
    try:
        tmux.start(
            f"cd {ROOT} && NEVERYU_STATE_DIR={tmp_path}/state scripts/play {args}"
            f" 2> {tmp_path}/stderr; echo $? > {exit_file}; sleep 600"
        )
        tmux.wait_for(lambda s: "Your turn" in s and cards(s), what="Tess's turn")
        tmux.keys("C-c")
        screen = tmux.wait_for(lambda s: exit_file.exists() and "is kept" in s, what="play to stop")
        said = " ".join(screen.split())  # (the path may wrap: compared without white space)
        assert "To come back: scripts/play --db" in said and f"scripts/play--db{db}" in "".join(said.split())
        assert "neveryu play" not in said
    finally:
        tmux.kill()
