"""The client's model: a pure reducer of protocol messages into what the client knows.

``reduce(state, msg, now) -> State`` takes one decoded message (a dict as ``protocol`` gives it:
a reply, an event, or a local note such as ``{"t": "_connection", "status": "lost"}``) and returns
a new ``State``; it never mutates its input and does no I/O. ``now`` is the local monotonic clock
in seconds, used only to turn a ``time_ms`` countdown into a deadline. Unknown message types and
fields are ignored (docs/PROTOCOL.md: clients ignore what they do not know).

The terminal client draws this state, and the headless bot (client/botclient.py) plays from it
through ``engine_view``: one reducer for both. Game events mirror engine/_events.py field for
field (docs/PROTOCOL.md); the words are RULES.md's: hand, set, claim, pile, challenge, believe,
discard, quad, out, deal.

The log holds ``Line(key, args, names)`` records, not text: ``texts.py`` turns them into Russian or
English. ``names`` is who sat where when the line was written, so a line never changes its names
afterwards. Each table keeps its own log; the lobby has one too.

Local notes (``t`` starting with ``_``), made by the network side (client/ui/net.py):

- ``{"t": "_connection", "status": "connecting" | "connected" | "lost" | "resuming" | "closed",
  "reason": str}``: the link changed;
- ``{"t": "_left"}``: the reply to our own ``leave``;
- ``{"t": "_replayed"}``: everything the server replayed after a resume has arrived (the reply
  to a ``ping`` sent right after ``hello``): the "while you were away" recap is made then;
- ``{"t": "_fresh", "reason": str}``: the kept session could not be resumed (``BAD_RESUME``);
  a new session starts in the lobby;
- ``{"t": "_contribution", "status": "sent" | "taken" | "refused", "deal_no": int,
  "contribution": str}``: fair deal 2, what became of this client's contribution to the next
  deal's shuffle (``deal_no`` and ``contribution`` only with ``sent``; ``taken``: the server said
  ``ok``, ``refused``: an ``error``, it came too late). The deal's end checks that it was used
  (client/fairdeal.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import attrs

from neveryu import engine
from neveryu.client import fairdeal
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
    client's own seat (None: watching, or in the lobby)."""

    seats: tuple[tuple[int, str | None, str | None], ...] = ()
    seat: int | None = None

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
    seats = []
    for x in (table or {}).get("seats") or ():
        if isinstance(x, dict) and isinstance(x.get("seat"), int):
            name, bot = x.get("name"), x.get("bot")
            seats.append((int(x["seat"]), str(name) if name is not None else None, str(bot) if bot else None))
    return Names(tuple(seats), seat)


@attrs.frozen
class Line:
    """One line of the log: ``key`` names the text (texts.py, ``log.<key>``); ``args`` fill it
    in; ``names`` are the seats' names when it was written."""

    key: str
    args: dict[str, Any] = attrs.field(factory=dict)
    names: Names = NO_NAMES


@attrs.frozen
class ChatLine:
    seat: int | None
    name: str
    text: str


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
    waiting for the challenge window (``{"cards", "rank", "count"}``); ``barred`` a set this
    seat may not challenge (its premature challenge of it was void).

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
    break); ``recapping`` while the replayed events arrive; ``recap`` the summary line, once made.
    """

    screen: str = "connecting"
    connection: str = "connecting"
    server_name: str = ""
    session: str | None = None
    last_seq: int = 0
    name: str = ""
    tables: tuple[Msg, ...] = ()
    recent: tuple[Msg, ...] = ()  # the server's last deals (record summaries), newest first
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
    recapping: bool = False
    recap_lines: tuple[Line, ...] = ()
    recap_chats: int = 0
    recap_snapshot: bool = False
    recap: Line | None = None

    @property
    def seats(self) -> list[Msg]:
        """The table's seats (``{"seat", "name", "bot", "ready", "away"}``), or []."""
        return [x for x in (self.table or {}).get("seats") or () if isinstance(x, dict)]

    def seat_name(self, seat: int | None) -> str | None:
        """The name of ``seat``'s player, a bot's strength as ``"bot:<strength>"``, or None."""
        return self.names.seat_name(seat)

    def shared(self, name: str, seat: int) -> bool:
        return self.names.shared(name, seat)

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
    """DESIGN.md, "Fair deal": does sha256(salt + ":" + ",".join(deck)) (lowercase hex) equal the
    commitment sent at the deal's start? None when something is missing."""
    if not commitment or salt is None or deck is None:
        return None
    digest = hashlib.sha256((str(salt) + ":" + ",".join(str(c) for c in deck)).encode("utf-8")).hexdigest()
    return digest == str(commitment).lower()


def _log(state: State, key: str, **args: Any) -> State:
    """``state`` with one more log line (and, while a recap collects, one more recap line)."""
    line = Line(key, args, state.names)
    changes: dict[str, Any] = {"log": (state.log + (line,))[-LOG_KEEP:]}
    if state.recapping and state.recap_seen is not None and state.last_seq > state.recap_seen:
        changes["recap_lines"] = (state.recap_lines + (line,))[-RECAP_KEEP:]
    return attrs.evolve(state, **changes)


