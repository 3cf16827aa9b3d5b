"""The tables of the terminal client's texts that are not sentences: suit symbols, the forms of
each rank's name in both languages, the marks and lines in Unicode and ASCII, the transliteration
of Cyrillic, and the Russian plural's choice of form (client/ui/texts.py uses them)."""

from __future__ import annotations

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")

# rank -> (one, few, many, plural nominative, plural accusative): «1 дама», «2 дамы», «5 дам»,
# «дамы», «заявляйте дам». The picture cards and the ace are animate nouns, whose accusative plural
# is the genitive («заявляйте королей»); the number cards are not («заявляйте двойки»).
RU_RANKS = {
    "2": ("двойка", "двойки", "двоек", "двойки", "двойки"),
    "3": ("тройка", "тройки", "троек", "тройки", "тройки"),
    "4": ("четвёрка", "четвёрки", "четвёрок", "четвёрки", "четвёрки"),
    "5": ("пятёрка", "пятёрки", "пятёрок", "пятёрки", "пятёрки"),
    "6": ("шестёрка", "шестёрки", "шестёрок", "шестёрки", "шестёрки"),
    "7": ("семёрка", "семёрки", "семёрок", "семёрки", "семёрки"),
    "8": ("восьмёрка", "восьмёрки", "восьмёрок", "восьмёрки", "восьмёрки"),
    "9": ("девятка", "девятки", "девяток", "девятки", "девятки"),
    "T": ("десятка", "десятки", "десяток", "десятки", "десятки"),
    "J": ("валет", "валета", "валетов", "валеты", "валетов"),
    "Q": ("дама", "дамы", "дам", "дамы", "дам"),
    "K": ("король", "короля", "королей", "короли", "королей"),
    "A": ("туз", "туза", "тузов", "тузы", "тузов"),
}
EN_RANKS = {
    "2": ("two", "twos"),
    "3": ("three", "threes"),
    "4": ("four", "fours"),
    "5": ("five", "fives"),
    "6": ("six", "sixes"),
    "7": ("seven", "sevens"),
    "8": ("eight", "eights"),
    "9": ("nine", "nines"),
    "T": ("ten", "tens"),
    "J": ("jack", "jacks"),
    "Q": ("queen", "queens"),
    "K": ("king", "kings"),
    "A": ("ace", "aces"),
}

# name -> (Unicode, ASCII)
GLYPHS = {
    "turn": ("▶", ">"),
    "dot": ("·", "|"),
    "dash": ("—", "-"),
    "rule": ("─", "-"),
    "vbar": ("│", "|"),
    "tl": ("┌", "+"),
    "tr": ("┐", "+"),
    "bl": ("└", "+"),
    "br": ("┘", "+"),
    "updown": ("↑↓", "Up/Down"),
    "leftright": ("←→", "Left/Right"),
    "arrow": ("→", "->"),
    "ellipsis": ("…", "~"),
}

ASCII_SYMBOLS = (
    ("«", '"'),
    ("»", '"'),
    ("…", "..."),
    ("×", "x"),
    ("—", "-"),
    ("–", "-"),
    ("↑↓", "Up/Down"),
    ("←→", "Left/Right"),
    ("↑", "Up"),
    ("↓", "Down"),
    ("→", "->"),
    ("✓", "(ok)"),
    ("≠", "!="),
    ("·", "|"),
    ("▶", ">"),
    ("•", "*"),
    ("♠", "S"),
    ("♥", "H"),
    ("♦", "D"),
    ("♣", "C"),
)
TRANSLIT = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "yo",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            '"',
            "y",
            "'",
            "e",
            "yu",
            "ya",
        ],
    )
)


def to_ascii(text: str) -> str:
    """``text`` in ASCII: symbols replaced, Cyrillic transliterated, the rest as ``?``."""
    if text.isascii():
        return text
    for u, a in ASCII_SYMBOLS:
        text = text.replace(u, a)
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch)
        elif ch.lower() in TRANSLIT:
            latin = TRANSLIT[ch.lower()]
            out.append(latin.capitalize() if ch.isupper() else latin)
        else:
            out.append("?")
    return "".join(out)


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many
