"""What each message read from the server becomes (client/ui/net.py lists the local notes): the
``seq`` kept for a resume, ``welcome``'s heartbeat and idle times, the ``pong`` that ends a
resume's replay, replies told apart by the request they answer (``leave``, ``list_records`` with
``mine``, ``contribute``), fair deal 2's contribution (client/fairdeal.py), and the verdict on
the connection: go on, lost (resume) or over for good.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

import trio

from neveryu.client import fairdeal

log = logging.getLogger("neveryu.client")

Msg = dict[str, Any]

RESUMABLE_BYES = frozenset({"idle", "too_slow", "frame_timeout"})


class Inbox:
    """The messages' side of ``Net`` (its attributes are set by ``Net.__init__``)."""

    deliver: Callable[[Msg], None]
    on_welcome: Callable[[Msg, bool], None]
    session: str | None
    last_seq: int
    welcomed: bool
    _pending: dict[int, str]  # request id -> what it asked (``Link._write``)
    _replay_ping: int | None
    _send_channel: trio.MemorySendChannel[Msg] | None
    _heartbeat_s: float
    _idle_s: float
    _contributed: set[str]
    send: Callable[[Msg], None]  # (``Net.send``)

    def _closed(self, reason: str) -> None:
        self.deliver({"t": "_connection", "status": "closed", "reason": reason})

    def _handle(self, msg: Msg) -> Literal[False] | str | None:
        """Deliver one message. False: go on; None: the connection is over for good; a string:
        it is lost for that reason (resume)."""
        seq = msg.get("seq")
        if type(seq) is int and seq > self.last_seq:
            self.last_seq = seq
        t = msg.get("t")
        rid = msg.get("re")
        asked = self._pending.pop(rid, None) if type(rid) is int else None
        if t == "pong":
            if rid == self._replay_ping:
                self._replay_ping = None
                self.deliver({"t": "_replayed"})
            return False
        if t == "heartbeat":
            return False
        if t == "welcome":
            self._welcome(msg)
            return False
        if asked == "contribute" and t in ("ok", "error") and not msg.get("fatal"):
            self.deliver({"t": "_contribution", "status": "taken" if t == "ok" else "refused"})
            return False
        if t == "seed_committed":
            self.deliver(msg)
            self._contribute(msg)
            return False
        if t == "ok" and asked == "leave":
            self.deliver({"t": "_left"})
            self.send({"t": "list_tables"})
            return False
        if t == "error" and msg.get("fatal"):
            self.deliver(msg)
            self._closed(str(msg.get("msg") or msg.get("code")))
            return None
        if t == "bye":
            self.deliver(msg)
            if msg.get("reason") in RESUMABLE_BYES:
                return f"the server dropped the connection ({msg.get('reason')})"
            return None
        if t == "ok":
            return False
        if t == "records" and asked == "list_records_mine":
            self.deliver({**msg, "t": "_my_records"})
            return False
        self.deliver(msg)
        return False

    def _welcome(self, msg: Msg) -> None:
        """``welcome``: the session's token, the heartbeat and idle times it names."""
        self.welcomed = True
        resumed = bool(msg.get("resumed"))
        self.session = msg.get("session") or self.session
        if type(msg.get("heartbeat_ms")) is int:
            self._heartbeat_s = max(0.5, msg["heartbeat_ms"] / 2000.0)
        limits = msg.get("limits")
        if isinstance(limits, dict) and type(limits.get("idle_ms")) is int:
            self._idle_s = max(1.0, limits["idle_ms"] / 1000.0)
        self.deliver(msg)
        self.on_welcome(msg, resumed)

    def _contribute(self, msg: Msg) -> None:
        """Fair deal 2: answer ``seed_committed`` with 32 fresh random bytes (once per seed)."""
        deal_no, seed_hash = msg.get("deal_no"), str(msg.get("seed_hash"))
        channel = self._send_channel
        if type(deal_no) is not int or channel is None or seed_hash in self._contributed:
            return
        self._contributed.add(seed_hash)
        contribution = fairdeal.new_contribution()
        self.deliver(
            {"t": "_contribution", "status": "sent", "deal_no": deal_no, "contribution": contribution}
        )
        try:
            channel.send_nowait({"t": "contribute", "deal_no": deal_no, "contribution": contribution})
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            log.warning("contribution to deal %d dropped", deal_no)
