#!/usr/bin/env python3
"""An example neveryu client, written from docs/PROTOCOL.md alone: the Python standard library
and msgpack, nothing of the project. It connects, makes a table with bots, plays one whole deal
with a simple strategy, prints what happened, and exits 0 when the deal has ended.

    python scripts/example_client.py --host 127.0.0.1 --port 7420 --variant verish

Fair deal (docs/PROTOCOL.md, section 9): it answers every ``seed_committed`` with a fresh
random contribution, and at the deal's end checks the commitment and, for fair deal 2, that the
deck is the one the disclosed seed and the contributions make, with its own among them.

Connection (section 4): it sends ``ping`` whenever it has sent nothing for ``heartbeat_ms``
(also while events keep arriving); after a drop it comes back with ``hello.resume`` and takes a
replayed event only once (by ``seq``); a session the server no longer knows starts afresh.
It passes ``neveryu conformance client`` (docs/CONFORMANCE.md).

Strategy: lay truthfully when the hand holds the rank to claim (as many as allowed), else bluff
with the fewest cards; declare none when truly holding none; challenge only a claim that cannot
be true given the own hand, or when there is nothing else to do. Exit status: 0 when the deal
ended, 1 on a fatal error, a connection closed for good or the --timeout.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import hmac
import secrets
import socket
import struct
import sys
import time

import msgpack

MAX_SERVER_FRAME = 1_048_576


def fair_deck(seed: str, kind: str, contributions: list) -> list:
    """Fair deal 2 (docs/PROTOCOL.md, 9.3): the deck, top first, from the server's seed and the
    seats' contributions (64-hex strings; None for a seat that gave none)."""
    ranks = "6789TJQKA" if kind.endswith("36") else "23456789TJQKA"
    deck = [r + s for r in ranks for s in "SHDC"] * (2 if kind.startswith("2x") else 1)
    m = b"neveryu fair deal 2\x00" + kind.encode("ascii") + b"\x00" + bytes([len(contributions)])
    for c in contributions:
        raw = bytes.fromhex(c) if c is not None else b""
        m += bytes([len(raw)]) + raw
    key = hmac.new(bytes.fromhex(seed), m, hashlib.sha256).digest()

    def stream():
        k = 0
        while True:
            block = hmac.new(key, k.to_bytes(4, "big"), hashlib.sha256).digest()
            for i in range(0, 32, 4):
                yield int.from_bytes(block[i : i + 4], "big")
            k += 1

    u = stream()
    for i in range(len(deck) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)  # draws at or above it are dropped: no modulo bias
        while (x := next(u)) >= limit:
            pass
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class Client:
    """One connection: frames out (``request``) and in (``receive``)."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=10)
        self.next_id = 0
        self.early: list[dict] = []  # events that arrived while ``call`` waited for a reply
        self.last_sent = time.monotonic()  # when the last frame went out (for the heartbeat)
        self.last_seq = 0  # the highest seq received (for a resume)
        self.bye: str | None = None  # the reason of the server's bye

    def request(self, t: str, **fields) -> int:
        self.next_id += 1
        body = msgpack.packb({"t": t, "id": self.next_id, **fields})
        self.sock.sendall(struct.pack(">I", len(body)) + body)
        self.last_sent = time.monotonic()
        return self.next_id

    def keep_alive(self, heartbeat_s: float) -> None:
        """Send ``ping`` when nothing was sent for ``heartbeat_s``, whatever arrives meanwhile:
        the server drops a client it hears nothing from (``bye`` ``idle``), even one that only
        receives; then wait for the next frame at most until the next ping is due."""
        if time.monotonic() - self.last_sent >= heartbeat_s:
            self.request("ping")
        self.sock.settimeout(max(0.01, self.last_sent + heartbeat_s - time.monotonic()))

    def _read(self, n: int, idle_ok: bool = False) -> bytes:
        """Exactly ``n`` bytes. A socket timeout passes through (TimeoutError) only before the
        first byte of a frame (``idle_ok``); inside a frame we keep waiting."""
        data = b""
        while len(data) < n:
            try:
                chunk = self.sock.recv(n - len(data))
            except TimeoutError:
                if idle_ok and not data:
                    raise
                continue
            if not chunk:
                raise ConnectionError("the server closed the connection")
            data += chunk
        return data

    def receive(self) -> dict:
        (n,) = struct.unpack(">I", self._read(4, idle_ok=True))
        if not 1 <= n <= MAX_SERVER_FRAME:
            raise ConnectionError(f"bad frame length {n}")
        msg = msgpack.unpackb(self._read(n), raw=False, strict_map_key=True)
        if not isinstance(msg, dict):
            raise ConnectionError("a frame that is not a map")
        if msg.get("t") == "error" and msg.get("fatal"):
            raise ConnectionError(f"fatal error {msg['code']}: {msg['msg']}")
        return msg

    def next_message(self, heartbeat_s: float) -> dict | None:
        """The next message not seen before; None when none came before a ping was due, or it
        repeats an event already seen (a resume's replay that overlaps: by ``seq``)."""
        self.keep_alive(heartbeat_s)
        if self.early:
            msg = self.early.pop(0)
        else:
            try:
                msg = self.receive()
            except TimeoutError:
                return None
        if "seq" in msg:
            if msg["seq"] <= self.last_seq:
                return None
            self.last_seq = msg["seq"]
            self.bye = msg.get("reason") if msg["t"] == "bye" else self.bye
        return msg

    def call(self, t: str, **fields) -> dict:
        """Send a request and return its reply; events meanwhile are kept in ``self.early``."""
        rid = self.request(t, **fields)
        while True:
            msg = self.receive()
            if msg.get("re") == rid:
                if msg["t"] == "error":
                    raise RuntimeError(f"{t}: {msg['code']}: {msg['msg']}")
                return msg
            self.early.append(msg)


# A batch holding one of these ends with our legal (PROTOCOL.md §6, v1.1).
_DEAL = """deal_started turn set_laid none_declared set_held set_returned window_closed challenge_void
challenged believed set_revealed pile_taken pile_discarded quads_discarded quads_declined
quads_window_opened quads_window_closed stock_drawn timed_out player_out deal_ended"""
DEAL_EVENTS = frozenset(_DEAL.split())


class Player:
    """What the client knows of the deal: its seat, its hand, the last claim, its legal actions."""

    def __init__(self, seat: int, names: list[str]) -> None:
        self.seat = seat
        self.names = names
        self.hand: collections.Counter = collections.Counter()
        self.legal: dict | None = None
        self.last_claim: tuple[str, int] | None = None  # (rank, count) of the last set
        self.decks = 1
        self.commitment = ""
        self.started: dict = {}  # this deal's deal_started (fair deal 2: seed_hash, contributions)
        self.mine: dict = {}  # deal_no -> the contribution we sent (fair deal 2)
        self.turn: int | None = None  # the seat to act
        self.held = False  # our set was laid early and waits for the challenge window
        self.in_batch = False  # an event of the deal came after the last legal (§6: batch end)

    def name(self, seat: int | None) -> str:
        return "you" if seat == self.seat else self.names[seat] if seat is not None else "?"

    def observe(self, ev: dict) -> str | None:
        """Update from an event; return a line to print, if it is worth one."""
        t, me = ev["t"], ev.get("seat") == self.seat
        self.in_batch = t in DEAL_EVENTS or (self.in_batch and t not in ("legal", "state"))
        if t == "deal_started":
            self.hand = collections.Counter(ev["hand"] or [])
            self.decks = 2 if ev["deck"].startswith("2x") else 1
            self.commitment = ev["commitment"]
            self.started = ev
            return (
                f"deal {ev['deal_no']}: {self.name(ev['dealer'])} dealt;"
                f" your hand: {' '.join(sorted(self.hand.elements()))}"
            )
        if t == "legal":
            self.legal = ev
        elif t == "turn":
            self.turn = ev["seat"]
        elif t in ("set_held", "set_returned") and me:
            self.held = t == "set_held"
        elif t == "state":
            self.hand = collections.Counter(ev["hand"] or [])
            self.legal = ev["legal"]
        elif t in ("set_laid", "none_declared"):
            self.last_claim = (ev["rank"], ev.get("count", 0))
            if me:
                self.held = False
                self.hand -= collections.Counter(ev.get("cards") or [])
        elif t in ("pile_taken", "stock_drawn") and me and ev.get("cards"):
            self.hand += collections.Counter(ev["cards"])
        elif t == "quads_discarded" and me:
            for rank in ev["ranks"] or []:
                for card in [c for c in self.hand.elements() if c[0] == rank][:4]:
                    self.hand[card] -= 1
            self.hand += collections.Counter()  # drop zero counts
        elif t in ("challenged", "believed"):
            word = "challenge" if t == "challenged" else "believe"
            return f"{self.name(ev['seat'])} {word}{'' if me else 's'} set {ev['set_no']}"
        elif t == "set_revealed":
            verdict = "true" if ev["claim_true"] else "false"
            return (
                f"  set {ev['set_no']} of {self.name(ev['seat'])}: claimed {ev['count']} x {ev['rank']},"
                f" was {' '.join(ev['cards']) or 'none'}: {verdict}"
            )
        elif t == "pile_taken":
            return f"  {self.name(ev['seat'])} take{'' if me else 's'} the pile" + (
                f" ({ev['count']} cards)" if ev["count"] else ""
            )
        elif t == "pile_discarded":
            return f"  the pile ({ev['count']} cards) goes to the discard"
        elif t == "player_out":
            return f"{self.name(ev['seat'])} {'are' if me else 'is'} out (place {ev['place']})"
        return None

    def choose(self, plain: bool = False) -> tuple[str, dict] | None:
        """The request to send for the current ``legal``, or None to wait. ``plain``: after a
        refusal, the simplest thing allowed (the fewest cards, the first rank)."""
        legal = self.legal or {}
        lay, challenge = legal.get("lay"), legal.get("challenge")
        if plain and lay is not None and sum(self.hand.values()) >= lay["min"]:
            return "lay", {
                "cards": sorted(self.hand.elements())[: lay["min"]],
                "rank": lay["ranks"][0],
                "count": lay.get("count_min"),
            }
        if legal.get("discard_quads"):
            return "discard_quads", {"ranks": legal["discard_quads"]}
        if legal.get("decline_quads"):  # verish: no quads to discard; the next set need not wait
            return "decline_quads", {}
        stuck = self.turn == self.seat and not self.held and lay is None and legal.get("believe") is None
        if challenge is not None and (stuck or self._impossible()):
            return "challenge", {"set_no": challenge}
        if lay is None and self.turn == self.seat and legal.get("believe") is not None:
            return "believe", {"set_no": legal["believe"]}
        if legal.get("declare_none") is not None and self._held(legal["declare_none"]) == 0:
            return "declare_none", {}
        if lay is None:
            return None
        cards = sorted(self.hand.elements())
        held = {r: [c for c in cards if c[0] == r] for r in lay["ranks"]}
        rank = max(lay["ranks"], key=lambda r: len(held[r]))
        if held[rank]:
            chosen = held[rank][: lay["max"]]
        else:
            chosen = []
        chosen += [c for c in cards if c not in chosen][: max(0, lay["min"] - len(chosen))]
        if len(chosen) < lay["min"]:
            return None  # our hand is not what the server thinks: wait for the next legal
        fields = {"cards": chosen, "rank": rank}
        if lay.get("count_min") is not None:
            fields["count"] = min(max(len(chosen), lay["count_min"]), lay["count_max"])
        return "lay", fields

    def _held(self, rank: str) -> int:
        return sum(n for c, n in self.hand.items() if c[0] == rank)

    def _impossible(self) -> bool:
        """The last claim names more cards of its rank than the deck holds besides ours."""
        if self.last_claim is None:
            return False
        rank, count = self.last_claim
        return count + self._held(rank) > 4 * self.decks


class SessionGone(Exception):
    """The server refused to bring our session back (BAD_RESUME, a restart that lost it)."""


HELLO = {"proto": [1, 1], "client": {"name": "example_client.py", "version": "1"}}


def reconnect(args: argparse.Namespace, token: str, last_seq: int) -> tuple[Client, dict]:
    """Come back to our session after a drop (PROTOCOL.md §4, Resume): ``hello.resume`` with the
    session token and the highest seq received; the server then replays what we missed, or
    sends a snapshot (``state``). Tries for a few seconds while the server cannot be reached."""
    for _ in range(10):
        try:
            client = Client(args.host, args.port)
        except OSError:
            time.sleep(0.5)
            continue
        try:
            resume = {"token": token, "last_seq": last_seq}
            welcome = client.call("hello", **HELLO, name=args.name, resume=resume)
        except ConnectionError as exc:  # a fatal refusal: the session is gone
            raise SessionGone(str(exc)) from None
        client.last_seq = last_seq
        return client, welcome
    raise ConnectionError("the server cannot be reached again")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7420)
    parser.add_argument("--variant", default="verish")
    parser.add_argument("--name", default="example")
    parser.add_argument("--bot", help="the bots' strength (default: the server's default)")
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds")
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.timeout
    try:
        try:
            return play(args, deadline)
        except SessionGone as exc:
            print(f"example client: {exc}; starting afresh")
            return play(args, deadline)
    except (OSError, ConnectionError, RuntimeError) as exc:
        print(f"example client: {exc}", file=sys.stderr)
        return 1


