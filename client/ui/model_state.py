"""The client model's data: what the client knows (``State``), the log's lines, and the small
helpers every part of the reducer shares (client/ui/model.py puts the reducer together).

``add_log`` appends a log line (and, while a recap collects, a recap line); ``switch_log`` keeps
one log per table; ``seat_table`` puts the client at a table, names following.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import attrs

from neveryu import engine
from neveryu.engine import RANKS, SUITS

Msg = dict[str, Any]

LOG_KEEP = 300  # lines of one table's (or the lobby's) log
CHAT_KEEP = 100
LOGS_KEPT = 8  # the logs of tables left, kept for coming back to them
RECAP_KEEP = 200  # lines a recap summarises at most


@attrs.frozen
class Names:
    """Who sat where at one moment: ``seats`` holds ``(seat, name, bot)`` per seat (``name``
    None: a free seat; ``bot``: the strength of a bot seat, else None); ``seat`` is this
    client's own seat (None: watching, or in the lobby); ``tags`` holds ``(seat, tag)`` for
    each player who has a tag (docs/PLAYERS.md: four hex digits that tell names apart)."""

    seats: tuple[tuple[int, str | None, str | None], ...] = ()
    seat: int | None = None
    tags: tuple[tuple[int, str], ...] = ()

    def tag(self, seat: int) -> str | None:
        """The tag of ``seat``'s player, or None (a guest, a bot, an older server)."""
        return next((tag for index, tag in self.tags if index == seat), None)

    def seat_name(self, seat: int | None) -> str | None:
        """The player's name at ``seat``, ``"bot:<strength>"`` for a bot seat, or None."""
        for index, name, bot in self.seats:
            if index == seat:
                if bot:
                    return f"bot:{bot}"
                return name
        return None

    def shared(self, name: str, seat: int) -> bool:
        """True when a player at another seat has the same ``name`` (names are not unique)."""
        return any(index != seat and n == name and not bot for index, n, bot in self.seats)


NO_NAMES = Names()


def names_of(table: Msg | None, seat: int | None) -> Names:
    """The ``Names`` of a table summary (``seats``) for a client at ``seat``."""
    seats, tags = [], []
    for x in (table or {}).get("seats") or ():
        if isinstance(x, dict) and isinstance(x.get("seat"), int):
            name, bot = x.get("name"), x.get("bot")
            seats.append((int(x["seat"]), str(name) if name is not None else None, str(bot) if bot else None))
            if isinstance(x.get("tag"), str) and x["tag"] and name is not None:
                tags.append((int(x["seat"]), x["tag"]))
    return Names(tuple(seats), seat, tuple(tags))


@attrs.frozen
class Line:
    """One line of the log: ``key`` names the text (texts.py, ``log.<key>``); ``args`` fill it
    in; ``names`` are the seats' names when it was written."""

    key: str
    args: dict[str, Any] = attrs.field(factory=dict)
    names: Names = NO_NAMES


@attrs.frozen
class ChatLine:
    """One chat message: the speaker's ``seat`` (None: a spectator) and ``name``, the ``text``,
    and ``names``, the seats' names when it was said (to tell speakers of one name apart)."""

    seat: int | None
    name: str
    text: str
    names: Names = NO_NAMES


