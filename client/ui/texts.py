"""Russian and English texts of the terminal client, and how cards look.

``Texts(lang, ascii)`` holds one language. ``choose_lang(arg)`` picks ``"ru"`` or ``"en"`` from
``--lang`` or the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``); ``needs_ascii(encoding)`` says
whether the terminal's encoding cannot show the suit symbols ♠♥♦♣ (then cards read ``QS``,
``10H``). The words are RULES.md's vocabulary (hand, set, claim, pile, challenge, believe, discard,
quad, out, deal) in its Russian column.
"""

from __future__ import annotations

import codecs
import os

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")

# rank -> (one, few, many, plural nominative): «1 дама», «2 дамы», «5 дам», «дамы»
RU_RANKS = {
    "2": ("двойка", "двойки", "двоек", "двойки"),
    "3": ("тройка", "тройки", "троек", "тройки"),
    "4": ("четвёрка", "четвёрки", "четвёрок", "четвёрки"),
    "5": ("пятёрка", "пятёрки", "пятёрок", "пятёрки"),
    "6": ("шестёрка", "шестёрки", "шестёрок", "шестёрки"),
    "7": ("семёрка", "семёрки", "семёрок", "семёрки"),
    "8": ("восьмёрка", "восьмёрки", "восьмёрок", "восьмёрки"),
    "9": ("девятка", "девятки", "девяток", "девятки"),
    "T": ("десятка", "десятки", "десяток", "десятки"),
    "J": ("валет", "валета", "валетов", "валеты"),
    "Q": ("дама", "дамы", "дам", "дамы"),
    "K": ("король", "короля", "королей", "короли"),
    "A": ("туз", "туза", "тузов", "тузы"),
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

EN = {
    "title": "neveryu",
    "connecting": "Connecting to {addr}…",
    "conn.connected": "connected",
    "conn.connecting": "connecting…",
    "conn.lost": "connection lost — resuming…",
    "conn.resuming": "resuming…",
    "conn.closed": "disconnected",
    "too_small": "The terminal is too small: {w}×{h}. Make it at least {mw}×{mh}.",
    "lobby": "Lobby",
    "lobby.server": "Server: {name}",
    "lobby.none": "No tables yet. Press c to create one.",
    "lobby.head": "   #  variant       seats state     players",
    "lobby.keys": "↑↓ choose   Enter join   v watch   c create   r refresh   ? help   q quit",
    "state.waiting": "waiting",
    "state.playing": "playing",
    "seat.empty": "free",
    "seat.ready": "ready",
    "seat.away": "away",
    "players": "Players",
    "table": "Table",
    "log": "Log",
    "chat": "Chat",
    "hand": "Your hand",
    "spectating": "You are watching.",
    "head": "table {table} · {variant} · deal {deal}",
    "head.nodeal": "table {table} · {variant}",
    "cards_n": "{n} cards",
    "pile": "Pile: {n}",
    "pile.claimed": "Pile: {n} claimed",
    "discard": "Discard: {n}",
    "stock": "Stock: {n}",
    "last": "Last set #{no}: {name} claims {claim}",
    "last.none": "Last set #{no}: {name} declares no {rank}",
    "last.size": " ({n} laid)",
    "last.empty": "Last set: — (new round)",
    "reveal": "Revealed #{no} — {name}:",
    "reveal.true": "TRUE",
    "reveal.false": "FALSE",
    "claim_now": "Claim: {ranks}",
    "claim.any": "any rank",
    "turn": "Turn: {name}",
    "turn.you": "Your turn!",
    "time_left": "{time} left",
    "held": "Your set ({claim}) waits for the challenge window.",
    "out_mark": "out",
    "waiting_mark": "empty hand",
    "dealer_mark": "dealer",
    "you": "you",
    "seat_n": "Seat {n}",
    "bot_n": "Bot {n}",
    "waiting_players": "Waiting for players. s: ready / start",
    "not_started": "The match has not started.",
    "keys.lay": "Enter lay {lo}–{hi} as {ranks}",
    "keys.lay1": "Enter lay {lo} as {ranks}",
    "keys.select": "←→ move  Space select",
    "keys.challenge": "n «Не верю»",
    "keys.believe": "y «Верю»",
    "keys.declare": "0 none of {rank}",
    "keys.quads": "d discard quad",
    "keys.ready": "s ready",
    "keys.unready": "s not ready",
    "keys.start": "s start",
    "keys.back": "s I'm back",
    "keys.again": "s play another match",
    "away": "You are away: a bot plays for you. Press s to take your seat back.",
    "keys.common": "/ chat  ? help  q leave",
    "keys.wait": "waiting for {name}…",
    "ask.rank": "Claim which rank? ←→ choose, or type it; Enter confirm, Esc cancel",
    "ask.count": "Claim how many cards? ←→ or a digit; Enter confirm, Esc cancel",
    "ask.quit": "Leave the table during a deal? y leave · n stay",
    "ask.quit_app": "Quit neveryu? y quit · n stay",
    "ask.chat": "Say (Enter sends, Esc closes): ",
    "ask.password": "Password of table {table}: ",
    "select_first": "Select {lo}–{hi} cards with Space first.",
    "select_n": "Select {lo}–{hi} cards (now {n}).",
    "select_exactly": "Select {lo} cards (now {n}).",
    "select_first_exactly": "Select {lo} cards with Space first.",
    "deal_over": "Deal over",
    "out_order": "Out in order: {order}",
    "loser": "Loser: {name}",
    "winner": "Winner: {name}",
    "scores": "Match scores: {scores}",
    "deal_scores": "This deal: {scores}",
    "fair.ok": "Fair deal: verified ✓ (deck = commitment)",
    "fair.bad": "Fair deal check FAILED: deck ≠ commitment!",
    "fair.unknown": "Fair deal: nothing to check.",
    "next_deal": "s ready for the next deal",
    "create": "Create a table",
    "create.variant": "Variant",
    "create.players": "Players",
    "create.bots": "Bots",
    "create.strength": "Bot strength",
    "create.keys": "↑↓ field  ←→ change  Enter create  Esc cancel",
    "help": (
        "Keys\n"
        "  ← → or h l   move across your hand\n"
        "  Space        select / unselect the card; Backspace unselects all\n"
        "  Enter        lay the selected cards (asks rank or count only if yours to choose)\n"
        "  n (т)        «Не верю»: challenge the last set\n"
        "  y (н)        «Верю»: believe the last set\n"
        "  d            discard a quad\n"
        "  0            declare none of the rank due\n"
        "  s            ready / start\n"
        "  /            chat       ?  this help       q  leave\n"
        "  Esc          closes a dialog; it never plays.\n"
        "Only the actions you may take now are shown at the bottom.\n"
        "Press Esc or ? to close."
    ),
    # log
    "log.joined": "You sit at table {table}, seat {seat}.",
    "log.joined_watch": "You watch table {table}.",
    "log.left_table": "You left the table.",
    "log.player_joined": "{name} joins.",
    "log.player_left": "{name} leaves.",
    "log.match_started": "The match starts.",
    "log.bye": "The server says goodbye: {reason}",
    "log.error": "Refused: {msg}",
    "log.conn_lost": "Connection lost ({reason}); trying to resume…",
    "log.conn_resuming": "Resuming…",
    "log.conn_resumed": "Back at the table: the connection is restored.",
    "log.conn_closed": "Disconnected: {reason}",
    "log.dealer_drawn": "Draw for the dealer: {draws}. {name} drew the lowest card and deals.",
    "draw_again": "again",
    "log.deal_started": "Deal {deal_no}: {name} deals, {deck} deck.",
    "log.set_laid": "{name} claims {claim}.",
    "log.set_laid_size": "{name} claims {claim} ({size} laid).",
    "log.set_laid_mine": "{name}: {claim} (really {cards}).",
    "log.none_declared": "{name} declares no {rank}.",
    "log.set_held": "Your set ({claim}) waits for the challenge window.",
    "log.set_returned": "A challenge came first: your set went back to your hand.",
    "log.challenge_void": "{name} challenged too early: void.",
    "log.challenged": "{name}: «Не верю!»",
    "log.believed": "{name}: «Верю!»",
    "log.set_revealed": "Revealed: {cards} — the claim of {claim} is {verdict}.",
    "log.set_revealed_none": "Revealed: {name}'s {rank}: {cards} — «none» is {verdict}.",
    "log.pile_taken": "{name} takes the pile ({count}).",
    "log.pile_taken_hidden": "{name} takes the pile.",
    "log.pile_discarded": "The pile ({count}) goes to the discard.",
    "log.quads_discarded": "{name} discards {quads}.",
    "quads.shown": "a quad of {ranks}",
    "quads.many": "{count} quads: {ranks}",
    "quads.hidden": "a quad, face down",
    "quads.hidden_many": "{count} quads, face down",
    "log.stock_drawn": "{name} draws {count} from the stock.",
    "log.timed_out": "{name}'s time ran out; the server played for them.",
    "log.player_out": "{name} is out (place {place}).",
    "log.deal_ended": "The deal is over.",
    "log.deal_ended_loser": "The deal is over: {name} loses. Out in order: {order}.",
    "log.deal_ended_winner": "The deal is over: {name} wins.",
    "log.match_ended": "The match is over. Scores: {scores}.",
    "log.table_closed": "The table closed: {reason}.",
    "log.fair_ok": "Fair deal checked: the deck matches the commitment.",
    "log.fair_bad": "Fair deal check FAILED: the deck does not match the commitment!",
    "log.fair_unknown": "Fair deal: nothing disclosed to check.",
    "true": "true",
    "false": "false",
}

RU = {
    "title": "neveryu",
    "connecting": "Подключаюсь к {addr}…",
    "conn.connected": "на связи",
    "conn.connecting": "подключение…",
    "conn.lost": "связь потеряна — восстанавливаю…",
    "conn.resuming": "восстанавливаю…",
    "conn.closed": "отключено",
    "too_small": "Терминал слишком мал: {w}×{h}. Нужно хотя бы {mw}×{mh}.",
    "lobby": "Лобби",
    "lobby.server": "Сервер: {name}",
    "lobby.none": "Столов пока нет. Нажмите c, чтобы создать.",
    "lobby.head": "   №  вариант       места состояние игроки",
    "lobby.keys": "↑↓ выбор   Enter сесть   v смотреть   c создать   r обновить   ? помощь   q выход",
    "state.waiting": "ждёт",
    "state.playing": "играют",
    "seat.empty": "свободно",
    "seat.ready": "готов",
    "seat.away": "отошёл",
    "players": "Игроки",
    "table": "Стол",
    "log": "Ход игры",
    "chat": "Чат",
    "hand": "Ваша рука",
    "spectating": "Вы зритель.",
    "head": "стол {table} · {variant} · партия {deal}",
    "head.nodeal": "стол {table} · {variant}",
    "cards_n": "{n} карт",
    "pile": "Стопка: {n}",
    "pile.claimed": "Стопка: заявлено {n}",
    "discard": "Отбой: {n}",
    "stock": "Прикуп: {n}",
    "last": "Последний набор №{no}: {name} — {claim}",
    "last.none": "Последний набор №{no}: {name} — нет ни одной: {rank}",
    "last.size": " (положено {n})",
    "last.empty": "Последний набор: — (новый круг)",
    "reveal": "Вскрыт №{no} — {name}:",
    "reveal.true": "ПРАВДА",
    "reveal.false": "ЛОЖЬ",
    "claim_now": "Заявлять: {ranks}",
    "claim.any": "любой ранг",
    "turn": "Ходит: {name}",
    "turn.you": "Ваш ход!",
    "time_left": "осталось {time}",
    "held": "Ваш набор ({claim}) ждёт закрытия окна проверки.",
    "out_mark": "вышел",
    "waiting_mark": "рука пуста",
    "dealer_mark": "сдаёт",
    "you": "вы",
    "seat_n": "Место {n}",
    "bot_n": "Бот {n}",
    "waiting_players": "Ждём игроков. s: готов / начать",
    "not_started": "Матч ещё не начат.",
    "keys.lay": "Enter положить {lo}–{hi} как {ranks}",
    "keys.lay1": "Enter положить {lo} как {ranks}",
    "keys.select": "←→ выбор  Пробел отметить",
    "keys.challenge": "n «Не верю»",
    "keys.believe": "y «Верю»",
    "keys.declare": "0 нет: {rank}",
    "keys.quads": "d сбросить четвёрку",
    "keys.ready": "s готов",
    "keys.unready": "s не готов",
    "keys.start": "s начать",
    "keys.back": "s я вернулся",
    "keys.again": "s сыграть ещё матч",
    "away": "Вы отошли: за вас играет бот. Нажмите s, чтобы вернуться.",
    "keys.common": "/ чат  ? помощь  q уйти",
    "keys.wait": "ждём: {name}…",
    "ask.rank": "Какой ранг заявить? ←→ выбор или буква; Enter — да, Esc — отмена",
    "ask.count": "Сколько карт заявить? ←→ или цифра; Enter — да, Esc — отмена",
    "ask.quit": "Уйти из-за стола посреди партии? y — уйти · n — остаться",
    "ask.quit_app": "Выйти из neveryu? y — выйти · n — остаться",
    "ask.chat": "Сказать (Enter — отправить, Esc — закрыть): ",
    "ask.password": "Пароль стола {table}: ",
    "select_first": "Сначала отметьте {lo}–{hi} карт пробелом.",
    "select_n": "Отметьте {lo}–{hi} карт (сейчас {n}).",
    "select_exactly": "Отметьте карт: {lo} (сейчас {n}).",
    "select_first_exactly": "Сначала отметьте пробелом карт: {lo}.",
    "deal_over": "Партия окончена",
    "out_order": "Вышли по порядку: {order}",
    "loser": "Проиграл: {name}",
    "winner": "Победил: {name}",
    "scores": "Счёт матча: {scores}",
    "deal_scores": "За партию: {scores}",
    "fair.ok": "Сдача честная: проверено ✓",
    "fair.bad": "Проверка сдачи НЕ прошла: колода ≠ обязательство!",
    "fair.unknown": "Честная сдача: проверять нечего.",
    "next_deal": "s готов к следующей партии",
    "create": "Новый стол",
    "create.variant": "Вариант",
    "create.players": "Игроков",
    "create.bots": "Ботов",
    "create.strength": "Сила ботов",
    "create.keys": "↑↓ поле  ←→ изменить  Enter создать  Esc отмена",
    "help": (
        "Клавиши\n"
        "  ← → или h l  ходить по руке\n"
        "  Пробел       отметить карту / снять отметку; Backspace снять все\n"
        "  Enter        положить отмеченные (ранг и число спросят, если выбор ваш)\n"
        "  n (т)        «Не верю»: проверить последний набор\n"
        "  y (н)        «Верю»\n"
        "  d            сбросить четвёрку\n"
        "  0            заявить, что карт нужного ранга нет\n"
        "  s            готов / начать\n"
        "  /            чат        ?  эта справка      q  уйти\n"
        "  Esc          закрывает диалог и никогда не ходит.\n"
        "Внизу показаны только те действия, что доступны сейчас.\n"
        "Esc или ? — закрыть."
    ),
    "log.joined": "Вы за столом {table}, место {seat}.",
    "log.joined_watch": "Вы смотрите стол {table}.",
    "log.left_table": "Вы ушли из-за стола.",
    "log.player_joined": "{name} садится за стол.",
    "log.player_left": "{name} уходит.",
    "log.match_started": "Матч начался.",
    "log.bye": "Сервер прощается: {reason}",
    "log.error": "Отказ: {msg}",
    "log.conn_lost": "Связь потеряна ({reason}); пробую восстановить…",
    "log.conn_resuming": "Восстанавливаю связь…",
    "log.conn_resumed": "Связь восстановлена, вы снова за столом.",
    "log.conn_closed": "Отключено: {reason}",
    "log.dealer_drawn": "Жребий на сдачу: {draws}. {name} вытянул младшую карту и сдаёт.",
    "draw_again": "снова",
    "log.deal_started": "Партия {deal_no}: сдаёт {name}, колода {deck}.",
    "log.set_laid": "{name}: {claim}.",
    "log.set_laid_size": "{name}: {claim} (положено {size}).",
    "log.set_laid_mine": "{name}: {claim} (на деле {cards}).",
    "log.none_declared": "{name}: нет ни одной — {rank}.",
    "log.set_held": "Ваш набор ({claim}) ждёт закрытия окна проверки.",
    "log.set_returned": "Проверка успела раньше: ваш набор вернулся в руку.",
    "log.challenge_void": "{name} сказал «не верю» слишком рано: не считается.",
    "log.challenged": "{name}: «Не верю!»",
    "log.believed": "{name}: «Верю!»",
    "log.set_revealed": "Вскрыто: {cards} — заявление «{claim}» {verdict}.",
    "log.set_revealed_none": "Вскрыто ({name}, {rank}): {cards} — «нет» {verdict}.",
    "log.pile_taken": "{name} забирает стопку ({count}).",
    "log.pile_taken_hidden": "{name} забирает стопку.",
    "log.pile_discarded": "Стопка ({count}) уходит в отбой.",
    "log.quads_discarded": "{name} сбрасывает {quads}.",
    "quads.shown": "четвёрку: {ranks}",
    "quads.many": "четвёрки ({count}): {ranks}",
    "quads.hidden": "четвёрку в закрытую",
    "quads.hidden_many": "четвёрки в закрытую: {count}",
    "log.stock_drawn": "{name} берёт из прикупа: {count}.",
    "log.timed_out": "{name}: время вышло, сервер сходил за него.",
    "log.player_out": "{name} выходит (место {place}).",
    "log.deal_ended": "Партия окончена.",
    "log.deal_ended_loser": "Партия окончена: проиграл {name}. Вышли по порядку: {order}.",
    "log.deal_ended_winner": "Партия окончена: победил {name}.",
    "log.match_ended": "Матч окончен. Счёт: {scores}.",
    "log.table_closed": "Стол закрыт: {reason}.",
    "log.fair_ok": "Честность сдачи проверена: колода совпадает с обязательством.",
    "log.fair_bad": "Проверка честности НЕ прошла: колода не совпадает с обязательством!",
    "log.fair_unknown": "Честность сдачи: раскрывать нечего.",
    "true": "правда",
    "false": "ложь",
}

LANGS = {"en": EN, "ru": RU}


def choose_lang(arg: str | None = None, environ=None) -> str:
    """``arg`` if given (``ru`` or ``en``), else ``ru`` when the locale is Russian, else ``en``."""
    if arg in LANGS:
        return arg
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var)
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


