"""English counts for the commands' output: a number and its noun agreeing ("1 deal", "3 deals"),
ordinals ("2nd") and times ("twice"). The terminal client's texts have their own, in both
languages (client/ui/texts.py, ``Texts.count``)."""

from __future__ import annotations


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 deal``, ``3 deals``; ``words``: the plural when it is not ``word`` + ``s``
    (``plural(2, "match", "matches")``)."""
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def times(n: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
