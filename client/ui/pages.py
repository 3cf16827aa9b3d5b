"""What the dialogs say: help, the variant's rules, the scores (and the match-over screen), the
"new table" form, the host's seats, the claim's rank or count, the question before leaving.

``dialog_text(c)`` returns formatted text for the open dialog; the screen wraps it at word
boundaries to the dialog's width and scrolls it (PgUp/PgDn, ↑↓ where nothing else uses them).
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from . import record_pages
from .controller import Controller
from .create_form import BASIC
from .moments import moment
from .players import players_text
from .rules_text import rules_text
from .standings import standings
from .status import my_quads_window
from .texts import Texts
from .wrap import hang

HELP_TABLE = (
    ("help.k.move", "help.move"),
    ("help.k.rank", "help.rank"),
    ("Home End", "help.ends"),
    ("Space", "help.select"),
    ("Enter", "help.lay"),
    ("n (т)", "help.challenge"),
    ("y (н)", "help.believe"),
    ("d (в)", "help.quads"),
    ("k (л)", "help.decline"),
    ("p (з)", "help.deals"),
    ("0", "help.none"),
    ("s (ы)", "help.ready"),
    ("/", "help.chat"),
    ("Tab", "help.scores"),
    ("r (к)", "help.rules"),
    ("m (ь)", "help.seats"),
    ("PgUp PgDn", "help.scroll_table"),
    ("?", "help.help"),
    ("q (й)", "help.leave"),
    ("Ctrl-C", "help.ctrl_c"),
    ("Esc", "help.esc"),
)
HELP_PLAY = tuple(  # neveryu play: q ends the game, Ctrl-C keeps it for next time
    (key, {"help.leave": "help.leave_play", "help.ctrl_c": "help.ctrl_c_play"}.get(what, what))
    for key, what in HELP_TABLE
)
HELP_WATCH = (  # a spectator: no hand, and Home and End scroll the log
    ("/", "help.chat"),
    ("Tab", "help.scores"),
    ("r (к)", "help.rules"),
    ("p (з)", "help.deals"),
    ("PgUp PgDn", "help.scroll"),
    ("?", "help.help"),
    ("q (й)", "help.leave_watch"),
    ("Ctrl-C", "help.ctrl_c_watch"),
    ("Esc", "help.esc"),
)
HELP_LOBBY = (
    ("help.k.choose", "help.choose"),
    ("Enter", "help.join"),
    ("v (м)", "help.watch"),
    ("c (с)", "help.create"),
    ("r (к)", "help.refresh"),
    ("p (з)", "help.deals"),
    ("t (е)", "help.players"),
    ("PgUp PgDn", "help.scroll"),
    ("q (й)", "help.quit"),
)
HELP_REPLAY = (
    ("help.k.step", "help.replay.step"),
    ("help.k.reveal", "help.replay.reveal"),
    ("Home End", "help.replay.ends"),
    ("v (м)", "help.replay.view"),
    ("Tab", "help.scores"),
    ("r (к)", "help.rules"),
    ("PgUp PgDn", "help.scroll_table"),  # Home and End go to the deal's start and end
    ("?", "help.help"),
    ("q (й)", "help.replay.quit"),
)
HELP_REPLAY_OVER_CLIENT = tuple(  # a deal opened with p: q goes back to the client's screen
    (key, "help.replay.back" if what == "help.replay.quit" else what) for key, what in HELP_REPLAY
)
KEY_COLUMN = 12


def dialog_text(c: Controller) -> StyleAndTextTuples:
    """The open dialog's text (empty when none is open); first, when it covers this seat's own
    quads window, that window, its countdown and its keys."""
    if c.quads_over_dialog():
        return [*_quads_banner(c), *dialog_page(c)]
    return dialog_page(c)


def _quads_banner(c: Controller) -> StyleAndTextTuples:
    """docs/RULES.md, ``verish``: the taker's quads window, over a dialog that hides the table."""
    s, t = c.state, c.t
    out: StyleAndTextTuples = [*my_quads_window(s, t, c.clock(), s.quads_window or {}), ("", "\n")]
    why = moment(s)
    if why is not None:
        out.append(("class:notice.why", t.why(s, *why) + "\n"))
    return [*out, ("", "\n")]


