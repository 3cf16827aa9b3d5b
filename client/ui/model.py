"""The client's model: a pure reducer of protocol messages into the state the screen shows.

``reduce(state, msg, now) -> State`` takes one decoded message (a dict as ``protocol`` gives it:
a reply, an event, or a local note such as ``{"t": "_connection", "status": "lost"}``) and returns a
new ``State``; it never mutates its input and does no I/O. ``now`` is the local monotonic clock in
seconds, used only to turn a ``time_ms`` countdown into a deadline. Unknown message types and
fields are ignored (docs/PROTOCOL.md: clients ignore what they do not know).

Game events mirror engine/_events.py field for field (docs/PROTOCOL.md); the words used here are
RULES.md's: hand, set, claim, pile, challenge, believe, discard, quad, out, deal.

The log holds ``Line(key, args)`` records, not text: ``texts.py`` turns them into Russian or English.
"""

from __future__ import annotations

import hashlib
from typing import Any

import attrs

from neveryu.engine import RANKS, SUITS

LOG_KEEP = 300
CHAT_KEEP = 100


@attrs.frozen
class Line:
    """One line of the log: ``key`` names the text (texts.py, ``LOG``); ``args`` fill it in."""

    key: str
    args: dict = attrs.field(factory=dict)


@attrs.frozen
class ChatLine:
    seat: int | None
    name: str
    text: str


@attrs.frozen
class State:
    """Everything the client knows. ``screen``: ``"connecting"``, ``"lobby"`` or ``"table"``;
    ``connection``: ``"connecting"``, ``"connected"``, ``"lost"``, ``"resuming"`` or ``"closed"``.

    Deal fields follow engine View: ``hand`` is this seat's own hand sorted by rank (None for a
    spectator); ``hand_counts`` and ``pile`` are None where the variant hides them; ``pile_claimed``
    sums the counts claimed on the pile (shown where sizes are hidden); ``last`` is the last set
    (``{"set_no", "seat", "rank", "count", "size", "none"}``); ``reveal`` the last revealed set
    (``{"seat", "set_no", "rank", "count", "cards", "claim_true", "caller", "believe"}``);
    ``turn_deadline`` a local monotonic time in seconds, or None when untimed; ``legal`` the last
    ``legal`` event's fields (None: nothing to do); ``held`` this seat's set laid early and waiting
    for the challenge window (``{"cards", "rank", "count"}``).
    """

    screen: str = "connecting"
    connection: str = "connecting"
    server_name: str = ""
    session: str | None = None
    last_seq: int = 0
    name: str = ""
    tables: tuple = ()
    variants: tuple = ()
    bots: tuple[str, ...] = ()
    table: dict | None = None
    seat: int | None = None
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
    last: dict | None = None
    reveal: dict | None = None
    ranks: tuple[str, ...] = ()
    turn: int | None = None
    answer_set_no: int | None = None
    turn_deadline: float | None = None
    window_open: bool = False
    legal: dict | None = None
    held: dict | None = None
    out: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
    over: bool = False
    result: dict | None = None
    commitment: str | None = None
    match_scores: tuple[int, ...] | None = None
    # what to tell the player
    log: tuple[Line, ...] = ()
    chat: tuple[ChatLine, ...] = ()
    error: dict | None = None
    bye: str | None = None

    @property
    def seats(self) -> list[dict]:
        """The table's seats (``{"seat", "name", "bot", "ready", "away"}``), or []."""
        return list((self.table or {}).get("seats") or [])

    def seat_name(self, seat: int | None) -> str | None:
        """The name of ``seat``'s player, a bot's strength as ``"bot:<strength>"``, or None."""
        for s in self.seats:
            if s.get("seat") == seat:
                if s.get("bot"):
                    return f"bot:{s['bot']}"
                if s.get("name"):
                    return str(s["name"])
        return None

    def seat_info(self) -> dict:
        """This client's own seat in the table summary, or {}."""
        return (
            next((x for x in self.seats if x.get("seat") == self.seat), {}) if self.seat is not None else {}
        )

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


def card_key(card: str) -> tuple[int, int, str]:
    """Sort key: rank, then suit (S H D C); anything unknown goes last."""
    if isinstance(card, str) and len(card) == 2 and card[0] in RANKS and card[1] in SUITS:
        return (RANKS.index(card[0]), SUITS.index(card[1]), card)
    return (99, 0, str(card))


def sort_hand(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_key))