def can_encode(text: str, encoding: str | None) -> bool:
    try:
        codecs.lookup(encoding or "ascii")
        text.encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def needs_ascii(encoding: str | None) -> bool:
    """True when ``encoding`` (the terminal's) cannot show ♠♥♦♣ and box lines."""
    return not can_encode("♠♥♦♣─│┌«»…×↑↓←→✓≠⏱", encoding)


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


class Texts:
    """One language's texts (``lang``: ``"ru"`` or ``"en"``); ``ascii``: cards and marks in ASCII."""

    def __init__(self, lang: str = "en", ascii: bool = False) -> None:
        self.lang = lang if lang in LANGS else "en"
        self.table = LANGS[self.lang]
        self.ascii = ascii

    def __call__(self, key: str, **args) -> str:
        text = self.table.get(key) or EN.get(key) or key
        if self.ascii:
            text = to_ascii(text)
        return text.format(**args) if args else text

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

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in cards or ()) or "—"

    def rank_plural(self, rank: str) -> str:
        """«дамы» / "queens"."""
        if self.lang == "ru":
            return RU_RANKS.get(rank, (rank,) * 4)[3]
        return EN_RANKS.get(rank, (rank, rank))[1]

    def ranks(self, ranks) -> str:
        """The ranks a claim may name: one («дамы»), or «любой ранг» when every rank may."""
        ranks = tuple(ranks or ())
        if len(ranks) == 1:
            return self.rank_plural(ranks[0])
        if len(ranks) >= 9:
            return self("claim.any")
        return ", ".join(self.rank_plural(r) for r in ranks)

    def claim(self, count, rank: str) -> str:
        """«2 дамы» / "2 queens"; ``count`` None gives the rank alone."""
        if count is None:
            return self.rank_plural(rank)
        if self.lang == "ru":
            one, few, many, _ = RU_RANKS.get(rank, (rank,) * 4)
            return f"{count} {plural_ru(count, one, few, many)}"
        one, many = EN_RANKS.get(rank, (rank, rank))
        return f"{count} {one if count == 1 else many}"

    def n_cards(self, n: int) -> str:
        if self.lang == "ru":
            return f"{n} {plural_ru(n, 'карта', 'карты', 'карт')}"
        return f"{n} card" if n == 1 else f"{n} cards"

    # -- people -----------------------------------------------------------------------------

    def seat_name(self, state, seat) -> str:
        """The player at ``seat`` as people read it: a name, «Бот 3», and «(вы)» for oneself."""
        if seat is None:
            return "—"
        raw = state.seat_name(seat)
        if raw is None or raw.startswith("bot:"):
            name = self("bot_n", n=seat + 1) if raw else self("seat_n", n=seat + 1)
        else:
            name = raw
        if seat == state.seat:
            name = f"{name} ({self('you')})"
        return name

    # -- the log ----------------------------------------------------------------------------

    def log_line(self, state, line) -> str:
        """One ``model.Line`` in words."""
        a = dict(line.args)
        key = line.key
        name = self.seat_name(state, a.get("seat")) if "seat" in a else ""
        if key == "joined":
            return (
                self("log.joined_watch", table=a.get("table"))
                if a.get("seat") is None
                else self("log.joined", table=a.get("table"), seat=a["seat"] + 1)
            )
        if key in ("player_joined", "player_left"):
            return self("log." + key, name=a.get("name") or name)
        if key == "deal_started":
            deal_no = a.get("deal_no")
            return self(
                "log.deal_started",
                deal_no=deal_no,
                name=self.seat_name(state, a.get("dealer")),
                deck=str(a.get("deck") or "").replace("x", "×" if not self.ascii else "x"),
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
        if key == "set_held":
            return self("log.set_held", claim=self.claim(a.get("count"), a.get("rank")))
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
        if key == "stock_drawn":
            return self("log.stock_drawn", name=name, count=self.n_cards(a.get("count") or 0))
        if key == "dealer_drawn":
            rounds = []
            for draw in a.get("draws") or ():
                rounds.append(
                    ", ".join(f"{self.seat_name(state, seat)} {self.card(card)}" for seat, card in draw)
                )
            return self("log.dealer_drawn", name=name, draws=f"; {self('draw_again')}: ".join(rounds) or "—")
        if key == "error":
            return self("log.error", msg=a.get("msg") or a.get("code"))
        if key.startswith("conn_") or key == "bye":
            return self("log." + key, reason=a.get("reason") or "—")
        if key == "deal_ended":
            order = ", ".join(self.seat_name(state, x) for x in a.get("out") or ()) or "—"
            if a.get("loser") is not None:
                return self("log.deal_ended_loser", name=self.seat_name(state, a["loser"]), order=order)
            if a.get("winner") is not None:
                return self("log.deal_ended_winner", name=self.seat_name(state, a["winner"]))
            return self("log.deal_ended")
        if key == "match_ended":
            scores = ", ".join(f"{self.seat_name(state, i)} {v}" for i, v in enumerate(a.get("scores") or ()))
            return self("log.match_ended", deals=a.get("deals"), scores=scores or "—")
        if key == "table_closed":
            return self("log.table_closed", reason=a.get("reason") or "—")
        if key == "player_out":
            return self("log.player_out", name=name, place=a.get("place"))
        return self("log." + key, name=name, **{k: v for k, v in a.items() if k not in ("seat", "name")})


def to_ascii(text: str) -> str:
    """Replace the symbols an ASCII terminal cannot show (Cyrillic is left to the caller)."""
    for u, a in (
        ("«", '"'),
        ("»", '"'),
        ("…", "..."),
        ("×", "x"),
        ("—", "-"),
        ("–", "-"),
        ("↑↓", "Up/Down"),
        ("←→", "Left/Right"),
        ("✓", "(ok)"),
        ("≠", "!="),
        ("·", "|"),
    ):
        text = text.replace(u, a)
    return text