def _remove(hand: tuple[str, ...] | None, cards: Iterable[str] | None) -> tuple[str, ...] | None:
    if hand is None:
        return None
    left = list(hand)
    for c in cards or ():
        if c in left:
            left.remove(c)
    return tuple(left)


def _add_count(counts: tuple[int, ...] | None, seat: Any, delta: int | None) -> tuple[int, ...] | None:
    if counts is None or delta is None or not (isinstance(seat, int) and 0 <= seat < len(counts)):
        return counts
    out = list(counts)
    out[seat] = max(0, out[seat] + delta)
    return tuple(out)


def _ints(value: Any) -> tuple[int, ...] | None:
    return None if value is None else tuple(int(v) for v in value)


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _seat_table(s: State, table: Msg, seat: int | None) -> State:
    """``s`` at ``table`` (a summary) in ``seat``: the names follow."""
    return attrs.evolve(s, table=dict(table), seat=seat, names=names_of(table, seat))


def _switch_log(s: State, to: int | None) -> State:
    """Keep the current log under the table (or lobby) it belongs to, and show ``to``'s."""
    here = (s.table or {}).get("id") if s.screen == "table" else None
    if here == to and s.screen != "connecting":
        return s
    kept = tuple((k, v) for k, v in s.logs_kept if k not in (here, to))
    if s.log:
        kept = (kept + ((here, s.log),))[-LOGS_KEPT:]
    log = next((v for k, v in s.logs_kept if k == to), ())
    return attrs.evolve(s, log=log, logs_kept=kept)


# -- handlers: one per message type, each (state, msg, now) -> state ----------------------------


def _welcome(s: State, m: Msg, now: float) -> State:
    server = m.get("server") or {}
    s = attrs.evolve(
        s,
        connection="connected",
        server_name=str(server.get("name", s.server_name)),
        session=m.get("session", s.session),
        bots=tuple(m.get("bots") or s.bots),
        bye=None,
        error=None,
    )
    if not m.get("resumed"):
        if s.screen == "connecting":
            s = attrs.evolve(_switch_log(s, None), screen="lobby")
        return attrs.evolve(s, recap_seen=None, recapping=False, recap_lines=(), recap_chats=0)
    s = attrs.evolve(
        s, recapping=s.recap_seen is not None, recap_lines=(), recap_chats=0, recap_snapshot=False
    )
    table = m.get("table")
    if isinstance(table, dict):
        if s.screen != "table" or (s.table or {}).get("id") != table.get("id"):
            s = _switch_log(s, table.get("id"))
        s = _seat_table(attrs.evolve(s, screen="table"), table, m.get("seat"))
        s = attrs.evolve(s, variant=str(table.get("variant") or s.variant))
    elif s.screen != "lobby":
        s = attrs.evolve(_switch_log(s, None), screen="lobby", table=None, seat=None, names=NO_NAMES)
    return _log(s, "server_restarted" if m.get("restarted") else "conn_resumed")


def _fresh(s: State, m: Msg, now: float) -> State:
    """The kept session is gone (``BAD_RESUME``): a new one starts, in the lobby."""
    s = _left(s, m, now)
    return _log(
        attrs.evolve(s, session=None, recap_seen=None, recapping=False, last_seq=0),
        "fresh",
        reason=m.get("reason"),
    )


def _replayed(s: State, m: Msg, now: float) -> State:
    """Everything replayed after a resume has arrived: sum it up ("while you were away")."""
    if not s.recapping:
        return s
    args = recap_args(s.recap_lines, s.recap_chats, s.recap_snapshot, s.seat)
    s = attrs.evolve(s, recapping=False, recap_seen=None, recap_lines=(), recap_chats=0)
    s = _log(s, "recap", **args)
    return attrs.evolve(s, recap=s.log[-1])


def recap_args(lines: tuple[Line, ...], chats: int, snapshot: bool, me: int | None) -> dict[str, Any]:
    """What a recap says, from the log lines written while the client was away: ``sets`` laid
    (``mine``: of them by the bot in this client's seat), ``piles`` taken (``[(seat, count)]``,
    the last three), ``out`` (seats), ``deals`` ended (``[(deal_no, loser, winner)]``),
    ``match`` (a match ended), ``timed_out`` (this seat's time ran out), ``chats`` (messages),
    ``snapshot`` (the server sent the state instead of every event)."""
    sets = mine = 0
    piles: list[tuple[Any, Any]] = []
    out: list[Any] = []
    deals: list[tuple[Any, Any, Any]] = []
    match = timed_out = False
    for line in lines:
        a = line.args
        if line.key in ("set_laid", "none_declared"):
            sets += 1
            mine += a.get("seat") == me and me is not None
        elif line.key == "pile_taken":
            piles.append((a.get("seat"), a.get("count")))
        elif line.key == "player_out":
            out.append(a.get("seat"))
        elif line.key == "deal_ended":
            deals.append((a.get("deal_no"), a.get("loser"), a.get("winner")))
        elif line.key == "match_ended":
            match = True
        elif line.key == "timed_out" and a.get("seat") == me and me is not None:
            timed_out = True
    return {
        "sets": sets,
        "mine": mine,
        "piles": piles[-3:],
        "out": out,
        "deals": deals,
        "match": match,
        "timed_out": timed_out,
        "chats": chats,
        "snapshot": snapshot,
    }