def fair_deal_holds(commitment: str | None, salt: str | None, deck) -> bool | None:
    """DESIGN.md, "Fair deal": does sha256(salt + ":" + ",".join(deck)) (lowercase hex) equal the
    commitment sent at the deal's start? None when something is missing."""
    if not commitment or salt is None or deck is None:
        return None
    digest = hashlib.sha256((str(salt) + ":" + ",".join(str(c) for c in deck)).encode("utf-8")).hexdigest()
    return digest == str(commitment).lower()


def _log(state: State, key: str, **args: Any) -> tuple[Line, ...]:
    return (state.log + (Line(key, args),))[-LOG_KEEP:]


def _remove(hand: tuple[str, ...] | None, cards) -> tuple[str, ...] | None:
    if hand is None:
        return None
    left = list(hand)
    for c in cards or ():
        if c in left:
            left.remove(c)
    return tuple(left)


def _add_count(counts: tuple[int, ...] | None, seat: int, delta: int | None) -> tuple[int, ...] | None:
    if counts is None or delta is None or not (isinstance(seat, int) and 0 <= seat < len(counts)):
        return counts
    out = list(counts)
    out[seat] = max(0, out[seat] + delta)
    return tuple(out)


def _tuple(value) -> tuple | None:
    return None if value is None else tuple(value)


def _table_id(table) -> Any:
    return table.get("id") if isinstance(table, dict) else table


# -- handlers: one per message type, each (state, msg, now) -> state ----------------------------


def _welcome(s: State, m: dict, now: float) -> State:
    server = m.get("server") or {}
    resumed = m.get("table") is not None or m.get("seat") is not None
    s = attrs.evolve(
        s,
        connection="connected",
        server_name=str(server.get("name", s.server_name)),
        session=m.get("session", s.session),
        bots=tuple(m.get("bots") or s.bots),
        bye=None,
        error=None,
    )
    if s.screen == "connecting":
        s = attrs.evolve(s, screen="lobby")
    if m.get("resumed"):
        s = attrs.evolve(s, log=_log(s, "conn_resumed"))
        if isinstance(m.get("table"), dict):
            s = attrs.evolve(s, screen="table", table=dict(m["table"]), seat=m.get("seat"))
    elif resumed:
        s = _table_joined(s, m, now)
    return s


def _tables(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, tables=tuple(m.get("tables") or ()))


def _variants(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, variants=tuple(m.get("variants") or ()))


def _table_joined(s: State, m: dict, now: float) -> State:
    table = m.get("table")
    if not isinstance(table, dict):
        table = next((t for t in s.tables if t.get("id") == table), {"id": table, "seats": []})
    return attrs.evolve(
        s,
        screen="table",
        table=dict(table),
        seat=m.get("seat"),
        variant=str(table.get("variant", s.variant)),
        log=_log(s, "joined", table=table.get("id"), seat=m.get("seat")),
    )


def _table_update(s: State, m: dict, now: float) -> State:
    table = (
        m.get("table")
        if isinstance(m.get("table"), dict)
        else {k: v for k, v in m.items() if k not in ("t", "seq", "ts")}
    )
    tid = table.get("id")
    tables = tuple(table if t.get("id") == tid else t for t in s.tables)
    if s.table is not None and s.table.get("id") == tid:
        was_away = s.seat_info().get("away")
        s = attrs.evolve(s, table=dict(table), tables=tables)
        turn_ms = table.get("turn_ms")
        if (
            was_away
            and not s.seat_info().get("away")
            and s.my_turn
            and isinstance(turn_ms, int)
            and turn_ms > 0
        ):
            # Back from away on one's own turn: the server starts the turn timer afresh.
            s = attrs.evolve(s, turn_deadline=now + turn_ms / 1000.0)
        return s
    return attrs.evolve(s, tables=tables)


def _left(s: State, m: dict, now: float) -> State:
    """The reply to our own ``leave`` (the net layer tags it ``_left``), or the table closed:
    back to the lobby."""
    return attrs.evolve(
        State(
            screen="lobby",
            connection=s.connection,
            server_name=s.server_name,
            session=s.session,
            last_seq=s.last_seq,
            name=s.name,
            tables=s.tables,
            variants=s.variants,
        ),
        log=_log(s, "left_table"),
    )


def _player_joined(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, log=_log(s, "player_joined", seat=m.get("seat"), name=m.get("name")))


def _player_left(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, log=_log(s, "player_left", seat=m.get("seat"), name=m.get("name")))


def _match_started(s: State, m: dict, now: float) -> State:
    if isinstance(m.get("table"), dict):
        s = attrs.evolve(s, table=dict(m["table"]))
    return attrs.evolve(
        s,
        match_started=True,
        match_scores=_tuple(m.get("match_scores")) or s.match_scores,
        log=_log(s, "match_started"),
    )


