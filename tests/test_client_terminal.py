"""What the terminal can show (client/terminal.py): ASCII and English by the output encoding,
``LC_ALL=C`` honoured, no colour for ``NO_COLOR``, ``TERM=dumb`` or a monochrome terminal; and
the command line's addresses (client/address.py): ``HOST:PORT`` everywhere, clean errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from prompt_toolkit.output import ColorDepth

from neveryu.client.address import parse_address
from neveryu.client.terminal import display, locale_encoding

UTF8 = {"LANG": "en_US.UTF-8", "TERM": "xterm-256color"}


def test_lc_all_c_means_ascii_and_english_whatever_python_thinks():
    d = display(None, False, {"LC_ALL": "C", "LANG": "ru_RU.UTF-8", "TERM": "xterm"}, "utf-8", 256)
    assert (d.lang, d.ascii, d.encoding) == ("en", True, "ascii")
    assert d.notes == ("note.ascii",)
    d = display("ru", False, {"LC_ALL": "C", "TERM": "xterm"}, "utf-8", 256)
    assert (d.lang, d.ascii, d.notes) == ("en", True, ("note.no_cyrillic", "note.ascii"))


def test_a_cyrillic_terminal_without_suits_keeps_russian_with_ascii_cards():
    d = display(None, False, {"LANG": "ru_RU.KOI8-R", "TERM": "xterm"}, "utf-8", 256)
    assert (d.lang, d.ascii, d.encoding) == ("ru", True, "KOI8-R")


def test_utf8_shows_everything_and_the_locale_picks_the_language():
    assert display(None, False, {**UTF8, "LANG": "ru_RU.UTF-8"}, None, 256).lang == "ru"
    d = display(None, False, UTF8, None, 256)
    assert (d.lang, d.ascii, d.notes, d.color_depth) == ("en", False, (), None)
    assert display(None, True, UTF8, None, 256).ascii  # --ascii asked


def test_without_a_locale_the_stream_encoding_decides():
    assert locale_encoding({}) is None
    assert display(None, False, {"TERM": "xterm"}, "ascii", 256).ascii
    assert not display(None, False, {"TERM": "xterm"}, "utf-8", 256).ascii


@pytest.mark.parametrize(
    ("env", "colors", "depth"),
    [
        ({"NO_COLOR": "1", "TERM": "xterm-256color"}, 256, ColorDepth.DEPTH_1_BIT),
        ({"TERM": "dumb"}, None, ColorDepth.DEPTH_1_BIT),
        ({"TERM": "vt100"}, -1, ColorDepth.DEPTH_1_BIT),
        ({"TERM": "xterm-mono"}, 2, ColorDepth.DEPTH_1_BIT),
        ({"TERM": "xterm-256color"}, 256, None),
    ],
)
def test_no_colour_where_the_terminal_has_none_or_none_is_wanted(env, colors, depth):
    assert display(None, False, {**env, "LANG": "C.UTF-8"}, None, colors).color_depth == depth


def test_addresses_as_people_type_them():
    assert parse_address("192.168.1.20") == ("192.168.1.20", 7420)
    assert parse_address("192.168.1.20:7000") == ("192.168.1.20", 7000)
    assert parse_address("[fe80::1]:7000") == ("fe80::1", 7000)
    assert parse_address("fe80::1") == ("fe80::1", 7420)
    with pytest.raises(ValueError, match=r"the port must be a number, not 'abc'"):
        parse_address("127.0.0.1:abc")
    with pytest.raises(ValueError, match=r"between 1 and 65535, not 70000"):
        parse_address("h:70000")
    with pytest.raises(ValueError, match=r"no host before the port"):
        parse_address(":7420")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "neveryu.client.cli", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("command", ["join", "bot"])
def test_a_bad_port_is_a_sentence_not_a_traceback(command):
    done = run_cli(command, "127.0.0.1:abc")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"neveryu {command}: the port must be a number, not 'abc' (HOST:PORT, e.g. 127.0.0.1:7420)"
    )


def test_help_explains_the_bot_levels():
    for command in ("play", "bot"):
        out = run_cli(command, "--help").stdout
        assert "easy" in out and "normal" in out and "hard" in out, out
