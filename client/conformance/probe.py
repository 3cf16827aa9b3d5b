"""``neveryu conformance server HOST:PORT``: the catalogue's ``server`` steps sent to a server,
its answers checked against docs/PROTOCOL.md (docs/CONFORMANCE.md, "The server direction").

Every message from the server is read with the protocol package's ``Connection`` (framing,
envelope) and, for a documented type, checked by its message class; per connection, events'
``seq`` strictly increase and replies come in the order of the requests. A ``play`` step plays
the seat through the deal with ``Seat``: it acts only on a legal that ends its batch, and checks
that no event shows it another seat's cards.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any

import trio

from neveryu import protocol

from .catalogue import Case
from .patterns import mismatch
from .report import Result
from .seat import Seat

HIDDEN = {"set_laid": "cards", "pile_taken": "cards", "stock_drawn": "cards", "quads_discarded": "cards"}
"""Fields only their seat may see (docs/PROTOCOL.md 6, Who sees what)."""


class Failure(Exception):
    """A rule the server broke: the message says which, ``frame`` what it sent."""

    def __init__(self, rule: str, frame: dict[str, Any] | None = None) -> None:
        super().__init__(rule)
        self.frame = frame


class Peer:
    """One connection to the server under test."""

    def __init__(self, stream: trio.SocketStream, timeout: float) -> None:
        self.stream = stream
        self.wire = protocol.Connection("client")
        self.timeout = timeout
        self.ids = 0
        self.seq = 0
        self.session = ""
        self.events: list[dict[str, Any]] = []
        self.waiting: list[int] = []
        self.seat: Seat | None = None

    async def send(self, msg: dict[str, Any]) -> int:
        self.ids += 1
        self.waiting.append(self.ids)
        await self.stream.send_all(self.wire.send({**msg, "id": self.ids}))
        return self.ids

    async def receive(self) -> dict[str, Any] | None:
        """The next message, checked; None when the server closed the connection."""
        while True:
            try:
                msg = self.wire.next_message()
            except protocol.RemoteProtocolError as exc:
                raise Failure(f"{exc.code}: {exc.msg} (1. Transport and framing; 3. Envelope)") from None
            if msg is not None:
                self._check(msg)
                return msg
            with trio.move_on_after(self.timeout) as scope:
                try:
                    data = await self.stream.receive_some(65_536)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = b""
            if scope.cancelled_caught:
                raise Failure(f"nothing came for {self.timeout:.0f} s")
            if not data:
                return None
            self.wire.receive_data(data)

    def _check(self, msg: dict[str, Any]) -> None:
        registry = protocol.REPLIES if "re" in msg else protocol.EVENTS
        cls = registry.get(msg["t"])
        if cls is not None:  # a type this kit does not know may come from a newer server
            try:
                cls.from_wire(msg)
            except protocol.RemoteProtocolError as exc:
                raise Failure(f"{msg['t']} breaks its schema: {exc.msg}", msg) from None
        if "re" in msg:
            if msg["re"] is not None:
                if not self.waiting or msg["re"] != self.waiting[0]:
                    raise Failure("a reply out of the order of the requests (3. Envelope)", msg)
                self.waiting.pop(0)
            return
        if msg["seq"] <= self.seq:
            raise Failure(f"seq {msg['seq']} after {self.seq}: seq strictly increases (3. Envelope)", msg)
        self.seq = msg["seq"]
        if self.seat is not None:
            problem = hidden_problem(msg, self.seat.seat)
            if problem is not None:
                raise Failure(problem, msg)
            self.seat.observe(msg)

    async def leave(self) -> None:
        """Leave the table, if any, so that it closes at once (a dropped player's table waits
        for his grace time, and a server holds few tables per address); then close."""
        with (
            trio.move_on_after(self.timeout),
            contextlib.suppress(Failure, OSError, trio.BrokenResourceError, trio.ClosedResourceError),
        ):
            if self.seat is not None:
                await self.reply(await self.send({"t": "leave"}))
        await trio.aclose_forcefully(self.stream)

    async def reply(self, rid: int) -> dict[str, Any]:
        while True:
            msg = await self.receive()
            if msg is None:
                raise Failure(f"the connection closed before the reply to request {rid}")
            if msg.get("re") == rid or (msg.get("re") is None and msg["t"] == "error"):
                return msg
            if "seq" in msg:
                self.events.append(msg)

    async def event(
        self, want: dict[str, Any], only: list[str] | None = None, why: str = ""
    ) -> dict[str, Any]:
        """The next event matching ``want``; ``only``: the types the events before it may have
        (None: any; ``why``: the rule)."""
        while True:
            while self.events:
                msg = self.events.pop(0)
                if mismatch(want, msg) is None:
                    return msg
                if only is not None and msg["t"] not in only:
                    rule = f"only {only} may come before the {want.get('t')} awaited: {why}"
                    raise Failure(f"{msg['t']} came, but {rule}", msg)
            try:
                got = await self.receive()
            except Failure as exc:
                if exc.frame is not None or not why:
                    raise
                raise Failure(f"{exc}, awaiting an event like {want}: {why}") from None
            if got is None:
                raise Failure(f"the connection closed before an event like {want}")
            if "seq" in got:
                self.events.append(got)


def hidden_problem(msg: dict[str, Any], seat: int | None) -> str | None:
    """What ``msg`` shows ``seat`` (None: a spectator) that it may not see (docs/PROTOCOL.md 6,
    Who sees what): another seat's cards; a hand or a legal to a spectator. None: nothing."""
    field = HIDDEN.get(msg["t"])
    if field and msg.get("seat") != seat and msg.get(field) is not None:
        return f"{msg['t']}.{field} of another seat reached this one (6. Who sees what)"
    if seat is None and (msg["t"] == "legal" or msg.get("hand") is not None):
        return f"a spectator got a {msg['t']} with a hand or a legal (6. Who sees what)"
    return None


