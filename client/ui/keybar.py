"""The key bar at the bottom: the keys that do something now, fitted to the screen's width.

``entries(c)`` lists ``Key(key, label, keep)``: first what the player may do now (only what the
server's ``legal`` allows), then the keys that always work. ``fit(entries, width, lines)`` wraps
them between entries (an entry is never split) into at most ``lines`` lines, dropping the least
needed ones (``keep`` 0, then 1) when they do not fit, so that ``? help`` and ``q`` (``keep`` 2)
are never lost.
"""

from __future__ import annotations

import attrs
from prompt_toolkit.utils import get_cwidth

from .controller import Controller

GAP = 2  # spaces between entries


@attrs.frozen
class Key:
    """One entry: the ``key`` as drawn, what it does (``label``; a key of "" is a note), and how
    much it must stay when space is short (``keep``: 2 always, 1 if possible, 0 first to go)."""

    key: str
    label: str
    keep: int = 1

    @property
    def width(self) -> int:
        return get_cwidth(self.key) + (1 if self.key and self.label else 0) + get_cwidth(self.label)


def entries(c: Controller) -> list[Key]:
    """The key bar's entries for the controller's screen and state."""
    s, t = c.state, c.t
    if c.dialog is not None:
        return dialog_entries(c)
    if c.replay is not None:
        return replay_entries(c)
    if s.screen == "lobby" and s.connection != "connected":  # nothing else can be done meanwhile
        return [Key("?", t("keys.help"), 2), Key("q", t("keys.quit"), 2)]
    if s.screen == "lobby":
        return _lobby_entries(c)
    if s.screen != "table" or s.connection != "connected":
        return [Key("?", t("keys.help"), 2), Key("q", t("keys.quit"), 2)]
    return _table_entries(c)


def _lobby_entries(c: Controller) -> list[Key]:
    s, t = c.state, c.t
    out: list[Key] = []
    if s.tables:
        out += [
            Key(t.glyph("updown"), t("keys.choose"), 0),
            Key("Enter", t("keys.join")),
            Key("v", t("keys.watch")),
        ]
    out += [Key("c", t("keys.create")), Key("r", t("keys.refresh"), 0)]
    if c.records:
        out.append(Key("p", t("keys.deals"), 0))
        out.append(Key("t", t("keys.players"), 0))
    out += [Key("?", t("keys.help"), 2), Key("q", t("keys.quit"), 2)]
    return out


def _table_entries(c: Controller) -> list[Key]:
    """At a table, connected: what may be played now, then the table's own keys."""
    s, t = c.state, c.t
    out: list[Key] = []
    legal = c.legal
    lay = legal.get("lay")
    if lay:
        lo, hi = lay.get("min"), lay.get("max")
        ranks = t.ranks(lay.get("ranks"), as_object=True)  # «положить 2 как королей»
        out.append(Key(t.glyph("leftright") + " Space", t("keys.select"), 0))
        if len(c.hand) > 1:
            out.append(Key(t.glyph("updown"), t("keys.rank"), 0))
        out.append(
            Key(
                "Enter",
                t("keys.lay1", n=lo, ranks=ranks) if lo == hi else t("keys.lay", lo=lo, hi=hi, ranks=ranks),
                2,
            )
        )
    if legal.get("challenge") is not None:
        out.append(Key("n", t("keys.challenge"), 2))
    if legal.get("believe") is not None:
        out.append(Key("y", t("keys.believe"), 2))
    if legal.get("declare_none") is not None:
        out.append(Key("0", t("keys.declare", rank=t.rank_plural(legal["declare_none"])), 2))
    out += _quads_keys(c)
    ready = c.ready_action()
    if ready:
        out.append(Key("s", t("keys." + ready), 2))
    if not out and s.playing and s.turn is not None and s.seat is not None:
        out.append(Key("", t("keys.wait", name=t.seat_name(s, s.turn)), 1))
    out.append(Key("/", t("keys.chat"), 0))
    out.append(Key("Tab", t("keys.scores"), 0))
    out.append(Key("r", t("keys.rules"), 0))
    if c.is_host():
        out.append(Key("m", t("keys.seats"), 1))
    if c.records and not s.playing and (s.table or {}).get("state") != "playing":
        out.append(Key("p", t("keys.deals"), 0))
    out.append(Key("?", t("keys.help"), 2))
    out.append(Key("q", t("keys.quit") if c.leave_quits else t("keys.leave"), 2))
    return out


def replay_entries(c: Controller) -> list[Key]:
    """The keys of a replay (client/ui/replay.py)."""
    t = c.t
    return [
        Key(t.glyph("leftright"), t("keys.replay.step"), 2),
        Key(t.glyph("updown"), t("keys.replay.reveal"), 2),
        Key("v", t("keys.replay.view"), 2),
        Key("Home End", t("keys.replay.ends"), 0),
        Key("Tab", t("keys.scores"), 0),
        Key("r", t("keys.rules"), 0),
        Key("?", t("keys.help"), 2),
        Key(
            "q", t("keys.replay.back") if c.replay is not None and c.replay.over_client else t("keys.quit"), 2
        ),
    ]


