"""The screens of the terminal client: lobby and table, drawn from the controller.

Designed for the smallest size allowed, 64×20, first. From the top, the table screen holds:
the header (table, variant, "deal 3/5", the link), the status line (whose turn, the claim, the
time left: client/ui/status.py), the players beside the table (pile, last set, what a
challenge turned up), the log beside the chat, the hand, a notice line (why a key did nothing,
why only this now: client/ui/moments.py), and the key bar. The status line, the hand, the
notice and the key bar always get their rows; the log and chat take what is left, so a small
terminal loses log lines first and never whose turn it is or the keys.

Everything reads ``Controller`` through callables, so a resize or a new message only redraws.
Nothing relies on colour alone: the cursor card is in brackets, a selected card has ``*``, the
seat to act has ``▶`` (``>`` in ASCII). Text that may be long wraps at word boundaries
(client/ui/wrap.py). Below ``MIN_WIDTH`` × ``MIN_HEIGHT`` the screen says so instead.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    D,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth
from prompt_toolkit.widgets import TextArea

from . import keybar
from .controller import Controller
from .model import card_key as model_card_key
from .moments import moment
from .status import status, table_waiting, waiting_text
from .texts import RED_SUITS, Texts
from .wrap import Drawn, Line, TextView, fit, wrap

MIN_WIDTH = 64
MIN_HEIGHT = 20
CELL = 5  # one card in the hand: a mark, 3 columns of card, a mark
NOTICE_LINES = 3
KEY_LINES = 3

STYLE = Style.from_dict(
    {
        "title": "reverse",
        "title.strong": "reverse bold",
        "rule": "",
        "rule.title": "bold",
        "red": "ansired",
        "cursor": "reverse",
        "selected": "bold underline",
        "mine": "bold",
        "turn": "bold",
        "myturn": "bold reverse",
        "time": "bold",
        "warn": "bold ansired",
        "good": "bold ansigreen",
        "key": "bold reverse",
        "dim": "ansigray",
        "dialog": "",
        "message": "bold",
        "notice.why": "",
    }
)


def _size() -> tuple[int, int]:
    try:
        size = get_app().output.get_size()
        return size.columns, size.rows
    except Exception:  # no running application (tests of single texts)
        return 100, 40


class Screen:
    """Builds the prompt-toolkit ``Layout`` for ``c``; ``chat_input`` is the chat's text field."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self.t = c.t
        asks_password = Condition(
            lambda: c.dialog is not None and c.dialog.data.get("password_for") is not None
        )
        self.chat_input = TextArea(
            multiline=False,
            prompt=self._input_prompt,
            accept_handler=self._chat_accept,
            password=asks_password,
        )
        self._cache: dict[Any, AnyContainer] = {}
        # The header holds the focus while no text field is open, so typed keys never land in a
        # hidden field; the chat field takes it while open.
        self.header = Window(
            FormattedTextControl(self._header_text, focusable=True, show_cursor=False),
            height=1,
            style="class:title",
        )
        self.layout = Layout(self._root(), focused_element=self.header)
        c.on_open_chat = self.focus_chat
        c.on_close_chat = self.unfocus_chat

    # -- structure --------------------------------------------------------------------------

    def _root(self) -> FloatContainer:
        body = DynamicContainer(self._current)
        chat_box = ConditionalContainer(
            self.chat_input,
            filter=Condition(lambda: self.c.dialog is not None and self.c.dialog.kind == "chat"),
        )
        dialog = ConditionalContainer(
            self._box(
                lambda: self._dialog_title(),
                Window(self._view(self._dialog_text, scroll=self.c.dialog_scroll, on_scroll=self._redraw)),
            ),
            filter=Condition(
                lambda: (
                    self.c.dialog is not None
                    and self.c.dialog.kind not in ("chat", "confirm")
                    and not _small()
                )
            ),
        )
        return FloatContainer(
            HSplit([self.header, body, chat_box]),
            floats=[  # under the header, above the key bar (which shows the dialog's keys)
                Float(
                    content=dialog,
                    top=1,
                    width=self._dialog_width,
                    height=self._dialog_height,
                    transparent=False,
                )
            ],
        )

    def _redraw(self) -> None:
        self.c.invalidate()

    def _view(self, fragments: Callable[[], StyleAndTextTuples], **kw: Any) -> TextView:
        """Word-wrapped text, as this terminal can show it."""
        return TextView(fragments, safe=self.t.safe, **kw)

    def _drawn(self, draw: Callable[[int, int], list[Line]]) -> Drawn:
        """Text drawn for its size, as this terminal can show it."""
        return Drawn(draw, safe=self.t.safe)

    def _current(self) -> AnyContainer:
        if _small():
            width, height = _size()
            text = self.t("too_small", w=width, h=height, mw=MIN_WIDTH, mh=MIN_HEIGHT)
            return Window(self._view(lambda: [("class:warn", text)]))
        s = self.c.state
        key = s.screen
        if key not in self._cache:
            builder = {"table": self._table_screen, "lobby": self._lobby_screen}.get(
                key, self._connecting_screen
            )
            self._cache[key] = builder()
        return self._cache[key]

    def _input_prompt(self) -> StyleAndTextTuples:
        d = self.c.dialog
        if d is not None and d.data.get("password_for") is not None:
            return [("class:key", self.t("ask.password", table=d.data["password_for"]))]
        return [("class:key", self.t("ask.chat"))]

    def focus_chat(self) -> None:
        self.chat_input.text = ""
        self.layout.focus(self.chat_input)

    def unfocus_chat(self) -> None:
        if self.layout.has_focus(self.chat_input):
            self.layout.focus(self.header)

    def _chat_accept(self, buffer: Any) -> bool:
        self.c.send_chat(buffer.text)
        return False

    def _connecting_screen(self) -> AnyContainer:
        return HSplit([Window(self._view(self._connecting_text)), self._notice_window(), self._keys_window()])

    def _lobby_screen(self) -> AnyContainer:
        return HSplit(
            [
                self._section(
                    lambda: self.t("lobby.server", name=self.t.safe(self.c.state.server_name or "?"))
                ),
                Window(self._drawn(self._lobby_lines), height=self._lobby_height),
                ConditionalContainer(
                    HSplit(
                        [
                            self._section(lambda: self.t("lobby.recent")),
                            Window(self._drawn(self._recent_lines), height=self._recent_height),
                        ]
                    ),
                    filter=Condition(lambda: bool(self.c.state.recent)),
                ),
                self._section(self._log_title),
                Window(
                    self._view(self._log_text, indent=2, scroll=self.c.log_scroll, on_scroll=self._redraw),
                    height=D(min=1),
                ),
                self._notice_window(),
                self._keys_window(),
            ]
        )

    def _table_screen(self) -> AnyContainer:
        vbar = Window(width=1, char=self.t.glyph("vbar"), style="class:rule")
        top = VSplit(
            [
                HSplit(
                    [self._section(lambda: self.t("players")), Window(self._drawn(self._players_lines))],
                    width=self._players_width,
                ),
                vbar,
                HSplit(
                    [
                        self._section(lambda: self.t("table")),
                        Window(self._view(self._table_text, indent=2)),
                    ]
                ),
            ],
            height=self._top_height,
        )
        middle = VSplit(
            [
                HSplit(
                    [
                        self._section(self._log_title),
                        Window(
                            self._view(
                                self._log_text, indent=2, scroll=self.c.log_scroll, on_scroll=self._redraw
                            )
                        ),
                    ]
                ),
                Window(width=1, char=self.t.glyph("vbar"), style="class:rule"),
                HSplit(
                    [
                        self._section(lambda: self.t("chat")),
                        Window(self._view(self._chat_text, indent=2, follow_end=True)),
                    ],
                    width=self._chat_width,
                ),
            ],
            height=D(min=0),
        )
        return HSplit(
            [
                Window(self._drawn(self._status_lines), height=1),
                top,
                middle,
                self._section(self._hand_title),
                Window(self._drawn(self._hand_lines), height=self._hand_height),
                self._notice_window(),
                self._keys_window(),
            ]
        )

    def _section(self, title: Callable[[], str]) -> AnyContainer:
        """A one-line rule with a title: ``─ Log ───────``."""
        rule = self.t.glyph("rule")
        return VSplit(
            [
                Window(
                    FormattedTextControl(
                        lambda: [("class:rule", rule + " "), ("class:rule.title", title()), ("", " ")]
                    ),
                    height=1,
                    dont_extend_width=True,
                ),
                Window(height=1, char=rule, style="class:rule"),
            ],
            height=1,
        )

    def _box(self, title: Callable[[], str], body: AnyContainer) -> AnyContainer:
        """A framed box (the dialogs), in box-drawing lines or ASCII ones."""
        g = self.t.glyph
        h, v = g("rule"), g("vbar")
        top = VSplit(
            [
                Window(width=1, height=1, char=g("tl")),
                Window(
                    FormattedTextControl(lambda: [("class:rule.title", f" {title()} ")]),
                    height=1,
                    dont_extend_width=True,
                ),
                Window(height=1, char=h),
                Window(width=1, height=1, char=g("tr")),
            ],
            height=1,
        )
        middle = VSplit(
            [Window(width=1, char=v), Window(width=1), body, Window(width=1), Window(width=1, char=v)]
        )
        bottom = VSplit(
            [
                Window(width=1, height=1, char=g("bl")),
                Window(height=1, char=h),
                Window(width=1, height=1, char=g("br")),
            ],
            height=1,
        )
        return HSplit([top, middle, bottom], style="class:dialog")

    def _notice_window(self) -> Window:
        return Window(self._view(self._notice_text), height=self._notice_height)

    def _keys_window(self) -> Window:
        return Window(self._drawn(self._keys_lines), height=self._keys_height)

    # -- sizes --------------------------------------------------------------------------------

    def _players_width(self) -> int:
        width, _ = _size()
        return max(26, min(40, width * 45 // 100))

    def _chat_width(self) -> int:
        width, _ = _size()
        return max(20, min(34, width * 36 // 100))

    def _player_rows(self) -> tuple[int, int]:
        """(rows, columns) of the players' list: one column while it fits the height left."""
        _, height = _size()
        n = max(len(self.c.state.seats), self.c.state.players, 2)
        budget = max(3, height - 14)
        columns = math.ceil(n / budget)
        return math.ceil(n / columns), columns

    def _top_height(self) -> int:
        rows, _ = self._player_rows()
        return 1 + max(rows, 4)

    def _per_row(self) -> int:
        width, _ = _size()
        return max(4, (width - 1) // CELL)

    def _hand_height(self) -> int:
        if self.c.replay is not None and self.c.replay.hands is not None:
            width, _ = _size()
            return max(1, len(self._every_hand(width)))
        n = len(self.c.hand)
        return max(1, math.ceil(n / self._per_row()))

    def _notice_height(self) -> int:
        width, _ = _size()
        return min(NOTICE_LINES, len([x for x in wrap(self._notice_text(), width) if x]))

    def _keys_height(self) -> int:
        width, _ = _size()
        return max(1, len(keybar.fit(keybar.entries(self.c), width, KEY_LINES)))

    def _lobby_height(self) -> int:
        _, height = _size()
        return max(2, min(len(self.c.state.tables) + 1, height - 10))

    def _dialog_width(self) -> int:
        width, _ = _size()
        return max(20, min(76, width - 4))

    def _dialog_height(self) -> int:
        _, height = _size()
        inner = self._dialog_width() - 4
        room = height - 1 - self._keys_height()
        return max(3, min(room, len(wrap(self._dialog_text(), inner)) + 2))

    # -- the header and status ----------------------------------------------------------------

    def _header_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        parts = ["neveryu"]
        if s.server_name:
            parts.append(t.safe(s.server_name))
        if s.screen == "table" and s.table:
            parts.append(t("head.table", table=s.table.get("id")))
            parts.append(t.variant_name(str(s.table.get("variant") or s.variant), long=True))
            deals = s.table.get("deals")
            if s.deal_no and (s.playing or (s.table.get("state") == "playing")):
                parts.append(
                    t("head.deal", deal=s.deal_no, deals=deals) if deals else t("head.deal1", deal=s.deal_no)
                )
        conn = t("conn." + s.connection) if s.connection != "connected" else ""
        if self.c.replay is not None:
            conn = self._replay_position()
        width, _ = _size()
        sep = f" {t.glyph('dot')} "
        left = " " + sep.join(parts)
        if get_cwidth(left) + get_cwidth(conn) + 2 > width and len(parts) > 3:
            parts[-2 if s.deal_no else -1] = str(s.table.get("variant") if s.table else "")
            left = " " + sep.join(p for p in parts if p)
        room = max(0, width - get_cwidth(conn) - 2)
        left = fit(left, room, t.glyph("ellipsis"))
        return [
            ("class:title", t.safe(left) + " "),
            ("class:title.strong" if conn else "class:title", t.safe(conn) + " "),
        ]

    def _replay_position(self) -> str:
        """A replay's place in its deal, where the link's state is shown at a live table."""
        r, t = self.c.replay, self.t
        seconds = r.ms // 1000
        view = t("replay.view.all") if r.view is None else t.seat_name(self.c.state, r.view, you=False)
        return t(
            "replay.head",
            deal=r.deal,
            step=r.index,
            steps=r.steps - 1,
            time=f"{seconds // 60}:{seconds % 60:02}",
            view=view,
        )

    def _status_lines(self, width: int, height: int) -> list[Line]:
        fragments = status(self.c.state, self.t, self.c.clock())
        return [_cut_line(list(fragments), width, self.t.glyph("ellipsis"))]

    def _connecting_text(self) -> StyleAndTextTuples:
        s = self.c.state
        out: StyleAndTextTuples = [("class:turn", "\n" + self.t("conn." + s.connection) + "\n")]
        if s.bye:
            out.append(("class:warn", s.bye + "\n"))
        for line in s.log[-5:]:
            out.append(("", self.t.log_line(s, line) + "\n"))
        return out

    # -- the lobby ----------------------------------------------------------------------------

    def _lobby_lines(self, width: int, height: int) -> list[Line]:
        s, t = self.c.state, self.t
        if not s.tables:
            return [[("", line)] for line in _plain_wrap(t("lobby.none"), width)]
        ell = t.glyph("ellipsis")
        out: list[Line] = [[("class:dim", fit(t("lobby.head"), width, ell))]]
        cursor = min(self.c.lobby_cursor, len(s.tables) - 1)
        first = max(0, cursor - (height - 2))
        for i, table in enumerate(s.tables[first:], first):
            seats = [x for x in table.get("seats") or () if isinstance(x, dict)]
            taken = sum(1 for x in seats if x.get("name") or x.get("bot"))
            names = ", ".join(_lobby_seat(t, x) for x in seats)
            state = t("state." + str(table.get("state", "waiting")))
            mark = t.glyph("turn") if i == cursor else " "
            lock = "*" if table.get("password") else " "
            variant = str(table.get("variant"))
            line = (
                f"{mark}{table.get('id')!s:>3}{lock} {variant:<11} {taken}/{len(seats):<2} {state:<8} {names}"
            )
            out.append([("class:cursor" if i == cursor else "", fit(line, width, ell))])
        return out

    def _recent_height(self) -> int:
        _, height = _size()
        return max(1, min(len(self.c.state.recent), height - 14))

    def _recent_lines(self, width: int, height: int) -> list[Line]:
        """The server's last deals: id, variant, players, result, when it ended (local time)."""
        t = self.t
        out: list[Line] = []
        for r in self.c.state.recent[:height]:
            seats = [x for x in r.get("seats") or () if isinstance(x, dict)]
            names = {x.get("seat"): _lobby_seat(t, x) for x in seats}
            if r.get("loser") is not None:
                result = t("lobby.lost", name=names.get(r["loser"], "?"))
            elif r.get("winner") is not None:
                result = t("lobby.won", name=names.get(r["winner"], "?"))
            else:
                result = ""
            ended = r.get("ended_ms")
            when = time.strftime("%H:%M", time.localtime(ended / 1000)) if isinstance(ended, int) else ""
            players = ", ".join(names.values())
            line = f"{r.get('id')!s:>4} {r.get('variant')!s:<11} {when:<5}  {result}  {players}"
            out.append(
                [("class:mine" if r.get("seat") is not None else "", fit(line, width, t.glyph("ellipsis")))]
            )
        return out

    # -- the players and the table ------------------------------------------------------------

    def _players_lines(self, width: int, height: int) -> list[Line]:
        s = self.c.state
        seats = s.seats or [{"seat": i} for i in range(s.players)]
        rows, columns = self._player_rows()
        col = max(8, (width - (columns - 1)) // columns)
        cells = self._player_cells(seats, col)
        out: list[Line] = []
        for r in range(rows):
            line: Line = []
            for k in range(columns):
                i = k * rows + r
                if i < len(cells):
                    if k:
                        line.append(("", " "))
                    line.extend(cells[i])
            out.append(line)
        return out

    def _player_cells(self, seats: list[dict[str, Any]], width: int) -> list[Line]:
        """Each seat in ``width`` columns, aligned: the turn mark, the name, the cards held (or
        the place when out), then tags (away, free, ready, a bot's level, dealer, host). When
        space is short the name is cut first, then the least needed tags go; "away" and "out"
        stay."""
        s, t = self.c.state, self.t
        playing = (s.table or {}).get("state") == "playing"
        rows = []
        for x in seats:
            seat = x.get("seat")
            name = t.seat_name(s, seat)
            count = ""
            if seat in s.out:
                count = t("out_place", place=s.out.index(seat) + 1)
            elif (
                s.playing
                and s.hand_counts is not None
                and isinstance(seat, int)
                and seat < len(s.hand_counts)
            ):
                count = t.n_cards(s.hand_counts[seat])
            elif s.playing and seat == s.seat and s.hand is not None:
                count = t.n_cards(len(s.hand))
            tags: list[tuple[int, str, str]] = []  # (keep: higher stays longer, style, text)
            if x.get("away"):
                tags.append((9, "class:warn", t("seat.away")))
            if not x.get("name") and not x.get("bot") and s.seats:
                tags.append((8, "class:dim", t("seat.empty")))
            if not playing and x.get("ready") and not x.get("bot"):
                tags.append((4, "class:good", t("seat.ready")))
            if x.get("bot"):
                tags.append((3, "class:dim", t.level(str(x["bot"]))))
            if s.playing and s.dealer == seat:
                tags.append((2, "class:dim", t("dealer_mark")))
            if "host" in (s.table or {}) and (s.table or {}).get("host") == seat:
                tags.append((1, "class:dim", t("host_mark")))
            turn = s.playing and s.turn == seat
            rows.append((seat, name, count, tags, turn))

        def tags_width(tags: list[tuple[int, str, str]]) -> int:
            return sum(get_cwidth(text) + 1 for _, _, text in tags)

        count_w = max((get_cwidth(r[2]) for r in rows), default=0)
        for floor in (0, 1, 2, 3, 4, 8):  # drop tags of keep <= floor until the names keep 8 columns
            tags_w = max((tags_width([g for g in r[3] if g[0] > floor]) for r in rows), default=0)
            if 2 + 8 + 1 + count_w + tags_w <= width:
                break
        kept = [[g for g in r[3] if g[0] > floor] for r in rows]
        tags_w = max((tags_width(k) for k in kept), default=0)
        name_w = max(1, width - 2 - (count_w + 1 if count_w else 0) - tags_w)
        ell = t.glyph("ellipsis")
        cells: list[Line] = []
        for (seat, name, count, _tags, turn), tags in zip(rows, kept):
            style = "class:turn" if turn else ("class:mine" if seat == s.seat else "")
            line: Line = [(style, (t.glyph("turn") if turn else " ") + " " + fit(name, name_w, ell))]
            if count_w:
                line.append(("class:good" if seat in s.out else "", " " + count.rjust(count_w)))
            for _keep, tag_style, text in tags:
                line.append(("", " "))
                line.append((tag_style, text))
            cells.append(line)
        return cells

    def _table_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        if not s.in_deal:
            return self._waiting_text()
        if s.over and s.result:
            return self._result_text()
        out: StyleAndTextTuples = []
        sizes = [t("pile", n=s.pile) if s.pile is not None else t("pile.claimed", n=s.pile_claimed)]
        sizes.append(t("discard", n=s.discard))
        if s.stock:
            sizes.append(t("stock", n=s.stock))
        out.append(("", f" {t.glyph('dot')} ".join(sizes) + "\n"))
        if s.reveal:
            r = s.reveal
            verdict = t("reveal.true") if r["claim_true"] else t("reveal.false")
            who = t.seat_name(s, r["seat"])
            if r.get("none"):
                claim = t("claim.none", rank=t.rank_plural(r["rank"]))
            else:
                claim = t.claim(r["count"], r["rank"])
            out.append(("class:rule.title", t("reveal", no=r["set_no"], name=who, claim=claim) + " "))
            out.extend(self._cards_fragments(r["cards"]) if r["cards"] else [("", t("nothing"))])
            out.append(("class:good" if r["claim_true"] else "class:warn", f" {t.glyph('dash')} {verdict}\n"))
        elif s.last:
            last = s.last
            who = t.seat_name(s, last["seat"])
            if last.get("none"):
                claim = t("claim.none", rank=t.rank_plural(last["rank"]))
            else:
                claim = t.claim(last["count"], last["rank"])
                if last.get("size") is not None and last.get("size") != last.get("count"):
                    claim += t("last.size", n=last["size"])
            out.append(("class:rule.title", t("last", no=last["set_no"], name=who, claim=claim) + "\n"))
        else:
            out.append(("class:dim", t("last.empty") + "\n"))
        if s.held:
            out.append(
                ("class:dim", t("held", claim=t.claim(s.held.get("count"), s.held.get("rank"))) + "\n")
            )
        if s.dealer is not None:
            out.append(("class:dim", t("dealer_is", name=t.seat_name(s, s.dealer)) + "\n"))
        return out

    def _waiting_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        table = s.table or {}
        out: StyleAndTextTuples = []
        about = [t.variant_name(str(table.get("variant") or s.variant))]
        turn_ms = table.get("turn_ms")
        about.append(
            t("about.turn", s=turn_ms // 1000) if isinstance(turn_ms, int) and turn_ms else t("about.untimed")
        )
        if isinstance(table.get("deals"), int):
            about.append(t("about.deals", n=table["deals"]))
        if table.get("password"):
            about.append(t("about.password"))
        if table.get("seeded"):
            about.append(t("about.seeded"))
        if table.get("reveal_after_deal"):
            about.append(t("about.reveal"))
        out.append(("", f" {t.glyph('dot')} ".join(about) + "\n"))
        if s.match_over is None:
            key, _ = table_waiting(s)
            if key == "wait.seats":
                address = self.c.address
                local = not address or address.startswith(("127.", "localhost", "[::1]"))
                how = t("wait.how_local") if local else t("wait.how", command=f"neveryu join {address}")
                out.append(("class:dim", how + "\n"))
            else:
                out.append(("class:turn", waiting_text(t, s) + "\n"))
        else:
            out.append(("class:dim", t("scores.again") + "\n"))
        return out

    def _result_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        r = s.result or {}
        deals = (s.table or {}).get("deals")
        out: StyleAndTextTuples = [
            ("class:rule.title", t("deal_over", deal=_deal_of(s.deal_no, deals)) + " ")
        ]
        if r.get("loser") is not None:
            out.append(("class:warn", t("loser", name=t.seat_name(s, r["loser"])) + "\n"))
        elif r.get("winner") is not None:
            out.append(("class:good", t("winner", name=t.seat_name(s, r["winner"])) + "\n"))
        else:
            out.append(("", "\n"))
        order = ", ".join(f"{i + 1}. {t.seat_name(s, seat)}" for i, seat in enumerate(r.get("out") or ()))
        out.append(("", t("out_order", order=order or t("nothing")) + "\n"))
        fair, status = r.get("fair"), r.get("fair_status")
        key = FAIR_PANEL.get(str(status)) or {True: "fair.ok", False: "fair.bad", None: "fair.unknown"}[fair]
        problems = r.get("fair_problems") or ("commitment",)
        text = t(key, problem=t.fair_problem(problems[0])) if fair is False else t(key)
        style = (
            "class:warn"
            if fair is False or status == "unprotected"
            else "class:good"
            if fair
            else "class:dim"
        )
        out.append((style, text + "\n"))
        if (s.table or {}).get("state") == "playing" and s.match_over is None and self.c.replay is None:
            out.append(("class:dim", t("next_deal") + "\n"))
        return out

    # -- the log and chat ---------------------------------------------------------------------

    def _log_title(self) -> str:
        below = self.c.log_scroll.below()
        if self.c.log_scroll.top is not None and below:
            return self.t("log.scrolled", n=below)
        return self.t("log")

    def _log_text(self) -> StyleAndTextTuples:
        s = self.c.state
        out: StyleAndTextTuples = []
        for line in s.log:
            style = "class:good" if line.key == "recap" else ("class:warn" if line.key in _WARN_LINES else "")
            out.append((style, self.t.log_line(s, line) + "\n"))
        return out

    def _chat_text(self) -> StyleAndTextTuples:
        s, t = self.c.state, self.t
        out: StyleAndTextTuples = []
        for line in s.chat[-40:]:
            who = t.safe(line.name) if line.name else t.seat_name(s, line.seat)
            if line.seat is None:
                who = t("chat.watcher", name=who)
            out.append(("class:mine", who + ":"))
            out.append(("", " " + t.safe(line.text) + "\n"))
        return out

    # -- the notice ---------------------------------------------------------------------------

    def _notice_text(self) -> StyleAndTextTuples:
        c, t = self.c, self.t
        d = c.dialog
        if d is not None and d.kind == "confirm":
            request = d.data["request"]
            last = c.state.last or {}
            claim = t.claim(last.get("count"), last.get("rank")) if last.get("rank") else ""
            key = "confirm.challenge" if request["t"] == "challenge" else "confirm.believe"
            return [
                (
                    "class:myturn",
                    t(key, key=d.data["key"], name=t.seat_name(c.state, last.get("seat")), claim=claim),
                )
            ]
        notice = c.current_notice()
        if notice is not None:
            return [("class:" + notice.style, notice.text)]
        s = c.state
        if s.bye:
            return [
                (
                    "class:warn",
                    t("bye." + s.bye) if ("bye." + s.bye) in t.table else t("log.bye", reason=s.bye),
                )
            ]
        if s.connection in ("lost", "resuming"):
            return [("class:warn", t("notice.lost"))]
        why = moment(s) if s.screen == "table" else None
        if why is not None:
            key, args = why
            return [("class:warn" if key == "why.away" else "class:notice.why", t.why(s, key, args))]
        return []

    # -- the hand -----------------------------------------------------------------------------

    def _hand_title(self) -> str:
        c, s, t = self.c, self.c.state, self.t
        if c.replay is not None and c.replay.hands is not None:
            return t("replay.hands")
        if s.hand is None:
            return t("hand")
        title = t("hand.n", n=t.n_cards(len(c.hand)))
        chosen = c.selected_cards()
        if chosen:
            title += f" {t.glyph('dot')} " + t("hand.selected", n=len(chosen), cards=t.cards(chosen))
        return title

    def _hand_lines(self, width: int, height: int) -> list[Line]:
        c, s, t = self.c, self.c.state, self.t
        if c.replay is not None and c.replay.hands is not None:
            return self._every_hand(width)
        if s.hand is None:
            return [[("class:dim", t("spectating") if s.seat is None else t("not_started"))]]
        if not c.hand:
            return [[("class:dim", t("hand.empty") if s.playing else t("not_started"))]]
        per = max(1, width // CELL)
        out: list[Line] = []
        for start in range(0, len(c.hand), per):
            line: Line = []
            for i in range(start, min(start + per, len(c.hand))):
                card = c.hand[i]
                cursor, chosen = i == c.cursor, i in c.selected
                style = "class:cursor" if cursor else ("class:selected" if chosen else "")
                red = " class:red" if not t.ascii and card[1:] in RED_SUITS else ""
                left = "[" if cursor else ("*" if chosen else " ")
                right = "]" if cursor else " "
                face = t.card(card)
                if cursor and chosen and len(face) < 3:  # "[*Q♠]": selected under the cursor
                    face = "*" + face
                line.append((style, left))
                line.append((style + red + (" class:selected" if chosen else ""), f"{face:>3}"))
                line.append((style, right))
            out.append(line)
        return out

    def _every_hand(self, width: int) -> list[Line]:
        """A replay's every-hand view: one line per seat (more when a hand is long), the name
        then the cards."""
        s, t = self.c.state, self.t
        hands = self.c.replay.hands
        names = [t.seat_name(s, seat, you=False) for seat, _ in hands]
        name_w = min(max((get_cwidth(n) for n in names), default=1), max(8, width // 4))
        out: list[Line] = []
        per = max(1, (width - name_w - 2) // 4)
        for name, (seat, cards) in zip(names, hands):
            style = "class:turn" if s.playing and s.turn == seat else ""
            label = fit(name, name_w, t.glyph("ellipsis")).ljust(name_w)
            ordered = sorted(cards, key=model_card_key)
            rows = [ordered[i : i + per] for i in range(0, len(ordered), per)] or [[]]
            for k, row in enumerate(rows):
                line: Line = [(style, (label if k == 0 else " " * name_w) + "  ")]
                for i, card in enumerate(row):
                    red = not t.ascii and card[1:] in RED_SUITS
                    line.append(("class:red" if red else "", (" " if i else "") + t.card(card).rjust(3)))
                if not row:
                    line.append(("class:dim", t("replay.no_cards")))
                out.append(line)
        return out

    def _cards_fragments(self, cards: Any) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for i, card in enumerate(cards):
            if i:
                out.append(("", " "))
            red = not self.t.ascii and card[1:] in RED_SUITS
            out.append(("class:red" if red else "", self.t.card(card)))
        return out

    # -- the key bar --------------------------------------------------------------------------

    def _keys_lines(self, width: int, height: int) -> list[Line]:
        out: list[Line] = []
        for row in keybar.fit(keybar.entries(self.c), width, KEY_LINES):
            line: Line = []
            for i, k in enumerate(row):
                if i:
                    line.append(("", " " * keybar.GAP))
                if k.key:
                    line.append(("class:key", k.key))
                    line.append(("", " " + k.label))
                else:
                    line.append(("class:dim", k.label))
            out.append(line)
        return out

    # -- dialogs ------------------------------------------------------------------------------

    def _dialog_title(self) -> str:
        d = self.c.dialog
        return self.t("dialog." + d.kind) if d is not None else ""

    def _dialog_text(self) -> StyleAndTextTuples:
        from . import pages

        return pages.dialog_text(self.c)


_WARN_LINES = frozenset(
    {
        "error",
        "conn_lost",
        "conn_closed",
        "bye",
        "fair_bad",
        "fair_unprotected",
        "away_dropped",
        "away_timeout",
        "removed",
    }
)

FAIR_PANEL = {
    "fair": "fair.fair",
    "checked": "fair.checked",
    "seeded": "fair.seeded",
    "unprotected": "fair.unprotected",
    "committed": "fair.ok",
    "bad": "fair.bad",
    "unknown": "fair.unknown",
}
"""The deal's-end line of each fair-deal verdict (client/fairdeal.py, ``STATUSES``)."""


def _small() -> bool:
    width, height = _size()
    return width < MIN_WIDTH or height < MIN_HEIGHT


def _deal_of(deal_no: int, deals: Any) -> str:
    return f"{deal_no}/{deals}" if isinstance(deals, int) and deals else str(deal_no)


def _lobby_seat(t: Texts, x: dict[str, Any]) -> str:
    if x.get("bot"):
        return t("bot_n", n=int(x.get("seat", 0)) + 1) + f" ({t.level(str(x['bot']))})"
    return t.safe(str(x.get("name"))) if x.get("name") else t("seat.empty")


def _plain_wrap(text: str, width: int) -> list[str]:
    return ["".join(f[1] for f in line) for line in wrap([("", text)], width)]


def _cut_line(line: Line, width: int, ellipsis: str) -> Line:
    """``line`` cut to ``width`` columns (an ellipsis marks the cut)."""
    total = sum(get_cwidth(f[1]) for f in line)
    if total <= width:
        return line
    out: Line = []
    used = 0
    for fragment in line:
        style, text = fragment[0], fragment[1]
        w = get_cwidth(text)
        if used + w <= width - 1:
            out.append((style, text))
            used += w
            continue
        out.append((style, fit(text, width - used, ellipsis).rstrip()))
        break
    return out
