"""The line mode's questions, answered in sentences from what the client knows (the model's
``State``; nothing here asks the server): ``legal`` (what you may do now, each with the command
that does it), ``hand``, ``pile``, ``who``, ``last``, ``time``, ``tables``, and the full-screen
client's pages as lines (``rules``, ``scores``, the players' page, one's deals, ``help``).

Each function takes the controller (client/plain/actions.py) and returns the lines to print.
"""

from __future__ import annotations

from neveryu.client.ui import pages, players, record_pages
from neveryu.client.ui.controller_base import Dialog
from neveryu.client.ui.rules_text import rules_text
from neveryu.client.ui.standings import standings
from neveryu.client.ui.status import seconds_left

from .actions import PlainController
from .commands import HELP
from .words import page_lines, speakable

CLAIM_KEYS = ("set_laid", "none_declared")
LAST_CLAIMS = 3


def options(c: PlainController) -> list[str]:
    """What the seat may do now, each "what (command)", in the order of the full-screen key bar."""
    s, t = c.state, c.t
    legal = c.legal
    out: list[tuple[str, str]] = []
    lay = legal.get("lay")
    if lay:
        lo, hi = lay.get("min"), lay.get("max")
        ranks = t.ranks(lay.get("ranks"), as_object=True)  # «положить 2 как королей»
        label = t("keys.lay1", n=lo, ranks=ranks) if lo == hi else t("keys.lay", lo=lo, hi=hi, ranks=ranks)
        out.append((label, "lay"))
    if legal.get("challenge") is not None:
        out.append((t("keys.challenge"), "no"))
    if legal.get("believe") is not None:
        out.append((t("keys.believe"), "yes"))
    if legal.get("declare_none") is not None:
        out.append((t("keys.declare", rank=t.rank_plural(legal["declare_none"])), "none"))
    if legal.get("discard_quads"):
        out.append((t("keys.quads"), "quads"))
    window = s.quads_window or {}
    if legal.get("decline_quads") and (legal.get("discard_quads") or window.get("seat") == s.seat):
        out.append((t("keys.decline"), "keep"))
    ready = c.ready_action()
    if ready:
        out.append((t("keys." + ready), "ready"))
    return [t("plain.option", label=label, command=command) for label, command in out]


def legal_line(c: PlainController) -> str:
    """``legal``: "You may: lay 1 to 3 as queens (lay); «Не верю» (no)." or why nothing."""
    s, t = c.state, c.t
    found = options(c)
    if found:
        return say(c, t("plain.may", options="; ".join(found)))
    if s.playing and s.turn is not None and s.seat is not None and not s.my_turn:
        return say(c, t("plain.may_wait", name=t.seat_name(s, s.turn)))
    return say(c, t("plain.may_nothing"))


def turn_line(c: PlainController, window: bool) -> str:
    """The announcement of one's turn (or one's quads window): once, with why only this (when
    not plain: client/ui/moments.py) and what may be done."""
    from neveryu.client.ui.moments import moment

    t = c.t
    parts = [t("plain.window") if window else t("plain.turn")]
    why = moment(c.state)
    if why is not None:
        parts.append(t.why(c.state, *why))
    parts.append(legal_line(c))
    return say(c, " ".join(parts))


def hand_lines(c: PlainController) -> list[str]:
    s, t = c.state, c.t
    if s.seat is None or s.hand is None:
        return [say(c, c._no_hand())]
    hand = c.hand
    lines = [t("plain.hand", count=t.n_cards(len(hand)), cards=t.cards(hand))]
    if s.held:
        lines.append(t("plain.hand_held", cards=t.cards(s.held.get("cards"))))
    return [say(c, x) for x in lines]


def pile_lines(c: PlainController) -> list[str]:
    s, t = c.state, c.t
    if not s.playing and not s.in_deal:
        return [say(c, t("no.deal"))]
    parts = []
    if s.pile is not None:
        parts.append(t("plain.pile", count=t.n_cards(s.pile)) if s.pile else t("plain.no_pile"))
    elif s.pile_claimed:
        parts.append(t("plain.pile_claimed", count=t.n_cards(s.pile_claimed)))
    else:
        parts.append(t("plain.pile_hidden") if s.last is not None else t("plain.no_pile"))
    if s.discard:
        parts.append(t("plain.discard", count=t.n_cards(s.discard)))
    if s.stock:
        parts.append(t("plain.stock", count=t.n_cards(s.stock)))
    return [say(c, " ".join(parts))]


def who_lines(c: PlainController) -> list[str]:
    """Each seat: its player, cards, whose turn, the dealer, away or absent, out, free, ready."""
    s, t = c.state, c.t
    if s.screen != "table":
        return [say(c, t("plain.no_table"))]
    lines = []
    counts = s.hand_counts
    for x in s.seats:
        seat = x.get("seat")
        what = []
        if not x.get("name") and not x.get("bot"):
            what.append(t("plain.seat_free"))
        if x.get("bot"):
            what.append(t("plain.seat_bot", level=t.level(str(x["bot"]))))
        if s.in_deal and counts is not None and isinstance(seat, int) and seat < len(counts):
            what.append(t.n_cards(counts[seat]))
        if s.playing and seat == s.turn:
            what.append(t("plain.seat_turn"))
        if s.in_deal and seat == s.dealer:
            what.append(t("plain.seat_dealer"))
        if seat in s.out:
            what.append(t("plain.seat_out", place=s.out.index(seat) + 1))
        if x.get("away"):
            what.append(t("plain.seat_away"))
        elif x.get("absent"):
            what.append(t("plain.seat_absent"))
        if not s.playing and x.get("ready") and not x.get("bot"):
            what.append(t("plain.seat_ready"))
        name = t.seat_name(s, seat)
        lines.append((t("plain.seat", name=name, what=", ".join(what)) if what else name) + ".")
    watching = (s.table or {}).get("spectators")
    if isinstance(watching, int) and watching > 0:
        lines.append(t("plain.watchers", watchers=t.count(watching, "watchers")))
    return [say(c, x) for x in lines]


