"""What the player's terminal can show: which characters, which language, whether colour.

- The output encoding comes from the locale first (``LC_ALL``, then ``LC_CTYPE``, then
  ``LANG``): ``C`` and ``POSIX`` mean ASCII, ``ru_RU.KOI8-R`` means KOI8-R. Python's UTF-8 mode
  makes ``sys.stdout`` UTF-8 under ``LC_ALL=C`` whatever the terminal shows, so the stream's
  own encoding is used only when the locale names none.
- ``ascii``: the encoding cannot show the suits (♠♥♦♣) and box lines: cards read ``QS``,
  Cyrillic names are transliterated.
- ``lang``: ``--lang``, else Russian when the locale is Russian; Russian falls back to English
  when the encoding has no Cyrillic.
- Colour is off with ``NO_COLOR`` (https://no-color.org), ``TERM=dumb`` or a terminal whose
  terminfo entry has fewer than 8 colours: the screen is then drawn in one colour, with bold,
  underline and reverse only (everything stays readable: docs/ARCHITECTURE.md, client/).
"""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Mapping

import attrs
from prompt_toolkit.output import ColorDepth

SUITS_AND_LINES = "♠♥♦♣─│┌«»…×↑↓←→✓≠·▶"
CYRILLIC = "Верю"


@attrs.frozen
class Display:
    """How to draw for this terminal: ``lang`` (``"ru"`` or ``"en"``), ``ascii``,
    ``color_depth`` (None: prompt-toolkit's own choice), ``encoding`` (the output's), and
    ``notes``: what was changed from what was asked, for the log (keys of texts.py)."""

    lang: str
    ascii: bool
    color_depth: ColorDepth | None
    encoding: str
    notes: tuple[str, ...] = ()


def locale_encoding(environ: Mapping[str, str]) -> str | None:
    """The character set the locale names (``"UTF-8"``, ``"KOI8-R"``, ``"ascii"`` for C and
    POSIX), or None when no locale variable is set or the one set names no character set."""
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(var)
        if not value:
            continue
        if value in ("C", "POSIX"):
            return "ascii"
        if "." in value:
            return value.split(".", 1)[1].split("@", 1)[0] or None
        return None
    return None


def can_encode(text: str, encoding: str | None) -> bool:
    """True when every character of ``text`` exists in ``encoding`` (an unknown encoding: no)."""
    try:
        codecs.lookup(encoding or "ascii")
        text.encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def choose_lang(arg: str | None, environ: Mapping[str, str]) -> str:
    """``arg`` if given (``ru`` or ``en``), else ``ru`` when the locale is Russian, else ``en``."""
    if arg in ("ru", "en"):
        return arg
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(var)
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


def terminal_colors(term: str) -> int | None:
    """The number of colours terminfo gives ``term``, or None when it cannot say."""
    try:
        import curses

        curses.setupterm(term, sys.__stdout__.fileno() if sys.__stdout__ else 1)
        return int(curses.tigetnum("colors"))
    except Exception:  # no curses, no terminfo entry, no terminal
        return None


def color_depth(environ: Mapping[str, str], colors: int | None = None) -> ColorDepth | None:
    """One colour (``DEPTH_1_BIT``) for ``NO_COLOR``, ``TERM=dumb`` or a terminal of fewer than 8
    colours (``colors``, from terminfo when not given); else None (prompt-toolkit decides)."""
    if environ.get("NO_COLOR"):
        return ColorDepth.DEPTH_1_BIT
    term = environ.get("TERM", "")
    if term in ("", "dumb", "unknown"):
        return ColorDepth.DEPTH_1_BIT if term else None
    if colors is None:
        colors = terminal_colors(term)
    if colors is not None and colors < 8:  # -1: terminfo gives no colours at all
        return ColorDepth.DEPTH_1_BIT
    return None


def display(
    lang_arg: str | None = None,
    ascii_arg: bool = False,
    environ: Mapping[str, str] | None = None,
    stream_encoding: str | None = None,
    colors: int | None = None,
) -> Display:
    """The ``Display`` for these arguments (``--lang``, ``--ascii``), environment and output."""
    env = os.environ if environ is None else environ
    if stream_encoding is None:
        stream_encoding = getattr(sys.stdout, "encoding", None)
    encoding = locale_encoding(env) or stream_encoding or "ascii"
    notes: list[str] = []
    lang = choose_lang(lang_arg, env)
    if lang == "ru" and not can_encode(CYRILLIC, encoding):
        lang = "en"
        notes.append("note.no_cyrillic")
    plain = ascii_arg or not can_encode(SUITS_AND_LINES, encoding)
    if plain and not ascii_arg:
        notes.append("note.ascii")
    return Display(lang, plain, color_depth(env, colors), encoding, tuple(notes))
