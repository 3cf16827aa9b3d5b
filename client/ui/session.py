"""The session with a server, as both faces of the client keep it (the full screen: client/ui/app.py;
the line mode: client/plain/session.py): the fields of ``hello``, the session kept on disk and
followed message by message (``Keeper``; client/session_store.py), the model's first state when a
kept session resumes, and the note on the terminal at the end that says how to come back.
"""

from __future__ import annotations

from typing import Any

import attrs

from neveryu import protocol

from . import model
from .controller import Controller
from .net_inbox import RESUMABLE_BYES

CLIENT_NAME = "neveryu-tui"
RECENT_DEALS = 5  # the server's last deals the lobby shows
Msg = dict[str, Any]


def hello_fields(name: str, password: str | None, player_key: str | None = None) -> Msg:
    """The fields of ``hello`` besides ``t``, ``id`` and ``resume`` (docs/PROTOCOL.md, hello): the
    protocol version, this client's name and version, the player's ``name``, and ``password`` and
    ``player_key`` where given."""
    fields: Msg = {
        "proto": [protocol.PROTOCOL_VERSION, protocol.PROTOCOL_VERSION],
        "client": {"name": CLIENT_NAME, "version": _version()},
        "name": name,
    }
    if password:
        fields["password"] = password
    if player_key:  # client/player_key.py
        fields["player_key"] = player_key
    return fields


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("neveryu")
    except PackageNotFoundError:
        return "0"


@attrs.define
class Keeper:
    """Keeps the session of ``slot`` (client/session_store.py) in step with the model: saved
    while the session sits at a table, forgotten when it no longer does; ``match_only``
    (``neveryu play``): only while a match is on (a match over is no game to go on with)."""

    slot: Any
    name: str
    match_only: bool = False
    deal_seq: int = 0
    seen: int = 0  # the highest seq seen, also before a restart (a replay goes over older ones)
    deal_events: int = 0  # the deal's history events shown (protocol.HISTORY_EVENTS)

    @classmethod
    def of(cls, slot: Any, name: str, match_only: bool = False) -> Keeper | None:
        """The keeper of ``slot`` (None: nowhere to keep), from what it kept."""
        if slot is None:
            return None
        kept = slot.kept
        if kept is None:
            return cls(slot, name, match_only)
        return cls(slot, name, match_only, kept.deal_seq, kept.seq, kept.deal_events)

    def follow(self, msg: Msg, state: model.State) -> None:
        t = msg.get("t")
        seq = msg.get("seq")
        new = isinstance(seq, int) and seq > self.seen  # (not a replay of what was shown)
        self.seen = max(self.seen, state.last_seq)
        if t in ("deal_started", "state") and isinstance(seq, int):
            self.deal_seq = seq  # a fresh client replays from here: the deal is whole again
            history = msg.get("history")
            if t == "state" and isinstance(history, list):
                self.deal_events = len(history)
            elif t == "deal_started" and new:  # (a replayed start was counted when it was shown)
                self.deal_events = 1
        elif t == "match_ended":
            self.deal_seq = self.deal_events = 0
        elif new and t in protocol.HISTORY_EVENTS:
            self.deal_events += 1
        over = self.match_only and t == "match_ended"
        if (
            over
            or t in ("_fresh", "_left", "table_closed")
            or (t == "bye" and msg.get("reason") not in RESUMABLE_BYES)
        ):
            self.slot.forget()
        elif self.match_only and (state.table or {}).get("state") != "playing":
            pass  # between matches: nothing kept until the next starts
        elif state.session and state.screen == "table":
            self.slot.save(self.name, state.session, self.seen, self.deal_seq, self.deal_events)

    def end(self, state: model.State, gone: bool) -> None:
        """The client stops: ``gone`` (no seat to come back to), the session is forgotten; else
        it is kept with the last ``seq`` seen (``follow`` wrote it already): what the player saw
        is not "while you were away" when he comes back."""
        if gone:
            self.slot.forget()
        elif state.session and state.screen == "table":
            self.slot.save(self.name, state.session, self.seen, self.deal_seq, self.deal_events)


def resumed_state(name: str, kept: Any) -> model.State:
    """The model's first state: with a kept session (client/session_store.py), the last ``seq``
    seen and the deal's events shown, which the recap after the resume leaves out."""
    if kept is None:
        return model.State(name=name)
    return model.State(name=name, recap_seen=kept.seq, recap_known=kept.deal_events)


def exit_note(c: Controller, address: str, command: str) -> str | None:
    """What to say on the terminal once the screen has closed: how to come back, if anything
    can be come back to."""
    s, t = c.state, c.t
    if s.bye == "shutdown":
        return t("exit.server_gone", address=address, command=command)
    if s.bye == "replaced":
        return t("exit.replaced")
    if not seat_kept(c) or not command:
        return None
    table = (s.table or {}).get("id")
    if s.seat is None:  # a spectator: his session waits the grace time, as any (docs/PROTOCOL.md, Resume)
        return t("exit.watch_kept", table=table, command=command)
    if s.connection in ("lost", "resuming", "connecting"):
        return t("exit.lost", address=address, command=command)
    if s.connection == "connected" and (s.table or {}).get("state") != "playing":
        return t("exit.seat_waits", table=table, command=command)  # no match on: docs/PROTOCOL.md, Resume
    if s.connection == "connected":
        return t("exit.seat_kept", table=table, command=command)
    return None


def seat_kept(c: Controller) -> bool:
    """Whether the client that stops now keeps its seat to come back to: at a table, not given
    up (``leave``); for ``neveryu play`` (``leave_quits``), only while its match is on (a match
    over is no game left unfinished)."""
    s = c.state
    if s.screen != "table" or c.left:
        return False
    return not (c.leave_quits and (s.table or {}).get("state") != "playing")
