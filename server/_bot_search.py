"""A searching bot's choice (the ``expert``'s, ``Bot.budget_s``) made in a worker thread, so
that no table waits for another table's search: the event loop only hands over a snapshot of the
bot and its seat's view, and takes the answer back.

At most ``SEARCHES`` searches run at once on a server (one worker thread each, the rest queue):
the tables' sending and timing keep the other core. The snapshot is a copy of the bot (its
memory of its seat's events, which is all it knows: it sees only its seat's view), so the table
may go on teaching the seat's bot while the search runs.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

import trio

from neveryu import engine

from ._bots import Bot

log = logging.getLogger("neveryu.server")

SEARCHES = 1
"""The most searches that run at once on a server (each on one core)."""

SHARE = 0.8
"""The part of the time left before the bot acts that its search may take (the rest is for
the worker thread to start and for the answer to come back)."""

_limiter: trio.lowlevel.RunVar[trio.CapacityLimiter] = trio.lowlevel.RunVar("neveryu_bot_searches")


def limiter() -> trio.CapacityLimiter:
    """The server's (the trio run's) limiter of searches: ``SEARCHES`` at once."""
    try:
        return _limiter.get()
    except LookupError:
        made = trio.CapacityLimiter(SEARCHES)
        _limiter.set(made)
        return made


def snapshot(bot: Bot, seconds: float) -> Bot:
    """A copy of ``bot`` that searches at most ``SHARE`` of ``seconds`` (and never more than
    ``bot.budget_s``)."""
    assert bot.budget_s is not None
    return bot.with_budget(max(0.0, min(bot.budget_s, seconds * SHARE)))


async def search(
    bot: Bot, view: engine.View, rng: random.Random, done: Callable[[engine.Action | None], None]
) -> None:
    """``done(bot.choose(view, rng))``, the choice made in a worker thread (at most ``SEARCHES``
    at once). ``bot``, ``view`` and ``rng`` must be the caller's to give away (``snapshot``, a
    fresh ``random.Random``): the thread reads them while the loop goes on. Cancelled (its table
    closed), the thread is abandoned and its answer dropped. A search that fails is logged and
    answers nothing (the seat plays without it): a bot's bug costs its move, never the table."""
    try:
        choice = await trio.to_thread.run_sync(
            bot.choose, view, rng, limiter=limiter(), abandon_on_cancel=True
        )
    except Exception:
        log.exception("a bot's search failed")
        return
    done(choice)