def _tables(s: State, m: Msg, now: float) -> State:
    tables = tuple(t for t in m.get("tables") or () if isinstance(t, dict))
    return s if tables == s.tables else attrs.evolve(s, tables=tables)


def _records(s: State, m: Msg, now: float) -> State:
    """The server's last deals (``list_records``), for the lobby."""
    recent = tuple(r for r in m.get("records") or () if isinstance(r, dict))
    return s if recent == s.recent else attrs.evolve(s, recent=recent)


def _variants(s: State, m: Msg, now: float) -> State:
    return attrs.evolve(s, variants=tuple(v for v in m.get("variants") or () if isinstance(v, dict)))


def _table_joined(s: State, m: Msg, now: float) -> State:
    table = m.get("table")
    if not isinstance(table, dict):
        table = next((t for t in s.tables if t.get("id") == table), {"id": table, "seats": []})
    tid: Any = table.get("id")
    s = _switch_log(s, tid if isinstance(tid, int) else None)
    s = _seat_table(attrs.evolve(s, screen="table"), table, m.get("seat"))
    s = attrs.evolve(s, variant=str(table.get("variant", s.variant)))
    return _log(s, "joined", table=table.get("id"), seat=m.get("seat"))


def _table_update(s: State, m: Msg, now: float) -> State:
    table = m.get("table") if isinstance(m.get("table"), dict) else None
    if table is None:
        return s
    tid = table.get("id")
    tables = tuple(table if t.get("id") == tid else t for t in s.tables)
    if s.table is None or s.table.get("id") != tid:
        return attrs.evolve(s, tables=tables)
    before = s
    was_away = s.seat_info().get("away")
    s = attrs.evolve(_seat_table(s, table, s.seat), tables=tables)
    s = _presence(before, s)
    turn_ms = table.get("turn_ms")
    if was_away and not s.seat_info().get("away") and s.my_turn and isinstance(turn_ms, int) and turn_ms > 0:
        # Back from away on one's own turn: the server starts the turn timer afresh.
        s = attrs.evolve(s, turn_deadline=now + turn_ms / 1000.0)
    return s


def _presence(before: State, after: State) -> State:
    """Say what a table summary changed that no other event tells: a player's seat went to a
    bot (his client dropped, or his time ran out) or came back; spectators came or went."""
    old = {x.get("seat"): x for x in before.seats}
    s = after
    recent = {(x.key, x.args.get("seat")) for x in before.log[-6:]}
    for x in after.seats:
        seat, prev = x.get("seat"), old.get(x.get("seat"))
        if prev is None or x.get("bot") or not x.get("name") or prev.get("name") != x.get("name"):
            continue
        if x.get("away") and not prev.get("away") and ("player_left", seat) not in recent:
            why = "timeout" if ("timed_out", seat) in recent else "dropped"
            s = _log(s, "away_" + why, seat=seat)
        elif prev.get("away") and not x.get("away"):
            s = _log(s, "back", seat=seat)
    watching, watched = (
        _int((after.table or {}).get("spectators")),
        _int((before.table or {}).get("spectators")),
    )
    if watching != watched:
        s = _log(s, "spectators_more" if watching > watched else "spectators_fewer", n=watching)
    return s


def _left(s: State, m: Msg, now: float) -> State:
    """The reply to our own ``leave`` (the net layer tags it ``_left``), or the table closed:
    back to the lobby, to the lobby's log."""
    s = _switch_log(s, None) if s.screen == "table" else s
    fresh = State(
        screen="lobby",
        connection=s.connection,
        server_name=s.server_name,
        session=s.session,
        last_seq=s.last_seq,
        name=s.name,
        tables=s.tables,
        recent=s.recent,
        variants=s.variants,
        bots=s.bots,
        log=s.log,
        logs_kept=s.logs_kept,
        chat=s.chat,
    )
    return _log(fresh, "left_table") if m.get("t") == "_left" else fresh


def _player_joined(s: State, m: Msg, now: float) -> State:
    return _log(s, "player_joined", seat=m.get("seat"), name=m.get("name"))


def _player_left(s: State, m: Msg, now: float) -> State:
    if m.get("seat") == s.seat and s.seat is not None and m.get("reason") == "removed":
        s = _left(s, m, now)  # the table's host took this seat away: back to the lobby
        return _log(s, "removed", name=m.get("name"), by=m.get("by"))
    return _log(s, "player_left", seat=m.get("seat"), name=m.get("name"), reason=m.get("reason"))


