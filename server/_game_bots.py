"""The bots of the match at a table: one plays each bot seat and each away player's seat
(docs/RULES.md, "Timing rules"), made when first needed and timed so that how long it took to choose
shows in no event's time.

``SeatBot`` is the bot of one seat and its timing; ``SeatBots`` is the part of ``_game.Game``
that asks them.
"""

from __future__ import annotations

import logging
import random

from neveryu import engine

from ._bot_search import search, snapshot
from ._bots import Bot, default_strength, new_bot
from ._referee import Referee
from ._seats import Seat
from ._settings import TableError, TableSettings
from ._table_protocol import Table
from ._timers import Deadline, TimerKey, Timers
from .records.replay import seat_events

log = logging.getLogger("neveryu.server")
TURN_SETS = (engine.LaySet, engine.DeclareNone)  # not while challenges collect (docs/RULES.md "Timing rules")


class SeatBot:
    """The bot of one seat for one deal (a bot seat's, or the one that plays an away player's
    seat) and its timing. ``bot``: None until it is first needed (``make``); then it learns the
    seat's events when it is to play (``sees``). While the seat's ``BOT`` deadline runs
    (``SeatBots.fire_bot``): what it may do (``timed``), whether it has chosen and what
    (``choice``, None: nothing), and when it acts (``due``, trio's clock); while its search runs in
    a worker thread, that search's token (``searching``: only its answer is taken)."""

    __slots__ = ("asked", "bot", "choice", "chosen", "due", "searching", "timed", "unseen")

    def __init__(self) -> None:
        self.bot: Bot | None = None
        self.unseen: list[engine.Event] = []  # the seat's events the bot has not learnt yet
        self.asked: int | None = None  # the deal's action count when the bot last chose
        self.timed: engine.Legal | None = None
        self.chosen = False
        self.choice: engine.Action | None = None
        self.due = 0.0
        self.searching: object | None = None

    def make(self, bot: Bot, events: list[engine.Event]) -> None:
        """``bot`` plays the seat from now; it has yet to learn the seat's ``events`` so far."""
        self.bot = bot
        self.unseen = [e for e in events if type(e) in bot.observes]

    def observe(self, event: engine.Event) -> None:
        """The seat was sent ``event``: the bot, if there is one, learns it when it is to play."""
        if self.bot is not None and type(event) in self.bot.observes:
            self.unseen.append(event)

    def sees(self) -> Bot:
        """The bot, told every event of the seat it has not learnt yet (``make`` first)."""
        assert self.bot is not None
        for event in self.unseen:
            self.bot.observe(event)
        self.unseen.clear()
        return self.bot

    def time(self, legal: engine.Legal, due: float) -> None:
        """The bot may do ``legal`` from now, and acts at ``due`` (trio's clock): it has not chosen."""
        self.timed, self.chosen, self.due = legal, False, due

    def stale(self, legal: engine.Legal, waiting: bool, actions: int | None) -> bool:
        """Whether the bot, which may do ``legal`` now, is to be timed afresh: while it waits
        (``waiting``: its deadline runs), when what it may do changed; else when the deal (its
        ``actions``) changed since it last chose."""
        return self.timed != legal if waiting else self.asked != actions

    def choosing(self, actions: int) -> None:
        """The bot chooses now, the deal at ``actions`` actions (a search of before is dropped)."""
        self.asked, self.chosen, self.searching = actions, True, None

    def chose(self, choice: engine.Action | None) -> None:
        """What the bot chose (None: nothing), to act at ``due``."""
        self.choice, self.searching = choice, None

    def search(self) -> object:
        """The bot's search begins: its token (``found`` takes only its answer)."""
        token = self.searching = object()
        return token

    def found(self, token: object, choice: engine.Action | None) -> None:
        """The answer of the search ``token``, taken if it is still awaited."""
        if self.searching is token:
            self.chose(choice)

    def late(self) -> bool:
        """Whether a search is still awaited (it is dropped: the answer will not be taken)."""
        late, self.searching = self.searching is not None, None
        return late

    def take(self) -> engine.Action | None:
        """What the bot chose, now that it acts (it has chosen nothing after)."""
        action, self.choice, self.chosen = self.choice, None, False
        return action

    def ask_again(self) -> None:
        """The bot chooses again when next timed, the deal unchanged or not."""
        self.asked = None


