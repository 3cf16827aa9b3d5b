"""Bots: players for every variant at four strengths (DESIGN.md, engine/; RULES.md).

A bot sees what a player at its seat sees and nothing more: it is fed its seat's projected
events (``observe(event)``) and asked for an action (``choose(view, rng) -> Action | None``).
``make_bot(strength, seat, rules, players)`` makes one; ``BOTS`` maps each strength to its class:

- ``random``: any legal action;
- ``honest``: tells the truth when it can, challenges rarely;
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


def make_bot(strength: str, seat: int, rules: Rules, players: int) -> Bot:
    """A bot of ``strength`` (a key of ``BOTS``) for ``seat`` of a ``players``-seat deal of
    ``rules``. Raises ValueError for an unknown strength (the message lists the known ones)."""
    try:
        cls = BOTS[strength]
    except KeyError:
        raise ValueError(f"unknown bot strength {strength!r}; known: {', '.join(BOTS)}") from None
    return cls(seat, rules, players)


__all__ = ["BOTS", "STRENGTHS", "Bot", "ExpertBot", "HonestBot", "RandomBot", "SharpBot", "make_bot"]
