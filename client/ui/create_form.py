"""The lobby's "new table" form: what it offers, its defaults, and the ``create_table`` it sends.

Friends first: a table is made for people, with a bot or two to fill in. The defaults are 4
seats, 1 of them a ``sharp`` ("hard") bot, 60 s a turn and 5 deals a match; the host sees in
words what that means ("4 seats: you, 2 friends and 1 bot"). The form offers the variant, the
seats, the bots and their level, the turn time, the deals of a match, a table password, the
variant's options (``variants`` reply, docs/PROTOCOL.md section 5) and, where the server knows
it, the quads window of ``verish`` (docs/RULES.md, verish: a ``variants`` entry with a
``quads_window_ms`` default says the server takes the ``create_table`` field of that name).

The form knows values, not words: texts.py labels and explains each field (``form.<name>``).
"""

from __future__ import annotations

from typing import Any

import attrs

from neveryu import engine
from neveryu.engine import bots

LEVELS = tuple(bots.LEVELS.values())  # the bot strengths, easiest first (texts: their levels)
DEFAULT_LEVEL = bots.LEVELS["hard"]
TURN_S = (0, 15, 30, 45, 60, 90, 120, 180)  # 0: untimed
DEALS = (1, 3, 5, 7, 10)
QUADS_WINDOW_MS = (0, 5000, 10000, 20000, 30000)  # 0: off; at an untimed table: until decided
PASSWORD_MAX = 64
BASIC = ("variant", "seats", "bots", "strength", "turn", "deals", "password", "quads_window")


def levels(offered: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The strengths a server offers (``welcome.bots``, default first), easiest first; ones
    this client does not know go last. Without the server's list, ``LEVELS``."""
    known = [x for x in LEVELS if x in offered] if offered else list(LEVELS)
    return tuple(known + [x for x in offered if x not in LEVELS])


def catalog(variants: tuple[dict[str, Any], ...]) -> dict[str, dict[str, Any]]:
    """The variants a table may have, by name: the server's ``variants`` reply if it came, else
    the engine's own (same shape: ``name``, ``title``, ``players``, ``options``)."""
    if variants:
        return {str(v["name"]): v for v in variants if isinstance(v, dict) and v.get("name")}
    out: dict[str, dict[str, Any]] = {}
    for rules in engine.VARIANTS.values():
        options: dict[str, Any] = {}
        for name in rules.options:
            default = getattr(rules, name)
            if name == "deck":
                choices: list[Any] = ["auto", *rules.deck_choices]
            elif name == "scoring":
                choices = list(rules.scoring_choices) or [default]
            elif isinstance(default, bool):
                choices = [False, True]
            elif name == "packet_size":
                choices = [3, 2]
            else:
                choices = [default]
            options[name] = {"default": "auto" if name == "deck" else default, "choices": choices}
        out[rules.name] = {
            "name": rules.name,
            "title": rules.title,
            "players": list(rules.players),
            "options": options,
        }
    return out


@attrs.define
class CreateForm:
    """The form's values; ``field`` is the line being changed. ``variants``: the server's
    ``variants`` reply entries (empty: the engine's); ``strengths``: ``welcome.bots``."""

    variants: tuple[dict[str, Any], ...] = ()
    strengths: tuple[str, ...] = ()
    variant: str = engine.DEFAULT_VARIANT
    seats: int = 4
    bots: int = 1
    strength: str = DEFAULT_LEVEL
    turn: int = 60
    deals: int = 5
    password: str = ""
    quads_window: int | None = None
    options: dict[str, Any] = attrs.field(factory=dict)
    field: int = 0

    def __attrs_post_init__(self) -> None:
        self.set_variant(self.variant if self.variant in self.catalog() else next(iter(self.catalog())))
        offered = levels(self.strengths)
        if self.strength not in offered:
            self.strength = DEFAULT_LEVEL if DEFAULT_LEVEL in offered else offered[0]

    def catalog(self) -> dict[str, dict[str, Any]]:
        return catalog(self.variants)

    def entry(self) -> dict[str, Any]:
        return self.catalog()[self.variant]

    def variant_options(self) -> dict[str, dict[str, Any]]:
        opts = self.entry().get("options")
        return {str(k): v for k, v in opts.items() if isinstance(v, dict)} if isinstance(opts, dict) else {}

    def fields(self) -> list[str]:
        """The lines of the form, top to bottom."""
        names = ["variant", "seats", "bots"]
        if self.bots:
            names.append("strength")
        names += ["turn", "deals", "password"]
        if self.quads_window is not None:
            names.append("quads_window")
        return names + list(self.variant_options())

    @property
    def current(self) -> str:
        fields = self.fields()
        return fields[min(self.field, len(fields) - 1)]

    def values(self, name: str) -> tuple[Any, ...]:
        """The values a field may take, in the order ←→ go through them."""
        if name == "variant":
            return tuple(self.catalog())
        if name == "seats":
            lo, hi = self.entry().get("players") or (2, 12)
            return tuple(range(int(lo), int(hi) + 1))
        if name == "bots":
            return tuple(range(self.seats))
        if name == "strength":
            return levels(self.strengths)
        if name == "turn":
            return TURN_S
        if name == "deals":
            return DEALS
        if name == "quads_window":
            return QUADS_WINDOW_MS
        if name == "password":
            return ()
        return tuple(self.variant_options().get(name, {}).get("choices") or ())

    def value(self, name: str) -> Any:
        if name in BASIC:
            return getattr(self, name)
        option = self.variant_options().get(name, {})
        return self.options.get(name, option.get("default"))

    def move(self, step: int) -> None:
        """↑↓: the next line of the form."""
        self.field = (self.field + step) % len(self.fields())

    def change(self, step: int) -> None:
        """←→: the field's next value (cycling)."""
        name = self.current
        values = self.values(name)
        if not values:
            return
        now = self.value(name)
        new = values[((values.index(now) if now in values else 0) + step) % len(values)]
        if name == "variant":
            self.set_variant(new)
        elif name == "seats":
            self.seats = new
            self.bots = min(self.bots, new - 1)
        elif name in BASIC:
            setattr(self, name, new)
        else:
            self.options[name] = new

    def set_variant(self, name: str) -> None:
        self.variant = name
        self.options = {}
        lo, hi = self.entry().get("players") or (2, 12)
        self.seats = min(max(self.seats, int(lo)), int(hi))
        self.bots = min(self.bots, self.seats - 1)
        window = self.entry().get("quads_window_ms")
        self.quads_window = window if isinstance(window, int) and not isinstance(window, bool) else None

    def type(self, text: str) -> bool:
        """Typed characters go to the password line; True when taken."""
        if self.current != "password":
            return False
        self.password = (self.password + "".join(ch for ch in text if ch.isprintable()))[:PASSWORD_MAX]
        return True

    def backspace(self) -> bool:
        if self.current != "password":
            return False
        self.password = self.password[:-1]
        return True

    def people(self) -> int:
        """Seats for people, the host's own included."""
        return self.seats - self.bots

    def request(self) -> dict[str, Any]:
        """The ``create_table`` request (docs/PROTOCOL.md, create_table)."""
        options = {k: v for k, v in self.options.items() if not (k == "deck" and v == "auto")}
        request: dict[str, Any] = {
            "t": "create_table",
            "variant": self.variant,
            "options": options,
            "seats": self.seats,
            "bots": [self.strength] * self.bots,
            "turn_ms": self.turn * 1000,
            "deals": self.deals,
        }
        if self.password:
            request["password"] = self.password
        if self.quads_window is not None:
            request["quads_window_ms"] = self.quads_window
        return request
