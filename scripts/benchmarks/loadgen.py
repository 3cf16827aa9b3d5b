"""The capacity load generator: N clients in this process, bots over the protocol at tables of
4 on `verish`, each acting ``delay_ms`` after it may act (a brisk human pace).

Run as ``python -m scripts.benchmarks.loadgen PORT CLIENTS SECONDS [DELAY_MS [WARMUP_S [IO]]]``.
It connects and seats every client (tables of 4, made by their first client), prints
``SEATED <n>``, lets them all play (each table's first action at a random moment of the first
``delay_ms``, so the tables do not act in step), plays a warm-up (default ``WARMUP_S``) and then
``SECONDS`` s, and prints one JSON line:
``{"clients", "seated", "seat_failures", "actions", "actions_per_s", "p50_ms", "p99_ms",
"max_ms", "errors", "late_contributions", "dropped", "late", "cpu", "cpu_system",
"cpu_us_per_action", "io"}``.

An action's latency is the time from sending it until its own client has decoded the event it
caused (``set_laid`` or ``challenged``); ``cpu`` is this process's share of one core over the
measured window (``cpu_system``: the kernel's part of it, mostly the loopback TCP stack);
``dropped`` counts connections the server closed; ``late`` counts actions sent more than
``LATE_MS`` after they were due (the load generator itself falling behind); ``errors`` counts
error replies by code (a refused action is tried again at the next pace). Like a real client,
each bot answers ``seed_committed`` at once with a contribution (fair deal 2; not paced, not
measured), so its table's next deal starts without waiting for the server's window;
``late_contributions`` counts those refused because the window had passed (the first deal of
tables seated early: their ``seed_committed`` waits in the socket while the others are seated).

It shares the machine's cores with the server, so it is built to cost as little CPU per action
as the measurement allows (docs/BENCHMARKS.md has the figures):

- one timer for the whole process (``Pace``): every seat waits the same delay, so a FIFO holds
  the due actions in order; no task per action;
- the seating runs in trio (``client.seat_table``); the play, by default (``IO = "epoll"``),
  in a plain loop over one epoll set of every client's socket: it reads each ready socket once,
  fires the due actions and sends them with one non-blocking ``send`` each. ``IO = "trio"`` plays
  the same bots with trio instead (a task per client reading its stream, a timer task), for
  comparison: trio's scheduling cost this process about 40 % more CPU per action;
- the frames of the types in ``SKIP``, which no bot needs, are recognised by their first bytes
  and dropped undecoded; every other frame is decoded and given to the seat's ``Player``;
- its cyclic garbage collector is off while the bots play (what they allocate is freed by
  reference counting): with 1,000 clients a full collection paused it for ~50 ms, which every
  action in flight then counted as latency.
"""

from __future__ import annotations

import collections
import gc
import json
import os
import random
import secrets
import select
import socket
import sys
import time
from collections.abc import Iterator

import trio

from .client import seat_table
from .player import Player
from .stats import percentile
from .wire import RECEIVE_BYTES, FrameStream, encode, peek, split

SEATS = 4
WARMUP_S = 2.0
SEAT_CONCURRENCY = 25
CHALLENGE_RATE = 0.15
LATE_MS = 10.0
CONTRIBUTE_ID = 2**31  # the request id of every contribution (actions' ids are below 2**30)
IO_MODES = ("epoll", "trio")
# Messages no bot looks at (docs/PROTOCOL.md): they are split off undecoded.
SKIP = peek("turn", "ok", "set_revealed", "table_update")


class Stats:
    """What the load generator counts, over every table (latencies in seconds)."""

    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.actions = 0
        self.late = 0
        self.dropped = 0
        self.errors: dict[str, int] = {}
        self.late_contributions = 0  # contributions refused: the window had passed
        self.seated = 0  # tables seated
        self.failed: list[str] = []  # tables that could not be seated, why


