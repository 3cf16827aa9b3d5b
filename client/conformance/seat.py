"""One seat as the protocol shows it: its hand, its latest ``legal`` and whether that ``legal``
still stands, kept from the events the seat receives (docs/PROTOCOL.md, section 6 "legal" and
section 11 step 4). The scripted server judges a client's game requests with it; the server
probe chooses its own with it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from neveryu import protocol

DEAL_EVENTS = protocol.HISTORY_EVENTS | {"turn", "window_closed"}
"""The events of a deal: a batch holding one ends with the seat's ``legal`` (section 6, legal)."""

LEGAL_RULE = "6. The game, legal: what you may do"
CLIENT_RULE = "11. Writing a client"


class Seat:
    """What one seat may know and do now. ``seat``: its number, None for a spectator."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.hand: Counter[str] = Counter()
        self.legal: dict[str, Any] | None = None
        self.batch_open = False  # an event of the deal came after the latest legal
        self.used = False  # a game request was done (ok) on the latest legal
        self.refused: set[str] = set()  # game requests refused (not RATE_LIMITED) on the latest legal
        self.seeds: set[int] = set()  # deal_no of seed_committed not yet answered
        self._laid: list[str] = []  # the cards of the seat's last set_laid still in the pile
        self._held: list[str] | None = None  # the cards of its set laid early and still held
        self.turn: int | None = None  # the seat to act, from the latest turn (or state)
        self.seq = 0  # the highest seq taken: an event at or below it is a repeat (a replay)

    def observe(self, event: dict[str, Any]) -> None:
        """Take one event as the seat received it (unknown types and fields are ignored; a
        ``seq`` already taken is a repeat and changes nothing)."""
        seq = event.get("seq")
        if type(seq) is int:
            if seq <= self.seq:
                return
            self.seq = seq
        t = str(event.get("t"))
        mine = self.seat is not None and event.get("seat") == self.seat
        if t in DEAL_EVENTS:
            self.batch_open = True
        if t in ("deal_started", "state"):  # a new hand: the deal's, or a snapshot's
            self.hand = Counter(event.get("hand") or [])
            held = event.get("held") if t == "state" else None
            self._laid, self._held = [], list(held["cards"]) if isinstance(held, dict) else None
            if t == "state":
                self._take_legal(event.get("legal"))
                self.turn = event.get("turn")
        elif t == "turn":
            self.turn = event.get("seat")
        elif t == "legal":
            self._take_legal(event)
        elif t == "seed_committed" and type(event.get("deal_no")) is int:
            self.seeds.add(event["deal_no"])
        elif t in ("pile_taken", "pile_discarded"):
            self._laid = []  # the pile is gone, our set with it
        if mine:
            self._own(t, event)

    def _own(self, t: str, event: dict[str, Any]) -> None:
        """An event about this seat (section 11, step 4)."""
        cards = list(event.get("cards") or [])
        if t == "set_held":
            self._held = cards  # still in the hand until its set_laid
        elif t == "set_laid":
            self._laid, self._held = cards, None
            self.hand -= Counter(cards)
        elif t == "set_returned":
            if self._held is not None:
                self._held = None  # held only: it never left the hand
            elif self._laid == cards:
                self.hand += Counter(cards)  # the set that covered the winner's last one
                self._laid = []
        elif t in ("pile_taken", "stock_drawn"):
            self.hand += Counter(cards)
        elif t == "quads_discarded":
            self.hand -= Counter(cards)

    def _take_legal(self, legal: dict[str, Any] | None) -> None:
        self.legal = legal
        self.batch_open = False
        self.used = False
        self.refused = set()

    def offers(self) -> bool:
        """The latest legal offers something and may still be acted on."""
        legal = self.legal
        if legal is None or self.batch_open or self.used:
            return False
        return bool(
            legal.get("lay") is not None
            or legal.get("challenge") is not None
            or legal.get("believe") is not None
            or legal.get("declare_none") is not None
            or legal.get("discard_quads")
            or legal.get("decline_quads")
        )

    def problem(self, request: dict[str, Any]) -> str | None:
        """Why the seat may not send ``request`` now (a rule, with its section), or None.
        Requests that are not the deal's pass, but ``contribute``, which needs its
        ``seed_committed``."""
        t = request["t"]
        if t == "contribute":
            if request.get("deal_no") not in self.seeds:
                return "contribute to a deal whose seed_committed it was not sent, or twice (9.2 Fair deal 2)"
            return None
        if t not in protocol.GAME_REQUESTS:
            return None
        if self.seat is None:
            return f"a game request from a spectator ({LEGAL_RULE}: a spectator acts on nothing)"
        if self.legal is None:
            return f"a game request before any legal came ({LEGAL_RULE})"
        if self.batch_open:
            return f"acted in an open batch: an event of the deal came after the latest legal ({LEGAL_RULE})"
        if self.used:
            return f"acted twice on one legal: after ok, wait for the next legal ({CLIENT_RULE}, step 3)"
        if key(request) in self.refused:
            return f"repeated a refused request unchanged ({CLIENT_RULE}, step 3)"
        return self._offered(t, request)

    def _offered(self, t: str, request: dict[str, Any]) -> str | None:
        legal = self.legal or {}
        offered = f"({LEGAL_RULE}: legal offers {_offer(legal)})"
        if t == "lay":
            lay = legal.get("lay")
            if lay is None:
                return f"lay where legal offers no lay {offered}"
            cards = list(request["cards"])
            if not lay["min"] <= len(cards) <= lay["max"]:
                return f"lay of {len(cards)} cards: legal.lay allows {lay['min']}..{lay['max']}"
            missing = Counter(cards) - self.hand
            if missing:
                return f"lay of cards the hand does not hold: {' '.join(sorted(missing.elements()))}"
            rank = request.get("rank")
            if rank is None and len(lay["ranks"]) != 1:
                return "lay without a rank where legal.lay.ranks offers several"
            if rank is not None and rank not in lay["ranks"]:
                return f"lay claiming {rank}: legal.lay.ranks is {lay['ranks']}"
            return _count_problem(lay, request.get("count"))
        if t in ("challenge", "believe"):
            if request["set_no"] != legal.get(t):
                return f"{t} of set {request['set_no']} {offered}"
            return None
        if t == "declare_none":
            return None if legal.get("declare_none") is not None else f"declare_none {offered}"
        if t == "discard_quads":
            extra = Counter(request["ranks"]) - Counter(legal.get("discard_quads") or [])
            return f"discard_quads of {sorted(extra.elements())} {offered}" if extra else None
        return None if legal.get("decline_quads") else f"decline_quads {offered}"


def key(request: dict[str, Any]) -> str:
    """A request without its id, to tell a repeated one."""
    return repr(sorted((k, v) for k, v in request.items() if k != "id"))


def _count_problem(lay: dict[str, Any], count: Any) -> str | None:
    low, high = lay.get("count_min"), lay.get("count_max")
    if low is None:
        return None if count is None else "lay with a count where legal.lay gives no count_min"
    if count is not None and not low <= count <= high:
        return f"lay with count {count}: legal.lay allows {low}..{high}"
    return None


def _offer(legal: dict[str, Any]) -> str:
    parts = [
        f"{name} {legal[name]}"
        for name in ("lay", "challenge", "believe", "declare_none", "discard_quads", "decline_quads")
        if legal.get(name) not in (None, [], False)
    ]
    return ", ".join(parts) or "nothing"