class SeatBots:
    """The bots' part of a game (``_game.Game``, whose state it reads): ``bot_for`` a seat,
    and the ``BOT`` deadline of a seat (``fire_bot``); ``bots``: the ``SeatBot`` of each seat."""

    table: Table[object]
    seats: list[Seat]
    bots: list[SeatBot]
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
        mine = self.bots[seat.index]
        if mine.bot is None:
            strength, players = seat.strength or default_strength(), len(self.seats)
            deal, referee = self.deal, self.referee
            assert deal is not None and referee is not None
            events = seat_events(deal, self.opening, referee.applied, seat.index, self.table.rules)
            mine.make(new_bot(strength, seat.index, self.table.rules, players), events)
        return mine.sees()

    def _time_bot(self, seat: Seat, legal: engine.Legal) -> None:
        """``seat``'s bot may do ``legal`` from now: it chooses half ``bot_delay_ms`` from now and
        acts at the end of it (``fire_bot``)."""
        delay, now = self.settings.bot_delay_ms, self.timers.clock()
        self.bots[seat.index].time(legal, now + delay / 1000)
        self.timers.start_at(TimerKey(Deadline.BOT, seat.index), now + delay // 2 / 1000)

    def _bot_again(self, seat: Seat, legal: engine.Legal) -> bool:
        """Whether ``seat``'s bot, which may do ``legal`` now, is timed afresh: asked again when
        the deal changed since it last chose; its delay starts again when what it may do changed
        while it waited."""
        if self.deal is None:
            return False
        waiting = self.timers.running(TimerKey(Deadline.BOT, seat.index))
        return self.bots[seat.index].stale(legal, waiting, self.deal.actions)

    def _choose(self, seat: Seat, deal: engine.Deal) -> None:
        """``seat``'s bot chooses what it does at its ``due`` time (``SeatBot.chose``). A bot that
        searches (``Bot.budget_s``) does so in a worker thread on a snapshot of itself and of its
        seat's view, within the time left (``_bot_search``): the loop, and every other table,
        never waits for it. Its answer is taken only if it is still awaited (the seat was not
        asked again, the deal goes on); one that comes after ``due`` is dropped and the seat
        plays its bot's ``quick`` choice. What the referee then refuses is handled as any bot's
        unusable choice."""
        mine, bot, view, rng = (
            self.bots[seat.index],
            self.bot_for(seat),
            deal.view(seat.index),
            self.table.rng,
        )
        if bot.budget_s is None:
            mine.chose(bot.choose(view, rng))
            return
        token = mine.search()
        copied, own = snapshot(bot, mine.due - self.timers.clock()), random.Random(rng.getrandbits(64))

        def done(choice: engine.Action | None) -> None:
            if self.deal is deal:
                mine.found(token, choice)

        if not self.table.start_soon(lambda: search(copied, view, own, done)):
            mine.chose(copied.choose(view, own))  # no table task: here

    def fire_bot(self, index: int) -> None:
        """The ``BOT`` deadline of a seat, twice (``_time_bot``): the bot playing that seat chooses,
        then acts at the time fixed before it chose: how long choosing took, which
        may differ between a true set and a bluff, shows in no event's time."""
        deal, referee, seat = self.deal, self.referee, self.seats[index]
        if deal is None or referee is None or deal.over or not seat.by_bot:
            return
        mine = self.bots[index]
        if not mine.chosen:
            mine.choosing(deal.actions)
            self._choose(seat, deal)
            self.timers.start_at(TimerKey(Deadline.BOT, index), mine.due)
            return
        if mine.late():  # its search is late: the seat plays without it
            log.info("table %d: the search of the bot at seat %d came late", self.table.id, index + 1)
            mine.chose(self.bot_for(seat).quick(deal.view(index), self.table.rng))
        action = mine.take()
        if referee.tie_set is not None and (action is None or isinstance(action, TURN_SETS)):
            mine.ask_again()  # no set while a challenge group collects: asked again at its end
            return
        before = deal.actions
        try:
            if action is not None:
                self.publish(referee.act(action))
                return
        except (engine.RuleViolation, TableError) as exc:
            if deal.actions != before:  # a challenge was settled first: the bot is asked again
                return
            log.warning("table %d: the bot at seat %d tried %r: %s", self.table.id, index + 1, action, exc)
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