class Bot:
    """One client: its seat's ``Player`` and the action in flight. ``on_frame`` takes every
    decoded frame; when the seat may act and has nothing in flight it asks ``pace`` to call
    ``act`` ``pace.delay`` s later."""

    __slots__ = (
        "due",
        "expect",
        "expect_id",
        "expect_set",
        "outgoing",
        "pace",
        "player",
        "rng",
        "scheduled",
        "seat",
        "send",
        "stats",
        "t0",
    )

    def __init__(self, seat: int, stats: Stats, pace: Pace, rng: random.Random) -> None:
        self.player = Player(CHALLENGE_RATE)
        self.player.seat = self.seat = seat
        self.stats, self.pace, self.rng = stats, pace, rng
        self.send = None  # (bytes) -> None, or an awaitable under trio: set by the transport
        self.scheduled = False
        self.expect: str | None = None  # the event type the action in flight causes
        self.expect_set: int | None = None  # its set_no, for a challenge
        self.expect_id = 0
        self.t0 = 0.0  # perf_counter() when it was sent
        self.due = 0.0
        self.outgoing: list[bytes] = []  # requests to send at once (a contribution), not paced

    def on_frame(self, msg: dict) -> None:
        self.player.on_message(msg)
        t = msg["t"]
        if t == "seed_committed":  # fair deal 2: a client contributes at once, unpaced
            contribution = secrets.token_hex(32)
            request = {
                "t": "contribute",
                "id": CONTRIBUTE_ID,
                "deal_no": msg["deal_no"],
                "contribution": contribution,
            }
            self.outgoing.append(encode(request))
        if self.expect is not None:
            if (
                t == self.expect
                and msg.get("seat") == self.seat
                and (self.expect_set is None or msg.get("set_no") == self.expect_set)
            ):
                if self.stats.measuring:
                    self.stats.latencies.append(time.perf_counter() - self.t0)
                    self.stats.actions += 1
                self.expect = None
            elif t == "error" and msg.get("re") == self.expect_id:
                self.expect = None  # refused: the Player may act again
        if t == "error" and msg.get("re") == CONTRIBUTE_ID:
            self.stats.late_contributions += 1  # its table was dealt without it (while seating)
        elif t == "error":
            code = msg.get("code")
            self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
        if self.player.legal is not None and self.expect is None and not self.scheduled:
            self.scheduled = True
            self.pace.add(self)

    def act(self, now: float) -> bytes | None:
        """The request to send now, encoded (None when the seat may no longer act); the
        latency clock starts here."""
        self.scheduled = False
        request = self.player.request(self.rng.randrange(1 << 30), self.rng)
        if request is None:
            return None
        if self.stats.measuring and now - self.due > LATE_MS / 1000:
            self.stats.late += 1
        if request["t"] == "challenge":
            self.expect, self.expect_set = "challenged", request["set_no"]
        else:
            self.expect, self.expect_set = "set_laid", None
        self.expect_id = request["id"]
        self.t0 = time.perf_counter()
        return encode(request)


