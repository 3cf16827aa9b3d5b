"""The rule errors a deal raises. An action that raises changes nothing."""

from __future__ import annotations

from typing import Any


def shown(seat: Any) -> Any:
    """A seat as people count them, from 1 (texts, logs; the protocol's seats count from 0);
    anything but an int as it came (an action's malformed seat)."""
    return seat + 1 if type(seat) is int else seat


class RuleViolation(ValueError):
    """An action the rules do not allow now.

    Attributes: ``seat`` (int or None), ``action`` (the rejected action), ``reason`` (str), and
    the class attribute ``code``: the protocol's error code for this kind (docs/PROTOCOL.md).
    """

    code = "ILLEGAL_ACTION"

    def __init__(self, seat: int | None, action: Any, reason: str) -> None:
        super().__init__(f"seat {shown(seat)}: {reason} ({action!r})")
        self.seat = seat
        self.action = action
        self.reason = reason


class IllegalAction(RuleViolation):
    """The action breaks a rule (wrong rank, size, cards not in hand, no such call here)."""


class NotYourTurn(RuleViolation):
    """Only the seat to act may do this now."""

    code = "NOT_YOUR_TURN"


class StaleSet(RuleViolation):
    """A challenge or believe names a set that is no longer the last one (docs/RULES.md, "Timing rules")."""

    code = "STALE_SET"


class PrematureChallenge(RuleViolation):
    """A challenge names a set not laid yet where ``challengers = next`` (refused outright)."""

    code = "PREMATURE"


class ChallengeBarred(RuleViolation):
    """The seat made a premature challenge of this set and may not challenge it (docs/RULES.md, `hoyle`)."""

    code = "CHALLENGE_BARRED"


class DealOver(RuleViolation):
    """The deal has ended; no action is accepted."""

    code = "DEAL_OVER"
