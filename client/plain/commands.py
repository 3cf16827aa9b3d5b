"""A typed line as a command of the line mode: names, short forms, unique prefixes, cards and
ranks. Pure: no state, no I/O.

``parse(line)`` returns a ``Command`` (``name`` and the words after it, and ``rest``: the line
after the command word, as typed, for chat and passwords) or raises ``Refusal`` (a catalogue key
and its arguments: what to tell the person). A command word may be cut to any beginning that
only one command has (``leg`` is ``legal``); the full-screen client's keys work as short forms
(``n`` «Не верю», ``y`` «Верю», ``0`` none, ``d`` quads, ``k`` keep, ``s`` ready, ``q`` quit,
``?`` help, ``r`` rules); «не верю» and «верю» are typed in Russian too. An empty line is
``enter`` (a replay steps on with it).

``lay_order(words)`` reads the arguments of ``lay``: ``7S 7H as 7``, ``2 as Q``, ``7S as 3 7``
or ``7S as 7 count 3`` (a count where the claimed count may differ: RULES.md, cheat,
``count_may_lie``).
"""

from __future__ import annotations

from typing import Any

import attrs

from neveryu.client.ui.text_tables import EN_RANKS, RU_RANKS
from neveryu.engine import RANKS, SUITS

HELP: dict[str, tuple[str, ...]] = {
    "lay": ("lay",),
    "no": ("no",),
    "yes": ("yes",),
    "none": ("none",),
    "quads": ("quads",),
    "keep": ("keep",),
    "chat": ("chat",),
    "hand": ("hand",),
    "pile": ("pile",),
    "who": ("who",),
    "last": ("last",),
    "time": ("time",),
    "legal": ("legal",),
    "rules": ("rules",),
    "scores": ("scores",),
    "ready": ("ready", "start"),
    "leave": ("leave", "quit"),
    "seats": ("bot", "free"),
    "tables": ("tables", "join", "watch"),
    "create": ("create",),
    "stats": ("stats", "top"),
    "history": ("history", "replay"),
    "settings": ("cards", "bell"),
    "help": ("help",),
}
"""Every command, by the line of ``help`` that tells it (``plain.help.<line>`` in the catalogue),
in the help's order."""
NAMES = tuple(name for names in HELP.values() for name in names)
"""The command words, in the help's order (the order an ambiguous beginning lists them in)."""
SHORT = {
    "n": "no",
    "y": "yes",
    "0": "none",
    "d": "quads",
    "k": "keep",
    "s": "ready",
    "q": "quit",
    "?": "help",
    "r": "rules",
    "/": "chat",
    "верю": "yes",
    "неверю": "no",
}
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_WORDS: dict[str, str] = {
    "10": "T",
    "1": "T",
    "В": "J",
    "Д": "Q",
    "К": "K",
    "Т": "A",
    **{form: rank for rank, forms in EN_RANKS.items() for form in forms},
    **{form: rank for rank, forms in RU_RANKS.items() for form in forms},
}