class Pace:
    """The actions due later, in due order (``time.perf_counter`` s). Every seat waits the same
    ``delay``, so due times come in the order they are added and a FIFO holds them in order;
    ``spread`` once moves the actions queued so far to random moments of the next ``delay``."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.queue: collections.deque[Bot] = collections.deque()

    def add(self, bot: Bot) -> None:
        bot.due = time.perf_counter() + self.delay
        self.queue.append(bot)

    def spread(self, rng: random.Random) -> None:
        now = time.perf_counter()
        for bot in self.queue:
            bot.due = now + rng.uniform(0, self.delay)
        self.queue = collections.deque(sorted(self.queue, key=lambda b: b.due))

    def due(self, now: float) -> Iterator[tuple[Bot, bytes]]:
        """Take the actions due by ``now`` one by one: the bot and its encoded request (send it
        before taking the next: its latency clock is running)."""
        queue = self.queue
        while queue and queue[0].due <= now:
            bot = queue.popleft()
            data = bot.act(now)
            if data is not None:
                yield bot, data


class EpollLoop:
    """The play without trio: one epoll set of every client's socket. ``run(until)`` waits for
    a readable socket or the next due action, reads each ready socket once (level-triggered:
    what is left is reported again), gives its frames to its bot, and sends the due actions
    with one non-blocking ``send`` each; what a socket does not take at once is sent when it
    becomes writable."""

    def __init__(self, stats: Stats, pace: Pace) -> None:
        self.ep = select.epoll()
        self.stats, self.pace = stats, pace
        self.clients: dict[int, tuple[socket.socket, Bot, bytearray]] = {}
        self.backlog: dict[int, bytearray] = {}

    def add(self, fd: int, bot: Bot, rest: bytearray) -> None:
        sock = socket.socket(fileno=fd)
        sock.setblocking(False)
        self.clients[fd] = (sock, bot, rest)
        bot.send = lambda data: self._send(fd, sock, data)
        self.ep.register(fd, select.EPOLLIN)

    def _send(self, fd: int, sock: socket.socket, data: bytes) -> None:
        if fd in self.backlog:
            self.backlog[fd] += data
            return
        try:
            sent = sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            return  # the read side sees the connection closed
        if sent < len(data):
            self.backlog[fd] = bytearray(data[sent:])
            self.ep.modify(fd, select.EPOLLIN | select.EPOLLOUT)

    def _flush(self, fd: int, sock: socket.socket) -> None:
        buf = self.backlog[fd]
        try:
            del buf[: sock.send(buf)]
        except BlockingIOError:
            return
        except OSError:
            buf.clear()
        if not buf:
            del self.backlog[fd]
            self.ep.modify(fd, select.EPOLLIN)

    def _close(self, fd: int) -> None:
        sock = self.clients.pop(fd)[0]
        self.ep.unregister(fd)
        self.backlog.pop(fd, None)
        sock.close()
        self.stats.dropped += 1

    def run(self, until: float) -> None:
        clients, poll, pace, clock = self.clients, self.ep.poll, self.pace, time.perf_counter
        while True:
            now = clock()
            if now >= until:
                return
            timeout = min(until, pace.queue[0].due) - now if pace.queue else until - now
            for fd, events in poll(max(timeout, 0.0)):
                if fd not in clients:
                    continue
                sock, bot, buf = clients[fd]
                if events & select.EPOLLOUT:
                    self._flush(fd, sock)
                if not events & (select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR):
                    continue
                try:
                    data = sock.recv(RECEIVE_BYTES)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self._close(fd)
                    continue
                buf += data
                for msg in split(buf, SKIP):
                    bot.on_frame(msg)
                while bot.outgoing:
                    bot.send(bot.outgoing.pop(0))
            for bot, data in pace.due(clock()):
                bot.send(data)

    def close(self) -> None:
        for sock, _, _ in self.clients.values():
            sock.close()
        self.ep.close()


async def play_trio(
    seated: list, stats: Stats, pace: Pace, window: Window, warmup: float, seconds: float
) -> None:
    """``IO = "trio"``: the same bots with a trio task per client reading its stream and one
    timer task sending the due actions (``send_all``), for ``warmup`` + ``seconds`` s."""

    async def reader(conn: FrameStream, bot: Bot, rest: bytearray) -> None:
        while True:
            try:
                data = await conn.stream.receive_some(RECEIVE_BYTES)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                stats.dropped += 1
                return
            rest += data
            for msg in split(rest, SKIP):
                bot.on_frame(msg)
            while bot.outgoing:
                try:
                    await bot.send(bot.outgoing.pop(0))
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass

    async def timer() -> None:
        while True:
            now = time.perf_counter()
            for bot, data in pace.due(now):
                try:
                    await bot.send(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
            await trio.sleep(
                max(pace.queue[0].due - time.perf_counter(), 0) if pace.queue else pace.delay / 10
            )

    async with trio.open_nursery() as nursery:
        for conn, bot, rest in seated:
            bot.send = conn.stream.send_all
            nursery.start_soon(reader, conn, bot, rest)
        nursery.start_soon(timer)
        await trio.sleep(warmup)
        window.start()
        await trio.sleep(seconds)
        window.stop()
        nursery.cancel_scope.cancel()


async def seat_all(port: int, tables: int, stats: Stats) -> list[tuple[int, FrameStream, list[dict], int]]:
    """Seat ``tables`` tables of four clients (``SEAT_CONCURRENCY`` at a time). Per client: its
    table, its connection, the frames it got while being seated, its seat. A table that could
    not be seated is left out (the reason in ``stats.failed``)."""
    seating = trio.Semaphore(SEAT_CONCURRENCY)
    out = []

    async def one(t: int) -> None:
        early: list[list[dict]] = [[] for _ in range(SEATS)]
        try:
            async with seating:
                conns, seats = await seat_table(
                    port, "verish", [f"t{t}s{k}" for k in range(SEATS)], None, lambda k, m: early[k].append(m)
                )
        except (OSError, EOFError, RuntimeError, trio.BrokenResourceError) as exc:
            stats.failed.append(f"{type(exc).__name__}: {exc}")
            return
        stats.seated += 1
        out.extend((t, conns[k], early[k], seats[k]) for k in range(SEATS))

    async with trio.open_nursery() as nursery:
        for t in range(tables):
            nursery.start_soon(one, t)
    return out


class Window:
    """The measured part of the run: ``start()`` turns ``stats.measuring`` on, ``stop()`` off
    and keeps this process's user and system CPU s and the elapsed s in between."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.user = self.system = self.elapsed = 0.0

    def start(self) -> None:
        self.stats.measuring = True
        self._times, self._t0 = os.times(), time.perf_counter()

    def stop(self) -> None:
        self.stats.measuring = False
        times = os.times()
        self.elapsed = time.perf_counter() - self._t0
        self.user, self.system = times.user - self._times.user, times.system - self._times.system