def _match_ended(s: State, m: dict, now: float) -> State:
    scores = _tuple(m.get("scores"))
    return attrs.evolve(
        s,
        match_started=False,
        match_scores=scores if scores is not None else s.match_scores,
        log=_log(s, "match_ended", deals=m.get("deals"), scores=scores),
    )


def _table_closed(s: State, m: dict, now: float) -> State:
    s = _left(s, m, now)
    return attrs.evolve(s, log=_log(s, "table_closed", reason=m.get("reason")))


def _chat(s: State, m: dict, now: float) -> State:
    line = ChatLine(m.get("seat"), str(m.get("name") or ""), str(m.get("text") or ""))
    return attrs.evolve(s, chat=(s.chat + (line,))[-CHAT_KEEP:])


def _bye(s: State, m: dict, now: float) -> State:
    reason = str(m.get("reason") or "")
    return attrs.evolve(s, bye=reason, connection="closed", log=_log(s, "bye", reason=reason))


def _error(s: State, m: dict, now: float) -> State:
    err = {"code": m.get("code"), "msg": m.get("msg"), "fatal": bool(m.get("fatal"))}
    return attrs.evolve(s, error=err, log=_log(s, "error", code=err["code"], msg=err["msg"]))


def _connection(s: State, m: dict, now: float) -> State:
    status = str(m.get("status"))
    s = attrs.evolve(s, connection=status)
    if status in ("lost", "resuming", "closed"):
        return attrs.evolve(s, log=_log(s, "conn_" + status, reason=m.get("reason")))
    return s


def _dealer_drawn(s: State, m: dict, now: float) -> State:
    return attrs.evolve(
        s, dealer=m.get("dealer"), log=_log(s, "dealer_drawn", seat=m.get("dealer"), draws=m.get("draws"))
    )


def _deal_started(s: State, m: dict, now: float) -> State:
    hand = m.get("hand")
    counts = _tuple(m.get("hand_counts"))
    players = len(counts) if counts is not None else (len(s.seats) or s.players)
    return attrs.evolve(
        s,
        screen="table",
        in_deal=True,
        deal_no=int(m.get("deal_no") or s.deal_no + 1),
        players=players,
        dealer=m.get("dealer"),
        deck=str(m.get("deck") or ""),
        hand=None if hand is None else sort_hand(hand),
        hand_counts=counts,
        pile=0 if counts is not None else None,
        pile_claimed=0,
        discard=0,
        stock=int(m.get("stock") or 0),
        last=None,
        reveal=None,
        ranks=(),
        turn=None,
        answer_set_no=None,
        turn_deadline=None,
        window_open=False,
        legal=None,
        held=None,
        out=(),
        waiting=(),
        over=False,
        result=None,
        commitment=m.get("commitment"),
        error=None,
        log=_log(
            s,
            "deal_started",
            deal_no=int(m.get("deal_no") or s.deal_no + 1),
            dealer=m.get("dealer"),
            deck=m.get("deck"),
            hidden=m.get("hidden") or 0,
            set_aside=m.get("set_aside") or 0,
            stock=m.get("stock") or 0,
        ),
    )


def _turn(s: State, m: dict, now: float) -> State:
    time_ms = m.get("time_ms")
    return attrs.evolve(
        s,
        turn=m.get("seat"),
        ranks=tuple(m.get("ranks") or ()),
        answer_set_no=m.get("set_no"),
        turn_deadline=None if time_ms is None else now + time_ms / 1000.0,
    )


def _set_laid(s: State, m: dict, now: float) -> State:
    seat, size, count = m.get("seat"), m.get("size"), m.get("count")
    mine = seat == s.seat and s.seat is not None
    hand = _remove(s.hand, m.get("cards")) if mine else s.hand
    last = {
        "set_no": m.get("set_no"),
        "seat": seat,
        "rank": m.get("rank"),
        "count": count,
        "size": size,
        "none": False,
    }
    return attrs.evolve(
        s,
        hand=hand,
        held=None if mine else s.held,
        hand_counts=_add_count(s.hand_counts, seat, None if size is None else -size),
        pile=None if s.pile is None or size is None else s.pile + size,
        pile_claimed=s.pile_claimed + int(count or 0),
        last=last,
        reveal=None,
        window_open=False,
        log=_log(
            s,
            "set_laid",
            seat=seat,
            rank=m.get("rank"),
            count=count,
            size=size,
            cards=m.get("cards") if mine else None,
        ),
    )