class Probe:
    """One case's ``server`` steps against ``host``:``port``."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.peers: dict[str, Peer] = {}
        self.vars: dict[str, Any] = {}

    async def run(self, steps: tuple[dict[str, Any], ...]) -> None:
        try:
            for step in steps:
                await self._step(step)
        finally:
            for peer in self.peers.values():
                await peer.leave()

    def _fill(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self._fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._fill(v) for v in value]
        if isinstance(value, str) and value.startswith("$") and value[1:] in self.vars:
            return self.vars[value[1:]]
        return value

    async def _step(self, step: dict[str, Any]) -> None:
        on = step.get("on", "a")
        if "connect" in step:
            await self._connect(step["connect"], step)
            return
        peer = self.peers[on]
        if "request" in step:
            msg = await peer.reply(await peer.send(self._fill(step["request"])))
            cls = protocol.REQUESTS.get(step["request"]["t"])
            self._expect(step.get("reply", {"t": cls.REPLY if cls else "error"}), msg)
            if msg["t"] == "table_joined":
                self.vars["table"] = msg["table"]["id"]
                peer.seat = Seat(msg["seat"])
        elif "raw" in step:
            await self._raw(peer, step)
        elif "event" in step:
            await peer.event(self._fill(step["event"]), step.get("only"), step.get("why", ""))
        elif "closed" in step:
            while (after := await peer.receive()) is not None:
                if "re" in after and after["t"] != "error":
                    raise Failure(
                        "the server answered after a fatal error instead of closing (7. Errors)", after
                    )
        elif "drop" in step:
            await trio.aclose_forcefully(peer.stream)
        elif "play" in step:
            await _play(peer, step["play"])

    async def _raw(self, peer: Peer, step: dict[str, Any]) -> None:
        """Bytes as they are: ``raw`` hex, or a list of hex pieces written apart; ``ids`` the
        request ids the frames hold, whose replies must match ``reply`` in order (none: one
        error with ``re`` null must)."""
        pieces = step["raw"] if isinstance(step["raw"], list) else [step["raw"]]
        ids = step.get("ids", [])
        peer.waiting.extend(ids)
        for i, piece in enumerate(pieces):
            if i:
                await trio.sleep(0.02)
            await peer.stream.send_all(bytes.fromhex(piece))
        for rid in ids or [-1]:
            self._expect(step.get("reply", {}), await peer.reply(rid))

    async def _connect(self, name: str, step: dict[str, Any]) -> None:
        stream = await trio.open_tcp_stream(self.host, self.port)
        peer = self.peers[name] = Peer(stream, self.timeout)
        hello: dict[str, Any] = {
            "t": "hello",
            "proto": [1, 1],
            "client": {"name": "neveryu-conformance", "version": "1"},
            "name": step.get("name", name),
        }
        resume = step.get("resume")
        if resume is not None:
            old = self.peers[resume]
            peer.seq = step.get("last_seq", old.seq)
            hello["resume"] = {"token": old.session, "last_seq": peer.seq}
        hello.update(self._fill(step.get("hello", {})))
        msg = await peer.reply(await peer.send(hello))
        self._expect(step.get("welcome", {"t": "welcome"}), msg)
        if msg["t"] == "welcome":
            peer.session = msg["session"]
            if msg.get("seat") is not None or msg.get("table") is not None:
                peer.seat = Seat(msg.get("seat"))

    def _expect(self, want: dict[str, Any] | list[dict[str, Any]], msg: dict[str, Any]) -> None:
        """``want``: a pattern, or a list of patterns one of which must match."""
        problems = [mismatch(self._fill(w), msg) for w in (want if isinstance(want, list) else [want])]
        if None not in problems:
            raise Failure(f"{msg['t']}: {problems[0]}", msg)


async def _play(peer: Peer, until: str) -> None:
    """Play the seat until an event of type ``until``: contribute to every seed_committed, and
    on a legal that offers something do the simplest thing it offers."""
    seat = peer.seat
    if seat is None:
        raise Failure("play: the connection holds no seat")
    while True:
        msg = peer.events.pop(0) if peer.events else await peer.receive()
        if msg is None:
            raise Failure(f"the connection closed before {until}")
        if msg["t"] == until:
            return
        if msg["t"] == "seed_committed":
            rid = await peer.send(
                {"t": "contribute", "deal_no": msg["deal_no"], "contribution": secrets.token_hex(32)}
            )
            _expect_ok(await peer.reply(rid), "contribute")
            seat.seeds.discard(msg["deal_no"])
        acting = msg["t"] in ("legal", "state") and not peer.events and seat.offers()
        request = _choice(seat) if acting else None
        if request is not None:
            seq = peer.seq
            reply = await peer.reply(await peer.send(request))
            while reply.get("code") == "RATE_LIMITED":  # nothing changed: the same, a little later
                await trio.sleep(0.5)
                reply = await peer.reply(await peer.send(request))
            if reply["t"] == "ok":
                seat.used = True
            elif reply.get("fatal") or (reply["code"] not in RACES and peer.seq == seq):
                raise Failure(f"{request['t']} offered by legal was refused: {reply['code']}", reply)


def _expect_ok(reply: dict[str, Any], what: str) -> None:
    if reply["t"] != "ok":
        raise Failure(f"{what} was refused: {reply.get('code')}", reply)


RACES = ("STALE_SET", "CHALLENGE_PENDING", "NOT_YOUR_TURN")
"""Refusals of a request another player's was quicker than (docs/PROTOCOL.md, section 11). Any
refusal is a race too when events came between the request and its reply (a timer fired)."""


def _choice(seat: Seat) -> dict[str, Any] | None:
    """The simplest request the seat's legal offers: decline or discard quads, else lay the
    fewest cards with the first rank; challenge, believe or declare none only on its turn when
    it may not lay (None: nothing it must do now)."""
    legal = seat.legal or {}
    if legal.get("decline_quads"):
        return {"t": "decline_quads"}
    if legal.get("discard_quads"):
        return {"t": "discard_quads", "ranks": legal["discard_quads"][:1]}
    lay = legal.get("lay")
    if lay is not None and sum(seat.hand.values()) >= lay["min"]:
        request = {"t": "lay", "cards": sorted(seat.hand.elements())[: lay["min"]], "rank": lay["ranks"][0]}
        if lay.get("count_min") is not None:
            request["count"] = lay["count_min"]
        return request
    if seat.turn != seat.seat:
        return None
    for t in ("challenge", "believe"):
        if legal.get(t) is not None:
            return {"t": t, "set_no": legal[t]}
    return {"t": "declare_none"} if legal.get("declare_none") is not None else None


async def run_cases(cases: list[Case], host: str, port: int, timeout: float = 10.0) -> list[Result]:
    """Each case with ``server`` steps, in catalogue order (one after another)."""
    results = []
    for case in cases:
        if case.server is None:
            continue
        start = trio.current_time()
        status, detail, frame = "pass", "", None
        try:
            await Probe(host, port, timeout).run(case.server)
        except Failure as exc:
            status, detail, frame = "fail", str(exc), exc.frame
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            status, detail = "fail", "the server closed the connection while the case sent to it"
        except OSError as exc:
            status, detail = "fail", f"cannot reach {host}:{port}: {exc}"
        seconds = round(trio.current_time() - start, 3)
        results.append(Result(case.name, case.section, status, detail, frame, seconds))
    return results
