"""A headless client: the protocol over TCP, and a bot that plays through it like any player.

- ``Client``: one connection (``hello`` → ``welcome``), requests and their replies, events in
  order, ``ping`` when it has sent nothing for the server's heartbeat interval. Every message
  received is also kept in ``Client.received`` when ``keep=True`` (tests read it).
- ``SeatTracker`` (client/seat_view.py): the seat's view from the events it receives, read as
  an engine ``View``, so an engine bot can choose.
- ``BotPlayer``: an engine bot (``engine.bots``) at a seat: it gets ready, starts when everyone
  is, and plays until the number of matches asked for has ended. It contributes to every deal's
  shuffle (fair deal 2: ``seed_committed`` → ``contribute``) and checks every deal at its end as
  the terminal client does (``BotPlayer.fair``). client/botseat.py takes the seat for ``neveryu
  bot`` and keeps it across lost connections.

The bot sees only what its seat is sent: it is exactly as blind as a person at that seat.
"""

from __future__ import annotations

import collections
import logging
import random
from collections import Counter
from typing import Any

import trio

from neveryu import engine, protocol
from neveryu.client import fairdeal
from neveryu.client.address import show_address
from neveryu.client.handshake import HANDSHAKE_S, Refused, closed_at_once, not_neveryu, silent
from neveryu.client.seat_view import SeatTracker, action_request, engine_event, make_bot

RATE_LIMIT_PAUSE_S = 0.5  # wait this long before trying a rate-limited action again

log = logging.getLogger("neveryu.bot")

CLIENT_NAME = "neveryu-bot"
CLIENT_VERSION = "0.1.0"


class ServerError(Exception):
    """The server answered a request with ``error``: ``code``, ``msg``, ``fatal``."""

    def __init__(self, reply: dict[str, Any]) -> None:
        super().__init__(f"{reply.get('code')}: {reply.get('msg')}")
        self.code = reply.get("code")
        self.msg = reply.get("msg")
        self.fatal = reply.get("fatal")
        self.reply = reply


class ConnectionClosed(Exception):
    """The server closed the connection (``bye`` holds its last ``bye`` event, if any)."""

    def __init__(self, bye: dict[str, Any] | None = None) -> None:
        super().__init__(f"the server closed the connection ({bye.get('reason') if bye else 'no bye'})")
        self.bye = bye


