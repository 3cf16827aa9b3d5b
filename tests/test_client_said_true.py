"""What the client says is true and reads naturally: the deck in words, the help without markup,
the line mode's messages (what quitting does, what a refused word was, the match's end said
once), and the record commands' seats counted from 1."""

from __future__ import annotations

import pytest

from neveryu.client.ui.texts import Texts


@pytest.mark.parametrize(
    ("lang", "kind", "said"),
    [
        ("en", "52", "a 52-card deck"),
        ("en", "2x36", "two decks of 36 cards"),
        ("ru", "36", "колода из 36 карт"),
        ("ru", "2x52", "две колоды по 52 карты"),
        ("ru", "2x36", "две колоды по 36 карт"),
    ],
)
def test_the_deck_is_said_in_words(lang, kind, said):
    assert Texts(lang).deck(kind) == said


@pytest.mark.parametrize(
    ("lang", "n", "said"),
    [
        ("ru", 1, "Матч выиграл ann: меньше всех проигранных партий."),
        ("ru", 3, "Матч выиграли ann, bob и cid: меньше всех проигранных партий."),
        ("en", 3, "ann, bob and cid won the match: fewest deals lost."),
    ],
)
def test_the_match_winners_verb_agrees_with_how_many_they_are(lang, n, said):
    t = Texts(lang)
    names = "ann" if n == 1 else f"ann, bob {t('and')} cid"
    assert t("scores.winner.losses", names=names, won=t.verb(n, "won")) == said


def test_every_commands_help_is_plain_text_without_markup():
    from neveryu.client.cli import COMMANDS, build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in COMMANDS:
        text = sub.choices[name].format_help()  # type: ignore[attr-defined]
        assert "``" not in text, name
    serve = sub.choices["serve"].format_help()  # type: ignore[attr-defined]
    assert "ServerConfig" not in serve and 'log_level = "info"' in serve


class _Names:
    """Seat names for ``Texts.recap``: seat 1 is Bob, this client sits at seat 0."""

    seat = 0
    names = ("Ann", "Bob")

    def seat_name(self, seat):
        return self.names[seat]

    def shared(self, name, seat):
        return False

    def tag(self, seat):
        return None


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "While you were away: deal 2 ended, Bob lost; 3 sets laid."),
        ("ru", "Пока вас не было: партия 2 окончена, проиграл Bob; положено 3 набора."),
    ],
)
def test_the_recap_has_one_colon(lang, said):
    args = {"deals": [(2, 1, None)], "sets": 3, "mine": 0}
    assert Texts(lang).recap(_Names(), args) == said


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_line_modes_match_end_is_said_once_with_the_commands_that_go_on(lang):
    from plain_driver import golden

    from neveryu.client.plain.words import PlainTexts

    t = PlainTexts(lang)
    lines = golden(lang).read_text(encoding="utf-8").splitlines()
    over = [x for x in lines if x.startswith(t("log.match_ended", scores="").split(".")[0])]
    assert len(over) == 1
    assert lines[-1] == t("plain.again_play")
    assert (
        lines[-1]
        == {
            "en": "Another match: ready (or s). To quit: quit (or q).",
            "ru": "Ещё матч: ready (или s). Выйти: quit (или q).",
        }[lang]
    )


def _at_a_waiting_table(leave_quits=False, match_over=False):
    from test_client_app import SEATS

    from neveryu.client.ui.controller import Controller

    c = Controller(Texts("en"), lambda r: None, clock=lambda: 100.0, leave_quits=leave_quits)
    table = {"id": 1, "variant": "verish", "state": "waiting", "seats": SEATS}
    c.receive({"t": "welcome", "re": 1, "server": {"name": "test"}, "session": "tok"})
    c.receive({"t": "table_joined", "re": 2, "seat": 0, "table": table})
    if match_over:
        c.receive({"t": "match_ended", "seq": 3, "ts": 0, "scores": [0, 1, 0], "deals": 1})
    return c


def test_quitting_where_no_match_is_on_says_the_seat_waits_only_a_while():
    from neveryu.client.ui.session import exit_note, seat_kept

    c = _at_a_waiting_table()
    assert seat_kept(c)
    assert exit_note(c, "h:1", "neveryu join h:1") == (
        "No match is on at table 1: your seat waits for you only a short while (30 s, unless the server"
        " is set otherwise), then it is given up, and the table closes if nobody is left at it. To come"
        " back before that: neveryu join h:1"
    )


@pytest.mark.parametrize("state", ["waiting", "playing"])
def test_a_spectator_is_told_how_to_come_back_watching_not_that_a_seat_is_kept(state):
    from test_client_app import SEATS

    from neveryu.client.ui.controller import Controller
    from neveryu.client.ui.pages import dialog_text
    from neveryu.client.ui.session import exit_note

    c = Controller(Texts("en"), lambda r: None, clock=lambda: 100.0)
    table = {"id": 2, "variant": "verish", "state": state, "seats": SEATS}
    c.receive({"t": "welcome", "re": 1, "server": {"name": "test"}, "session": "tok"})
    c.receive({"t": "table_joined", "re": 2, "seat": None, "table": table})
    assert exit_note(c, "h:1", "neveryu join h:1") == (
        "You were watching table 2: the server keeps your session only a short while (30 s, unless the"
        " server is set otherwise). To come back watching before that: neveryu join h:1"
    )
    c.open_help()  # no hand to move across: Home and End scroll the log; q stops watching
    help_text = "".join(f[1] for f in dialog_text(c))
    assert "your hand" not in help_text and "your seat" not in help_text
    assert "PgUp PgDn   scroll the log (Home, End; the mouse wheel too)\n" in help_text
    assert "q (й)       stop watching: back to the lobby\n" in help_text