def _none_declared(s: State, m: dict, now: float) -> State:
    seat = m.get("seat")
    last = {
        "set_no": m.get("set_no"),
        "seat": seat,
        "rank": m.get("rank"),
        "count": 0,
        "size": 0,
        "none": True,
    }
    return attrs.evolve(
        s,
        last=last,
        reveal=None,
        held=None if seat == s.seat else s.held,
        log=_log(s, "none_declared", seat=seat, rank=m.get("rank")),
    )


def _set_held(s: State, m: dict, now: float) -> State:
    held = {"cards": tuple(m.get("cards") or ()), "rank": m.get("rank"), "count": m.get("count")}
    return attrs.evolve(s, held=held, log=_log(s, "set_held", rank=m.get("rank"), count=m.get("count")))


def _set_returned(s: State, m: dict, now: float) -> State:
    cards = tuple(m.get("cards") or ())
    # a held set never left the hand; a laid one (the set that covered the winner's last set, as a
    # first_wins deal ends) comes back to it
    hand = sort_hand(s.hand + cards) if s.held is None and s.hand is not None else s.hand
    return attrs.evolve(s, hand=hand, held=None, log=_log(s, "set_returned", cards=cards))


def _window_closed(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, window_open=False)


def _challenge_void(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, log=_log(s, "challenge_void", seat=m.get("seat"), set_no=m.get("set_no")))


def _challenged(s: State, m: dict, now: float) -> State:
    return attrs.evolve(
        s,
        log=_log(
            s, "challenged", seat=m.get("seat"), set_no=m.get("set_no"), tied=tuple(m.get("tied") or ())
        ),
    )


def _believed(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, log=_log(s, "believed", seat=m.get("seat"), set_no=m.get("set_no")))


def _set_revealed(s: State, m: dict, now: float) -> State:
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
    return attrs.evolve(
        s,
        reveal=reveal,
        last=None,
        window_open=False,
        log=_log(
            s,
            "set_revealed",
            **{k: reveal[k] for k in ("seat", "rank", "count", "cards", "claim_true", "none")},
        ),
    )


def _pile_taken(s: State, m: dict, now: float) -> State:
    seat, count = m.get("seat"), m.get("count")
    mine = seat == s.seat and s.seat is not None
    hand = sort_hand((s.hand or ()) + tuple(m.get("cards") or ())) if mine and s.hand is not None else s.hand
    return attrs.evolve(
        s,
        hand=hand,
        hand_counts=_add_count(s.hand_counts, seat, count),
        pile=0 if s.pile is not None else None,
        pile_claimed=0,
        log=_log(s, "pile_taken", seat=seat, count=count),
    )


def _pile_discarded(s: State, m: dict, now: float) -> State:
    count = int(m.get("count") or 0)
    return attrs.evolve(
        s,
        pile=0 if s.pile is not None else None,
        pile_claimed=0,
        discard=s.discard + count,
        log=_log(s, "pile_discarded", count=count),
    )


def _quads_discarded(s: State, m: dict, now: float) -> State:
    seat, count, ranks = m.get("seat"), int(m.get("count") or 0), m.get("ranks")
    hand = s.hand
    if seat == s.seat and s.hand is not None and ranks:
        hand = list(s.hand)
        for r in ranks:
            for c in [c for c in hand if c[0] == r][:4]:
                hand.remove(c)
        hand = tuple(hand)
    return attrs.evolve(
        s,
        hand=hand,
        hand_counts=_add_count(s.hand_counts, seat, -4 * count),
        discard=s.discard + 4 * count,
        log=_log(s, "quads_discarded", seat=seat, count=count, ranks=_tuple(ranks)),
    )


def _stock_drawn(s: State, m: dict, now: float) -> State:
    seat, count = m.get("seat"), int(m.get("count") or 0)
    mine = seat == s.seat and s.seat is not None
    hand = sort_hand((s.hand or ()) + tuple(m.get("cards") or ())) if mine and s.hand is not None else s.hand
    return attrs.evolve(
        s,
        hand=hand,
        hand_counts=_add_count(s.hand_counts, seat, count),
        stock=max(0, s.stock - count),
        log=_log(s, "stock_drawn", seat=seat, count=count),
    )


def _timed_out(s: State, m: dict, now: float) -> State:
    return attrs.evolve(s, log=_log(s, "timed_out", seat=m.get("seat")))


def _player_out(s: State, m: dict, now: float) -> State:
    seat = m.get("seat")
    out = s.out if seat in s.out else s.out + (seat,)
    return attrs.evolve(
        s,
        out=out,
        waiting=tuple(w for w in s.waiting if w != seat),
        log=_log(s, "player_out", seat=seat, place=m.get("place")),
    )


