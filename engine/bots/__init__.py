"""Bots: players for every variant at four strengths (docs/ARCHITECTURE.md, engine/; docs/RULES.md).

A bot sees what a player at its seat sees and nothing more: it is fed its seat's projected
events (``observe(event)``) and asked for an action (``choose(view, rng) -> Action | None``).
``make_bot(strength, seat, rules, players)`` makes one; ``BOTS`` maps each strength to its class,
and ``LEVELS`` each level people see (easy, normal, hard) to its strength:

- ``random``: any legal action;
- ``honest``: tells the truth when it can, challenges the seats it has caught lying;
- ``sharp``: remembers every card it has seen, challenges claims that are impossible or unlikely,
  bluffs with the cards it is least likely to need, and challenges early when sure;
- ``expert``: ``sharp``'s memory, and on its turn a determinized search over a few candidate
  answers played forward in sampled deals.
"""

from __future__ import annotations

from .._rules import Rules
from ._base import Bot
from ._expert import ExpertBot
from ._honest import HonestBot
from ._random import RandomBot
from ._sharp import SharpBot

BOTS: dict[str, type[Bot]] = {cls.strength: cls for cls in (RandomBot, HonestBot, SharpBot, ExpertBot)}
STRENGTHS: tuple[str, ...] = tuple(BOTS)

LEVELS: dict[str, str] = {
    "easy": "random",
    "normal": "honest",
    "hard": "sharp",
    "expert": "expert",
}
"""Each bot level as people call it (the commands, the client, the records' readers) to its
strength, the name the protocol and the records use; easiest first. A new level is one line."""

ALIASES: tuple[str, ...] = tuple(s for level, s in LEVELS.items() if s != level)
"""The strengths that are not also a level's name (``random``, ``honest``, ``sharp``): taken
wherever a level is."""


def strength_of(name: str) -> str:
    """The strength that ``name`` (a level or a strength, any case, spaces around) stands for:
    ``hard`` and ``sharp`` give ``sharp``. Raises ValueError for an unknown name (the message
    lists the levels, then the strengths)."""
    key = name.strip().lower()
    if key in LEVELS:
        return LEVELS[key]
    if key in BOTS:
        return key
    known = ", ".join(LEVELS)
    raise ValueError(f"unknown bot level {name.strip()!r}; known: {known} (or {', '.join(ALIASES)})")


def level_of(strength: str) -> str:
    """The level people call ``strength`` by (``sharp`` gives ``hard``); a strength with no
    level, as it is."""
    return next((level for level, s in LEVELS.items() if s == strength), strength)


def make_bot(strength: str, seat: int, rules: Rules, players: int) -> Bot:
    """A bot of ``strength`` (a key of ``BOTS``) for ``seat`` of a ``players``-seat deal of
    ``rules``. Raises ValueError for an unknown strength (the message lists the known ones)."""
    try:
        cls = BOTS[strength]
    except KeyError:
        raise ValueError(f"unknown bot strength {strength!r}; known: {', '.join(BOTS)}") from None
    return cls(seat, rules, players)


__all__ = [
    "ALIASES",
    "BOTS",
    "LEVELS",
    "STRENGTHS",
    "Bot",
    "ExpertBot",
    "HonestBot",
    "RandomBot",
    "SharpBot",
    "level_of",
    "make_bot",
    "strength_of",
]