def test_neveryu_play_keeps_no_game_once_its_match_is_over():
    from neveryu.client.ui.session import exit_note, seat_kept

    c = _at_a_waiting_table(leave_quits=True, match_over=True)
    assert not seat_kept(c)
    assert exit_note(c, "h:1", "scripts/play") is None


def test_a_finished_plain_game_is_not_offered_as_unfinished(tmp_path):
    """A one-deal ``neveryu play --plain`` played to its end and quit: the next ``neveryu
    play`` on the same records finds no game kept (it would offer to go on with it)."""
    import plain_driver

    from neveryu.client.session_store import open_slot

    db = str(tmp_path / "records.sqlite3")
    argv = [a for a in plain_driver.command("verish", "en", 1) if a != "--no-record"] + ["--db", db]
    player = plain_driver.Player("en")
    lines = plain_driver._converse(argv, player, tmp_path / "state")
    assert player.done, lines[-10:]
    assert not any("To come back" in x for x in lines)
    assert lines[-1] == (
        f"1 deal recorded in {db}: neveryu history lists the recorded deals and neveryu replay ID shows one,"
        " each with --db and that file."
    )
    slot = open_slot(f"play {db}", "ann", folder=tmp_path / "state")
    assert slot is not None and slot.kept is None
    slot.close()


def test_a_kept_game_names_its_records_file_once(tmp_path):
    """``neveryu play --plain --db FILE``, its input ended after the first of two deals: the way
    back names the file; the line of the deals recorded does not name it again."""
    import subprocess

    import plain_driver

    db = str(tmp_path / "records.sqlite3")
    argv = [a for a in plain_driver.command("verish", "en", 1) if a != "--no-record"] + ["--db", db]
    argv[argv.index("--deals") + 1] = "2"
    env = plain_driver.child_env(tmp_path / "state")
    pipe = subprocess.PIPE
    child = subprocess.Popen(argv, stdin=pipe, stdout=pipe, env=env, cwd=plain_driver.REPO)
    assert child.stdin is not None and child.stdout is not None
    player = plain_driver.Player("en")
    lines: list[str] = []
    try:
        for line in plain_driver._lines(child.stdout.fileno()):
            lines.append(line)
            if line.startswith("The deal is over"):
                child.stdin.close()  # the end of the input: the game is kept
            reply = player.answer(line)
            if reply is not None and not child.stdin.closed:
                child.stdin.write(reply.encode() + b"\n")
                child.stdin.flush()
        assert child.wait(timeout=60) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert lines[-2:] == [
        f"Your seat at table 1 is kept. To come back: neveryu play --db {db}",
        "1 deal recorded: neveryu history lists the recorded deals and neveryu replay ID shows one, each with"
        " the same --db.",
    ]


def test_the_line_modes_last_deals_say_the_end_the_result_and_the_players_apart():
    import time

    from neveryu.client.plain import answers
    from neveryu.client.plain.actions import PlainController
    from neveryu.client.plain.words import PlainTexts

    c = PlainController(PlainTexts("en"), lambda r: None, clock=lambda: 100.0)
    summary = {
        "id": 41,
        "ended_ms": 1_700_000_000_000,
        "variant": "verish",
        "seats": [{"seat": 0, "name": "bob", "bot": None}, {"seat": 1, "name": "bot 2", "bot": "honest"}],
        "loser": 1,
        "winner": None,
    }
    when = time.strftime("%H:%M", time.localtime(1_700_000_000))
    assert answers.recent_line(c, summary) == (
        f"Deal 41, verish, ended at {when}, lost: Bot 2 (normal); players bob, Bot 2 (normal)."
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_resume_question_wraps_at_words_and_asks_on_its_own_line(monkeypatch, capsys, lang):
    import time

    from neveryu.client.commands import play

    monkeypatch.setenv("COLUMNS", "64")
    monkeypatch.setenv("NEVERYU_PLAY_SCRIPT", "./scripts/play")
    monkeypatch.setattr("builtins.input", lambda: "")
    assert play._go_on(time.time() - 300, lang) is True
    lines = capsys.readouterr().out.split("\n")
    t = Texts(lang)
    said = t("resume.unfinished", when=t("resume.minutes_ago", n=5), command="./scripts/play")
    assert all(len(line) <= 63 for line in lines)
    assert " ".join(lines[:-1]) == said  # broken only between words
    assert lines[-1] == t("resume.go_on") + " "


def test_no_russian_line_of_the_line_mode_reads_a_key_letter_then_a_comma():
    """In the line mode a dash becomes a comma («s — ещё матч» would read «s, ещё матч»): the
    kept Russian transcript has no key letter standing alone before a comma."""
    import re

    from plain_driver import golden

    lines = golden("ru").read_text(encoding="utf-8").splitlines()
    assert [x for x in lines if re.search(r"(^|[\s(])[a-z?]{1,2}, ", x)] == []