class Refusal(Exception):
    """What to tell the person instead of acting: a catalogue ``key`` (texts.py) and ``args``."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args


@attrs.frozen
class Command:
    """``name`` (one of ``NAMES``, or ``enter``), ``words`` after it, ``rest`` as typed."""

    name: str
    words: tuple[str, ...] = ()
    rest: str = ""


@attrs.frozen
class LayOrder:
    """What ``lay`` asks: ``cards`` (codes, as the protocol spells them) or ``n`` cards chosen
    from the hand; the ``rank`` claimed (None: implied) and the ``count`` claimed (None: the
    cards laid)."""

    cards: tuple[str, ...] | None
    n: int | None
    rank: str | None
    count: int | None


def parse(line: str) -> Command:
    """The command ``line`` names. Raises ``Refusal`` (``plain.unknown``, ``plain.ambiguous``)."""
    text = line.strip()
    if not text:
        return Command("enter")
    low = text.lower()
    bare = low.strip("«»\"'!.? ")  # the call as the log writes it: «Не верю!»
    for phrase, name in (("не верю", "no"), ("верю", "yes")):
        if bare == phrase:
            return Command(name)
        if low == phrase or low.startswith(phrase + " "):
            return Command(name, tuple(text[len(phrase) :].split()), text[len(phrase) :].strip())
    if text.startswith("/"):
        return Command("chat", tuple(text[1:].split()), text[1:].strip())
    word, _, rest = text.partition(" ")
    name = resolve(word.lower())
    return Command(name, tuple(rest.split()), rest.strip())


def resolve(word: str) -> str:
    """The command ``word`` names: itself, its short form, or the one command it begins."""
    if word in NAMES:
        return word
    if word in SHORT:
        return SHORT[word]
    found = [n for n in NAMES if n.startswith(word)]
    if len(found) == 1:
        return found[0]
    if found:
        raise Refusal("plain.ambiguous", word=word, commands=", ".join(found))
    raise Refusal("plain.unknown", word=word)


def card_of(word: str) -> str:
    """``7S``, ``10h``, ``T♠`` → the protocol's code (``7S``, ``TH``, ``TS``). Raises Refusal."""
    w = word.strip().upper()
    if len(w) >= 2:
        rank, suit = w[:-1], SUIT_SYMBOLS.get(w[-1], w[-1])
        rank = {"10": "T", "1": "T"}.get(rank, rank)
        if len(rank) == 1 and rank in RANKS and suit in SUITS:
            return rank + suit
    raise Refusal("plain.bad_card", word=word)


def rank_of(word: str) -> str:
    """``7``, ``10``, ``q``, ``queens``, ``дамы``, ``Д`` → the protocol's rank. Raises Refusal."""
    w = word.strip()
    if w.upper() in RANKS and len(w) == 1:
        return w.upper()
    found = RANK_WORDS.get(w.upper()) or RANK_WORDS.get(w.lower())
    if found:
        return found
    raise Refusal("plain.bad_rank", word=word)


def lay_order(words: tuple[str, ...]) -> LayOrder:
    """The arguments of ``lay`` (the module's docstring). Raises Refusal."""
    words = tuple(w.rstrip(",") for w in words if w.rstrip(","))
    low = [w.lower() for w in words]
    what = list(words[: low.index("as")] if "as" in low else words)
    after = list(words[low.index("as") + 1 :]) if "as" in low else []
    count: int | None = None
    for tail in (what, after):
        lowered = [w.lower() for w in tail]
        if "count" in lowered:
            i = lowered.index("count")
            count = _number(tail[i + 1] if i + 1 < len(tail) else "")
            del tail[i : i + 2]
    if not what:
        raise Refusal("plain.usage", usage="lay 7S 7H as 7 | lay 2 as Q")
    rank = None
    if len(after) == 2:
        count, rank = _number(after[0]), rank_of(after[1])
    elif len(after) == 1:
        rank = rank_of(after[0])
    elif after:
        raise Refusal("plain.usage", usage="lay 7S 7H as 7 | lay 2 as Q")
    if len(what) == 1 and what[0].isdigit():
        return LayOrder(None, int(what[0]), rank, count)
    if not after and len(what) > 1 and _is_rank(what[-1]):  # "lay 7S 7H sevens": the claim lacks "as"
        raise Refusal("plain.claim_as", word=what[-1], cards=" ".join(what[:-1]))
    return LayOrder(tuple(card_of(w) for w in what), None, rank, count)


def _is_rank(word: str) -> bool:
    """``word`` names a rank and is no card."""
    try:
        card_of(word)
    except Refusal:
        try:
            rank_of(word)
        except Refusal:
            return False
        return True
    return False


def _number(word: str) -> int:
    if word.isdigit():
        return int(word)
    raise Refusal("plain.usage", usage="lay 7S as 7 count 3")
