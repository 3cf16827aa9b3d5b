"""The referee: the timing rules of RULES.md ("Timing rules") on top of the engine.

``Referee`` is the part of ``Table`` that decides *when* the engine is told something. Every
rule time is a deadline in ``Table.deadlines`` read against ``trio.current_time()``, so the
rules are tested on ``trio.testing.MockClock``:

- ``window``: the challenge window of the last set (`anyone` variants). When it expires the
  referee applies ``CloseWindow(set_no)`` (a set laid early is then applied), unless a tie group
  is collecting.
- ``tie``: the first valid challenge of a set opens the tie window; challenges of the same set
  that arrive before it expires join the group, and when it expires the engine settles the group
  (``Challenges(seats, set_no)``: the seat nearest the claimant's left wins).
- ``turn``: the turn time limit; when it expires the seat's bot chooses for it (else a random
  turn action) and the engine applies ``Timeout(seat, action)``; the seat is marked away.
- ``bot:<seat>``: a bot (a bot seat, or an away player) acts after ``bot_delay_ms``.

Every deadline that belongs to a deal is cleared when the deal ends: no timer fires after it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from neveryu import engine

if TYPE_CHECKING:
    from ._session import Session

log = logging.getLogger("neveryu.server")


class Referee:
    """The timing rules, mixed into ``Table`` (which holds the deal, the seats and the
    deadlines these methods read and set)."""

    def _act(self, action: engine.Action, session: Session | None, req: dict[str, Any] | None) -> None:
        """Apply a seat's action under the timing rules; reply ``ok`` (or let the RuleViolation
        reach ``_handle``, which replies with its code). ``session`` None: a bot's move."""
        deal = self.deal
        assert deal is not None
        if deal.over:
            raise engine.DealOver(getattr(action, "seat", None), action, "the deal is over")
        if (
            isinstance(action, engine.Challenge)
            and self.rules.challengers == "anyone"
            and self._collect_challenge(action)
        ):
            if session is not None:
                session.ok(req)
            return
            # Premature (RULES.md, `hoyle`): void, and its sender may not challenge that set. The
            # request was done (it bars him), so it gets ``ok``; ``challenge_void`` says the rest
            # (docs/PROTOCOL.md: an error reply means nothing changed).
        if self.tie_set is not None and isinstance(action, (engine.LaySet, engine.DeclareNone)):
            self._settle_tie_before_cover(action)
        events = deal.apply(action)
        if session is not None:
            session.ok(req)
        self._publish(events)

    def _collect_challenge(self, action: engine.Challenge) -> bool:
        """RULES.md, "Timing rules": the first valid challenge of the last set opens the tie
        window; later ones within it join the group. True if ``action`` was taken into a group
        (the engine settles it when the tie window expires); False to apply it now (a premature
        challenge: void, and its sender is barred). Raises the engine's RuleViolation for a
        challenge the rules refuse (stale, barred, the claimant's own set)."""
        deal = self.deal
        assert deal is not None
        deal.check(action)
        last = deal.last
        if last is None or action.set_no != last.set_no:
            return False  # premature: the engine makes it void
        if self.tie_set == action.set_no:
            if action.seat in self.tie:
                raise engine.IllegalAction(
                    action.seat, action, f"you have already challenged set {action.set_no}"
                )
            self.tie.append(action.seat)
            return True
        self.tie, self.tie_set = [action.seat], action.set_no
        self._at("tie", self.settings.tie_window_ms)
        return True

    def _settle_tie_before_cover(self, action: engine.Action) -> None:
        """A set arrives while a tie group collects and the challenge window has closed: the
        challenges came first, so they are settled before the set is looked at."""
        if self.tie_set is not None and self.deal is not None and not self.deal.window_open:
            self._cancel("tie")
            self._fire_tie(None)

    def _fire_tie(self, _arg: None) -> None:
        deal = self.deal
        seats, set_no = self.tie, self.tie_set
        self.tie, self.tie_set = [], None
        if deal is None or deal.over or set_no is None or not seats:
            return
        valid = []
        for seat in seats:
            try:
                deal.check(engine.Challenge(seat, set_no))
                valid.append(seat)
            except engine.RuleViolation:
                pass
        if not valid:  # every challenger went out meanwhile: the window resumes its course
            if deal.window_open and "window" not in self.deadlines:
                self._fire_window(None)
            return
        action = (
            engine.Challenge(valid[0], set_no) if len(valid) == 1 else engine.Challenges(tuple(valid), set_no)
        )
        log.debug("table %d: settling challenges of set %d by seats %s", self.id, set_no, valid)
        self._publish(deal.apply(action))

    def _fire_window(self, _arg: None) -> None:
        deal = self.deal
        if deal is None or deal.over or not deal.window_open or deal.last is None:
            return
        if self.tie_set is not None:  # a challenge came first; the tie group settles it
            return
        self._publish(deal.apply(engine.CloseWindow(deal.last.set_no)))

    def _fire_turn(self, _arg: None) -> None:
        deal = self.deal
        self.turn_deadline = None
        if deal is None or deal.over:
            return
        seat = deal.turn
        if deal.held is not None:
            return
        brain = self.seats[seat].brain
        choice = brain.choose(deal.view(seat), self.rng) if brain is not None else None
        timeout = engine.timeout_for(deal, seat, choice, self.rng)
        if self.tie_set is not None and not deal.window_open:
            # A challenge came first: it is settled now, and the turn that follows from it
            # (the same seat's, in `sequence` variants) has a timer of its own.
            self._settle_tie_before_cover(timeout)
            return
        log.info("table %d: seat %d's time ran out; it is away", self.id, seat)
        events = deal.apply(timeout)
        self.seats[seat].away = True
        self._refresh_summary()
        self._publish(events)
        self._table_update()

    def _fire_bot(self, index: int) -> None:
        deal = self.deal
        seat = self.seats[index]
        if deal is None or deal.over or not seat.by_bot or seat.brain is None:
            return
        seat.asked = before = deal.actions
        action = seat.brain.choose(deal.view(index), self.rng)
        try:
            if action is not None:
                self._act(action, None, None)
                return
        except engine.RuleViolation as exc:
            if deal.actions != before:  # a challenge was settled first: the bot is asked again
                return
            log.warning("table %d: the bot at seat %d tried %r: %s", self.id, index, action, exc.reason)
        # A bot that has no move (or a wrong one) on its own turn must not stall the deal: the
        # engine acts for the seat as it does when a turn's time runs out.
        if (
            not deal.over
            and deal.turn == index
            and deal.held is None
            and deal.legal_actions(index).lay is not None
        ):
            self._publish(
                deal.apply(engine.Timeout(index, engine.random_turn_action(deal.view(index), self.rng)))
            )

    def _follow_deal(self, deal: engine.Deal) -> None:
        """After every change: the challenge window follows the last set, a tie group of a set
        that is gone is dropped, and a seat whose set waits for the window has no turn timer."""
        if deal.window_open and deal.last is not None:
            if self._window_set != deal.last.set_no:  # a new set: its own window
                self._window_set = deal.last.set_no
                self._at("window", self.settings.challenge_window_ms)
        else:
            self._cancel("window")
            self._window_set = None
        if self.tie_set is not None and (deal.last is None or deal.last.set_no != self.tie_set):
            self._cancel("tie")
            self.tie, self.tie_set = [], None
        if deal.held is not None and deal.held.seat == deal.turn:
            self._cancel("turn")  # the seat has acted; its set waits for the window
            self.turn_deadline = None

    def _turn_time_ms(self, seat: int) -> int | None:
        if not self.settings.turn_ms or self.seats[seat].by_bot:
            return None
        return self.settings.turn_ms

    def _start_turn_timer(self) -> None:
        deal = self.deal
        self._cancel("turn")
        self.turn_deadline = None
        if deal is None or deal.over or not self.settings.turn_ms or self.seats[deal.turn].by_bot:
            return
        self._at("turn", self.settings.turn_ms)
        self.turn_deadline = self.deadlines["turn"]

    def _clear_deal_deadlines(self) -> None:
        for key in list(self.deadlines):
            if key.split(":")[0] in ("window", "tie", "turn", "bot"):
                del self.deadlines[key]
        self.tie, self.tie_set, self.turn_deadline = [], None, None