def _deal_ended(s: State, m: dict, now: float) -> State:
    holds = fair_deal_holds(s.commitment, m.get("salt"), m.get("deck"))
    result = {
        "loser": m.get("loser"),
        "winner": m.get("winner"),
        "out": tuple(m.get("out") or ()),
        "scores": _tuple(m.get("scores")),
        "hand_counts": _tuple(m.get("hand_counts")),
        "fair": holds,
        "salt": m.get("salt"),
    }
    scores = _tuple(m.get("match_scores"))
    counts, pile = s.hand_counts, s.pile
    if counts is not None and result["hand_counts"] is not None:  # a covering set went back to a hand
        counts, pile = (
            result["hand_counts"],
            None if pile is None else pile + sum(counts) - sum(result["hand_counts"]),
        )
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
        out=result["out"] or s.out,
        match_scores=scores if scores is not None else s.match_scores,
    )
    s = attrs.evolve(
        s, log=_log(s, "deal_ended", loser=result["loser"], winner=result["winner"], out=result["out"])
    )
    return attrs.evolve(s, log=_log(s, "fair_" + {True: "ok", False: "bad", None: "unknown"}[holds]))


def _legal(s: State, m: dict, now: float) -> State:
    legal = {
        k: m.get(k) for k in ("lay", "challenge", "believe", "declare_none", "discard_quads", "decline_quads")
    }
    if not any(v for v in legal.values() if v is not None) and not legal.get("discard_quads"):
        return attrs.evolve(s, legal=None)
    return attrs.evolve(s, legal=legal)


def _state(s: State, m: dict, now: float) -> State:
    """A full snapshot (after a join or resume mid-deal): engine View's fields plus table info."""
    if isinstance(m.get("table"), dict):
        s = attrs.evolve(s, table=dict(m["table"]), screen="table")
    hand = m.get("hand")
    legal = m.get("legal")
    last = m.get("last")
    time_ms = m.get("time_ms")
    s = attrs.evolve(
        s,
        screen="table",
        in_deal=True,
        seat=m.get("seat", s.seat),
        variant=str(m.get("variant") or s.variant),
        deal_no=int(m.get("deal_no") or s.deal_no),
        players=int(m.get("players") or s.players),
        dealer=m.get("dealer"),
        deck=str(m.get("deck") or s.deck),
        hand=None if hand is None else sort_hand(hand),
        hand_counts=_tuple(m.get("hand_counts")),
        pile=m.get("pile"),
        discard=int(m.get("discard") or 0),
        stock=int(m.get("stock") or 0),
        last=dict(last) if isinstance(last, dict) else None,
        reveal=None,
        ranks=tuple(m.get("ranks") or ()),
        turn=m.get("turn"),
        answer_set_no=(last or {}).get("set_no")
        if isinstance(last, dict) and last.get("seat") != m.get("turn")
        else None,
        turn_deadline=None if time_ms is None else now + time_ms / 1000.0,
        window_open=bool(m.get("window_open")),
        out=tuple(m.get("out") or ()),
        waiting=tuple(m.get("waiting") or ()),
        over=bool(m.get("over")),
        commitment=m.get("commitment", s.commitment),
        match_scores=_tuple(m.get("match_scores")) or s.match_scores,
        held=None,
    )
    if isinstance(legal, dict):
        s = _legal(s, legal, now)
    return s


HANDLERS = {
    "welcome": _welcome,
    "tables": _tables,
    "variants": _variants,
    "table_joined": _table_joined,
    "table_update": _table_update,
    "_left": _left,
    "player_joined": _player_joined,
    "player_left": _player_left,
    "match_started": _match_started,
    "match_ended": _match_ended,
    "table_closed": _table_closed,
    "chat": _chat,
    "bye": _bye,
    "error": _error,
    "_connection": _connection,
    "dealer_drawn": _dealer_drawn,
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


def reduce(state: State, msg: dict, now: float = 0.0) -> State:
    """The state after ``msg``. Events carry ``seq``; it is remembered for resume. Messages of a
    type this client does not know change nothing but ``last_seq``."""
    seq = msg.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool) and seq > state.last_seq:
        state = attrs.evolve(state, last_seq=seq)
    handler = HANDLERS.get(msg.get("t"))
    if handler is None:
        return state
    return handler(state, msg, now)


def reduce_all(msgs, state: State | None = None, now: float = 0.0) -> State:
    """Fold ``reduce`` over ``msgs`` from ``state`` (default: a fresh State)."""
    state = state if state is not None else State()
    for m in msgs:
        state = reduce(state, m, now)
    return state
