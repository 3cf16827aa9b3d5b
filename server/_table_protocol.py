"""The table (``_table.Table``) as the modules it is made of see it: its match (``_game``,
``_game_bots``), its requests (``_table_requests``), its deadlines (``_table_deadlines``), who
sits where (``_seating``) and the journal (``records.journal``). They cannot import ``_table``,
which imports them; ``Table`` says, once, what they may use of it. (A session's table, as the
server asks it, is ``_session.Place``: ``_session`` sits below the seats that this protocol
names.)
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from neveryu import engine

from ._session import Place

if TYPE_CHECKING:
    from ._seats import Seat
    from ._session import Session
    from ._settings import TableSettings
    from ._timers import Timers
    from .records.deal_notes import Keeper

GameT = TypeVar("GameT", covariant=True)


class Table(Place, Protocol[GameT]):
    """A table whose match, while one is played, is a ``GameT`` (``_game.Game``; ``object``
    where the match is not used); a session's ``Place`` too. What each attribute and method
    is: ``_table.Table``. The attributes are read-only here: the table alone changes them,
    and the modules it is made of ask it to through its methods (mypy says so)."""

    @property
    def settings(self) -> TableSettings: ...

    @property
    def rules(self) -> engine.Rules: ...

    @property
    def seats(self) -> list[Seat]: ...

    @property
    def spectators(self) -> list[Session]: ...

    @property
    def host(self) -> Session | None: ...

    @property
    def deals_played(self) -> int: ...

    @property
    def timers(self) -> Timers: ...

    @property
    def rng(self) -> random.Random: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def records(self) -> Keeper | None: ...

    @property
    def closed(self) -> bool: ...

    @property
    def game(self) -> GameT | None: ...

    @property
    def playing(self) -> bool: ...

    def members(self) -> list[Session]: ...

    def broadcast(self, body: dict[str, Any]) -> None: ...

    def refresh_summary(self) -> None: ...

    def table_update(self) -> None: ...

    def check_empty(self) -> None: ...

    def start_soon(self, task: Callable[[], Awaitable[object]]) -> bool: ...

    def match_over(self) -> None: ...

    def start_match(self) -> None: ...

    def take_seat(self, session: Session, seat: Seat) -> None: ...

    def add_spectator(self, session: Session) -> None: ...

    def back(self, seat: Seat, snapshot: bool = True, resumed: bool = False) -> bool: ...

    def close(self, reason: str, *, keep: bool = False) -> None: ...

    def remove(self, session: Session, why: str) -> None: ...

    def people_here(self) -> bool: ...
