"""Bots for the seats a table gives them and for away players (docs/RULES.md, "Timing rules").

``new_bot(strength, seat, rules, players)`` is the one place the server makes a bot: one of the
engine's bots (``engine.bots``), which sees what a player at its seat sees (it is fed its seat's
projected events and asked for an action, None to do nothing now).
"""

from __future__ import annotations

from neveryu.engine import Rules, bots
from neveryu.engine.bots import Bot

__all__ = ["Bot", "default_strength", "new_bot", "strengths"]


def strengths() -> tuple[str, ...]:
    """The bot strengths a table may ask for, easiest first (``engine.bots.STRENGTHS``:
    random, honest, sharp)."""
    return tuple(bots.STRENGTHS)


def default_strength() -> str:
    """The strength of a bot seat created without one, and of the bot that plays an away
    player's seat: ``sharp``, a fair opponent (it sees only its seat's view, as a person does,
    and counts the claims; ``honest`` never doubts a claim it could disprove)."""
    return "sharp"


def new_bot(strength: str, seat: int, rules: Rules, players: int) -> Bot:
    """A bot of ``strength`` (one of ``strengths()``) for ``seat`` of a ``players``-seat table.
    Raises ValueError for an unknown strength."""
    return bots.make_bot(strength, seat, rules, players)
