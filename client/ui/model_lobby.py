"""The model's handlers of the session, the lobby and the table's seats: the link (welcome,
resume, bye), tables and variants, joining and leaving, seats, matches, chat, errors, and the
"while you were away" recap after a resume (client/ui/model.py's docstring lists the local
notes). Each handler is ``(state, msg, now) -> state``; ``HANDLERS`` maps message types to them.
"""

from __future__ import annotations

from typing import Any

import attrs

from .model_state import (
    CHAT_KEEP,
    NO_NAMES,
    ChatLine,
    Line,
    Msg,
    State,
    add_log,
    as_int,
    as_ints,
    seat_table,
    switch_log,
)


def _welcome(s: State, m: Msg, now: float) -> State:
    server = m.get("server") or {}
    first = s.screen == "connecting"  # (a client just started, taking back a kept session)
    s = attrs.evolve(
        s,
        connection="connected",
        server_name=str(server.get("name", s.server_name)),
        session=m.get("session", s.session),
        bots=tuple(m.get("bots") or s.bots),
        bye=None,
        error=None,
        batch_ends=(m.get("minor") or 0) >= 1,
        restarted=bool(m.get("resumed") and m.get("restarted")),
    )
    if not m.get("resumed"):
        if s.screen == "connecting":
            s = attrs.evolve(switch_log(s, None), screen="lobby")
        return attrs.evolve(
            s, recap_seen=None, recap_known=None, recapping=False, recap_lines=(), recap_chats=0
        )
    s = attrs.evolve(
        s, recapping=s.recap_seen is not None, recap_lines=(), recap_chats=0, recap_snapshot=False
    )
    table = m.get("table")
    if isinstance(table, dict):
        same = s.screen == "table" and (s.table or {}).get("id") == table.get("id")
        then = tuple(s.seats) if same else ()  # a client started again: not known
        if not same:
            s = switch_log(s, table.get("id"))
        s = seat_table(attrs.evolve(s, screen="table", seats_then=then), table, m.get("seat"))
        s = attrs.evolve(s, variant=str(table.get("variant") or s.variant))
    elif s.screen != "lobby":
        s = attrs.evolve(switch_log(s, None), screen="lobby", table=None, seat=None, names=NO_NAMES)
    return add_log(
        s, "server_restarted" if m.get("restarted") else "session_kept" if first else "conn_resumed"
    )


def _fresh(s: State, m: Msg, now: float) -> State:
    """The kept session is gone (``BAD_RESUME``): a new one starts, in the lobby."""
    s = _left(s, m, now)
    return add_log(
        attrs.evolve(s, session=None, recap_seen=None, recapping=False, last_seq=0),
        "fresh",
        reason=m.get("reason"),
    )


def _replayed(s: State, m: Msg, now: float) -> State:
    """Everything replayed after a resume has arrived: sum it up ("while you were away")."""
    if not s.recapping:
        return s
    args = recap_args(s.recap_lines, s.recap_chats, s.recap_snapshot, s.seat)
    if args["snapshot"]:
        args["now"] = _where_it_stands(s)
    s = attrs.evolve(s, recapping=False, recap_seen=None, recap_known=None, recap_lines=(), recap_chats=0)
    s = add_log(s, "recap", **args)
    return attrs.evolve(s, recap=s.log[-1])


def _where_it_stands(s: State) -> dict[str, Any]:
    """What a snapshot tells of the game now, for a recap that cannot tell each move: the deal
    (``deal``, of ``deals``), whose turn (``turn``, a seat; None between deals), this seat's
    cards (``hand``) and the pile's (``pile``, None where hidden)."""
    playing = s.in_deal and not s.over
    return {
        "deal": s.deal_no or None,
        "deals": (s.table or {}).get("deals"),
        "turn": s.turn if playing else None,
        "hand": len(s.hand) if playing and s.hand is not None and s.seat is not None else None,
        "pile": s.pile if playing else None,
    }


def recap_args(lines: tuple[Line, ...], chats: int, snapshot: bool, me: int | None) -> dict[str, Any]:
    """What a recap says, from the log lines written while the client was away: ``sets`` laid
        (``mine``: of them by the bot in this client's seat), ``piles`` taken (``[(seat, count)]``,
        the last three), ``out`` (seats), ``deals`` ended (``[(deal_no, loser, winner)]``),
        ``match`` (a match ended), ``timed_out`` (this seat's time ran out), ``chats`` (messages),
        ``snapshot`` (the server sent the state instead of every event), ``removed`` (the table's
    host gave this client's seat away meanwhile)."""
    sets = mine = 0
    piles: list[tuple[Any, Any]] = []
    out: list[Any] = []
    deals: list[tuple[Any, Any, Any]] = []
    match = timed_out = removed = False
    for line in lines:
        a = line.args
        removed = removed or line.key == "removed_away"
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
        "removed": removed,
    }


