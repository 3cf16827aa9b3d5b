"""The steps that follow an action: a set laid (``_lay``), the last set revealed and settled
(``_reveal``, ``_next_leader``), a turn begun (with the stock's draw), seats going out and the
deal's end, with its score (``score_deal``). ``Deal``'s handlers (engine/_deal.py) call them once
an action has passed its check; they change the state and append the events, in order.
"""

from __future__ import annotations

from . import _events as ev
from ._cards import Card, Rank, remove_cards, sorted_cards
from ._state import DealState, LaidSet
from ._view import LastSet


class DealSteps(DealState):
    """The steps shared by the handlers of ``Deal`` (module docstring)."""

    def _lay(
        self, seat: int, cards: tuple[Card, ...], rank: Rank, count: int, none: bool, events: list[ev.Event]
    ) -> None:
        self.quads_offer = None  # the next set laid by anyone ends the taker's right (`verish`)
        hand = self.hands[seat]
        remove_cards(hand, cards)
        self.pile.extend(cards)
        self.set_no = set_no = self.set_no + 1
        covered = self.last
        self.last = LaidSet(set_no=set_no, seat=seat, cards=cards, rank=rank, count=count, none=none)
        self._last_sized = LastSet(
            set_no=set_no, seat=seat, rank=rank, count=count, size=len(cards), none=none
        )
        if not self.rules.hand_counts_public:
            self._last_unsized = LastSet(
                set_no=set_no, seat=seat, rank=rank, count=count, size=None, none=none
            )
        self.first_set = False
        self.rank = rank
        self._claimable = self._claim(rank)
        if none:
            events.append(ev.NoneDeclared(seat=seat, set_no=set_no, rank=rank))
        else:
            events.append(
                ev.SetLaid(seat=seat, set_no=set_no, rank=rank, count=count, cards=cards, size=len(cards))
            )
        # The set before is covered: docs/RULES.md, last cards. Where the first out wins, the deal ends
        # with the winner's last set, and this set, laid only to cover it, goes back to its
        # owner's hand before the chips are counted (docs/RULES.md, `hoyle`, scoring, **Decision**;
        # the same in `cheat`, whose scoring is none: its hand counts stay true).
        if covered is not None and covered.seat in self.waiting and self.rules.last_cards != "final_call":
            self._go_out([covered.seat], seat, events, cover=self.last)
            if self.over:
                return
        if not hand:
            self.waiting.append(seat)
        self.window_open = self.rules.challengers == "anyone"
        nxt = (seat + 1) % self.players
        self._begin_turn(nxt if nxt not in self.out else self.next_active(seat), events)

    def _reveal(self, caller: int, believe: bool, tied: tuple[int, ...], events: list[ev.Event]) -> None:
        """Turn up the last set and settle it (docs/RULES.md, "What every variant shares")."""
        self._end_quads_right(caller)
        s = self.last
        assert s is not None
        claimant = s.seat
        if s.none:
            shown = tuple(c for c in self.hands[claimant] if c[0] == s.rank)
            true = not shown
        else:
            shown = s.cards
            true = all(c[0] == s.rank for c in s.cards) and len(s.cards) == s.count
        events.append(
            ev.Believed(seat=caller, set_no=s.set_no)
            if believe
            else ev.Challenged(seat=caller, set_no=s.set_no, tied=tied)
        )
        events.append(
            ev.SetRevealed(
                seat=claimant, set_no=s.set_no, rank=s.rank, count=s.count, cards=shown, claim_true=true
            )
        )
        if self.held is not None:
            held, self.held = self.held, None
            events.append(ev.SetReturned(seat=held.seat, cards=tuple(getattr(held, "cards", ()))))
        self.window_open = False
        self.last = None
        # believe: true → the discard, false → the believer; challenge: true → the challenger,
        # false → the claimant (docs/RULES.md, `veryu`, `lozh`, "What every variant shares").
        taker: int | None
        if believe and true:
            taker = None
            events.append(ev.PileDiscarded(count=len(self.pile)))
            self.discard.extend(self.pile)
        else:
            taker = caller if believe or true else claimant
            # sorted as a hand is: the order says nothing about where the cards lay
            cards = tuple(sorted_cards(self.pile))
            self.hands[taker].extend(cards)
            events.append(ev.PileTaken(seat=taker, count=len(cards), cards=cards))
            if self.rules.quads == "after_taking":
                self.quads_offer = taker
        self.pile = []
        if taker in self.waiting:
            self.waiting.remove(taker)
        # Empty-handed seats that did not take the pile are out (docs/RULES.md, last cards).
        gone = [s for s in self.waiting if not self.hands[s]]
        if gone:
            self._go_out(gone, caller, events)
            if self.over:
                return
        self._next_leader(caller, claimant, taker, events)

    def _next_leader(self, caller: int, claimant: int, taker: int | None, events: list[ev.Event]) -> None:
        """docs/RULES.md, ``leader_after_reveal``."""
        how = self.rules.leader_after_reveal
        if how == "sequence":
            if self.turn in self.out:
                self._begin_turn(self.next_active(self.turn), events)
            else:
                self._begin_turn(self.turn, events)
            return
        self.rank = None
        self._claimable = self._claim(None)
        if how == "taker":
            assert taker is not None
            leader = taker
        elif taker == caller:
            leader = self.next_active(caller)
        else:
            leader = caller if caller not in self.out else self.next_active(caller)
        self._begin_turn(leader, events)

    def _end_quads_right(self, seat: int) -> None:
        """``seat``'s own action ends its right to discard quads (``after_taking``)."""
        if self.quads_offer == seat:
            self.quads_offer = None

    def _begin_turn(self, seat: int, events: list[ev.Event]) -> None:
        self.turn = seat
        if self.stock:
            hand = self.hands[seat]
            lo = self.set_bounds[0]
            if 0 < len(hand) < lo:
                drawn = self.stock[: lo - len(hand)]
                del self.stock[: len(drawn)]
                hand.extend(drawn)
                events.append(ev.StockDrawn(seat=seat, count=len(drawn), cards=tuple(drawn)))
        events.append(self.turn_event())

    def _go_out(
        self, seats: list[int], actor: int, events: list[ev.Event], cover: LaidSet | None = None
    ) -> None:
        """Put ``seats`` out in turn order from ``actor`` (docs/RULES.md, "Only one left"). ``cover``:
        the set that covered the last set of the seat going out; it goes back to its owner's
        hand when that seat wins (``first_wins``)."""
        n = self.players
        for seat in sorted(seats, key=lambda s: (s - actor) % n):
            if seat in self.waiting:
                self.waiting.remove(seat)
            self.out.append(seat)
            events.append(ev.PlayerOut(seat=seat, place=len(self.out)))
            if self.rules.result == "first_wins":
                self._end(winner=seat, events=events, cover=cover)
                return
            active = self.active
            if len(active) == 1:
                self._end(loser=active[0], events=events)
                return

    def _end(
        self,
        events: list[ev.Event],
        loser: int | None = None,
        winner: int | None = None,
        cover: LaidSet | None = None,
    ) -> None:
        """End the deal; a held set and the covering set ``cover`` go back to their owners'
        hands first, as ``SetReturned`` (see ``_lay``)."""
        self.over = True
        self.loser, self.winner = loser, winner
        self.window_open = False
        self.quads_window = None
        if self.held is not None:
            held, self.held = self.held, None
            events.append(ev.SetReturned(seat=held.seat, cards=tuple(getattr(held, "cards", ()))))
        if cover is not None:
            if cover.cards:
                del self.pile[-len(cover.cards) :]  # laid last: the top of the pile
            self.hands[cover.seat].extend(cover.cards)
            self.last = None
            events.append(ev.SetReturned(seat=cover.seat, cards=cover.cards))
        counts = tuple(len(h) for h in self.hands)
        events.append(
            ev.DealEnded(
                loser=loser,
                winner=winner,
                out=tuple(self.out),
                scores=score_deal(self.rules.scoring, counts, loser, winner),
                hand_counts=counts,
            )
        )


def score_deal(
    scoring: str, hand_counts: tuple[int, ...], loser: int | None, winner: int | None
) -> tuple[int, ...]:
    """One deal's score change per seat (docs/RULES.md, ``scoring``): ``losses`` +1 to the loser;
    ``chips_per_player``: every other seat pays the winner 1; ``chips_per_card``: every other seat
    pays the winner one chip per card left in its hand; ``none``: zeros."""
    n = len(hand_counts)
    scores = [0] * n
    if scoring == "losses" and loser is not None:
        scores[loser] = 1
    elif scoring in ("chips_per_player", "chips_per_card") and winner is not None:
        for s in range(n):
            if s != winner:
                pay = 1 if scoring == "chips_per_player" else hand_counts[s]
                scores[s] -= pay
                scores[winner] += pay
    return tuple(scores)
