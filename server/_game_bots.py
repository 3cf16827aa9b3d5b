"""The bots of the match at a table: one plays each bot seat and each away player's seat
(docs/RULES.md, "Timing rules"), made when first needed and timed so that how long it took to choose
shows in no event's time.

``SeatBots`` is the part of ``_game.Game`` that asks them; ``Place`` is what a game needs of
its table.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from neveryu import engine

from ._bot_search import search, snapshot
from ._bots import Bot, default_strength, new_bot
from ._referee import Referee
from ._seats import Seat
from ._session import Session
from ._settings import TableError, TableSettings
from ._timers import Deadline, TimerKey, Timers
from .records.deal_notes import Keeper
from .records.journal import Journal
from .records.replay import seat_events

log = logging.getLogger("neveryu.server")
TURN_SETS = (engine.LaySet, engine.DeclareNone)  # not while challenges collect (docs/RULES.md "Timing rules")


class Place(Protocol):
    """What a game needs of its table."""

    id: int
    settings: TableSettings
    rules: engine.Rules
    seats: list[Seat]
    spectators: list[Session]
    timers: Timers
    rng: random.Random
    seed: int | None
    summary: dict[str, Any]
    records: Keeper | None
    journal: Journal | None

    def broadcast(self, body: dict[str, Any]) -> None: ...

    def start_soon(self, task: Callable[[], Awaitable[object]]) -> bool: ...

    def table_update(self) -> None: ...

    def refresh_summary(self) -> None: ...

    def match_over(self) -> None: ...


class SeatBots:
    """The bots' part of a game (``_game.Game``, whose state it reads): ``bot_for`` a seat,
    and the ``BOT`` deadline of a seat (``fire_bot``)."""

    table: Place
    seats: list[Seat]
    settings: TableSettings
    timers: Timers
    deal: engine.Deal | None
    referee: Referee | None
    opening: list[engine.Event]

    def publish(self, events: list[engine.Event]) -> None:
        raise NotImplementedError  # (``Game.publish``)

    def bot_for(self, seat: Seat) -> Bot:
        """The bot that plays ``seat`` (a bot seat, or an away player's), told every event of the
        deal its seat was sent. It is made when first needed, and learns what came before by
        playing the deal again from its opening (``records.replay.seat_events``); then ``_send`` keeps it
        current. Most seats are a person's, whose bot is never needed: nothing is kept for it.
        It is asked for between batches (a bot's deadline, the referee's ``choose`` before it
        applies anything), when every accepted action's events have been sent: the replay is
        then exactly what the seat was sent, and ``publish`` adds nothing twice."""
        if seat.bot is None:
            strength, players = seat.strength or default_strength(), len(self.seats)
            seat.bot = new_bot(strength, seat.index, self.table.rules, players)
            deal, referee = self.deal, self.referee
            assert deal is not None and referee is not None
            events = seat_events(deal, self.opening, referee.applied, seat.index, self.table.rules)
            seat.unseen = [e for e in events if type(e) in seat.bot.observes]
        return seat.bot_sees()

    def _time_bot(self, seat: Seat, legal: engine.Legal) -> None:
        """``seat``'s bot may do ``legal`` from now: it chooses half ``bot_delay_ms`` from now and
        acts at the end of it (``fire_bot``)."""
        delay, now = self.settings.bot_delay_ms, self.timers.clock()
        seat.timed, seat.chosen, seat.due = legal, False, now + delay / 1000
        self.timers.start_at(TimerKey(Deadline.BOT, seat.index), now + delay // 2 / 1000)

    def _bot_again(self, seat: Seat, legal: engine.Legal) -> bool:
        """Whether ``seat``'s bot, which may do ``legal`` now, is timed afresh: asked again when
        the deal changed since it last chose; its delay starts again when what it may do changed
        while it waited."""
        if self.timers.running(TimerKey(Deadline.BOT, seat.index)):
            return seat.timed != legal
        return seat.asked != self.deal.actions if self.deal is not None else False

    def _choose(self, seat: Seat, deal: engine.Deal) -> None:
        """``seat``'s bot chooses what it does at ``seat.due`` (``seat.choice``). A bot that
        searches (``Bot.budget_s``) does so in a worker thread on a snapshot of itself and of its
        seat's view, within the time left (``_bot_search``): the loop, and every other table,
        never waits for it. Its answer is taken only if it is still awaited (the seat was not
        asked again, the deal goes on); one that comes after ``seat.due`` is dropped and the seat
        plays its bot's ``quick`` choice. What the referee then refuses is handled as any bot's
        unusable choice."""
        bot, view, rng = self.bot_for(seat), deal.view(seat.index), self.table.rng
        seat.searching = None
        if bot.budget_s is None:
            seat.choice = bot.choose(view, rng)
            return
        token = seat.searching = object()
        copied, own = snapshot(bot, seat.due - self.timers.clock()), random.Random(rng.getrandbits(64))

        def done(choice: engine.Action | None) -> None:
            if seat.searching is token and self.deal is deal:
                seat.searching, seat.choice = None, choice

        if not self.table.start_soon(lambda: search(copied, view, own, done)):
            seat.searching, seat.choice = None, copied.choose(view, own)  # no table task: here

    def fire_bot(self, index: int) -> None:
        """The ``BOT`` deadline of a seat, twice (``_time_bot``): the bot playing that seat chooses,
        then acts at the time fixed before it chose: how long choosing took, which
        may differ between a true set and a bluff, shows in no event's time."""
        deal, referee, seat = self.deal, self.referee, self.seats[index]
        if deal is None or referee is None or deal.over or not seat.by_bot:
            return
        if not seat.chosen:
            seat.asked, seat.chosen = deal.actions, True
            self._choose(seat, deal)
            self.timers.start_at(TimerKey(Deadline.BOT, index), seat.due)
            return
        if seat.searching is not None:  # its search is late: the seat plays without it
            seat.searching = None
            log.info("table %d: the search of the bot at seat %d came late", self.table.id, index)
            seat.choice = self.bot_for(seat).quick(deal.view(index), self.table.rng)
        action, seat.choice, seat.chosen = seat.choice, None, False
        if referee.tie_set is not None and (action is None or isinstance(action, TURN_SETS)):
            seat.asked = None  # no set while a challenge group collects: asked again at its end
            return
        before = deal.actions
        try:
            if action is not None:
                self.publish(referee.act(action))
                return
        except (engine.RuleViolation, TableError) as exc:
            if deal.actions != before:  # a challenge was settled first: the bot is asked again
                return
            log.warning("table %d: the bot at seat %d tried %r: %s", self.table.id, index, action, exc)
        if not deal.over and deal.quads_window == index:
            # A bot now plays the taker's seat (he left, or went away) and discards nothing: it
            # goes on, so that a window with no time does not wait for him for ever.
            self.publish(referee.act(engine.DeclineQuads(index)))
            return
        # A bot that has no move (or a wrong one) on its own turn must not stall the deal: a
        # random turn action is made for the seat, as when a turn's time runs out.
        if not deal.over and deal.turn == index and deal.held is None and deal.legal_actions(index).lay:
            made = engine.random_turn_action(deal.view(index), self.table.rng)
            self.publish(referee.act(engine.Timeout(index, made)))