def _tables(s: State, m: Msg, now: float) -> State:
    tables = tuple(t for t in m.get("tables") or () if isinstance(t, dict))
    return s if tables == s.tables else attrs.evolve(s, tables=tables)


def _records(s: State, m: Msg, now: float) -> State:
    """The server's last deals (``list_records``), for the lobby."""
    recent = tuple(r for r in m.get("records") or () if isinstance(r, dict))
    return s if recent == s.recent else attrs.evolve(s, recent=recent)


def _my_records(s: State, m: Msg, now: float) -> State:
    """The deals this session played (``list_records`` with ``mine``), newest first."""
    return attrs.evolve(s, my_deals=tuple(r for r in m.get("records") or () if isinstance(r, dict)))


def _player_stats(s: State, m: Msg, now: float) -> State:
    """A player's statistics (``player_stats``), for the players' page (client/ui/players.py)."""
    return attrs.evolve(s, stats=tuple(p for p in m.get("players") or () if isinstance(p, dict)))


def _leaderboard(s: State, m: Msg, now: float) -> State:
    return attrs.evolve(s, board=m)


def _variants(s: State, m: Msg, now: float) -> State:
    return attrs.evolve(s, variants=tuple(v for v in m.get("variants") or () if isinstance(v, dict)))


def _table_joined(s: State, m: Msg, now: float) -> State:
    table = m.get("table")
    if not isinstance(table, dict):
        table = next((t for t in s.tables if t.get("id") == table), {"id": table, "seats": []})
    tid: Any = table.get("id")
    s = switch_log(s, tid if isinstance(tid, int) else None)
    s = seat_table(attrs.evolve(s, screen="table"), table, m.get("seat"))
    s = attrs.evolve(s, variant=str(table.get("variant", s.variant)))
    return add_log(s, "joined", table=table.get("id"), seat=m.get("seat"))


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
    s = attrs.evolve(seat_table(s, table, s.seat), tables=tables, seats_then=None)
    s = _presence(before, s)
    turn_ms = table.get("turn_ms")
    if was_away and not s.seat_info().get("away") and s.my_turn and isinstance(turn_ms, int) and turn_ms > 0:
        # Back from away on one's own turn: the server starts the turn timer afresh.
        s = attrs.evolve(s, turn_deadline=now + turn_ms / 1000.0)
    return s


def _presence(before: State, after: State) -> State:
    """Say what a table summary changed that no other event tells: a player's seat went to a
    bot (his client dropped, or his time ran out) or came back, his connection dropped or came
    back (``absent``); spectators came or went. After a resume the seats compared with are those
    before it (``State.seats_then``): the welcome's are as they are now, the events replayed
    after it as they were then."""
    then = before.seats if before.seats_then is None else before.seats_then
    old = {x.get("seat"): x for x in then}
    s = after
    recent = {(x.key, x.args.get("seat")) for x in before.log[-6:]}
    # The match's end clears every away seat (no bot plays between matches): nobody came back.
    was, now = ((x.table or {}).get("state") for x in (before, after))
    match_ended = was == "playing" and now != "playing"
    for x in after.seats:
        seat, prev = x.get("seat"), old.get(x.get("seat"))
        if prev is None or x.get("bot") or not x.get("name") or prev.get("name") != x.get("name"):
            continue
        if x.get("away") and not prev.get("away") and ("player_left", seat) not in recent:
            why = "timeout" if ("timed_out", seat) in recent else "dropped"
            s = add_log(s, "away_" + why, seat=seat)
        elif prev.get("away") and not x.get("away") and not match_ended:
            s = add_log(s, "back", seat=seat)
        elif seat == after.seat:  # (one's own drop: the client tells it as it happens)
            continue
        elif x.get("absent") and not prev.get("absent"):
            s = add_log(s, "absent", seat=seat)
        elif prev.get("absent") and not x.get("absent"):
            s = add_log(s, "back", seat=seat)
    watching, watched = (
        as_int((after.table or {}).get("spectators")),
        as_int((before.table or {}).get("spectators")),
    )
    if watching != watched:
        s = add_log(s, "spectators_more" if watching > watched else "spectators_fewer", n=watching)
    return s