def _seat_changed(s: State, m: Msg, now: float) -> State:
    """The table's host changed a seat (a bot in, a bot out, a player removed)."""
    return _log(
        s,
        "seat_changed",
        seat=m.get("seat"),
        by=m.get("by"),
        action=m.get("action"),
        name=m.get("name"),
        strength=m.get("strength"),
    )


def _match_started(s: State, m: Msg, now: float) -> State:
    if isinstance(m.get("table"), dict):
        s = _seat_table(s, m["table"], s.seat)
    s = attrs.evolve(s, match_started=True, match_scores=None, deal_results=(), match_over=None, result=None)
    return _log(s, "match_started", deals=m.get("deals"))


def _match_ended(s: State, m: Msg, now: float) -> State:
    scores = _ints(m.get("scores"))
    over = {
        "scores": scores if scores is not None else s.match_scores,
        "deals": m.get("deals"),
        "results": s.deal_results,
        "names": s.names,
    }
    s = attrs.evolve(
        s,
        match_started=False,
        match_scores=scores if scores is not None else s.match_scores,
        match_over=over,
    )
    return _log(s, "match_ended", deals=m.get("deals"), scores=scores)


def _table_closed(s: State, m: Msg, now: float) -> State:
    s = _left(s, m, now)
    return _log(s, "table_closed", reason=m.get("reason"))


def _chat(s: State, m: Msg, now: float) -> State:
    line = ChatLine(m.get("seat"), str(m.get("name") or ""), str(m.get("text") or ""))
    s = attrs.evolve(s, chat=(s.chat + (line,))[-CHAT_KEEP:])
    if s.recapping and s.recap_seen is not None and s.last_seq > s.recap_seen:
        s = attrs.evolve(s, recap_chats=s.recap_chats + 1)
    return s


def _bye(s: State, m: Msg, now: float) -> State:
    reason = str(m.get("reason") or "")
    return _log(attrs.evolve(s, bye=reason, connection="closed"), "bye", reason=reason)


def _error(s: State, m: Msg, now: float) -> State:
    err = {"code": m.get("code"), "msg": m.get("msg"), "fatal": bool(m.get("fatal"))}
    return _log(attrs.evolve(s, error=err), "error", code=err["code"], msg=err["msg"])


def _connection(s: State, m: Msg, now: float) -> State:
    status = str(m.get("status"))
    s = attrs.evolve(s, connection=status)
    if status == "lost" and s.recap_seen is None and s.session is not None:
        s = attrs.evolve(s, recap_seen=s.last_seq)
    if status in ("lost", "resuming", "closed"):
        return _log(s, "conn_" + status, reason=m.get("reason"))
    return s


def _dealer_drawn(s: State, m: Msg, now: float) -> State:
    s = attrs.evolve(s, dealer=m.get("dealer"))
    return _log(s, "dealer_drawn", seat=m.get("dealer"), draws=m.get("draws"))


def _deal_started(s: State, m: Msg, now: float) -> State:
    hand = m.get("hand")
    counts = _ints(m.get("hand_counts"))
    players = len(counts) if counts is not None else (len(s.seats) or s.players)
    deal_no = _int(m.get("deal_no")) or s.deal_no + 1
    s = attrs.evolve(
        s,
        screen="table",
        in_deal=True,
        deal_no=deal_no,
        players=players,
        dealer=m.get("dealer"),
        deck=str(m.get("deck") or ""),
        hand=None if hand is None else sort_hand(hand),
        hand_counts=counts,
        pile=0 if counts is not None else None,
        pile_claimed=0,
        discard=0,
        stock=_int(m.get("stock")),
        hidden=_int(m.get("hidden")),
        set_aside=_int(m.get("set_aside")),
        last=None,
        set_no=0,
        reveal=None,
        ranks=(),
        turn=None,
        answer_set_no=None,
        turn_deadline=None,
        window_open=False,
        legal=None,
        held=None,
        barred=None,
        out=(),
        waiting=(),
        over=False,
        result=None,
        match_over=None,
        commitment=m.get("commitment"),
        fair=_fair_of(s.next_fair, m, deal_no, hand),
        next_fair=None,
        error=None,
    )
    return _log(
        s,
        "deal_started",
        deal_no=deal_no,
        deals=(s.table or {}).get("deals"),
        dealer=m.get("dealer"),
        deck=m.get("deck"),
        hidden=s.hidden,
        set_aside=s.set_aside,
        stock=s.stock,
    )


def _fair_of(announced: Msg | None, m: Msg, deal_no: int, hand: Any) -> Msg:
    """The fair-deal data of a deal from its ``deal_started`` (or ``state``) ``m``, with what
    ``seed_committed`` announced of it (``announced``, when it is the same deal's) and the hand
    dealt (None: unknown, the deal was joined midway)."""
    a = announced if announced is not None and announced.get("deal_no") == deal_no else {}
    contributions = m.get("contributions")
    return {
        "scheme": m.get("fair"),
        "seed_hash": m.get("seed_hash"),
        "contributions": None if contributions is None else tuple(contributions),
        "announced": {k: a.get(k) for k in ("seed_hash", "dealer", "contributions")} if a else None,
        "mine": a.get("mine"),
        "mine_status": a.get("mine_status"),
        "hand": None if hand is None else tuple(hand),
    }


