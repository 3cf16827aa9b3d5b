"""What a table notes of the deal being played, so that it can hand the deal's record to the
records' writer (``records.writer``) when the deal ends.

``Recording.begin`` runs as the deal is dealt (the seats, the deck, the fair deal's fields, the
first dealer's draw, the wall clock); ``Recording.record`` as it ends (the referee's accepted
actions, the result, the match's scores). Neither touches the disk: both only copy what the
table already holds.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from neveryu import engine

from .deal_record import DealRecord, Result, SeatRecord

if TYPE_CHECKING:
    from .._seats import Seat
    from .._settings import TableSettings


class Keeper(Protocol):
    """Where ended deals' records go (``records.writer.RecordsWriter``): ``keep`` never waits."""

    server: str

    @property
    def on(self) -> bool: ...

    def keep(self, record: DealRecord) -> None: ...


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class Recording:
    """The notes of one deal of the match ``match`` (a random id the game made), deal number
    ``deal_no``, at table ``table`` of the server ``server``."""

    def __init__(
        self,
        *,
        server: str,
        table: int,
        settings: TableSettings,
        match: str,
        deal_no: int,
        seats: Sequence[Seat],
        deal: engine.Deal,
        opening: Sequence[engine.Event],
        fair: dict[str, Any],
    ) -> None:
        self.server = server
        self.table = table
        self.settings = settings
        self.match = match
        self.deal_no = deal_no
        self.seats = [
            (s.name, s.strength, s.session.key, s.session.player)
            if s.session is not None
            else (s.name, s.strength, None, None)
            for s in seats
        ]
        self.rules = deal.rules
        self.dealer = deal.dealer
        self.deck = tuple(deal.deck_order or ())
        self.fair = dict(fair)
        drawn = next((e for e in opening if type(e) is engine.DealerDrawn), None)
        self.draws = drawn.draws if isinstance(drawn, engine.DealerDrawn) else None
        self.started_ms = wall_ms()

    def notes(self) -> dict[str, Any]:
        """What the journal keeps of these notes (``restored`` brings them back)."""
        return {"seats": self.seats, "draws": self.draws, "started_ms": self.started_ms, "fair": self.fair}

    @classmethod
    def restored(
        cls,
        notes: dict[str, Any],
        *,
        server: str,
        table: int,
        settings: TableSettings,
        match: str,
        deal_no: int,
        deal: engine.Deal,
    ) -> Recording:
        """The notes of a deal restored from the journal of live tables (``notes()``'s values,
        as JSON gave them back). Raises ValueError or TypeError for notes of the wrong shape."""
        self = cls.__new__(cls)
        self.server, self.table, self.settings = server, table, settings
        self.match, self.deal_no = match, deal_no
        self.seats = [(n, b, k, p) for n, b, k, p in notes["seats"]]
        if len(self.seats) != deal.players:
            raise ValueError(f"{len(self.seats)} seats noted for a deal of {deal.players}")
        self.rules, self.dealer, self.deck = deal.rules, deal.dealer, tuple(deal.deck_order or ())
        self.fair = dict(notes["fair"])
        draws = notes["draws"]
        self.draws = None if draws is None else tuple(tuple((int(s), str(c)) for s, c in d) for d in draws)
        self.started_ms = int(notes["started_ms"])
        return self

    def record(
        self,
        applied: Iterable[tuple[int, engine.Action]],
        ended: engine.DealEnded,
        match_scores: Sequence[int],
    ) -> DealRecord:
        """The deal's record, now that ``ended`` ended it after the ``applied`` actions."""
        s = self.settings
        result = Result.of(ended)
        seats = tuple(
            SeatRecord(
                seat=i,
                name=name,
                bot=bot,
                session=key,
                place=result.out.index(i) + 1 if i in result.out else None,
                score=result.scores[i],
                key=player if bot is None else None,
            )
            for i, (name, bot, key, player) in enumerate(self.seats)
        )
        return DealRecord(
            match=self.match,
            deal_no=self.deal_no,
            deals=s.deals,
            server=self.server,
            table=self.table,
            started_ms=self.started_ms,
            ended_ms=wall_ms(),
            variant=s.variant,
            options=dict(s.options),
            rules=self.rules,
            timing={
                "turn_ms": s.turn_ms,
                "challenge_window_ms": s.challenge_window_ms,
                "tie_window_ms": s.tie_window_ms,
            },
            seeded=s.seed is not None,
            reveal_after_deal=s.reveal_after_deal,
            seats=seats,
            dealer=self.dealer,
            draws=self.draws,
            deck=self.deck,
            fair=self.fair,
            actions=tuple(applied),
            result=result,
            match_scores=tuple(match_scores),
        )
