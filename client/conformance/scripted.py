"""The scripted server: it takes one client through one case's ``client`` steps and judges every
frame the client sends (docs/CONFORMANCE.md, "The client direction").

Each frame is read with the protocol package's ``Connection`` (framing, types, limits: one
validator), then judged in the scripted state (``Seat``: legal, hand, batch end), then answered:
by the step that expects it, else as a server would (``answers``). The first broken rule ends
the case. Meanwhile the server sends ``heartbeat`` after ``heartbeat_ms`` without sending, and
fails a client that sends nothing for ``idle_ms`` or more requests than a server's default rate.
"""

from __future__ import annotations

import time
from typing import Any

import attrs
import trio

from neveryu import protocol

from . import answers
from .catalogue import Case
from .patterns import Known, fill, mismatch
from .seat import Seat
from .seat import key as seat_key

RATE, BURST = 50, 200  # a server's default request rate (docs/PROTOCOL.md, 8)
HEARTBEAT_RULE = "4. Heartbeat and timeouts: send ping when you have sent nothing for heartbeat_ms"
TABLE_REQUESTS = frozenset({"create_table", "join_table"})


@attrs.frozen
class Outcome:
    """A case's verdict: ``status`` ``pass``, ``fail`` or ``n/a``; ``detail`` the rule broken (or
    why not applicable); ``frame`` the client's frame that broke it, if one did."""

    status: str
    detail: str = ""
    frame: dict[str, Any] | None = None


class _Stop(Exception):
    """Ends the case at once (its verdict is already recorded)."""