def _seed_committed(s: State, m: Msg, now: float) -> State:
    """Fair deal 2: the server committed to the next deal's seed (this client contributes: the
    ``_contribution`` note follows)."""
    announced = {k: m.get(k) for k in ("deal_no", "seed_hash", "dealer", "deck", "contributions")}
    before = s.next_fair or {}
    if before.get("seed_hash") == announced["seed_hash"]:  # seen again (a replay): keep what was sent
        announced.update({k: before[k] for k in ("mine", "mine_status") if k in before})
    return attrs.evolve(s, next_fair=announced)


def _contribution(s: State, m: Msg, now: float) -> State:
    """What became of this client's contribution (the module's docstring, local notes)."""
    status = m.get("status")
    if status == "sent":
        nxt = s.next_fair or {"deal_no": m.get("deal_no")}
        if nxt.get("deal_no") != m.get("deal_no") or nxt.get("mine") is not None:
            return s  # another deal's, or a second one: the first is the one the server has
        return attrs.evolve(s, next_fair={**nxt, "mine": m.get("contribution"), "mine_status": "sent"})
    if s.next_fair is not None and s.next_fair.get("mine") is not None:
        return attrs.evolve(s, next_fair={**s.next_fair, "mine_status": status})
    if s.fair is not None and s.fair.get("mine") is not None and not s.over:  # the reply came after the deal
        return attrs.evolve(s, fair={**s.fair, "mine_status": status})
    return s


def _turn(s: State, m: Msg, now: float) -> State:
    time_ms = m.get("time_ms")
    if s.recapping:  # a replayed turn's time was counted when it was sent, not now
        time_ms = None
    return attrs.evolve(
        s,
        turn=m.get("seat"),
        ranks=tuple(m.get("ranks") or ()),
        answer_set_no=m.get("set_no"),
        turn_deadline=None if not isinstance(time_ms, int) else now + time_ms / 1000.0,
    )


def _anyone_challenges(s: State) -> bool:
    rules = s.rules
    return rules is not None and rules.challengers == "anyone"


def _set_laid(s: State, m: Msg, now: float) -> State:
    seat, size, count = m.get("seat"), m.get("size"), m.get("count")
    mine = seat == s.seat and s.seat is not None
    last = {
        "set_no": m.get("set_no"),
        "seat": seat,
        "rank": m.get("rank"),
        "count": count,
        "size": size,
        "none": False,
    }
    counts = _add_count(s.hand_counts, seat, None if size is None else -size)
    waiting = s.waiting
    if counts is not None and isinstance(seat, int) and seat < len(counts) and not counts[seat]:
        waiting = waiting if seat in waiting else waiting + (seat,)  # RULES.md, last cards
    s = attrs.evolve(
        s,
        hand=_remove(s.hand, m.get("cards")) if mine else s.hand,
        held=None if mine else s.held,
        hand_counts=counts,
        waiting=waiting,
        pile=None if s.pile is None or size is None else s.pile + size,
        pile_claimed=s.pile_claimed + _int(count),
        last=last,
        set_no=_int(m.get("set_no"), s.set_no),
        reveal=None,
        window_open=_anyone_challenges(s),
    )
    return _log(
        s,
        "set_laid",
        seat=seat,
        rank=m.get("rank"),
        count=count,
        size=size,
        cards=m.get("cards") if mine else None,
    )


def _none_declared(s: State, m: Msg, now: float) -> State:
    seat = m.get("seat")
    last = {
        "set_no": m.get("set_no"),
        "seat": seat,
        "rank": m.get("rank"),
        "count": 0,
        "size": 0,
        "none": True,
    }
    s = attrs.evolve(
        s,
        last=last,
        set_no=_int(m.get("set_no"), s.set_no),
        reveal=None,
        held=None if seat == s.seat else s.held,
        window_open=_anyone_challenges(s),
    )
    return _log(s, "none_declared", seat=seat, rank=m.get("rank"))


def _set_held(s: State, m: Msg, now: float) -> State:
    held = {"cards": tuple(m.get("cards") or ()), "rank": m.get("rank"), "count": m.get("count")}
    return _log(attrs.evolve(s, held=held), "set_held", rank=m.get("rank"), count=m.get("count"))


def _set_returned(s: State, m: Msg, now: float) -> State:
    cards = tuple(m.get("cards") or ())
    # A held set never left the hand; a laid one comes back to it (the set that covered the
    # winner's last set, as a first_wins deal ends: RULES.md, `hoyle`, scoring).
    if s.held is not None:
        return _log(attrs.evolve(s, held=None), "set_returned", cards=cards)
    hand = sort_hand(s.hand + cards) if s.hand is not None else None
    return _log(attrs.evolve(s, hand=hand, last=None), "set_returned", cards=cards)