def dialog_page(c: Controller) -> StyleAndTextTuples:
    """The open dialog's own text, without the quads window's banner (the line mode says that
    window in its own lines)."""
    d = c.dialog
    if d is None:
        return []
    t = c.t
    if d.kind == "help":
        return _help(c)
    if d.kind == "rules":
        return _rules(c)
    if d.kind == "scores":
        return _scores(c)
    if d.kind == "players":
        return players_text(c)
    if d.kind == "create":
        return _create(c)
    if d.kind == "seats":
        return _seats(c)
    if d.kind == "deals":
        return record_pages.deals_text(t, c.state.my_deals, d.index)
    if d.kind == "record":
        return record_pages.record_text(t, d.data["doc"], d.data.get("note"))
    if d.kind == "quit":
        key = ("ask.quit_play" if c.leave_quits else "ask.quit") if c.playing() else "ask.quit_app"
        return [("", t(key))]
    if d.kind in ("rank", "count"):
        out: StyleAndTextTuples = [("", t("ask." + d.kind) + "\n\n")]
        for i, option in enumerate(d.options):
            label = t.rank(option) if d.kind == "rank" else str(option)
            out.append(
                ("class:cursor" if i == d.index else "", f"[{label}]" if i == d.index else f" {label} ")
            )
        chosen = d.options[d.index]
        cards = len(d.data.get("cards") or ())
        claim = t.claim(cards, chosen) if d.kind == "rank" else t.claim(chosen, d.data.get("rank"))
        out.append(
            (
                "bold",
                f"\n\n{t.glyph('arrow')} " + t("ask.claim", claim=claim, cards=t.cards(d.data.get("cards"))),
            )
        )
        return out
    return []


