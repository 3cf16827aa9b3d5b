"""The terminal client's texts in one language: the catalogue's sentences by key, counted nouns,
cards, ranks and claims, variants, bot levels and people's names (client/ui/texts.py's
``Texts`` adds the log's lines). The catalogue is client/ui/strings.py; the tables of symbols
and rank names, client/ui/text_tables.py."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from neveryu import engine
from neveryu.engine.bots import level_of

from .strings import EN, RU
from .text_tables import EN_RANKS, GLYPHS, RU_RANKS, SUIT_SYMBOLS, plural_ru, to_ascii

if TYPE_CHECKING:
    from .model_state import ChatLine

LANGS = {"en": EN, "ru": RU}


class SeatNames(Protocol):
    """Who sits where: a ``model.State`` or the ``model.Names`` a log line was written with."""

    @property
    def seat(self) -> int | None: ...

    def seat_name(self, seat: int | None) -> str | None: ...

    def shared(self, name: str, seat: int) -> bool: ...

    def tag(self, seat: int) -> str | None: ...


class BaseTexts:
    """One language's texts, without the log's lines (``Texts`` adds them). ``lang``: ``"ru"``
    or ``"en"``; ``ascii``: ASCII only; ``live``: a live table, whose seat is the reader's own
    («(вы)», "Your turn!"); False for a replay, whose seat is only the view shown and after
    whose deal nothing comes."""

    def __init__(self, lang: str = "en", ascii: bool = False, live: bool = True) -> None:
        self.lang = lang if lang in LANGS else "en"
        self.table = LANGS[self.lang]
        self.ascii = ascii
        self.live = live

    def __call__(self, key: str, /, **args: Any) -> str:
        text = self.table.get(key) or EN.get(key) or key
        if args:
            text = text.format(**args)
        return self.safe(text)

    def safe(self, text: str) -> str:
        """``text`` as this terminal can show it (ASCII mode: ``to_ascii``)."""
        return to_ascii(text) if self.ascii else text

    def glyph(self, name: str) -> str:
        """A mark or line (``turn``, ``dot``, ``rule``, ...) in Unicode or ASCII."""
        return GLYPHS[name][1 if self.ascii else 0]

    def verb(self, n: int, what: str) -> str:
        """The verb ``what`` (``v.<what>`` in the strings: ``one|many``) agreeing with ``n``
        subjects, a list of names: "won", «выиграл», «выиграли»."""
        forms = self("v." + what).split("|")
        return forms[0] if n == 1 else forms[-1]

    def count(self, n: int, what: str) -> str:
        """``n`` and the noun ``what`` (``n.<what>`` in the strings: ``one|many``, in Russian
        ``one|few|many``) agreeing with it: "3 sets", «3 набора»."""
        forms = self("n." + what).split("|")
        if self.lang == "ru" and len(forms) == 3:
            return f"{n} {plural_ru(n, *forms)}"
        return f"{n} {forms[0] if n == 1 else forms[-1]}"

    def deck(self, kind: Any) -> str:
        """A deck kind of the protocol (``"36"``, ``"52"``, ``"2x36"``, ``"2x52"``) in words:
        "a 52-card deck", "two 36-card decks"."""
        text = str(kind or "")
        two, _, size = text.rpartition("x")
        if not size.isdigit():
            return self.safe(text)
        return self("deck.two" if two else "deck.one", n=size, cards=self.count(int(size), "cards"))

    # -- cards and claims -------------------------------------------------------------------

    def rank(self, rank: str) -> str:
        """A rank as printed on a card: ``2``..``10``, ``J Q K A``."""
        return "10" if rank == "T" else str(rank)

    def card(self, card: str) -> str:
        """``"QH"`` → ``Q♥`` (or ``QH`` in ASCII); ``"TS"`` → ``10♠``."""
        if not isinstance(card, str) or len(card) != 2:
            return "??"
        suit = card[1] if self.ascii else SUIT_SYMBOLS.get(card[1], card[1])
        return self.rank(card[0]) + suit

    def cards(self, cards: Iterable[str] | None) -> str:
        return " ".join(self.card(c) for c in cards or ()) or self.glyph("dash")

    def rank_plural(self, rank: str | None, as_object: bool = False) -> str:
        """«дамы» / "queens"; ``as_object``: as the object of a verb, in Russian the accusative
        («заявляйте дам», «положить как королей»; the same as the nominative for number cards)."""
        rank = str(rank)
        if self.lang == "ru":
            return self.safe(RU_RANKS.get(rank, (rank,) * 5)[4 if as_object else 3])
        return EN_RANKS.get(rank, (rank, rank))[1]

    def ranks(self, ranks: Iterable[str] | None, as_object: bool = False) -> str:
        """The ranks a claim may name: one («дамы»), or «любой ранг» when every rank may;
        ``as_object``: as the object of a verb (``rank_plural``)."""
        ranks = tuple(ranks or ())
        if len(ranks) == 1:
            return self.rank_plural(ranks[0], as_object)
        if len(ranks) >= 9:
            return self("claim.any")
        return ", ".join(self.rank_plural(r, as_object) for r in ranks)

    def claim(self, count: Any, rank: str | None) -> str:
        """«2 дамы» / "2 queens"; ``count`` None gives the rank alone."""
        rank = str(rank)
        if count is None:
            return self.rank_plural(rank)
        if self.lang == "ru":
            one, few, many, *_ = RU_RANKS.get(rank, (rank,) * 5)
            return self.safe(f"{count} {plural_ru(count, one, few, many)}")
        one, many = EN_RANKS.get(rank, (rank, rank))
        return f"{count} {one if count == 1 else many}"

    def n_cards(self, n: int, short: bool = False) -> str:
        """«12 карт» / "12 cards"; ``short``: the number alone."""
        return str(n) if short else self.count(n, "cards")

    def level(self, strength: str) -> str:
        """A bot strength as people call it: easy, normal, hard, expert (лёгкий, средний, сильный,
        мастер)."""
        key = "level." + strength
        return self(key) if key in self.table else self.safe(level_of(strength))

    def variant_name(self, name: str, long: bool = False) -> str:
        """``verish``, or with ``long`` its title: ``verish «Веришь — не веришь»`` (in English
        the title's English gloss)."""
        if not long:
            return self.safe(name)
        key = "title." + name
        if key in self.table:
            return self.safe(f"{name} {self.table[key]}")
        rules = engine.VARIANTS.get(name)
        return self.safe(f"{name} «{rules.title}»" if rules is not None else name)

    # -- people -----------------------------------------------------------------------------

    def seat_name(self, names: SeatNames, seat: Any, you: bool = True) -> str:
        """The player at ``seat`` as people read it: a name, «Бот 3», and «(вы)» for oneself."""
        if not isinstance(seat, int):
            return self.glyph("dash")
        raw = names.seat_name(seat)
        if raw is None or raw.startswith("bot:"):
            name = self("bot_n", n=seat + 1) if raw else self("seat_n", n=seat + 1)
        else:
            name = self._told_apart(names, raw, seat)
        if you and self.live and seat == names.seat:
            name = f"{name} ({self('you')})"
        return name

    def _told_apart(self, names: SeatNames, raw: str, seat: int) -> str:
        """``raw`` as shown; when another seat has the same name (the server does not make
        names unique), with the player's tag (``ann#3f2a``, docs/PLAYERS.md), or for a player
        with none (a guest) the seat's number (``ann #3``)."""
        if names.shared(raw, seat):
            tag = names.tag(seat)
            return self.safe(f"{raw}#{tag}" if tag else f"{raw} #{seat + 1}")
        return self.safe(raw)

    def speaker(self, line: ChatLine) -> str:
        """Who said a chat ``line``: his name, told apart from another player's of the same
        name as at the table (``ann#3f2a``); a spectator's marked so."""
        names = line.names
        if line.seat is not None and names.seat_name(line.seat) == line.name and line.name:
            return self.seat_name(names, line.seat, you=False)
        who = self.safe(line.name) if line.name else self.seat_name(names, line.seat)
        return self("chat.watcher", name=who) if line.seat is None else who

    def names(self, names: SeatNames, seats: Iterable[Any]) -> str:
        """Several players: "Ann, Bob and Carl" («Ann, Bob и Carl»)."""
        shown = [self.seat_name(names, s) for s in seats]
        if len(shown) <= 1:
            return "".join(shown)
        return ", ".join(shown[:-1]) + " " + self("and") + " " + shown[-1]

    # -- why only this now (client/ui/moments.py) ---------------------------------------------

    def why(self, names: SeatNames, key: str, args: dict[str, Any]) -> str:
        a = dict(args)
        if "seat" in a:
            a["name"] = self.seat_name(names, a.pop("seat"))
        if "rank" in a:  # «Заявляйте королей»: the rank is the object of the verb
            a["rank"] = self.rank_plural(a["rank"], as_object=True)
        if isinstance(a.get("n"), int):
            a["cards"] = self.count(a["n"], "cards")
        if "ranks" in a:
            a["ranks"] = ", ".join(self.rank_plural(r) for r in a["ranks"])
        if key.startswith("why.held"):
            a = {"claim": self.claim(args.get("count"), args.get("rank"))}
        if a.pop("believe", False):
            key += "_believe"
        return self(key, **a)