def _window_closed(s: State, m: Msg, now: float) -> State:
    return attrs.evolve(s, window_open=False)


def _challenge_void(s: State, m: Msg, now: float) -> State:
    if m.get("seat") == s.seat and s.seat is not None:
        s = attrs.evolve(s, barred=m.get("set_no"))
    return _log(s, "challenge_void", seat=m.get("seat"), set_no=m.get("set_no"))


def _challenged(s: State, m: Msg, now: float) -> State:
    tied = tuple(m.get("tied") or ())
    return _log(s, "challenged", seat=m.get("seat"), set_no=m.get("set_no"), tied=tied)


def _believed(s: State, m: Msg, now: float) -> State:
    return _log(s, "believed", seat=m.get("seat"), set_no=m.get("set_no"))


def _set_revealed(s: State, m: Msg, now: float) -> State:
    caller, believe = None, False
    for line in reversed(s.log):
        if line.key in ("challenged", "believed") and line.args.get("set_no") == m.get("set_no"):
            caller, believe = line.args.get("seat"), line.key == "believed"
            break
    reveal = {
        "seat": m.get("seat"),
        "set_no": m.get("set_no"),
        "rank": m.get("rank"),
        "count": m.get("count"),
        "cards": tuple(m.get("cards") or ()),
        "claim_true": bool(m.get("claim_true")),
        "caller": caller,
        "believe": believe,
        "none": bool(s.last and s.last.get("none") and s.last.get("set_no") == m.get("set_no")),
    }
    s = attrs.evolve(s, reveal=reveal, last=None, window_open=False)
    return _log(
        s, "set_revealed", **{k: reveal[k] for k in ("seat", "rank", "count", "cards", "claim_true", "none")}
    )


def _pile_taken(s: State, m: Msg, now: float) -> State:
    seat, count = m.get("seat"), m.get("count")
    mine = seat == s.seat and s.seat is not None
    hand = sort_hand((s.hand or ()) + tuple(m.get("cards") or ())) if mine and s.hand is not None else s.hand
    s = attrs.evolve(
        s,
        hand=hand,
        hand_counts=_add_count(s.hand_counts, seat, count),
        pile=0 if s.pile is not None else None,
        pile_claimed=0,
        waiting=tuple(w for w in s.waiting if w != seat),
    )
    return _log(s, "pile_taken", seat=seat, count=count)


def _pile_discarded(s: State, m: Msg, now: float) -> State:
    count = _int(m.get("count"))
    s = attrs.evolve(s, pile=0 if s.pile is not None else None, pile_claimed=0, discard=s.discard + count)
    return _log(s, "pile_discarded", count=count)


def _quads_discarded(s: State, m: Msg, now: float) -> State:
    seat, count, ranks = m.get("seat"), _int(m.get("count")), m.get("ranks")
    hand = s.hand
    if seat == s.seat and s.hand is not None and ranks:
        left = list(s.hand)
        for r in ranks:
            for c in [c for c in left if c[0] == r][:4]:
                left.remove(c)
        hand = tuple(left)
    s = attrs.evolve(
        s, hand=hand, hand_counts=_add_count(s.hand_counts, seat, -4 * count), discard=s.discard + 4 * count
    )
    return _log(s, "quads_discarded", seat=seat, count=count, ranks=None if ranks is None else tuple(ranks))


def _stock_drawn(s: State, m: Msg, now: float) -> State:
    seat, count = m.get("seat"), _int(m.get("count"))
    mine = seat == s.seat and s.seat is not None
    hand = sort_hand((s.hand or ()) + tuple(m.get("cards") or ())) if mine and s.hand is not None else s.hand
    s = attrs.evolve(
        s, hand=hand, hand_counts=_add_count(s.hand_counts, seat, count), stock=max(0, s.stock - count)
    )
    return _log(s, "stock_drawn", seat=seat, count=count)


def _timed_out(s: State, m: Msg, now: float) -> State:
    return _log(s, "timed_out", seat=m.get("seat"))


def _player_out(s: State, m: Msg, now: float) -> State:
    seat = m.get("seat")
    out = s.out if seat in s.out or not isinstance(seat, int) else s.out + (seat,)
    s = attrs.evolve(s, out=out, waiting=tuple(w for w in s.waiting if w != seat))
    return _log(s, "player_out", seat=seat, place=m.get("place"))