def sit(args: argparse.Namespace) -> tuple[Client, dict, Player] | None:
    """Connect, make a table with bots, get ready and start: the client, its welcome and its
    player; None when the server has no such variant."""
    client = Client(args.host, args.port)
    welcome = client.call("hello", **HELLO, name=args.name)
    print(f"connected to {welcome['server']['name']} (protocol {welcome['proto']}.{welcome.get('minor', 0)})")
    variants = {v["name"]: v for v in client.call("variants")["variants"]}
    if args.variant not in variants:
        print(f"no variant {args.variant!r}; the server offers {', '.join(variants)}", file=sys.stderr)
        return None
    low, high = variants[args.variant]["players"]
    seats = min(max(low, 3), high)
    bot = args.bot or welcome.get("default_bot")  # None (an early server): null, its default
    joined = client.call("create_table", variant=args.variant, seats=seats, bots=[bot] * (seats - 1), deals=1)
    names = [s["name"] or "?" for s in joined["table"]["seats"]]
    me = Player(joined["seat"], names)
    print(f"table {joined['table']['id']}: {args.variant}, you at seat {me.seat} with {seats - 1} bots")
    client.call("ready", ready=True)
    client.call("start")
    return client, welcome, me


def play(args: argparse.Namespace, deadline: float) -> int:
    seated = sit(args)
    if seated is None:
        return 1
    client, welcome, me = seated
    batch_ends = welcome.get("minor", 0) >= 1  # 1.0 sent legal only when it changed
    heartbeat_s = welcome["heartbeat_ms"] / 1000
    waiting_for: int | None = None  # the id of our action awaiting its reply
    tried: set = set()  # actions sent since the last legal, not to repeat
    plain = False  # an action was refused: try the simplest one
    while time.monotonic() < deadline:
        try:
            msg = client.next_message(heartbeat_s)
        except ConnectionError:  # dropped: come back to the seat, unless the server said why not
            if client.bye in ("shutdown", "replaced"):
                raise
            client, welcome = reconnect(args, welcome["session"], client.last_seq)
            heartbeat_s, waiting_for, me.legal = welcome["heartbeat_ms"] / 1000, None, None
            tried.clear()
            continue
        if msg is None:
            continue
        if msg.get("t") == "seed_committed":  # fair deal 2: our share of the shuffle, at once
            me.mine[msg["deal_no"]] = secrets.token_hex(32)
            client.request("contribute", deal_no=msg["deal_no"], contribution=me.mine[msg["deal_no"]])
            continue
        if msg.get("re") is not None:
            if msg["re"] == waiting_for:
                waiting_for = None
                if msg["t"] == "ok":
                    me.legal = None  # out of date now: wait for the next legal
                if msg["t"] == "error":
                    print(f"  (refused: {msg['code']}: {msg['msg']})")
                    plain = True
                    if msg["code"] == "RATE_LIMITED":  # nothing changed: the same may be tried later
                        time.sleep(0.5)
                        tried.clear()
            if waiting_for is not None or not plain:
                continue
        elif "seq" in msg:
            line = me.observe(msg)
            if line:
                print(line)
            if msg["t"] == "legal":
                tried.clear()
                plain = False
            if msg["t"] == "deal_ended":
                return report(me, msg)
        complete = not (batch_ends and me.in_batch)  # no event of the deal after the legal
        if waiting_for is None and me.legal and complete and (msg["t"] in ("legal", "state") or plain):
            action = me.choose(plain)  # act on the latest legal held (PROTOCOL.md §11)
            if action and repr(action) not in tried:
                tried.add(repr(action))
                waiting_for = client.request(action[0], **action[1])
    print("example client: the deal did not end in time", file=sys.stderr)
    return 1