class Client:
    """One protocol connection to a server. Build it with ``await Client.connect(...)``.

    ``request(t, **fields)`` sends a request and returns its reply (raising ``ServerError`` for
    an ``error`` reply); events that arrive meanwhile wait in order for ``next_event()``.
    """

    def __init__(self, stream: trio.abc.Stream, *, keep: bool = False) -> None:
        self.stream = stream
        self.wire = protocol.Connection("client")
        self.events: collections.deque[dict[str, Any]] = collections.deque()
        self.replies: dict[int, dict[str, Any]] = {}
        self.received: list[dict[str, Any]] | None = [] if keep else None
        self.welcome: dict[str, Any] = {}
        self.last_seq = 0
        self.reply_after_seq = 0  # the seq of the last event received before the last reply taken
        self._reply_seqs: dict[int, int] = {}  # per reply waiting: the last_seq when it came
        self.bye: dict[str, Any] | None = None
        self.heartbeat_s = protocol.HEARTBEAT_MS / 1000
        self.last_sent = 0.0  # trio.current_time() of the last frame sent
        self.first = b""  # the first bytes the server sent (to say what a peer that is no server is)
        self._ids = 0
        self._pings: set[int] = set()  # pings sent by next_event, whose pong nobody awaits

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str,
        *,
        password: str | None = None,
        resume: tuple[str, int] | None = None,
        keep: bool = False,
        player_key: str | None = None,
        handshake_s: float = HANDSHAKE_S,
    ) -> Client:
        """Open a TCP connection and say ``hello`` (``resume``: (token, last_seq); ``player_key``:
        who the player is, docs/PLAYERS.md; None: a guest), each within ``handshake_s`` seconds.
        Raises ``ServerError`` when the server refuses (``SERVER_FULL``, ``BAD_RESUME``, ...),
        OSError when it cannot be reached (``TimeoutError``: no answer to the connection), and
        ``Refused`` when the peer is not a neveryu server (it says nothing, closes at once, or
        answers something else; client/handshake.py says it as ``neveryu join`` does)."""
        stream = None
        with trio.move_on_after(handshake_s):
            stream = await trio.open_tcp_stream(host, port)
        if stream is None:
            raise TimeoutError(f"no answer within {handshake_s:g} s")
        client = cls(stream, keep=keep)
        fields: dict[str, Any] = {
            "proto": [protocol.PROTOCOL_VERSION, protocol.PROTOCOL_VERSION],
            "client": {"name": CLIENT_NAME, "version": CLIENT_VERSION},
            "name": name,
        }
        if password is not None:
            fields["password"] = password
        if player_key is not None:
            fields["player_key"] = player_key
        if resume is not None:
            fields["resume"] = {"token": resume[0], "last_seq": resume[1]}
            client.last_seq = resume[1]
        try:
            with trio.fail_after(handshake_s):
                client.welcome = await client.request("hello", **fields)
        except (protocol.ProtocolError, ConnectionClosed, trio.TooSlowError) as exc:
            await trio.aclose_forcefully(stream)
            raise Refused(_not_a_server(show_address(host, port), exc, client.first, handshake_s)) from None
        except BaseException:
            await trio.aclose_forcefully(stream)
            raise
        client.heartbeat_s = client.welcome["heartbeat_ms"] / 1000
        return client

    @property
    def token(self) -> str:
        return str(self.welcome["session"])

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)

    # -- bytes ----------------------------------------------------------------------------------

    async def send(self, msg: dict[str, Any]) -> None:
        self.last_sent = trio.current_time()
        await self.stream.send_all(self.wire.send(msg))

    async def _receive_one(self) -> dict[str, Any]:
        """The next message from the server, whatever it is; sorts it into replies or events."""
        while True:
            msg = self.wire.next_message()
            if msg is not None:
                break
            if self.bye is not None:  # the server said bye: nothing more will come
                raise ConnectionClosed(self.bye)
            try:
                data = await self.stream.receive_some(65_536)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                raise ConnectionClosed(self.bye) from exc
            if not data:
                raise ConnectionClosed(self.bye)
            self.first = self.first or bytes(data[:64])
            self.wire.receive_data(bytes(data))
        await self._sort(msg)
        return msg

    async def _sort(self, msg: dict[str, Any]) -> None:
        """File a received message: a reply under its id, an event in order (not heartbeats).
        Raises ``ServerError`` for a fatal error that answers no request (``re`` null)."""
        if self.received is not None:
            self.received.append(msg)
        if msg["t"] == "error" and msg.get("fatal") and msg.get("re") is None:
            # A fatal error that answers no request (SERVER_FULL before hello, a broken frame):
            # the server closes the connection after it; whoever is waiting learns why.
            await trio.aclose_forcefully(self.stream)
            raise ServerError(msg)
        if "re" in msg:
            if msg["re"] in self._pings:  # nobody waits for a pong
                self._pings.discard(msg["re"])
            else:
                self.replies[msg["re"]] = msg
                self._reply_seqs[msg["re"]] = self.last_seq
        else:
            if msg["seq"] <= self.last_seq and msg["t"] != "bye":
                return  # a replayed event this session has already had (a resume's overlap)
            self.last_seq = msg["seq"]
            if msg["t"] == "bye":
                self.bye = msg
                await trio.aclose_forcefully(self.stream)  # lets the server close at once
            if msg["t"] != "heartbeat":
                self.events.append(msg)

    # -- requests and events -------------------------------------------------------------------

    async def send_request(self, t: str, **fields: Any) -> int:
        """Send a request without waiting for its reply; returns its id."""
        self._ids += 1
        await self.send({"t": t, "id": self._ids, **fields})
        return self._ids

    async def reply_to(self, rid: int) -> dict[str, Any]:
        """Wait for the reply to request ``rid``. Raises ``ServerError`` for an ``error``.
        Sets ``reply_after_seq``: events up to that seq came before the reply (the server
        handled the request after sending them)."""
        while rid not in self.replies:
            await self._receive_one()
        reply = self.replies.pop(rid)
        self.reply_after_seq = self._reply_seqs.pop(rid)
        if reply["t"] == "error":
            raise ServerError(reply)
        return reply

    async def request(self, t: str, **fields: Any) -> dict[str, Any]:
        """Send a request and return its reply. Raises ``ServerError`` for an ``error``."""
        return await self.reply_to(await self.send_request(t, **fields))

    async def next_event(self) -> dict[str, Any]:
        """The next event in order; sends ``ping`` when it has sent nothing for the heartbeat
        interval (the server drops a peer it hears nothing from, whatever it sends it)."""
        while not self.events:
            with trio.move_on_at(self.last_sent + self.heartbeat_s):
                await self._receive_one()
            if trio.current_time() >= self.last_sent + self.heartbeat_s:
                self._pings.add(await self.send_request("ping"))
        return self.events.popleft()

    async def pending(self) -> bool:
        """True if an event is waiting: already queued, or in a whole frame already received.
        Heartbeats and replies in the buffer are filed, not counted."""
        while not self.events and (msg := self.wire.next_message()) is not None:
            await self._sort(msg)
        return bool(self.events)


