"""Russian and English texts of the terminal client, and how cards, claims and names read.

``Texts(lang, ascii)`` holds one language (the strings are in client/ui/strings.py). In
``ascii`` mode (a terminal that cannot show ♠♥♦♣: client/terminal.py) every text that reaches
the screen is made ASCII: cards read ``QS``, ``10H``, marks and lines become ``> | -``, Cyrillic
(names, chat) is transliterated, anything else unprintable becomes ``?``. The words are docs/RULES.md's
vocabulary (hand, set, claim, pile, challenge, believe, discard, quad, out, deal) in its Russian
column.

Log lines (``model.Line``) are read with the names they were written with: a line never changes
its names when seats change afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from neveryu import engine
from neveryu.engine.bots import level_of

from .strings import EN, RU

if TYPE_CHECKING:
    from .model_state import ChatLine

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
LANGS = {"en": EN, "ru": RU}

# rank -> (one, few, many, plural nominative, plural accusative): «1 дама», «2 дамы», «5 дам»,
# «дамы», «заявляйте дам». The picture cards and the ace are animate nouns, whose accusative plural
# is the genitive («заявляйте королей»); the number cards are not («заявляйте двойки»).
RU_RANKS = {
    "2": ("двойка", "двойки", "двоек", "двойки", "двойки"),
    "3": ("тройка", "тройки", "троек", "тройки", "тройки"),
    "4": ("четвёрка", "четвёрки", "четвёрок", "четвёрки", "четвёрки"),
    "5": ("пятёрка", "пятёрки", "пятёрок", "пятёрки", "пятёрки"),
    "6": ("шестёрка", "шестёрки", "шестёрок", "шестёрки", "шестёрки"),
    "7": ("семёрка", "семёрки", "семёрок", "семёрки", "семёрки"),
    "8": ("восьмёрка", "восьмёрки", "восьмёрок", "восьмёрки", "восьмёрки"),
    "9": ("девятка", "девятки", "девяток", "девятки", "девятки"),
    "T": ("десятка", "десятки", "десяток", "десятки", "десятки"),
    "J": ("валет", "валета", "валетов", "валеты", "валетов"),
    "Q": ("дама", "дамы", "дам", "дамы", "дам"),
    "K": ("король", "короля", "королей", "короли", "королей"),
    "A": ("туз", "туза", "тузов", "тузы", "тузов"),
}
EN_RANKS = {
    "2": ("two", "twos"),
    "3": ("three", "threes"),
    "4": ("four", "fours"),
    "5": ("five", "fives"),
    "6": ("six", "sixes"),
    "7": ("seven", "sevens"),
    "8": ("eight", "eights"),
    "9": ("nine", "nines"),
    "T": ("ten", "tens"),
    "J": ("jack", "jacks"),
    "Q": ("queen", "queens"),
    "K": ("king", "kings"),
    "A": ("ace", "aces"),
}

# name -> (Unicode, ASCII)
GLYPHS = {
    "turn": ("▶", ">"),
    "dot": ("·", "|"),
    "dash": ("—", "-"),
    "rule": ("─", "-"),
    "vbar": ("│", "|"),
    "tl": ("┌", "+"),
    "tr": ("┐", "+"),
    "bl": ("└", "+"),
    "br": ("┘", "+"),
    "updown": ("↑↓", "Up/Down"),
    "leftright": ("←→", "Left/Right"),
    "arrow": ("→", "->"),
    "ellipsis": ("…", "~"),
}

ASCII_SYMBOLS = (
    ("«", '"'),
    ("»", '"'),
    ("…", "..."),
    ("×", "x"),
    ("—", "-"),
    ("–", "-"),
    ("↑↓", "Up/Down"),
    ("←→", "Left/Right"),
    ("↑", "Up"),
    ("↓", "Down"),
    ("→", "->"),
    ("✓", "(ok)"),
    ("≠", "!="),
    ("·", "|"),
    ("▶", ">"),
    ("•", "*"),
    ("♠", "S"),
    ("♥", "H"),
    ("♦", "D"),
    ("♣", "C"),
)
TRANSLIT = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "yo",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            '"',
            "y",
            "'",
            "e",
            "yu",
            "ya",
        ],
    )
)


def to_ascii(text: str) -> str:
    """``text`` in ASCII: symbols replaced, Cyrillic transliterated, the rest as ``?``."""
    if text.isascii():
        return text
    for u, a in ASCII_SYMBOLS:
        text = text.replace(u, a)
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch)
        elif ch.lower() in TRANSLIT:
            latin = TRANSLIT[ch.lower()]
            out.append(latin.capitalize() if ch.isupper() else latin)
        else:
            out.append("?")
    return "".join(out)


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


class SeatNames(Protocol):
    """Who sits where: a ``model.State`` or the ``model.Names`` a log line was written with."""

    @property
    def seat(self) -> int | None: ...

    def seat_name(self, seat: int | None) -> str | None: ...

    def shared(self, name: str, seat: int) -> bool: ...

    def tag(self, seat: int) -> str | None: ...


class Texts:
    """One language's texts (``lang``: ``"ru"`` or ``"en"``); ``ascii``: ASCII only; ``live``:
    a live table, whose seat is the reader's own («(вы)», "Your turn!"); False for a replay,
    whose seat is only the view shown and after whose deal nothing comes."""

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

    # -- the log ----------------------------------------------------------------------------

    def log_line(self, state: SeatNames, line: Any) -> str:
        """One ``model.Line`` in words, with the names of its own time."""
        names: SeatNames = line.names if (line.names.seats or line.names.seat is not None) else state
        a = dict(line.args)
        key = line.key
        name = self.seat_name(names, a.get("seat")) if "seat" in a else ""
        if key == "joined":
            if a.get("seat") is None:
                return self("log.joined_watch", table=a.get("table"))
            return self("log.joined", table=a.get("table"), seat=a["seat"] + 1)
        if key == "player_joined":
            raw = str(a.get("name") or "")
            seat = a.get("seat")
            # The newcomer's tag comes with the summary after this line: the table's names now
            # know it while he still sits there.
            now = state if isinstance(seat, int) and state.seat_name(seat) == raw else names
            shown = self._told_apart(now, raw, seat) if raw and isinstance(seat, int) else name
            return self("log.player_joined", name=shown)
        if key == "player_left":
            reason = a.get("reason")
            sub = "log.player_dropped" if reason == "dropped" else "log.player_left"
            raw, seat = str(a.get("name") or ""), a.get("seat")
            if raw and isinstance(seat, int) and names.seat_name(seat) == raw:
                return self(sub, name=self._told_apart(names, raw, seat))
            return self(sub, name=self.safe(raw or name))
        if key == "removed":
            host, tag = a.get("host"), a.get("tag")
            by = (
                self.safe(f"{host}#{tag}" if tag else str(host))
                if host
                else self.seat_name(names, a.get("by"), False)
            )
            return self("log.removed_bot" if a.get("bot") else "log.removed", by=by)
        if key == "seat_changed":
            action = str(a.get("action") or "")
            sub = "log.seat_" + action if ("log.seat_" + action) in self.table else "log.seat_changed"
            return self(
                sub,
                by=self.seat_name(names, a.get("by")),
                name=self.safe(str(a.get("name") or "")) or name,
                seat=(a.get("seat") or 0) + 1,
                level=self.level(str(a.get("strength") or "")),
            )
        if key == "deal_started":
            deal = a.get("deal_no")
            deals = a.get("deals")
            return self(
                "log.deal_started",
                deal=f"{deal}/{deals}" if isinstance(deals, int) and deals else deal,
                name=self.seat_name(names, a.get("dealer")),
                deck=self.deck(a.get("deck")),
            )
        if key == "set_laid":
            claim = self.claim(a.get("count"), a.get("rank"))
            if a.get("cards"):
                return self("log.set_laid_mine", name=name, cards=self.cards(a["cards"]), claim=claim)
            if a.get("size") is not None and a.get("size") != a.get("count"):
                return self("log.set_laid_size", name=name, claim=claim, size=a["size"])
            return self("log.set_laid", name=name, claim=claim)
        if key == "none_declared":
            return self("log.none_declared", name=name, rank=self.rank_plural(a.get("rank")))
        if key in ("set_held", "set_held_quads"):
            return self("log." + key, claim=self.claim(a.get("count"), a.get("rank")))
        if key == "set_returned":
            return self("log.set_returned", cards=self.cards(a.get("cards")))
        if key == "set_revealed":
            verdict = self("true") if a.get("claim_true") else self("false")
            if a.get("none"):
                return self(
                    "log.set_revealed_none",
                    name=name,
                    rank=self.rank_plural(a.get("rank")),
                    cards=self.cards(a.get("cards")),
                    verdict=verdict,
                )
            return self(
                "log.set_revealed",
                cards=self.cards(a.get("cards")),
                claim=self.claim(a.get("count"), a.get("rank")),
                verdict=verdict,
            )
        if key == "pile_taken":
            if a.get("count") is None:
                return self("log.pile_taken_hidden", name=name)
            return self("log.pile_taken", name=name, count=self.n_cards(a["count"]))
        if key == "pile_discarded":
            return self("log.pile_discarded", count=self.n_cards(a.get("count") or 0))
        if key == "quads_discarded":
            ranks, count = a.get("ranks"), a.get("count") or 1
            shown = ", ".join(self.rank_plural(r) for r in ranks or ())
            if ranks:
                quads = (
                    self("quads.shown", ranks=shown)
                    if count == 1
                    else self("quads.many", count=count, ranks=shown)
                )
            else:
                quads = self("quads.hidden") if count == 1 else self("quads.hidden_many", count=count)
            return self("log.quads_discarded", name=name, quads=quads)
        if key == "quads_window_closed":
            if a.get("seat") == names.seat and names.seat is not None:
                return self("log.quads_window_closed_you")
            return self("log.quads_window_closed", name=self.seat_name(names, a.get("seat"), you=False))
        if key == "stock_drawn":
            return self("log.stock_drawn", name=name, count=self.n_cards(a.get("count") or 0))
        if key == "dealer_drawn":
            rounds = []
            for draw in a.get("draws") or ():
                rounds.append(
                    ", ".join(f"{self.seat_name(names, seat)} {self.card(card)}" for seat, card in draw)
                )
            return self(
                "log.dealer_drawn",
                name=name,
                draws=f"; {self('draw_again')}: ".join(rounds) or self.glyph("dash"),
            )
        if key == "error":
            return self("log.error", msg=a.get("msg") or a.get("code"))
        if key == "bye":
            reason = str(a.get("reason") or "")
            key = "log.bye." + reason
            return self(key) if key in self.table else self("log.bye", reason=self.safe(reason))
        if key.startswith("conn_") or key == "fresh":
            return self("log." + key, reason=self.safe(str(a.get("reason") or self.glyph("dash"))))
        if key == "deal_ended":
            order = ", ".join(self.seat_name(names, x) for x in a.get("out") or ()) or self.glyph("dash")
            if a.get("loser") is not None:
                return self("log.deal_ended_loser", name=self.seat_name(names, a["loser"]), order=order)
            if a.get("winner") is not None:
                return self("log.deal_ended_winner", name=self.seat_name(names, a["winner"]))
            return self("log.deal_ended")
        if key == "match_ended":
            scores = ", ".join(f"{self.seat_name(names, i)} {v}" for i, v in enumerate(a.get("scores") or ()))
            return self("log.match_ended", scores=scores or self.glyph("dash"))
        if key == "match_started":
            deals = a.get("deals")
            return (
                self("log.match_started_n", deals=self.count(deals, "deals"))
                if isinstance(deals, int)
                else self("log.match_started")
            )
        if key == "table_closed":
            return self("log.table_closed", reason=self.safe(str(a.get("reason") or self.glyph("dash"))))
        if key == "player_out":
            return self("log.player_out", name=name, place=a.get("place"))
        if key == "fair_bad":
            return self("log.fair_bad", problem=self.fair_problem(a.get("problem")))
        mine = "log." + key + "_you"  # a line about one's own seat, said to him: "Your time ran out"
        if mine in self.table and self.live and a.get("seat") == names.seat and names.seat is not None:
            return self(mine)
        if key in ("spectators_more", "spectators_fewer"):
            return self("log." + key, watchers=self.count(int(a.get("n") or 0), "watchers"))
        if key == "recap":
            return self.recap(names, a)
        if key == "undone":
            return self("log.undone", moves=self.count(int(a.get("n") or 0), "moves"))
        return self("log." + key, name=name, **{k: v for k, v in a.items() if k not in ("seat", "name")})

    def where_it_stands(self, names: SeatNames, now: dict[str, Any]) -> str:
        """A recap the server's snapshot cut short: the moves are not known, where the game
        stands now is (``model_lobby._where_it_stands``): the deal, whose turn, the cards."""
        parts = []
        deal, deals = now.get("deal"), now.get("deals")
        if isinstance(deal, int):
            of = f"{deal}/{deals}" if isinstance(deals, int) and deals else str(deal)
            parts.append(self("recap.now_deal", deal=of))
        turn = now.get("turn")
        if isinstance(turn, int):
            mine = turn == names.seat and names.seat is not None
            parts.append(
                self("recap.now_yours") if mine else self("recap.now_turn", name=self.seat_name(names, turn))
            )
        if isinstance(now.get("hand"), int):
            parts.append(self("recap.now_hand", cards=self.n_cards(now["hand"])))
        if isinstance(now.get("pile"), int):
            parts.append(self("recap.now_pile", cards=self.n_cards(now["pile"])))
        return self("recap.snapshot") + (" " + self("recap.now", parts=", ".join(parts)) if parts else "")

    def fair_problem(self, code: Any) -> str:
        """What a failed fair-deal check found (client/fairdeal.py, ``PROBLEMS``), in words."""
        key = f"fair_problem.{code}"
        return self(key) if key in self.table or key in EN else self("fair_problem.commitment")

    def recap(self, names: SeatNames, a: dict[str, Any]) -> str:
        """The "while you were away" line (``model.recap_args``)."""
        if a.get("snapshot"):
            return self("recap.title") + " " + self.where_it_stands(names, a.get("now") or {})
        if a.get("removed"):
            return self("recap.title") + " " + self("recap.removed") + "."
        parts = []
        for deal_no, loser, winner in a.get("deals") or ():
            who = self("recap.lost", name=self.seat_name(names, loser)) if loser is not None else ""
            who = who or (self("recap.won", name=self.seat_name(names, winner)) if winner is not None else "")
            parts.append(self("recap.deal", deal=deal_no, who=who).rstrip(", "))
        if a.get("match"):
            parts.append(self("recap.match"))
        if a.get("sets"):
            sets = self.count(int(a["sets"]), "sets")
            parts.append(
                self("recap.sets_mine", sets=sets, mine=a["mine"])
                if a.get("mine")
                else self("recap.sets", sets=sets)
            )
        for seat, count in a.get("piles") or ():
            taken = self.n_cards(count) if count is not None else ""
            parts.append(self("recap.pile", name=self.seat_name(names, seat), cards=taken).replace(" ()", ""))
        for seat in a.get("out") or ():
            parts.append(self("recap.out", name=self.seat_name(names, seat)))
        if a.get("timed_out"):
            parts.append(self("recap.timed_out"))
        if a.get("chats"):
            parts.append(self("recap.chats", chats=self.count(int(a["chats"]), "messages")))
        return self("recap.title") + " " + ("; ".join(parts) if parts else self("recap.nothing")) + "."