def run(
    port: int, clients: int, seconds: float, delay_ms: int, warmup: float = WARMUP_S, io: str = IO_MODES[0]
) -> dict:
    """Seat ``clients`` // 4 tables, then play and measure as the module docstring says;
    returns its JSON object."""
    if io not in IO_MODES:
        raise ValueError(f"io must be one of {IO_MODES}")
    stats = Stats()
    pace = Pace(delay_ms / 1000)
    seated = trio.run(seat_all, port, clients // SEATS, stats)
    print("SEATED", stats.seated * SEATS, flush=True)
    bots = []
    for t, conn, early, seat in seated:
        bot = Bot(seat, stats, pace, random.Random(t * SEATS + seat))
        frames, rest = conn.take_buffered()
        bots.append((conn, bot, early + frames, rest))
    if io == "epoll":
        loop = EpollLoop(stats, pace)
        for conn, bot, _, rest in bots:
            loop.add(conn.stream.socket.detach(), bot, rest)
    for _, bot, frames, _ in bots:
        for msg in frames:
            bot.on_frame(msg)
        bot.outgoing.clear()  # a contribution asked for while seating: its window has passed
    pace.spread(random.Random(clients))
    window = Window(stats)
    gc.collect()
    gc.disable()  # no pause of this process's own inside a latency: see the module docstring
    try:
        if io == "epoll":
            try:
                loop.run(time.perf_counter() + warmup)
                window.start()
                loop.run(time.perf_counter() + seconds)
                window.stop()
            finally:
                loop.close()
        else:
            trio.run(
                play_trio,
                [(conn, bot, rest) for conn, bot, _, rest in bots],
                stats,
                pace,
                window,
                warmup,
                seconds,
            )
    finally:
        gc.enable()
    cpu, system, elapsed = window.user + window.system, window.system, window.elapsed
    lat = stats.latencies
    return {
        "clients": clients,
        "seated": stats.seated * SEATS,
        "seat_failures": stats.failed[:3],
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "p50_ms": round(percentile(lat, 50) * 1000, 2),
        "p99_ms": round(percentile(lat, 99) * 1000, 2),
        "max_ms": round(max(lat) * 1000, 2) if lat else None,
        "errors": stats.errors,
        "late_contributions": stats.late_contributions,
        "dropped": stats.dropped,
        "late": stats.late,
        "cpu": round(cpu / elapsed, 3),
        "cpu_system": round(system / max(cpu, 1e-9), 2),
        "cpu_us_per_action": round(cpu / stats.actions * 1e6, 1) if stats.actions else None,
        "io": io,
    }


if __name__ == "__main__":
    port, clients, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    delay_ms = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    warmup = float(sys.argv[5]) if len(sys.argv) > 5 else WARMUP_S
    io = sys.argv[6] if len(sys.argv) > 6 else IO_MODES[0]
    print(json.dumps(run(port, clients, seconds, delay_ms, warmup, io)), flush=True)