def _fair_check(s: State, m: Msg) -> fairdeal.Verdict:
    """The fair-deal check of the deal that ``deal_ended`` ``m`` ends (client/fairdeal.py)."""
    fair = s.fair or {}
    deck = m.get("deck")
    seed = m.get("seed")
    return fairdeal.check(
        fairdeal.Disclosure(
            deal_no=s.deal_no,
            variant=(s.table or {}).get("variant") or s.variant or None,
            options=dict((s.table or {}).get("options") or {}),
            players=s.players or None,
            dealer=s.dealer,
            kind=s.deck or None,
            commitment=s.commitment,
            salt=m.get("salt"),
            deck=None if deck is None else tuple(str(c) for c in deck),
            fair=fair.get("scheme"),
            seed_hash=fair.get("seed_hash"),
            seed=None if seed is None else str(seed),
            contributions=fair.get("contributions"),
            announced=fair.get("announced"),
            seeded=bool((s.table or {}).get("seeded")),
            seat=s.seat,
            hand=fair.get("hand"),
            mine=fair.get("mine"),
            mine_status=fair.get("mine_status"),
        )
    )


def _deal_ended(s: State, m: Msg, now: float) -> State:
    verdict = _fair_check(s, m)
    holds = verdict.holds
    deal_no = _int(m.get("deal_no"), s.deal_no)
    out = tuple(x for x in m.get("out") or () if isinstance(x, int))
    result: Msg = {
        "loser": m.get("loser"),
        "winner": m.get("winner"),
        "out": out,
        "scores": _ints(m.get("scores")),
        "hand_counts": _ints(m.get("hand_counts")),
        "fair": holds,
        "fair_status": verdict.status,
        "fair_problems": verdict.problems,
        "salt": m.get("salt"),
        "deal_no": deal_no,
        "next_ms": m.get("next_deal_ms"),
    }
    scores = _ints(m.get("match_scores"))
    seen = {
        "deal_no": deal_no,
        "loser": result["loser"],
        "winner": result["winner"],
        "scores": result["scores"],
    }
    counts, pile = s.hand_counts, s.pile
    if counts is not None and result["hand_counts"] is not None:  # a covering set went back to a hand
        counts = result["hand_counts"]
        pile = None if pile is None else pile + sum(s.hand_counts or ()) - sum(counts)
    s = attrs.evolve(
        s,
        hand_counts=counts,
        pile=pile,
        over=True,
        result=result,
        legal=None,
        turn=None,
        turn_deadline=None,
        held=None,
        window_open=False,
        out=out or s.out,
        match_scores=scores if scores is not None else s.match_scores,
        deal_results=tuple(r for r in s.deal_results if r["deal_no"] != deal_no) + (seen,),
    )
    s = _log(s, "deal_ended", deal_no=deal_no, loser=result["loser"], winner=result["winner"], out=out)
    if verdict.status == "bad":
        return _log(s, "fair_bad", problem=verdict.problems[0])
    return _log(s, FAIR_LOG[verdict.status])


FAIR_LOG = {
    "fair": "fair_nobody",
    "checked": "fair_checked",
    "seeded": "fair_seeded",
    "unprotected": "fair_unprotected",
    "committed": "fair_ok",
    "unknown": "fair_unknown",
}
"""The log line of each fair-deal verdict but ``bad`` (texts.py, ``log.<key>``)."""


def _legal(s: State, m: Msg, now: float) -> State:
    legal = {
        k: m.get(k) for k in ("lay", "challenge", "believe", "declare_none", "discard_quads", "decline_quads")
    }
    if not any(v for v in legal.values() if v is not None) and not legal.get("discard_quads"):
        return attrs.evolve(s, legal=None)
    return attrs.evolve(s, legal=legal)


def _held_of(held: Any) -> Msg | None:
    """``state.held`` as ``set_held`` gives it (None: no set held)."""
    if not isinstance(held, dict):
        return None
    return {"cards": tuple(held.get("cards") or ()), "rank": held.get("rank"), "count": held.get("count")}


def _state(s: State, m: Msg, now: float) -> State:
    """A full snapshot (after a join or resume mid-deal): engine View's fields plus table info."""
    if isinstance(m.get("table"), dict):
        s = _seat_table(attrs.evolve(s, screen="table"), m["table"], m.get("seat", s.seat))
    hand, legal, last, time_ms = m.get("hand"), m.get("legal"), m.get("last"), m.get("time_ms")
    s = attrs.evolve(
        s,
        screen="table",
        in_deal=True,
        seat=m.get("seat", s.seat),
        variant=str(m.get("variant") or s.variant),
        deal_no=_int(m.get("deal_no"), s.deal_no),
        players=_int(m.get("players"), s.players),
        dealer=m.get("dealer"),
        deck=str(m.get("deck") or s.deck),
        hand=None if hand is None else sort_hand(hand),
        hand_counts=_ints(m.get("hand_counts")),
        pile=m.get("pile"),
        discard=_int(m.get("discard")),
        stock=_int(m.get("stock")),
        hidden=_int(m.get("hidden")),
        set_aside=_int(m.get("set_aside")),
        last=dict(last) if isinstance(last, dict) else None,
        set_no=_int(m.get("set_no"), s.set_no),
        reveal=None,
        ranks=tuple(m.get("ranks") or ()),
        turn=m.get("turn"),
        answer_set_no=last.get("set_no")
        if isinstance(last, dict) and last.get("seat") != m.get("turn")
        else None,
        turn_deadline=None if not isinstance(time_ms, int) else now + time_ms / 1000.0,
        window_open=bool(m.get("window_open")),
        out=tuple(m.get("out") or ()),
        waiting=tuple(m.get("waiting") or ()),
        over=bool(m.get("over")),
        commitment=m.get("commitment", s.commitment),
        fair=_fair_of(s.next_fair, m, _int(m.get("deal_no"), s.deal_no), None)
        if _int(m.get("deal_no"), s.deal_no) != s.deal_no or s.fair is None
        else s.fair,
        match_scores=_ints(m.get("match_scores")) or s.match_scores,
        held=_held_of(m.get("held")),
        legal=None,
        recap_snapshot=s.recap_snapshot or s.recapping,
    )
    if isinstance(legal, dict):
        s = _legal(s, legal, now)
    return s