@attrs.frozen
class State:
    """Everything the client knows. ``screen``: ``"connecting"``, ``"lobby"`` or ``"table"``;
    ``connection``: ``"connecting"``, ``"connected"``, ``"lost"``, ``"resuming"`` or
    ``"closed"``.

    Deal fields follow engine View: ``hand`` is this seat's own hand sorted by rank (None for a
    spectator); ``hand_counts`` and ``pile`` are None where the variant hides them;
    ``pile_claimed`` sums the counts claimed on the pile (shown where sizes are hidden); ``last``
    is the last set (``{"set_no", "seat", "rank", "count", "size", "none"}``); ``set_no`` the
    latest set's number (0 before the first); ``reveal`` the last revealed set (``{"seat",
    "set_no", "rank", "count", "cards", "claim_true", "caller", "believe", "none"}``);
    ``turn_deadline`` a local monotonic time in seconds, or None when untimed; ``legal`` the last
    ``legal`` event's fields (None: nothing to do); ``held`` this seat's set laid early and
    waiting for the challenge window or the quads window (``{"cards", "rank", "count"}``);
    ``barred`` a set this seat may not challenge (its premature challenge of it was void);
    ``quads_window`` the quads window of ``verish`` while it holds the next set (``{"seat":
    the taker, "deadline": local monotonic seconds, or None when its time is not known}``).

    The match: ``deal_results`` the results of its deals seen here (``{"deal_no", "loser",
    "winner", "scores", "names"}``); ``match_over`` the last match's end (``{"scores", "deals",
    "results", "names"}``) until the next one starts.

    Fair deal (docs/PROTOCOL.md, section 9): ``commitment`` the deal's commitment; ``fair`` what
    the deal's start said of its shuffle (``{"scheme", "seed_hash", "contributions",
    "announced", "mine", "mine_status", "hand"}``: ``hand`` as dealt, None when the deal was
    joined midway); ``next_fair`` what ``seed_committed`` announced of the next deal (``{"deal_no",
    "seed_hash", "dealer", "deck", "contributions", "mine", "mine_status"}``) until it starts.
    ``result["fair"]`` (True, False, None: nothing to check) and ``result["fair_status"]``
    (client/fairdeal.py, ``STATUSES``) hold the check made at the deal's end.

    The recap after a resume: ``recap_seen`` the last ``seq`` seen before the break (None: no
    break); ``recap_known`` of a client started again, how many of the deal's history events it
    was shown before (its kept session: the first of a ``state.history`` that are not missed);
    ``recapping`` while the replayed events arrive; ``recap`` the summary line, once made;
    ``restarted``: the last ``welcome`` said the server restarted (and may have lost moves);
    ``seats_then`` the seats before a resume (its ``welcome`` tells them as they are now, the
    events replayed after it as they were then), for the first ``table_update`` to compare with.
    """

    screen: str = "connecting"
    connection: str = "connecting"
    server_name: str = ""
    session: str | None = None
    last_seq: int = 0
    name: str = ""
    tables: tuple[Msg, ...] = ()
    recent: tuple[Msg, ...] = ()  # the server's last deals (record summaries), newest first
    my_deals: tuple[Msg, ...] | None = None  # the deals this session played; None: not asked yet
    stats: tuple[Msg, ...] = ()  # player_stats: the players asked for, each with his variants
    board: Msg | None = None  # the last leaderboard received (client/ui/players.py)
    variants: tuple[Msg, ...] = ()
    bots: tuple[str, ...] = ()
    table: Msg | None = None
    seat: int | None = None
    names: Names = NO_NAMES
    match_started: bool = False
    # the deal
    in_deal: bool = False
    variant: str = ""
    deal_no: int = 0
    players: int = 0
    dealer: int | None = None
    deck: str = ""
    hand: tuple[str, ...] | None = None
    hand_counts: tuple[int, ...] | None = None
    pile: int | None = None
    pile_claimed: int = 0
    discard: int = 0
    stock: int = 0
    hidden: int = 0
    set_aside: int = 0
    last: Msg | None = None
    set_no: int = 0
    reveal: Msg | None = None
    ranks: tuple[str, ...] = ()
    turn: int | None = None
    answer_set_no: int | None = None
    turn_deadline: float | None = None
    window_open: bool = False
    legal: Msg | None = None
    held: Msg | None = None
    barred: int | None = None
    quads_window: Msg | None = None
    out: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
    over: bool = False
    result: Msg | None = None
    commitment: str | None = None
    fair: Msg | None = None
    next_fair: Msg | None = None
    match_scores: tuple[int, ...] | None = None
    deal_results: tuple[Msg, ...] = ()
    match_over: Msg | None = None
    # what to tell the player
    log: tuple[Line, ...] = ()
    logs_kept: tuple[tuple[int | None, tuple[Line, ...]], ...] = ()
    chat: tuple[ChatLine, ...] = ()
    error: Msg | None = None
    bye: str | None = None
    # the recap after a resume
    recap_seen: int | None = None
    recap_known: int | None = None
    recapping: bool = False
    recap_lines: tuple[Line, ...] = ()
    recap_chats: int = 0
    recap_snapshot: bool = False
    restarted: bool = False  # the last welcome: the server restarted since (it may have lost moves)
    recap: Line | None = None
    # the seats as of the last event seen, where a resume's welcome told them as they are now
    # (None: the table's own; (): not known, a client started again)
    seats_then: tuple[Msg, ...] | None = None
    # the batch end (docs/PROTOCOL.md section 6): a server of v1.1 ends every batch that brings
    # an event of the deal with the seat's legal; ``in_batch``: such an event came after it
    batch_ends: bool = False
    in_batch: bool = False

    @property
    def legal_now(self) -> Msg | None:
        """``legal`` when it is what the seat may do now: None while a batch is still arriving
        (an event of the deal came after the last ``legal``, and the server ends batches)."""
        return None if self.in_batch and self.batch_ends else self.legal

    @property
    def seats(self) -> list[Msg]:
        """The table's seats (``{"seat", "name", "bot", "ready", "away"}``), or []."""
        return [x for x in (self.table or {}).get("seats") or () if isinstance(x, dict)]

    def seat_name(self, seat: int | None) -> str | None:
        """The name of ``seat``'s player, a bot's strength as ``"bot:<strength>"``, or None."""
        return self.names.seat_name(seat)

    def shared(self, name: str, seat: int) -> bool:
        return self.names.shared(name, seat)

    def tag(self, seat: int) -> str | None:
        return self.names.tag(seat)

    def seat_info(self, seat: int | None = None) -> Msg:
        """The summary of ``seat`` (default: this client's own), or {}."""
        seat = self.seat if seat is None else seat
        if seat is None:
            return {}
        return next((x for x in self.seats if x.get("seat") == seat), {})

    @property
    def playable_hand(self) -> tuple[str, ...]:
        """The hand without the cards of a set laid early and still held (they are on their way)."""
        hand = list(self.hand or ())
        for c in (self.held or {}).get("cards") or ():
            if c in hand:
                hand.remove(c)
        return tuple(hand)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat and self.in_deal and not self.over

    @property
    def playing(self) -> bool:
        """A deal is being played (it has not ended)."""
        return self.in_deal and not self.over

    @property
    def rules(self) -> engine.Rules | None:
        """The table's rules (engine.variant with its options), or None when unknown."""
        variant = (self.table or {}).get("variant") or self.variant
        options = (self.table or {}).get("options") or {}
        try:
            return engine.variant(str(variant), **options) if options else engine.VARIANTS[str(variant)]
        except (KeyError, ValueError, TypeError):
            return engine.VARIANTS.get(str(variant))


