"""The client's model: a pure reducer of protocol messages into what the client knows.

``reduce(state, msg, now) -> State`` takes one decoded message (a dict as ``protocol`` gives it:
a reply, an event, or a local note such as ``{"t": "_connection", "status": "lost"}``) and returns
a new ``State``; it never mutates its input and does no I/O. ``now`` is the local monotonic clock
in seconds, used only to turn a ``time_ms`` countdown into a deadline. Unknown message types and
fields are ignored (docs/PROTOCOL.md: clients ignore what they do not know).

The terminal client draws this state, and the headless bot (client/botclient.py) plays from it
through ``engine_view``: one reducer for both. Game events mirror engine/_events.py field for
field (docs/PROTOCOL.md); the words are docs/RULES.md's: hand, set, claim, pile, challenge, believe,
discard, quad, out, deal.

The log holds ``Line(key, args, names)`` records, not text: ``texts.py`` turns them into Russian or
English. ``names`` is who sat where when the line was written, so a line never changes its names
afterwards. Each table keeps its own log; the lobby has one too.

One reducer, in parts by job: ``model_state`` (the ``State`` and the log's helpers),
``model_lobby`` (the session, the lobby, seats, matches, chat, the recap after a resume),
``model_deal`` (a deal's events), ``model_pile`` (where the cards go once a set is settled: piles,
quads, the stock), ``model_snapshot`` (the ``state`` snapshot and the deal's
history it brings), ``model_fair`` (the fair deal); this module joins their
``HANDLERS`` and adds what a bot reads (``engine_view``).

Local notes (``t`` starting with ``_``), made by the network side (client/ui/net.py):

- ``{"t": "_connection", "status": "connecting" | "connected" | "lost" | "resuming" | "closed",
  "reason": str}``: the link changed;
- ``{"t": "_left"}``: the reply to our own ``leave``;
- ``{"t": "_replayed"}``: everything the server replayed after a resume has arrived (the reply
  to a ``ping`` sent right after ``hello``): the "while you were away" recap is made then;
- ``{"t": "_fresh", "reason": str}``: the kept session could not be resumed (``BAD_RESUME``);
  a new session starts in the lobby;
- ``{"t": "_my_records", "records": [record summary]}``: the deals this session played
  (``list_records`` with ``mine``), newest first, for the list of one's own deals;
- ``{"t": "_contribution", "status": "sent" | "taken" | "refused", "deal_no": int,
  "contribution": str}``: fair deal 2, what became of this client's contribution to the next
  deal's shuffle (``deal_no`` and ``contribution`` only with ``sent``; ``taken``: the server said
  ``ok``, ``refused``: an ``error``, it came too late). The deal's end checks that it was used
  (client/fairdeal.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from neveryu import engine

from . import model_deal, model_fair, model_lobby, model_snapshot
from .model_lobby import recap_args
from .model_state import (
    NO_NAMES,
    ChatLine,
    Line,
    Msg,
    Names,
    State,
    card_key,
    fair_deal_holds,
    names_of,
    sort_hand,
)

__all__ = [
    "NO_NAMES",
    "ChatLine",
    "Line",
    "Msg",
    "Names",
    "State",
    "card_key",
    "engine_legal",
    "engine_view",
    "fair_deal_holds",
    "names_of",
    "recap_args",
    "reduce",
    "reduce_all",
    "sort_hand",
]

DEAL_EVENTS = frozenset(engine.EVENT_TYPES) - {"dealer_drawn"}  # a batch of these ends with a legal

HANDLERS = {**model_lobby.HANDLERS, **model_fair.HANDLERS, **model_deal.HANDLERS, **model_snapshot.HANDLERS}
"""Every message type the model knows, and its handler ``(state, msg, now) -> state``."""

TABLE_EVENTS = frozenset(model_deal.HANDLERS) | {
    "seed_committed",
    "player_joined",
    "seat_changed",
    "match_started",
    "match_ended",
}
"""The events of a table's deal and match: in the lobby they can only be replayed ones, of a
table this session sat at before a resume found its seat gone (``state`` brings its own table;
``player_left`` may say why the seat is gone: model_lobby)."""


def reduce(state: State, msg: Msg, now: float = 0.0) -> State:
    """The state after ``msg``. Events carry ``seq``; it is remembered for resume. Messages of a
    type this client does not know change nothing but ``last_seq``."""
    seq = msg.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool) and seq > state.last_seq:
        state = attrs.evolve(state, last_seq=seq)
    t = msg.get("t")
    if t in DEAL_EVENTS and "seq" in msg:
        state = attrs.evolve(state, in_batch=True)
    elif t in ("legal", "state"):
        state = attrs.evolve(state, in_batch=False)
    handler = HANDLERS.get(t)  # type: ignore[arg-type]
    if handler is None:
        return state
    if state.screen == "lobby" and t in TABLE_EVENTS:
        return state  # replayed after a resume, of a table this session no longer sits at
    return handler(state, msg, now)


def reduce_all(msgs: Iterable[Msg], state: State | None = None, now: float = 0.0) -> State:
    """Fold ``reduce`` over ``msgs`` from ``state`` (default: a fresh State)."""
    state = state if state is not None else State()
    for m in msgs:
        state = reduce(state, m, now)
    return state


# -- the seat's view, as the engine's bots read it ----------------------------------------------


def engine_legal(legal: Msg | None) -> engine.Legal:
    """The ``legal`` fields (as the model keeps them) as an engine ``Legal``."""
    if not legal:
        return engine.NO_ACTION
    lay = legal.get("lay")
    bounds = None
    if lay is not None:
        bounds = engine.LayBounds(
            lay["min"], lay["max"], tuple(lay["ranks"]), lay.get("count_min"), lay.get("count_max")
        )
    return engine.Legal(
        lay=bounds,
        challenge=legal.get("challenge"),
        believe=legal.get("believe"),
        declare_none=legal.get("declare_none"),
        discard_quads=tuple(legal.get("discard_quads") or ()),
        decline_quads=bool(legal.get("decline_quads")),
    )


def engine_view(s: State) -> engine.View:
    """What this seat knows of the deal as an engine ``View`` (engine/_view.py), for a bot. The
    hand is the playable one: a set laid early and held has left it. Meaningful while a deal is
    being played (``State.playing``)."""
    last = s.last
    return engine.View(
        variant=s.variant,
        seat=s.seat,
        players=s.players,
        deck=s.deck,
        dealer=s.dealer if s.dealer is not None else 0,
        hand=s.playable_hand if s.hand is not None else None,
        hand_counts=s.hand_counts,
        pile=s.pile,
        discard=s.discard,
        stock=s.stock,
        hidden=s.hidden,
        set_aside=s.set_aside,
        last=None
        if last is None
        else engine.LastSet(
            last["set_no"], last["seat"], last["rank"], last["count"], last["size"], bool(last.get("none"))
        ),
        ranks=s.ranks,
        turn=s.turn,
        set_no=s.set_no,
        window_open=s.window_open,
        quads_window=(s.quads_window or {}).get("seat"),
        out=s.out,
        waiting=s.waiting,
        over=s.over,
        loser=(s.result or {}).get("loser"),
        winner=(s.result or {}).get("winner"),
        legal=engine_legal(s.legal),
    )