class Script:
    """One case's run. ``beat_s``: the heartbeat interval told in ``welcome`` (seconds), the
    unit of every step's time; ``idle_s``: the idle limit told; ``connect_s``: how long the
    client may take to connect and take its seat."""

    def __init__(self, case: Case, beat_s: float, idle_s: float, connect_s: float) -> None:
        self.case = case
        self.beat = beat_s
        self.idle = idle_s
        self.connect_s = connect_s
        self.spec = case.table or {"variant": "verish"}
        self.seat: Seat | None = None
        self.outcome: Outcome | None = None
        self.name = "player"
        self.seq = 0
        self.stream: trio.SocketStream | None = None
        self.send_lock = trio.Lock()
        self.last_in = self.last_out = 0.0
        self.tokens, self.token_time = float(BURST), 0.0
        self.armed: dict[str, Any] | None = None  # the expect step waiting for its request
        self.refused: dict[str, Any] | None = None  # the quiet step going on
        self.got = trio.Event()
        self.request: dict[str, Any] = {}
        self.last_lay: dict[str, Any] = {}
        self.hello = trio.Event()
        self.seated = trio.Event()
        self.started = trio.Event()
        self.scope = trio.CancelScope()

    # -- verdicts --------------------------------------------------------------------------------

    def fail(self, rule: str, frame: dict[str, Any] | None = None) -> None:
        if self.outcome is None:
            self.outcome = Outcome("fail", rule, frame)
        self.scope.cancel()

    def not_applicable(self, why: str) -> None:
        if self.outcome is None:
            self.outcome = Outcome("n/a", why)
        self.scope.cancel()

    def exited(self, status: int | None) -> None:
        """The client's process ended: before its ``hello`` that fails the case at once (a
        client that cannot start, say for a missing module, is not waited for)."""
        if not self.hello.is_set():
            self.fail(f"the client exited (status {status}) before it connected and said hello")

    async def run(self, listener: trio.SocketListener) -> Outcome:
        """Accept the client's connections on ``listener`` and play the case; the verdict."""
        with self.scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._accept, listener, nursery)
                nursery.start_soon(self._watch)
                await self._script()
                nursery.cancel_scope.cancel()
        if self.stream is not None:
            await trio.aclose_forcefully(self.stream)
        return self.outcome or Outcome("pass")

    # -- the steps -------------------------------------------------------------------------------

    async def _script(self) -> None:
        await self._within(self.hello, self.connect_s, "the client did not connect and say hello in time")
        if self.case.table is not None:
            await self._within(self.seated, self.connect_s, "the client took no seat and sent no ready true")
            watching = self.seat is None or self.seat.seat is None
            if watching and "seat" in self.case.needs:
                self.not_applicable("the client watches (spectate): the case needs a seat")
            with trio.move_on_after(2 * self.beat):
                await self.started.wait()
        steps = self.case.client or ()
        for i, step in enumerate(steps):
            following = steps[i + 1] if i + 1 < len(steps) else None
            if following is not None and "expect" in following:
                self._arm(following)  # before the send it answers: the answer may come at once
            await self._step(step)
        await trio.sleep(self.beat / 2)  # what the client does right after the last step counts

    async def _step(self, step: dict[str, Any]) -> None:
        if "send" in step:
            for _ in range(step.get("repeat", 1)):
                await self._send_all([self._fill(m) for m in step["send"]], step.get("delivery", "frames"))
                await trio.sleep(step.get("every", 0) * self.beat)
        elif "expect" in step:
            if self.armed is not step:
                self._arm(step)
            within = step.get("within", 6) * self.beat
            with trio.move_on_after(within):
                await self.got.wait()
                return
            why = step.get("why", "none came")
            self.fail(f"expected {_types(step['expect'])} within {within * 1000:.0f} ms: {why}")
        elif "quiet" in step:
            self.refused = step  # its "refuse": request types that may not come meanwhile
            await trio.sleep(step["quiet"] * self.beat)
            self.refused = None
        elif self.stream is not None:  # drop: at once (a dead link); close: after what was sent
            stream, self.stream = self.stream, None
            if "close" in step:
                with trio.move_on_after(self.beat):
                    await stream.aclose()
            await trio.aclose_forcefully(stream)

    async def _within(self, event: trio.Event, seconds: float, why: str) -> None:
        with trio.move_on_after(seconds):
            await event.wait()
            return
        self.fail(why)

    def _arm(self, step: dict[str, Any]) -> None:
        self.armed = step
        self.got = trio.Event()

    def _fill(self, value: Any) -> Any:
        """``value`` with its placeholders replaced (``patterns.fill``)."""
        table = answers.table(self.spec, self.name, ready=True, playing=True)
        return fill(value, Known(self.request, self.last_lay, self.seq, answers.SESSION, table))

    # -- sending ---------------------------------------------------------------------------------

    async def _send_all(self, messages: list[dict[str, Any]], delivery: str = "frames") -> None:
        frames = []
        for msg in messages:
            if "re" not in msg:  # an event: the next seq, or the one the step gives (a replay)
                self.seq = max(self.seq + 1 if msg.get("seq") is None else msg["seq"], self.seq)
                msg = {"t": msg["t"], "ts": int(time.time() * 1000), **msg, "seq": msg.get("seq") or self.seq}
                if self.seat is not None:
                    self.seat.observe(msg)
            broken = _invalid(msg)
            if broken is not None:
                self.fail(f"the case itself is broken: {broken}")
                return
            frames.append(protocol.encode_frame(msg))
        async with self.send_lock:
            stream = self.stream
            if stream is None:
                return
            if delivery == "split":  # each frame in three writes: inside the header, inside the body
                writes = [p for f in frames for p in (f[:2], f[2 : 4 + len(f) // 2], f[4 + len(f) // 2 :])]
            else:
                writes = [b"".join(frames)] if delivery == "together" else frames
            try:
                for data in writes:
                    await stream.send_all(data)
                    if delivery == "split":
                        await trio.sleep(0.005)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass  # the client is gone: a step that waits for it fails
            self.last_out = trio.current_time()

    async def _watch(self) -> None:
        """Heartbeats out; the idle limit in."""
        while True:
            await trio.sleep(self.beat / 4)
            if self.stream is None or not self.hello.is_set():
                continue
            now = trio.current_time()
            if now - self.last_in > self.idle:
                idle_ms = f"{self.idle * 1000:.0f} ms (welcome.limits.idle_ms)"
                self.fail(f"sent nothing for {idle_ms}: a server says bye idle ({HEARTBEAT_RULE})")
            if now - self.last_out >= self.beat:
                await self._send_all([{"t": "heartbeat"}])

    # -- receiving -------------------------------------------------------------------------------

    async def _accept(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        while True:
            stream = await listener.accept()
            if self.stream is not None:  # a new connection replaces the old one
                await trio.aclose_forcefully(self.stream)
            self.stream = stream
            self.last_in = self.last_out = trio.current_time()
            nursery.start_soon(self._read, stream)

    async def _read(self, stream: trio.SocketStream) -> None:
        wire = protocol.Connection("server")
        hello_done = False
        while True:
            try:
                data = await stream.receive_some(65_536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:  # the client closed: no more heartbeats, no idle limit
                if self.stream is stream:
                    self.stream = None
                await trio.aclose_forcefully(stream)
                return
            self.last_in = trio.current_time()
            wire.receive_data(data)
            while True:
                try:
                    request = wire.next_request()
                except protocol.RemoteProtocolError as exc:
                    self.fail(f"{exc.code}: {exc.msg} (docs/PROTOCOL.md 7. Errors: {_where(exc.code)})")
                    return
                if request is None:
                    break
                msg = request.to_wire()
                if msg["t"] == "hello":
                    if hello_done:
                        self.fail("a second hello on one connection (4. hello → welcome: BAD_STATE)", msg)
                        return
                    hello_done = True
                    low, high = msg["proto"]
                    if not low <= protocol.PROTOCOL_VERSION <= high:
                        self.fail(f"hello.proto {msg['proto']} leaves out version 1 (4. Versioning)", msg)
                        return
                await self._take(msg)

    def _within_rate(self) -> bool:
        now = trio.current_time()
        self.tokens = min(BURST, self.tokens + (now - self.token_time) * RATE)
        self.token_time = now
        self.tokens -= 1
        return self.tokens >= 0

    async def _take(self, msg: dict[str, Any]) -> None:
        if not self._within_rate():
            rate = f"{RATE} a second, {BURST} at once"
            self.fail(f"more requests than a server's default rate ({rate}): RATE_LIMITED (8. Limits)", msg)
            return
        if self.refused is not None and msg["t"] in self.refused.get("refuse", ()):
            self.fail(f"{msg['t']} now: {self.refused.get('why', self.case.section)}", msg)
            return
        if self.seat is not None:
            problem = self.seat.problem(msg)
            if problem is not None:
                self.fail(problem, msg)
                return
        step = self.armed
        if step is not None and msg["t"] in _types(step["expect"]):
            problem = mismatch(self._fill(step.get("fields", {})), msg)
            if problem is not None:
                self.fail(f"{msg['t']}: {problem} ({step.get('why', self.case.section)})", msg)
                return
            self.request = msg
            if msg["t"] == "lay":
                self.last_lay = msg
            self.armed = None
            if "answer" in step:
                await self._answered(msg, [self._scripted_answer(msg, step["answer"])])
            else:
                await self._answer(msg)
            self.got.set()
            return
        await self._answer(msg)

    def _scripted_answer(self, msg: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        """A step's answer; a ``welcome`` is this server's, with the step's fields over it."""
        answer = self._fill(answer)
        if answer["t"] == "welcome":
            beat_ms, idle_ms = round(self.beat * 1000), round(self.idle * 1000)
            return {**answers.welcome(msg["id"], beat_ms, idle_ms), **answer}
        return answer

    async def _answered(self, msg: dict[str, Any], out: list[dict[str, Any]]) -> None:
        reply = out[0]
        if self.seat is not None and msg["t"] == "contribute" and reply["t"] == "ok":
            self.seat.seeds.discard(msg["deal_no"])  # once per deal
        if self.seat is not None and msg["t"] in protocol.GAME_REQUESTS:
            if reply["t"] == "ok":
                self.seat.used = True
            elif reply.get("code") != "RATE_LIMITED":  # try again later: that one may be repeated
                self.seat.refused.add(seat_key(msg))
        await self._send_all(out)

    async def _answer(self, msg: dict[str, Any]) -> None:
        """The reply a server would give, and the events that follow it."""
        t, re = msg["t"], msg["id"]
        ok = {"t": "ok", "re": re}
        if t == "hello":
            self.name = msg["name"]
            idle_ms = round(self.idle * 1000)
            await self._answered(msg, [answers.welcome(re, round(self.beat * 1000), idle_ms)])
            self.hello.set()
        elif t == "list_tables":
            await self._answered(msg, [{"t": "tables", "re": re, "tables": [answers.table(self.spec, None)]}])
        elif t in TABLE_REQUESTS or t == "spectate":
            seat = None if t == "spectate" else 0
            self.seat = Seat(seat)
            summary = answers.table(self.spec, None if seat is None else self.name)
            await self._answered(
                msg,
                [
                    {"t": "table_joined", "re": re, "table": summary, "seat": seat},
                    {"t": "table_update", "table": summary},
                ],
            )
            if seat is None:
                self.seated.set()
        elif t == "ready":
            summary = answers.table(self.spec, self.name, ready=msg["ready"])
            await self._answered(msg, [ok, {"t": "table_update", "table": summary}])
            if msg["ready"]:
                self.seated.set()
        elif t == "start":
            await self._answered(msg, [ok])
            self.started.set()
        elif t == "chat":
            seat = self.seat.seat if self.seat is not None else None
            await self._answered(
                msg, [ok, {"t": "chat", "seat": seat, "name": self.name, "text": msg["text"]}]
            )
        else:
            await self._answered(msg, [answers.default_reply(msg)])


def _invalid(msg: dict[str, Any]) -> str | None:
    """Why a message a case sends breaks its own schema (a documented type only: the others are
    a newer server's, sent on purpose), or None."""
    cls = (protocol.REPLIES if "re" in msg else protocol.EVENTS).get(msg["t"])
    try:
        if cls is not None:
            cls.from_wire(msg)
    except protocol.RemoteProtocolError as exc:
        return f"it sends a {msg['t']} its schema refuses: {exc.msg}"
    return None


def _types(expect: str | list[str]) -> list[str]:
    return [expect] if isinstance(expect, str) else list(expect)


def _where(code: str) -> str:
    fatal, when = protocol.ERRORS.get(code, (True, ""))
    return f"{'fatal' if fatal else 'not fatal'}, {when}"