class BotPlayer:
    """An engine bot at one seat of a table, playing through ``client``.

    ``table``: the ``table_joined`` reply's table summary; ``seat``: the seat it holds.
    ``delay``: seconds to wait before each move (people like to see it). ``start``: ask the
    server to start the match whenever every seat is taken and ready.
    """

    def __init__(
        self,
        client: Client,
        table: dict[str, Any],
        seat: int,
        strength: str,
        *,
        rng: random.Random | None = None,
        delay: float = 0.0,
        start: bool = True,
    ) -> None:
        self.client = client
        self.table = table
        self.seat = seat
        self.rules = engine.variant(table["variant"], **table["options"])
        players = len(table["seats"])
        self.tracker = SeatTracker(seat, self.rules, players)
        self.strength = strength
        self.bot = make_bot(strength, seat, self.rules, players)
        self.rng = rng or random.Random()
        self.delay = delay
        self.start = start
        self.matches = 0
        self.deals = 0
        self.errors: Counter[str] = Counter()
        self.refused: list[tuple[engine.Action, str, str]] = []
        self.fair: list[str] = []  # each deal's fair-deal verdict (client/fairdeal.py, STATUSES)
        self._acted_after = 0  # the seq of the last event sent before the server took our action
        self._contributed: set[str] = set()  # seed hashes answered (a replayed one is not again)
        self._ended = 0  # the number of the last deal of the match seen to end
        # v1.1 servers end every batch of the deal with the seat's legal (docs/PROTOCOL.md §6)
        self.batch_ends = (client.welcome.get("minor") or 0) >= 1

    async def play(self, matches: int | None = 1) -> None:
        """Play until ``matches`` matches have ended (None: until the connection closes)."""
        if self.table.get("state") != "playing":  # (a seat taken back during a match is in it)
            await self.client.request("ready", ready=True)
        await self._maybe_start(self.table)
        to_answer = False
        while matches is None or self.matches < matches:
            msg = await self.client.next_event()
            self._observe(msg)
            t = msg["t"]
            if t == "table_update":
                self.table = msg["table"]
                await self._maybe_start(self.table)
            elif t == "match_ended":
                self.matches += 1
                if matches is None or self.matches < matches:
                    await self.client.request("ready", ready=True)
            elif t == "match_started":
                self._ended = 0
            elif t == "deal_ended" and msg["deal_no"] > self._ended:
                # (a deal whose end a restarted server lost ends again: it is counted once)
                self.deals, self._ended = self.deals + 1, msg["deal_no"]
                self.fair.append(str((self.tracker.state.result or {}).get("fair_status")))
            elif t == "seed_committed":
                await self._contribute(msg)
            elif t == "table_closed":
                return
            # The server ends every batch of the deal with ``legal`` (v1.1): the seat acts only
            # on a legal after which no event of the deal came (``in_batch``), and only once it
            # has read what is already here (it may be newer); events that are not the deal's
            # (a table_update, chat) may follow it. A legal sent before the server took our
            # last action is stale: a newer one follows.
            to_answer = to_answer or (t in ("legal", "state") and msg["seq"] > self._acted_after)
            in_batch = self.batch_ends and self.tracker.state.in_batch
            if to_answer and not in_batch and not await self.client.pending():
                to_answer = False
                await self._move()

    def resumed(self, client: Client) -> None:
        """The seat goes on through ``client``, a connection that resumed the session (its
        events follow on: a snapshot after a restart, whose history the bot learns again)."""
        self.client = client
        self.batch_ends = (client.welcome.get("minor") or 0) >= 1
        self.table = client.welcome.get("table") or self.table  # (playing: no ready to say again)

    def _observe(self, msg: dict[str, Any]) -> None:
        self.tracker.apply(msg)
        t = msg["t"]
        if t == "state" and isinstance(msg.get("history"), list):
            # A snapshot: the bot forgets what it knew and learns the deal again from its history.
            self.bot = make_bot(self.strength, self.seat, self.rules, self.tracker.players)
            for event in msg["history"]:
                fields = {k: v for k, v in event.items() if k != "t"}
                self.bot.observe(engine_event(event["t"], fields, self.tracker))
        elif t in engine.EVENT_TYPES and t != "deal_started":
            fields = {k: v for k, v in msg.items() if k not in ("t", "seq", "ts")}
            self.bot.observe(engine_event(t, fields, self.tracker))
        elif t == "deal_started":
            self.bot.observe(engine_event(t, msg, self.tracker))

    async def _contribute(self, msg: dict[str, Any]) -> None:
        """Fair deal 2: this seat's fresh contribution to the next deal's shuffle, at once."""
        if msg["seed_hash"] in self._contributed:
            return
        self._contributed.add(msg["seed_hash"])
        contribution = fairdeal.new_contribution()
        sent = {
            "t": "_contribution",
            "status": "sent",
            "deal_no": msg["deal_no"],
            "contribution": contribution,
        }
        self.tracker.apply(sent)
        try:
            await self.client.request("contribute", deal_no=msg["deal_no"], contribution=contribution)
            status = "taken"
        except ServerError as exc:  # too late: the deal was dealt without it
            self.errors[str(exc.code)] += 1
            status = "refused"
        self.tracker.apply({"t": "_contribution", "status": status})

    async def _maybe_start(self, table: dict[str, Any]) -> None:
        if not self.start or table["state"] != "waiting":
            return
        seats = table["seats"]
        if all(s["name"] is not None and s["ready"] for s in seats):
            try:
                await self.client.request("start")
            except ServerError:
                pass  # another seat started it first, or somebody is not ready after all

    async def _move(self, attempts: int = 3) -> None:
        """Choose and send an action on the ``legal`` held. A ``RATE_LIMITED`` refusal is tried
        again after a pause (at most ``attempts`` times): the server sends no new ``legal``
        when nothing changed, so a bot that gave up here would stall its table."""
        tracker = self.tracker
        if not tracker.active or not tracker.legal or tracker.held is not None:
            return  # nothing to do, or its set is laid early and waits for the window
        view = tracker.view()
        action = self.bot.choose(view, self.rng)
        if action is None and view.legal.decline_quads:
            # It keeps its quads: it says so, and the next set need not wait for the quads window.
            action = engine.DeclineQuads(self.seat)
        if action is None:
            return
        if self.delay:
            await trio.sleep(self.delay)
        t, fields = action_request(action)
        try:
            await self.client.request(t, **fields)
            self._acted_after = self.client.reply_after_seq
        except ServerError as exc:  # the deal moved on meanwhile (stale, window, ...)
            self.errors[str(exc.code)] += 1
            self.refused.append((action, str(exc.code), str(exc.msg)))
            log.debug("seat %d: %s refused: %s", self.seat + 1, t, exc)
            if exc.code == "RATE_LIMITED" and attempts > 1:
                await trio.sleep(RATE_LIMIT_PAUSE_S)
                await self._move(attempts - 1)


def _not_a_server(address: str, exc: BaseException, first: bytes, handshake_s: float) -> str:
    """Why the peer at ``address`` is no neveryu server: the handshake failed with ``exc``
    after it sent ``first``."""
    if isinstance(exc, protocol.ProtocolError) or first:
        return not_neveryu(address, first)
    return closed_at_once(address) if isinstance(exc, ConnectionClosed) else silent(address, handshake_s)