def card_key(card: str) -> tuple[int, int, str]:
    """Sort key: rank, then suit (S H D C); anything unknown goes last."""
    if isinstance(card, str) and len(card) == 2 and card[0] in RANKS and card[1] in SUITS:
        return (RANKS.index(card[0]), SUITS.index(card[1]), card)
    return (99, 0, str(card))


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_key))


def fair_deal_holds(commitment: str | None, salt: str | None, deck: Iterable[str] | None) -> bool | None:
    """docs/ARCHITECTURE.md, "Fair deal": does sha256(salt + ":" + ",".join(deck)) (lowercase hex) equal the
    commitment sent at the deal's start? None when something is missing."""
    if not commitment or salt is None or deck is None:
        return None
    digest = hashlib.sha256((str(salt) + ":" + ",".join(str(c) for c in deck)).encode("utf-8")).hexdigest()
    return digest == str(commitment).lower()


def add_log(state: State, key: str, /, **args: Any) -> State:
    """``state`` with one more log line (and, while a recap collects, one more recap line: one
    that came after the last ``seq`` seen)."""
    return add_line(state, key, args, None)


def add_line(state: State, key: str, args: dict[str, Any], missed: bool | None) -> State:
    """``add_log``, with the line counted in the recap as ``missed`` says (None: by its seq)."""
    line = Line(key, args, state.names)
    changes: dict[str, Any] = {"log": (state.log + (line,))[-LOG_KEEP:]}
    if missed is None:
        missed = state.recap_seen is not None and state.last_seq > state.recap_seen
    if state.recapping and missed:
        changes["recap_lines"] = (state.recap_lines + (line,))[-RECAP_KEEP:]
    return attrs.evolve(state, **changes)


def remove_cards(hand: tuple[str, ...] | None, cards: Iterable[str] | None) -> tuple[str, ...] | None:
    if hand is None:
        return None
    left = list(hand)
    for c in cards or ():
        if c in left:
            left.remove(c)
    return tuple(left)


def add_count(counts: tuple[int, ...] | None, seat: Any, delta: int | None) -> tuple[int, ...] | None:
    if counts is None or delta is None or not (isinstance(seat, int) and 0 <= seat < len(counts)):
        return counts
    out = list(counts)
    out[seat] = max(0, out[seat] + delta)
    return tuple(out)


def as_ints(value: Any) -> tuple[int, ...] | None:
    return None if value is None else tuple(int(v) for v in value)


def as_int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def seat_table(s: State, table: Msg, seat: int | None) -> State:
    """``s`` at ``table`` (a summary) in ``seat``: the names follow."""
    return attrs.evolve(s, table=dict(table), seat=seat, names=names_of(table, seat))


def switch_log(s: State, to: int | None) -> State:
    """Keep the current log under the table (or lobby) it belongs to, and show ``to``'s."""
    here = (s.table or {}).get("id") if s.screen == "table" else None
    if here == to and s.screen != "connecting":
        return s
    kept = tuple((k, v) for k, v in s.logs_kept if k not in (here, to))
    if s.log:
        kept = (kept + ((here, s.log),))[-LOGS_KEPT:]
    log = next((v for k, v in s.logs_kept if k == to), ())
    return attrs.evolve(s, log=log, logs_kept=kept)
