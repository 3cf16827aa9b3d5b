"""The texts as the line mode reads them (the catalogue is the full-screen client's: texts.py).

``PlainTexts(lang, cards)`` is ``Texts`` with cards read as words ("seven of spades", «семёрка
пик») or as codes (``7S``, ``10H``: rank and suit letter S H D C, as ``--ascii`` shows them), a
list of cards read with commas, and marks in ASCII. ``speakable(text)`` replaces the symbols a
speech synthesizer reads badly or not at all (marks and arrows, ``✓``, ``×``, ranges with an en
dash); ``page_lines(fragments)`` turns a full-screen page (prompt-toolkit fragments) into
lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from neveryu.client.ui.text_tables import EN_RANKS, GLYPHS, RU_RANKS
from neveryu.client.ui.texts import Texts
from neveryu.client.ui.wrap import HANG

CARDS_AS = ("words", "codes")

SYMBOLS = (
    ("✓", ""),
    ("▶", ""),
    ("•", ""),
    ("…", "..."),
    ("·", ","),
    ("→", ","),
    ("≠", "!="),
    ("↑↓", ""),
    ("←→", ""),
)
CALLS_LATIN = (("Не верю", "Ne veryu"), ("Верю", "Veryu"))


class PlainTexts(Texts):
    """``Texts`` for the line mode: ``cards`` is ``"words"`` or ``"codes"`` (``CARDS_AS``);
    ``ascii``: the output cannot show more than ASCII (client/terminal.py: Cyrillic is then
    transliterated, «» become quotes)."""

    def __init__(self, lang: str = "en", cards: str = "words", ascii: bool = False) -> None:
        super().__init__(lang, ascii=ascii)
        self.cards_as = cards if cards in CARDS_AS else "words"

    def card(self, card: str) -> str:
        """``"7S"`` → "seven of spades" («семёрка пик»), or ``7S`` as a code (``"TS"`` → ``10S``)."""
        if not isinstance(card, str) or len(card) != 2:
            return "??"
        rank, suit = card[0], card[1]
        if self.cards_as == "codes":
            return self.rank(rank) + suit
        if self.lang == "ru":
            name = RU_RANKS.get(rank, (rank,))[0]
        else:
            name = EN_RANKS.get(rank, (rank,))[0]
        return self("plain.card", rank=name, suit=self("suit." + suit))

    def cards(self, cards: Iterable[str] | None) -> str:
        sep = " " if self.cards_as == "codes" else ", "
        return sep.join(self.card(c) for c in cards or ()) or self("nothing")

    def glyph(self, name: str) -> str:
        return GLYPHS[name][1]


def speakable(text: str, lang: str = "en") -> str:
    """``text`` with the symbols a speech synthesizer mangles replaced: ``1–3`` reads "1 to 3"
    («от 1 до 3»), ``1/5`` "1 of 5", ``#3`` "number 3", an em dash is a comma, marks are
    dropped, spaces made single; in English the calls «Не верю» and «Верю» are written in Latin
    letters (an English voice spells Cyrillic letter by letter, as espeak-ng does)."""
    for symbol, word in SYMBOLS:
        text = text.replace(symbol, word)
    ru = lang == "ru"
    text = re.sub(r"(\d+)\s*–\s*(\d+)", r"от \1 до \2" if ru else r"\1 to \2", text)
    text = re.sub(r"\b(\d+)/(\d+)\b", r"\1 из \2" if ru else r"\1 of \2", text)
    text = re.sub(r"#(\d)", r"номер \1" if ru else r"number \1", text)
    if ru:  # a Russian voice reads ± in English
        text = text.replace("±", "плюс-минус")
    if not ru:  # an English voice spells Cyrillic letter by letter: the calls in Latin letters
        for call, latin in CALLS_LATIN:
            text = text.replace(call, latin)
    text = text.replace(" — ", ", ").replace("—", ", ").replace("–", "-")
    text = re.sub(r"(\d)\s*×\s*(\d)", r"\1 x \2", text)
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    return re.sub(r"[ \t]+", " ", text).strip()


def page_lines(fragments: Iterable[Any], lang: str = "en") -> list[str]:
    """The non-empty lines of a page's ``(style, text)`` fragments, made ``speakable``."""
    text = "".join(str(f[1]) for f in fragments if f[0] != HANG)
    lines = (speakable(line, lang) for line in text.split("\n"))
    return [line for line in lines if line]
