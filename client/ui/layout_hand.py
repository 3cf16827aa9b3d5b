"""The hand's part of the screen: this seat's cards (the cursor in brackets, a selected card
marked ``*``), or in a replay's every-hand view each seat's cards."""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from .layout_common import CELL, Regions
from .model import card_key as model_card_key
from .texts import RED_SUITS
from .wrap import Line, fit


class HandRegions(Regions):
    def _hand_title(self) -> str:
        c, s, t = self.c, self.c.state, self.t
        if c.replay is not None and c.replay.hands is not None:
            return t("replay.hands")
        if s.hand is None:
            return t("hand")
        if not t.live:  # a replay from a seat's view: that seat's hand, not the reader's
            return t("replay.hand", name=t.seat_name(s, s.seat), n=t.n_cards(len(c.hand)))
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
            if not t.live:
                return [[("class:dim", t("replay.no_cards"))]]
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
                if not row:  # where a card's face starts (a card is right-aligned in 3 columns)
                    line.append(("class:dim", " " + t("replay.no_cards")))
                out.append(line)
        return out
