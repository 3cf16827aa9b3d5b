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
        ("en", "2x36", "two 36-card decks"),
        ("ru", "36", "колода из 36 карт"),
        ("ru", "2x52", "две колоды по 52 карты"),
        ("ru", "2x36", "две колоды по 36 карт"),
    ],
)
def test_the_deck_is_said_in_words(lang, kind, said):
    assert Texts(lang).deck(kind) == said


def test_every_commands_help_is_plain_text_without_markup():
    from neveryu.client.cli import COMMANDS, build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in COMMANDS:
        text = sub.choices[name].format_help()  # type: ignore[attr-defined]
        assert "``" not in text, name
    serve = sub.choices["serve"].format_help()  # type: ignore[attr-defined]
    assert "ServerConfig" not in serve and 'log_level = "info"' in serve