HANDLERS = {
    "welcome": _welcome,
    "tables": _tables,
    "variants": _variants,
    "records": _records,
    "table_joined": _table_joined,
    "table_update": _table_update,
    "_left": _left,
    "_fresh": _fresh,
    "_replayed": _replayed,
    "player_joined": _player_joined,
    "player_left": _player_left,
    "seat_changed": _seat_changed,
    "match_started": _match_started,
    "match_ended": _match_ended,
    "table_closed": _table_closed,
    "chat": _chat,
    "bye": _bye,
    "error": _error,
    "_connection": _connection,
    "dealer_drawn": _dealer_drawn,
    "seed_committed": _seed_committed,
    "_contribution": _contribution,
    "deal_started": _deal_started,
    "turn": _turn,
    "set_laid": _set_laid,
    "none_declared": _none_declared,
    "set_held": _set_held,
    "set_returned": _set_returned,
    "window_closed": _window_closed,
    "challenge_void": _challenge_void,
    "challenged": _challenged,
    "believed": _believed,
    "set_revealed": _set_revealed,
    "pile_taken": _pile_taken,
    "pile_discarded": _pile_discarded,
    "quads_discarded": _quads_discarded,
    "stock_drawn": _stock_drawn,
    "timed_out": _timed_out,
    "player_out": _player_out,
    "deal_ended": _deal_ended,
    "legal": _legal,
    "state": _state,
}


def reduce(state: State, msg: Msg, now: float = 0.0) -> State:
    """The state after ``msg``. Events carry ``seq``; it is remembered for resume. Messages of a
    type this client does not know change nothing but ``last_seq``."""
    seq = msg.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool) and seq > state.last_seq:
        state = attrs.evolve(state, last_seq=seq)
    handler = HANDLERS.get(msg.get("t"))  # type: ignore[arg-type]
    if handler is None:
        return state
    return handler(state, msg, now)


def reduce_all(msgs: Iterable[Msg], state: State | None = None, now: float = 0.0) -> State:
    """Fold ``reduce`` over ``msgs`` from ``state`` (default: a fresh State)."""
    state = state if state is not None else State()
    for m in msgs:
        state = reduce(state, m, now)
    return state


# -- the seat's view, as the engine's bots read it ----------------------------------------------


def engine_legal(legal: Msg | None) -> engine.Legal:
    """The ``legal`` fields (as the model keeps them) as an engine ``Legal``."""
    if not legal:
        return engine.NO_ACTION
    lay = legal.get("lay")
    bounds = None
    if lay is not None:
        bounds = engine.LayBounds(
            lay["min"], lay["max"], tuple(lay["ranks"]), lay.get("count_min"), lay.get("count_max")
        )
    return engine.Legal(
        lay=bounds,
        challenge=legal.get("challenge"),
        believe=legal.get("believe"),
        declare_none=legal.get("declare_none"),
        discard_quads=tuple(legal.get("discard_quads") or ()),
        decline_quads=bool(legal.get("decline_quads")),
    )


def engine_view(s: State) -> engine.View:
    """What this seat knows of the deal as an engine ``View`` (engine/_view.py), for a bot. The
    hand is the playable one: a set laid early and held has left it. Meaningful while a deal is
    being played (``State.playing``)."""
    last = s.last
    return engine.View(
        variant=s.variant,
        seat=s.seat,
        players=s.players,
        deck=s.deck,
        dealer=s.dealer if s.dealer is not None else 0,
        hand=s.playable_hand if s.hand is not None else None,
        hand_counts=s.hand_counts,
        pile=s.pile,
        discard=s.discard,
        stock=s.stock,
        hidden=s.hidden,
        set_aside=s.set_aside,
        last=None
        if last is None
        else engine.LastSet(
            last["set_no"], last["seat"], last["rank"], last["count"], last["size"], bool(last.get("none"))
        ),
        ranks=s.ranks,
        turn=s.turn,
        set_no=s.set_no,
        window_open=s.window_open,
        out=s.out,
        waiting=s.waiting,
        over=s.over,
        loser=(s.result or {}).get("loser"),
        winner=(s.result or {}).get("winner"),
        legal=engine_legal(s.legal),
    )
