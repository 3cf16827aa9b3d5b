"""The line mode's ``create``: its words read into the full-screen client's new-table form
(client/ui/create_form.py), so that both offer the same fields with the same values.

``create VARIANT [SEATS] [[N] bots] [LEVEL] [turn S] [deals N] [password PW] [quads S]
[OPTION VALUE]...``: ``bots`` alone fills every other seat with bots (``create verish 4 bots``),
``N bots`` after the seats only N of them; ``quads S`` is verish's quads window in seconds where
the server has one; each of the variant's options (``variants`` reply: ``deck 52``,
``packet_size 2``, ``declare_none on``, ``scoring chips_per_card``) takes one of its choices.
A value the form does not offer is refused with the values it does.
"""

from __future__ import annotations

from typing import Any

from neveryu.client.ui.create_form import LEVELS, CreateForm, catalog, levels

from .commands import Refusal

USAGE = "create VARIANT SEATS [bots] [LEVEL] [turn S] [deals N] [password PW] [quads S] [OPTION VALUE]"
LEVEL_WORDS = {"easy": "random", "normal": "honest", "hard": "sharp"}
FIELDS = {"turn": "turn", "deals": "deals", "quads": "quads_window"}
"""The form's own fields that ``create`` sets by a word and a number (``quads``: in seconds)."""
BOOL_WORDS = {True: ("on", "yes", "true"), False: ("off", "no", "false")}


def create_form(
    words: tuple[str, ...], variants: tuple[dict[str, Any], ...], bots: tuple[str, ...]
) -> CreateForm:
    """The form ``create``'s ``words`` fill (``variants``: the server's ``variants`` reply;
    ``bots``: ``welcome.bots``). Raises Refusal: no words, an unknown variant, word or value, a
    seat count the variant does not allow; a word it does not take is named, with the words it
    does take."""
    known = catalog(variants)
    if not words:
        raise Refusal("plain.usage", usage=USAGE)
    first = words[0].lower()
    found = [v for v in known if v == first] or [v for v in known if v.startswith(first)]
    if len(found) != 1:
        raise Refusal("plain.variant_not", word=words[0], variants=", ".join(known))
    form = CreateForm(variants=variants, strengths=bots, variant=found[0])
    rest = list(words[1:])
    count: int | None = None
    seats_given = False
    while rest:
        typed = rest.pop(0)
        w = typed.lower()
        if w.isdigit() and seats_given and rest and rest[0].lower() in ("bots", "bot"):
            count = int(w)
            rest.pop(0)
        elif w.isdigit():
            form.seats, seats_given = int(w), True
        elif w in ("bots", "bot"):
            count = -1
        elif LEVEL_WORDS.get(w, w) in levels(bots) or LEVEL_WORDS.get(w, w) in LEVELS:
            form.strength = LEVEL_WORDS.get(w, w)
        elif not _field_word(form, w):
            taken = ", ".join(_known_words(form, bots))
            raise Refusal("plain.create_word", variant=form.variant, word=typed, words=taken)
        elif not rest:
            raise Refusal("plain.create_value", word=typed, example=_example(form, w))
        elif w == "password":
            form.password = rest.pop(0)  # as typed: a password's case counts
        else:
            _set(form, w, rest.pop(0))
    lo, hi = form.entry().get("players") or (2, 12)
    if not int(lo) <= form.seats <= int(hi):
        raise Refusal("plain.seats_not", variant=form.variant, lo=lo, hi=hi, n=form.seats)
    form.bots = 0 if count is None else (form.seats - 1 if count < 0 else min(count, form.seats - 1))
    return form


def _known_words(form: CreateForm, bots: tuple[str, ...]) -> list[str]:
    """The words ``create`` takes after the variant and the seats, as the help writes them."""
    names = {strength: word for word, strength in LEVEL_WORDS.items()}
    words = ["bots", "N bots", *(names.get(x, x) for x in levels(bots)), "turn S", "deals N", "password PW"]
    if form.quads_window is not None:
        words.append("quads S")
    return words + [f"{name} {_words(form.values(name)[0], 1)[0]}" for name in form.variant_options()]


def _example(form: CreateForm, w: str) -> str:
    """The field ``w`` with a value it takes, as typed: ``turn 0``, ``password PW``."""
    if w == "password":
        return "password PW"
    name = FIELDS.get(w, w)
    values = form.values(name)
    return f"{w} {_words(values[len(values) // 2], 1000 if name == 'quads_window' else 1)[0]}"


def _field_word(form: CreateForm, w: str) -> bool:
    """``w`` names a field of ``form`` that takes a value after it."""
    if w == "quads":
        return form.quads_window is not None
    return w == "password" or w in FIELDS or w in form.variant_options()


def _set(form: CreateForm, word: str, typed: str) -> None:
    """Set the field ``word`` names to the value ``typed`` names, one the form offers; raises
    Refusal with the values it offers."""
    name = FIELDS.get(word, word)
    scale = 1000 if name == "quads_window" else 1  # typed in seconds, kept in ms
    values = form.values(name)
    value = next((v for v in values if typed.lower() in _words(v, scale)), None)
    if value is None:
        shown = ", ".join(_words(v, scale)[0] for v in values)
        raise Refusal("plain.value_not", name=word, value=typed, values=shown)
    if name in FIELDS.values():
        setattr(form, name, value)
    else:
        form.options[name] = value


def _words(value: Any, scale: int) -> tuple[str, ...]:
    """How ``value`` may be typed, the first as it is shown."""
    if isinstance(value, bool):
        return BOOL_WORDS[value]
    return (str(value // scale if isinstance(value, int) else value).lower(),)