def dialog_entries(c: Controller) -> list[Key]:
    """The keys of the open dialog; first, when it covers this seat's own quads window, ``d``
    and ``k``, which it takes (``Controller.quads_over_dialog``)."""
    quads = _quads_keys(c) if c.quads_over_dialog() else []
    return quads + _dialog_keys(c)


def _quads_keys(c: Controller) -> list[Key]:
    """``d`` and ``k`` for the taker's decision (docs/RULES.md, ``verish``), where he may make it."""
    t, legal, s = c.t, c.legal, c.state
    out: list[Key] = []
    if legal.get("discard_quads"):
        out.append(Key("d", t("keys.quads"), 2))
    window = s.quads_window or {}
    if legal.get("decline_quads") and (legal.get("discard_quads") or window.get("seat") == s.seat):
        out.append(Key("k", t("keys.decline"), 2))  # docs/RULES.md, verish: go on without discarding
    return out


def _dialog_keys(c: Controller) -> list[Key]:
    t, d = c.t, c.dialog
    kind = d.kind if d is not None else ""
    ud, lr = t.glyph("updown"), t.glyph("leftright")
    if kind == "create":
        return [
            Key(ud, t("keys.dialog.field"), 2),
            Key(lr, t("keys.dialog.change"), 2),
            Key("Enter", t("keys.dialog.create"), 2),
            Key("Esc", t("keys.dialog.cancel"), 2),
        ]
    if kind == "deals":
        return [
            Key(ud, t("keys.dialog.choose"), 2),
            Key("Enter", t("keys.dialog.open"), 2),
            Key("Esc", t("keys.dialog.close"), 2),
        ]
    if kind == "players":
        return [
            Key(lr, t("keys.dialog.variant"), 1),
            Key("PgUp PgDn", t("keys.dialog.scroll"), 0),
            Key("Esc", t("keys.dialog.close"), 2),
        ]
    if kind in ("help", "rules", "scores", "record"):
        out = [Key("PgUp PgDn", t("keys.dialog.scroll"), 1), Key("Esc", t("keys.dialog.close"), 2)]
        if kind == "scores" and c.ready_action():
            out.insert(0, Key("s", t("keys." + str(c.ready_action())), 2))
        return out
    if kind in ("rank", "count"):
        return [
            Key(lr, t("keys.dialog.choose"), 2),
            Key("Enter", t("keys.dialog.confirm"), 2),
            Key("Esc", t("keys.dialog.cancel"), 2),
        ]
    if kind == "quit":
        return [Key("y", t("keys.dialog.yes"), 2), Key("n", t("keys.dialog.no"), 2)]
    if kind == "seats" and d is not None and d.data.get("confirm") is not None:
        key = str(d.data["confirm"][0])
        yes = "keys.dialog.yes_b" if key == "b" else "keys.dialog.yes_x"
        return [Key(key, t(yes), 2), Key("Esc", t("keys.dialog.no"), 2)]
    if kind == "seats":
        return [
            Key(ud, t("keys.dialog.seat"), 2),
            Key(lr, t("keys.dialog.level"), 1),
            Key("b", t("keys.dialog.bot"), 2),
            Key("x", t("keys.dialog.free"), 2),
            Key("Esc", t("keys.dialog.close"), 2),
        ]
    if kind == "confirm" and d is not None:
        return [
            Key(str(d.data.get("key")), t("keys.dialog.confirm"), 2),
            Key("Esc", t("keys.dialog.cancel"), 2),
        ]
    return [Key("Esc", t("keys.dialog.close"), 2)]


def fit(keys: list[Key], width: int, lines: int = 3) -> list[list[Key]]:
    """``keys`` in lines of at most ``width`` columns, at most ``lines`` of them: entries of
    ``keep`` 0 go first, then those of ``keep`` 1, until they fit; then the labels but those of
    ``?`` and ``q``; and if even that is too wide, ``?`` and ``q`` keep the last line."""
    for drop in (-1, 0, 1):
        kept = [k for k in keys if k.keep > drop]
        rows = _wrap(kept, width)
        if len(rows) <= lines:
            return rows
    # Still too narrow: the keys alone, but for help and quit (they explain the rest).
    bare = [k if k.key in ("?", "q") or not k.key else Key(k.key, "", k.keep) for k in kept]
    rows = _wrap(bare, width)
    if len(rows) <= lines:
        return rows
    ends = [k for k in bare if k.key in ("?", "q")]
    rows = _wrap([k for k in bare if k not in ends], width)[: lines - 1]
    return rows + _wrap(ends, width)


def _wrap(keys: list[Key], width: int) -> list[list[Key]]:
    rows: list[list[Key]] = [[]]
    used = 0
    for k in keys:
        need = k.width + (GAP if rows[-1] else 0)
        if rows[-1] and used + need > width:
            rows.append([])
            used, need = 0, k.width
        rows[-1].append(k)
        used += need
    return rows if rows[0] else []