def last_lines(c: PlainController) -> list[str]:
    """The last claims of this deal, as the log said them."""
    s = c.state
    claims = []
    for line in reversed(s.log):
        if line.key == "deal_started":
            break
        if line.key in CLAIM_KEYS:
            claims.append(line)
            if len(claims) == LAST_CLAIMS:
                break
    if not claims:
        return [say(c, c.t("plain.no_claims"))]
    return [say(c, c.t.log_line(s, line)) for line in reversed(claims)]


def time_line(c: PlainController, now: float) -> str:
    s, t = c.state, c.t
    if not s.playing:
        return say(c, t("no.deal"))
    window = s.quads_window or {}
    left = seconds_left(window.get("deadline"), now) if window else None
    if left is None:
        left = seconds_left(s.turn_deadline, now)
    if left is None:
        return say(c, t("plain.untimed"))
    text = t("plain.time_left", time=t.count(left, "seconds"))
    if s.turn is not None and not s.my_turn:
        text += " " + t("turn", name=t.seat_name(s, s.turn)) + "."
    return say(c, text)


def tables_lines(c: PlainController) -> list[str]:
    """The lobby's tables, then the server's last deals."""
    s, t = c.state, c.t
    lines = []
    for table in s.tables:
        seats = [x for x in table.get("seats") or () if isinstance(x, dict)]
        taken = sum(1 for x in seats if x.get("name") or x.get("bot"))
        state = t("state." + str(table.get("state", "waiting")))
        if table.get("password"):
            state += ", " + t("plain.table_password")
        names = ", ".join(record_pages.seat_label(t, x) for x in seats)
        lines.append(
            t(
                "plain.table_row",
                id=table.get("id"),
                variant=table.get("variant"),
                taken=taken,
                seats=len(seats),
                state=state,
                players=names,
            )
        )
    if not lines:
        lines.append(t("plain.tables_none"))
    if s.recent:
        lines.append(t("plain.recent"))  # each as in the full-screen lobby: id, variant, time, result
        lines += [recent_line(c, r) for r in s.recent]
    return [say(c, x) for x in lines]


def recent_line(c: PlainController, r: dict[str, object]) -> str:
    """A deal of a ``records`` list in a sentence: its id, variant, when it ended, its result,
    who played (as the full-screen lobby's line)."""
    t = c.t
    when, result, players = record_pages.summary_parts(t, r)
    result = result or t("plain.no_result")
    return t(
        "plain.recent_row",
        id=r.get("id"),
        variant=r.get("variant"),
        when=when,
        result=result,
        players=players,
    )


def history_lines(c: PlainController) -> list[str]:
    """The deals this session played (``history``), newest first, and how to replay one."""
    t, deals = c.t, c.state.my_deals or ()
    if not deals:
        return [say(c, t("deals.none"))]
    lines = [recent_line(c, r) for r in deals]
    return [say(c, x) for x in [*lines, t("plain.history_hint")]]


def page(c: PlainController, kind: str, **data: object) -> list[str]:
    """A full-screen page (``rules``, ``scores``, ``players``, ``deals``, ``record``) as lines."""
    before = c.dialog
    c.dialog = Dialog(kind, data=dict(data))
    try:
        fragments = pages.dialog_page(c)
    finally:
        c.dialog = before
    return page_lines(fragments, c.t.lang)


def match_over_lines(c: PlainController) -> list[str]:
    """The scores page at a match's end, said after the log's "The match is over" line: without
    its own title saying it again, and with the typed commands that go on (``ready``, ``quit``)
    in place of the full-screen keys."""
    t = c.t
    board = standings(c.state)
    title = say(c, t("scores.over", played=t.count(board.deals, "deals"))) if board else None
    again = {speakable(t(key), t.lang) for key in ("scores.again", "scores.again_play")}
    lines = [x for x in page(c, "scores") if x != title and x not in again]
    return [*lines, say(c, t("plain.again_play" if c.leave_quits else "plain.again"))]


def rules_lines(c: PlainController) -> list[str]:
    s = c.state
    variant = str((s.table or {}).get("variant") or s.variant or "")
    if not rules_text(variant, c.t.lang):
        return [say(c, c.t("rules.none"))]
    return page(c, "rules")


def stats_lines(c: PlainController) -> list[str]:
    """The players ``stats`` asked for, each variant he played."""
    t, out = c.t, []
    for p in c.state.stats:
        for v in p.get("variants") or ():
            out += page_lines(players._mine(t, p, str(v.get("variant"))), t.lang)
        if not p.get("variants"):
            out += page_lines(players._mine(t, p, ""), t.lang)
    return out or [say(c, t("players.you.none"))]


def help_lines(c: PlainController) -> list[str]:
    t = c.t
    return [say(c, t("plain.help"))] + [say(c, t("plain.help." + name)) for name in HELP]


def say(c: PlainController, text: str) -> str:
    return speakable(text, c.t.lang)