def _left(s: State, m: Msg, now: float) -> State:
    """The reply to our own ``leave`` (the net layer tags it ``_left``), or the table closed:
    back to the lobby, to the lobby's log."""
    s = switch_log(s, None) if s.screen == "table" else s
    fresh = State(
        screen="lobby",
        connection=s.connection,
        server_name=s.server_name,
        session=s.session,
        last_seq=s.last_seq,
        name=s.name,
        tables=s.tables,
        recent=s.recent,
        my_deals=s.my_deals,
        variants=s.variants,
        bots=s.bots,
        log=s.log,
        logs_kept=s.logs_kept,
        chat=s.chat,
    )
    return add_log(fresh, "left_table") if m.get("t") == "_left" else fresh


def _player_joined(s: State, m: Msg, now: float) -> State:
    return add_log(s, "player_joined", seat=m.get("seat"), name=m.get("name"))


def _player_left(s: State, m: Msg, now: float) -> State:
    removed = m.get("reason") == "removed"
    if removed and m.get("seat") == s.seat and s.seat is not None:
        # The table's host took this seat away: back to the lobby. Who he is and whether a bot
        # got the seat (only during a match) are known only at the table: kept for the line.
        by = m.get("by")
        host = s.names.seat_name(by) if isinstance(by, int) else None
        tag = s.names.tag(by) if isinstance(by, int) and host and s.names.shared(host, by) else None
        to_bot = (s.table or {}).get("state") == "playing"
        s = _left(s, m, now)
        return add_log(s, "removed", name=m.get("name"), by=by, host=host, tag=tag, bot=to_bot)
    if removed and s.recapping and s.screen == "lobby" and m.get("name") == s.name and s.name:
        # Resumed into the lobby (the seat is gone), the replay tells why: the host gave it away
        # while this client was gone. (The seat is not known after a restart; the name is.)
        return add_log(s, "removed_away", name=m.get("name"))
    if s.screen == "lobby":
        return s  # a replayed line of a table this session no longer sits at
    return add_log(s, "player_left", seat=m.get("seat"), name=m.get("name"), reason=m.get("reason"))


def _seat_changed(s: State, m: Msg, now: float) -> State:
    """The table's host changed a seat (a bot in, a bot out, a player removed)."""
    return add_log(
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
        s = seat_table(s, m["table"], s.seat)
    s = attrs.evolve(s, match_started=True, match_scores=None, deal_results=(), match_over=None, result=None)
    return add_log(s, "match_started", deals=m.get("deals"))


def _match_ended(s: State, m: Msg, now: float) -> State:
    scores = as_ints(m.get("scores"))
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
    return add_log(s, "match_ended", deals=m.get("deals"), scores=scores)


def _table_closed(s: State, m: Msg, now: float) -> State:
    s = _left(s, m, now)
    return add_log(s, "table_closed", reason=m.get("reason"))


def _chat(s: State, m: Msg, now: float) -> State:
    line = ChatLine(m.get("seat"), str(m.get("name") or ""), str(m.get("text") or ""), s.names)
    s = attrs.evolve(s, chat=(s.chat + (line,))[-CHAT_KEEP:])
    if s.recapping and s.recap_seen is not None and s.last_seq > s.recap_seen:
        s = attrs.evolve(s, recap_chats=s.recap_chats + 1)
    return s


def _bye(s: State, m: Msg, now: float) -> State:
    reason = str(m.get("reason") or "")
    return add_log(attrs.evolve(s, bye=reason, connection="closed"), "bye", reason=reason)


def _error(s: State, m: Msg, now: float) -> State:
    err = {"code": m.get("code"), "msg": m.get("msg"), "fatal": bool(m.get("fatal"))}
    return add_log(attrs.evolve(s, error=err), "error", code=err["code"], msg=err["msg"])


def _connection(s: State, m: Msg, now: float) -> State:
    status = str(m.get("status"))
    outage = s.connection in ("lost", "resuming")  # the link was already down: a retry
    s = attrs.evolve(s, connection=status)
    if status == "lost" and s.recap_seen is None and s.session is not None:
        s = attrs.evolve(s, recap_seen=s.last_seq)
    if outage and status in ("lost", "resuming"):
        said = next((line.key for line in reversed(s.log) if line.key.startswith("conn_")), None)
        if status == "lost" or said == "conn_resuming":
            return s  # one outage is said once, however many tries it takes
    if status in ("lost", "resuming", "closed"):
        return add_log(s, "conn_" + status, reason=m.get("reason"))
    return s


HANDLERS = {
    "welcome": _welcome,
    "tables": _tables,
    "variants": _variants,
    "records": _records,
    "_my_records": _my_records,
    "player_stats": _player_stats,
    "leaderboard": _leaderboard,
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
}