def report(me: Player, ev: dict) -> int:
    if ev["winner"] is not None:
        print(f"the deal is over: {me.name(ev['winner'])} won")
    else:
        print(f"the deal is over: {me.name(ev['loser'])} lost")
    digest = hashlib.sha256((ev["salt"] + ":" + ",".join(ev["deck"])).encode()).hexdigest()
    print("fair deal: the commitment " + ("matches" if digest == me.commitment else "DOES NOT MATCH"))
    fair2 = check_fair2(me, ev)
    if fair2 is not None:
        print("fair deal 2: " + fair2)
    return 0 if digest == me.commitment and not (fair2 or "").startswith("CHECK FAILED") else 1


def check_fair2(me: Player, ev: dict) -> str | None:
    """Fair deal 2 (docs/PROTOCOL.md, 9.2), or None when the server does not use it."""
    started = me.started
    if started.get("fair") != 2:
        return None
    seed, contributions = ev.get("seed"), started["contributions"]
    if seed is None or hashlib.sha256(bytes.fromhex(seed)).hexdigest() != started["seed_hash"]:
        return "CHECK FAILED: the seed disclosed is not the one committed to"
    if fair_deck(seed, started["deck"], contributions) != ev["deck"]:
        return "CHECK FAILED: the deck is not the one the seed and the contributions make"
    mine, used = me.mine.get(started["deal_no"]), contributions[me.seat]
    if mine is None and not any(contributions):  # no seed_committed came: a fixed seed (9.6)
        return "the deck is the one the table's fixed seed makes (whoever knows that seed knew it)"
    if mine is not None and used == mine:
        return "the deck was shuffled fairly: nobody could choose it"
    if used is not None:
        return "CHECK FAILED: our contribution was replaced"
    return "our contribution is not in the deck: the server could have chosen it"


if __name__ == "__main__":
    sys.exit(main())
