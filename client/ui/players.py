"""The players' page of the lobby (``t``): a variant's leaderboard and your own statistics, from
the server's records (docs/PROTOCOL.md, "Players, statistics and ratings").

``open_players(c)`` opens the page (a dialog of kind ``players``) and asks the server for your
statistics (``player_stats``) and the variant's leaderboard (``leaderboard``): the variant of
the table under the lobby's cursor, else the first the server offers; ←→ (``switch_variant``)
show another variant. The replies land in the model (``State.stats``, ``State.board``);
``players_text(c)`` draws the page from them. Ratings are shown as the server sends them:
``mu ± 2·sigma``, in rating points.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .controller import Controller
from .controller_base import Dialog
from .texts import Texts

LIMIT = 10  # players on the page's leaderboard


def _variants(c: Controller) -> list[str]:
    names = [str(v.get("name")) for v in c.state.variants if v.get("name")]
    return names or ["verish"]


def open_players(c: Controller) -> None:
    """``t`` in the lobby: the page, for the variant of the table under the cursor."""
    if not c.records:
        c.say(c.t("players.off"))
        return
    tables = c.state.tables
    here = tables[c.lobby_cursor].get("variant") if 0 <= c.lobby_cursor < len(tables) else None
    variants = _variants(c)
    variant = here if here in variants else variants[0]
    c.dialog = Dialog("players", data={"variant": variant})
    c.dialog_scroll.top = 0
    c.send({"t": "player_stats"})
    c.send({"t": "leaderboard", "variant": variant, "limit": LIMIT})


def switch_variant(c: Controller, step: int) -> None:
    """←→ on the page: the next or previous variant's leaderboard."""
    d = c.dialog
    if d is None or d.kind != "players":
        return
    variants = _variants(c)
    now = d.data.get("variant")
    i = variants.index(now) if now in variants else 0
    d.data["variant"] = variants[(i + step) % len(variants)]
    c.dialog_scroll.top = 0
    c.send({"t": "leaderboard", "variant": d.data["variant"], "limit": LIMIT})
    c.invalidate()


def points(hundredths: Any) -> str:
    """A rating's value as sent (hundredths of a point), in points: ``2954`` → ``29.5``."""
    return f"{hundredths / 100:.1f}" if isinstance(hundredths, int) else "?"


def rating_text(r: dict[str, Any]) -> str:
    """``29.5 ± 4.7``: mu and the half-width of the interval shown."""
    high, mu = r.get("high"), r.get("mu")
    half = high - mu if isinstance(high, int) and isinstance(mu, int) else None
    return f"{points(mu)} ± {points(half)}"


def player_label(t: Texts, p: dict[str, Any]) -> str:
    """``ann#3f2a``, ``Bot (hard)``, ``bob (guest)``."""
    name = t.safe(str(p.get("name") or "?"))
    if p.get("kind") == "bot":
        return t("players.bot", level=t.level(name))
    if p.get("kind") == "guest":
        return t("players.guest", name=name)
    return f"{name}#{p.get('tag')}" if p.get("tag") else name


def players_text(c: Controller) -> StyleAndTextTuples:
    """The page: the variant's leaderboard, then your statistics in it."""
    t, s, d = c.t, c.state, c.dialog
    variant = str((d.data if d is not None else {}).get("variant") or "")
    out: StyleAndTextTuples = [
        ("class:rule.title", t("players.board", variant=t.variant_name(variant)) + "\n")
    ]
    board = s.board if s.board is not None and s.board.get("variant") == variant else None
    me = next((p for p in s.stats if p.get("player", {}).get("kind") != "bot"), None)
    my_id = (me or {}).get("player", {}).get("id")
    if board is None:
        out.append(("class:dim", t("players.asking") + "\n"))
    elif not board.get("players"):
        out.append(("class:dim", t("players.nobody") + "\n"))
    else:
        rows = [x for x in board["players"] if isinstance(x, dict)]
        labels = [player_label(t, x.get("player") or {}) for x in rows]
        width = max(len(label) for label in labels)
        for x, label in zip(rows, labels):
            r = x.get("rating") or {}
            deals = t("players.deals", n=r.get("deals"))
            shown = f"{points(r.get('low')):>5} ({rating_text(r)})"  # ranked by the first: the low end
            line = f"{r.get('rank', '?')!s:>3}. {label:<{width}}  {shown:>19}  {deals}"
            style = "class:mine" if (x.get("player") or {}).get("id") == my_id else ""
            out.append((style, line + "\n"))
        if board.get("total", 0) > len(rows):
            out.append(("class:dim", t("players.more", n=board["total"] - len(rows)) + "\n"))
        out.append(("class:dim", t("players.order") + "\n"))
    out.append(("", "\n"))
    out += _mine(t, me, variant)
    return out


def _mine(t: Texts, me: dict[str, Any] | None, variant: str) -> StyleAndTextTuples:
    """Your statistics in ``variant``."""
    if me is None:
        return [("class:dim", t("players.you.none") + "\n")]
    out: StyleAndTextTuples = [
        ("class:rule.title", t("players.you", name=player_label(t, me["player"])) + "\n")
    ]
    v = next((x for x in me.get("variants") or () if x.get("variant") == variant), None)
    if v is None:
        return out + [("class:dim", t("players.you.not_here") + "\n")]
    r = v.get("rating")
    if r:
        rank = t("players.rank", rank=r["rank"]) if r.get("rank") else ""
        out.append(("", t("players.rating", rating=rating_text(r)) + rank + "\n"))
    seats = v.get("seats") or 0
    result = (
        t("players.lost", n=v.get("lost"), of=seats)
        if v.get("lost")
        else t("players.won", n=v.get("won"), of=seats)
    )
    out.append(("", t("players.deals", n=v.get("deals")) + f", {result}\n"))
    sets, bluffs, caught = v.get("sets") or 0, v.get("bluffs") or 0, v.get("bluffs_caught") or 0
    out.append(
        ("", t("players.bluffs", sets=sets, bluffs=bluffs, caught=caught, survived=bluffs - caught) + "\n")
    )
    calls = t("players.calls", challenges=v.get("challenges"), right=v.get("challenges_right"))
    if v.get("believes"):
        calls += ", " + t("players.believes", believes=v.get("believes"), right=v.get("believes_right"))
    out.append(("", calls + "\n"))
    actions, ms = v.get("actions") or 0, v.get("action_ms") or 0
    seconds = f"{ms / actions / 1000:.1f}" if actions else "-"
    out.append(("", t("players.play", cards=v.get("cards_taken"), seconds=seconds) + "\n"))
    return out