def _keys(t: Texts, rows: tuple[tuple[str, str], ...]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for key, what in rows:
        label = t(key) if key.startswith("help.") else key
        out.append(hang(KEY_COLUMN))
        out.append(("class:key", label))
        out.append(("", " " * max(1, KEY_COLUMN - len(label)) + t(what) + "\n"))
    return out


def _help(c: Controller) -> StyleAndTextTuples:
    t, s = c.t, c.state
    out: StyleAndTextTuples = []
    if c.replay is not None:
        out += _keys(t, HELP_REPLAY_OVER_CLIENT if c.replay.over_client else HELP_REPLAY)
        out.append(("", "\n" + t("help.replay") + "\n\n"))
        return out + _rules(c)
    if s.screen == "table":
        out += _keys(t, HELP_WATCH if s.seat is None else HELP_PLAY if c.leave_quits else HELP_TABLE)
        out.append(("", "\n" + t("help.bar") + "\n"))
        rules = _rules(c)
        if rules:
            out.append(("", "\n"))
            out += rules
    else:
        out += _keys(t, HELP_LOBBY)
        out.append(("", "\n" + t("help.variants") + "\n"))
        for name in _variant_names(c):
            out.append(("class:rule.title", t.variant_name(name, long=True)))
            out.append(("", f" {t.glyph('dash')} " + t("variant." + name) + "\n"))
    out.append(("class:dim", "\n" + t("help.options")))
    return out


def _variant_names(c: Controller) -> list[str]:
    from .create_form import catalog

    return list(catalog(c.state.variants))


def _rules(c: Controller) -> StyleAndTextTuples:
    t, s = c.t, c.state
    variant = str((s.table or {}).get("variant") or s.variant or "")
    text = rules_text(variant, t.lang)
    if not text:
        return [("", t("rules.none"))]
    title, _, body = text.partition("\n")
    return [("class:rule.title", t.safe(title) + "\n"), ("", t.safe(body) + "\n")]


def _scores(c: Controller) -> StyleAndTextTuples:
    t, s = c.t, c.state
    board = standings(s)
    if board is None:
        return [("", t("scores.none"))]
    out: StyleAndTextTuples = []
    names = board.names
    if board.over:
        out.append(
            (
                "class:rule.title",
                t("scores.over", played=t.count(board.deals, "deals")) + "\n",
            )
        )
        if board.first:
            out.append(
                (
                    "class:good",
                    t(
                        "scores.winner." + board.scoring,
                        names=t.names(names, board.first),
                        won=t.verb(len(board.first), "won"),
                    )
                    + "\n",
                )
            )
        if board.last and board.scoring == "losses":
            out.append(
                (
                    "class:warn",
                    t("scores.loser", names=t.names(names, board.last), lost=t.verb(len(board.last), "lost"))
                    + "\n",
                )
            )
    else:
        total = f"{board.deals}/{board.total}" if board.total else str(board.deals)
        out.append(("class:rule.title", t("scores.during", deal=total) + "\n"))
    out.append(("class:dim", t("scoring." + board.scoring) + "\n\n"))
    width = max([len(t.seat_name(names, r.seat)) for r in board.rows] + [8])
    for r in board.rows:
        name = t.seat_name(names, r.seat)
        score = (
            t("scores.won", n=r.won) if r.score is None else t("scores.points." + board.scoring, n=r.score)
        )
        lost = t("scores.lost", n=r.lost) if board.scoring != "none" and board.seen else ""
        style = "class:mine" if r.seat == names.seat else ""
        out.append((style, f"{r.place:>2}. {name:<{width}}  {score}"))
        out.append(("class:dim", (f"  {lost}" if lost and board.scoring != "losses" else "") + "\n"))
    if board.scoring == "none" and board.seen < board.deals:
        out.append(("class:dim", "\n" + t("scores.seen", n=board.seen, deals=board.deals) + "\n"))
    if board.over:
        key = "scores.again_play" if c.leave_quits else "scores.again"
        out.append(("", "\n" + t(key)))
    return out


def _create(c: Controller) -> StyleAndTextTuples:
    t, f = c.t, c.form
    out: StyleAndTextTuples = []
    fields = f.fields()
    for i, name in enumerate(fields):
        here = i == min(f.field, len(fields) - 1)
        label = t("form." + name) if name in BASIC or ("form." + name) in t.table else name
        value = _form_value(t, f, name)
        mark = t.glyph("turn") if here else " "
        arrows = "< {} >" if here and name != "password" else "{}"
        out.append(("class:cursor" if here else "", f"{mark} {label:<15} " + arrows.format(value)))
        out.append(("", "\n"))
    current = fields[min(f.field, len(fields) - 1)]
    out.append(("", "\n"))
    people = t(
        "form.people", friends=t.count(f.people() - 1, "friends"), bots=t.count(f.bots, "bots"), seats=f.seats
    )
    out.append(("class:rule.title", people + "\n"))
    out.append(("class:dim", _explain(t, f, current)))
    return out


def _form_value(t: Texts, f: Any, name: str) -> str:
    v = f.value(name)
    if name == "variant":
        return t.variant_name(str(v), long=True)
    if name == "strength":
        return t.level(str(v))
    if name == "turn":
        return t("form.turn.off") if not v else t("form.seconds", n=v)
    if name == "quads_window":  # docs/RULES.md, verish: untimed turns, an untimed window
        if not v:
            return t("form.turn.off")
        return t("form.seconds", n=f"{v / 1000:g}") if f.turn else t("form.quads_window.wait")
    if name == "password":
        return t.safe(v) + "_" if v else t("form.password.none")
    if name == "bots":
        return str(v)
    key = f"form.{name}.{v}".lower()
    return t(key) if key in t.table else str(v)


def _explain(t: Texts, f: Any, name: str) -> str:
    if name == "variant":
        return t("variant." + f.variant)
    if name == "strength":
        return t("level." + f.strength + ".about") if ("level." + f.strength + ".about") in t.table else ""
    key = "form." + name + ".about"
    return t(key) if key in t.table else ""


def _seats(c: Controller) -> StyleAndTextTuples:
    t, s = c.t, c.state
    d = c.dialog
    assert d is not None
    out: StyleAndTextTuples = [("", t("seats.intro") + "\n\n")]
    for i, seat in enumerate(d.options):
        info = s.seat_info(seat)
        if info.get("bot"):
            what = t("seats.bot", level=t.level(str(info["bot"])))
        elif info.get("name"):
            what = t("seat.away") if info.get("away") else t("seats.player")
        else:
            what = t("seat.empty")
        mark = t.glyph("turn") if i == d.index else " "
        out.append(
            (
                "class:cursor" if i == d.index else "",
                f"{mark} {seat + 1:>2}. {t.seat_name(s, seat):<18} {what}",
            )
        )
        out.append(("", "\n"))
    out.append(("", "\n" + t("seats.level", level=t.level(str(d.data.get("strength"))))))
    asked = d.data.get("confirm")
    if asked is not None:
        key, seat = asked
        level = t.level(str(d.data.get("strength")))
        name = t.seat_name(s, seat)
        ask = "seats.ask_bot" if key == "b" else "seats.ask_free"
        question = t(ask, seat=seat + 1, name=name, level=level)
        out.append(("class:warn", "\n\n" + question))
    return out
