"""Per-connection limits in-process on trio's MockClock (exact times), and what the operator's
log says about a dropped client.

The server runs its real ``ClientConnection`` over an in-memory stream pair, so a test can send
bytes one by one and know to the millisecond when the server gives up.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import attrs
import pytest
import server_pairs
import trio
import trio.testing

from neveryu import protocol
from neveryu.client.botclient import Client, ServerError
from neveryu.server import Server, ServerConfig
from neveryu.server._config import Limits
from neveryu.server._password import GUESS_WAIT_S

HELLO = {"t": "hello", "id": 1, "proto": [1, 1], "client": {"name": "t", "version": "0"}, "name": "slow"}


@pytest.fixture
def autojump_clock():
    return trio.testing.MockClock(autojump_threshold=0)


class Peer:
    """The client end of an in-memory connection to ``server``."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.wire = protocol.Connection("client")
        self.msgs: list[tuple[float, dict[str, Any]]] = []  # (when, message)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.stream.send_all(protocol.encode_frame(msg))

    async def read_all(self) -> None:
        """Read until the server closes; stamps each message with the clock."""
        while True:
            try:
                data = await self.stream.receive_some(65_536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):  # (the test closed it)
                return
            if not data:
                return
            self.wire.receive_data(data)
            while (msg := self.wire.next_message()) is not None:
                self.msgs.append((trio.current_time(), msg))

    def last(self) -> dict[str, Any]:
        return self.msgs[-1][1]


async def connect(nursery: trio.Nursery, server: Server) -> Peer:
    peer = Peer(await server_pairs.connect(nursery, server))
    nursery.start_soon(peer.read_all)
    return peer


def limits_config(**limits: Any) -> ServerConfig:
    base = dict(handshake_ms=5_000, heartbeat_ms=100_000, idle_ms=45_000, frame_ms=10_000)
    return ServerConfig(host="127.0.0.1", port=0).evolve(limits={**base, **limits})


async def test_a_frame_dribbled_byte_by_byte_gets_bye_frame_timeout(autojump_clock):
    server = Server(limits_config(frame_ms=10_000, idle_ms=45_000))
    async with trio.open_nursery() as nursery:
        peer = await connect(nursery, server)
        await peer.send(HELLO)
        await trio.sleep(1)
        frame = protocol.encode_frame({"t": "ping", "id": 2})
        start = trio.current_time()
        for byte in frame[:-1]:  # one byte every 2 s: each arrives long before idle_ms
            await peer.stream.send_all(bytes([byte]))
            await trio.sleep(2)
            if peer.msgs and peer.last()["t"] == "bye":
                break
        await trio.testing.wait_all_tasks_blocked()
    when, bye = peer.msgs[-1]
    assert [m["t"] for _, m in peer.msgs] == ["welcome", "bye"]
    assert bye["reason"] == "frame_timeout"
    assert when - start == pytest.approx(10.0)


async def test_idle_counts_whole_frames_only(autojump_clock):
    # frame_ms out of the way: a byte every 10 s of a frame that never ends is still idle.
    server = Server(limits_config(frame_ms=1_000_000, idle_ms=45_000))
    async with trio.open_nursery() as nursery:
        peer = await connect(nursery, server)
        await peer.send(HELLO)
        await trio.sleep(5)
        await peer.send({"t": "ping", "id": 2})  # the last whole frame, at 5 s
        last_frame = trio.current_time()
        frame = protocol.encode_frame({"t": "ping", "id": 3})
        for byte in frame[:-1]:
            await trio.sleep(10)
            if peer.last()["t"] == "bye":
                break
            await peer.stream.send_all(bytes([byte]))
        await trio.testing.wait_all_tasks_blocked()
    when, bye = peer.msgs[-1]
    assert [m["t"] for _, m in peer.msgs] == ["welcome", "pong", "bye"]
    assert bye["reason"] == "idle"
    assert when - last_frame == pytest.approx(45.0)


async def test_whole_frames_in_time_keep_a_connection(autojump_clock):
    server = Server(limits_config(frame_ms=10_000, idle_ms=45_000))
    async with trio.open_nursery() as nursery:
        peer = await connect(nursery, server)
        await peer.send(HELLO)
        frame = protocol.encode_frame({"t": "ping", "id": 2})
        for _ in range(10):  # a slow but whole frame every 40 s: 9 s per frame, split in two
            await trio.sleep(31)
            await peer.stream.send_all(frame[:3])
            await trio.sleep(9)
            await peer.stream.send_all(frame[3:])
        await trio.testing.wait_all_tasks_blocked()
        assert [m["t"] for _, m in peer.msgs] == ["welcome"] + ["pong"] * 10
        nursery.cancel_scope.cancel()


def test_max_chat_cannot_exceed_the_protocol_limit():
    with pytest.raises(ValueError, match="'max_chat' must be <="):
        ServerConfig().evolve(limits={"max_chat": protocol.MAX_CHAT_LEN + 1})


# -- the operator's log -------------------------------------------------------------------------


async def test_log_has_one_line_per_drop_and_error_lines_are_bounded(autojump_clock, caplog):
    caplog.set_level(logging.INFO, logger="neveryu.server")
    server = Server(limits_config(idle_ms=45_000, rate=1_000_000, burst=1_000_000))
    async with trio.open_nursery() as nursery:
        peer = await connect(nursery, server)
        await peer.send(HELLO)
        for i in range(500):  # 500 requests that each get a non-fatal error, over 50 s
            await peer.send({"t": "leave", "id": 10 + i})
            await trio.sleep(0.1)
        await trio.testing.wait_all_tasks_blocked()
        assert sum(1 for _, m in peer.msgs if m["t"] == "error") == 500
        await peer.stream.send_all(b"\x00\x00\x00\x00")  # a fatal error: the connection is dropped
        await trio.testing.wait_all_tasks_blocked()
    lines = [r.getMessage() for r in caplog.records if r.name == "neveryu.server"]
    closed = [line for line in lines if " closed: " in line]
    assert closed == [
        "connection from ? (name 'slow') closed: BAD_FRAME (a frame of length 0);"
        " errors sent: {'BAD_STATE': 500}"
    ]
    errors = [line for line in lines if "BAD_STATE" in line and line not in closed]
    # five one by one, then one summary at most every 10 s (and one on close): 5 + 5 + 1
    assert len(errors) <= 12, errors
    assert (
        sum(
            int(part.split(" x")[1])
            for line in errors
            if "more errors" in line
            for part in line.split(": ")[-1].split(", ")
        )
        == 495
    )


# -- the documentation agrees with the server -----------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def limits_section() -> str:
    text = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    return text[text.index("## 8. Limits and timeouts") : text.index("## 9.")]


@pytest.mark.parametrize("field", [a.name for a in attrs.fields(Limits)])
def test_protocol_md_lists_each_limit_with_its_default(field):
    rows = [line for line in limits_section().splitlines() if f"`{field}`" in line.split(" | ")[0]]
    assert len(rows) == 1, field
    names = [n.strip(" `|") for n in rows[0].split(" | ")[0].split(",")]
    defaults = [d.strip() for d in rows[0].split(" | ")[1].split(", ")]
    assert f"{getattr(Limits(), field):,}" == defaults[names.index(field)]


LIMIT_ERRORS = [
    "BAD_FRAME",
    "FRAME_TOO_LARGE",
    "HELLO_TIMEOUT",
    "SERVER_FULL",
    "RATE_LIMITED",
    "BAD_STATE",
    "BAD_OPTION",
]


@pytest.mark.parametrize("code", LIMIT_ERRORS)
def test_protocol_md_error_table_says_what_the_registry_says(code):
    """The errors a limit gives: PROTOCOL.md's row says what the registry says (the doc may
    set names in `code`)."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8").replace("`", "")
    fatal, when = protocol.ERRORS[code]
    assert f"| {code} | {'yes' if fatal else 'no'} | {when} |" in text


def test_protocol_constants_are_the_server_defaults():
    limits = Limits()
    assert (limits.handshake_ms, limits.heartbeat_ms, limits.idle_ms, limits.max_chat) == (
        protocol.HELLO_TIMEOUT_MS,
        protocol.HEARTBEAT_MS,
        protocol.IDLE_TIMEOUT_MS,
        protocol.MAX_CHAT_LEN,
    )


# -- what one client may do to everybody's lobby and screen -----------------------------------------

HOST = "127.0.0.1"


async def test_tables_made_and_left_close_at_once_and_one_address_holds_few():
    config = ServerConfig(host=HOST, port=0).evolve(limits={"max_tables": 6, "max_tables_per_address": 3})
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = Server(config)
            port = await nursery.start(server.run)
            maker = await Client.connect(HOST, port, "maker")
            for _ in range(20):  # made and abandoned: each closes as its only player leaves
                await maker.request("create_table", variant="verish", seats=2)
                await maker.request("leave")
            while server.tables:  # a table closes in its own task, just after the leave's ok
                await trio.sleep(0.01)
            held = []
            for k in range(4):  # tables held by players from one address: at most 3
                c = await Client.connect(HOST, port, f"h{k}")
                try:
                    await c.request("create_table", variant="verish", seats=2)
                    held.append(c)
                except ServerError as exc:
                    assert (exc.code, k) == ("BAD_STATE", 3)
            assert len(held) == 3 and len(server.tables) == 3
            await held[0].request("leave")
            while len(server.tables) == 3:
                await trio.sleep(0.01)
            assert (await maker.request("create_table", variant="verish", seats=2))["t"] == "table_joined"
            nursery.cancel_scope.cancel()


async def test_names_and_chat_reach_others_without_control_characters():
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = Server(ServerConfig(host=HOST, port=0))
            port = await nursery.start(server.run)
            evil = await Client.connect(HOST, port, "\x1b[2Jann\u202e\nx")
            joined = await evil.request("create_table", variant="verish", seats=2)
            other = await Client.connect(HOST, port, "bob")
            await other.request("join_table", table=joined["table"]["id"])
            await evil.request("chat", text="hi\x1b]0;pwned\x07\ttab\u200bzw 👨\u200d👩\u200d👧")
            seen = [await other.next_event() for _ in range(2)]
            (chat,) = [m for m in seen if m["t"] == "chat"]
            assert chat["name"] == "\ufffd[2Jann\ufffd x"
            assert chat["text"] == "hi\ufffd]0;pwned\ufffd tab\ufffdzw 👨\u200d👩\u200d👧"
            for blank in ("   ", "\t\n"):  # nothing to read: refused, nothing said
                with pytest.raises(ServerError) as refused:
                    await evil.request("chat", text=blank)
                assert (refused.value.code, refused.value.reply["fatal"]) == ("BAD_OPTION", False)
            for name in (" ", "\u200b", "\x1b"):
                with pytest.raises(ServerError) as refused:
                    await Client.connect(HOST, port, name)
                assert (refused.value.code, refused.value.reply["fatal"]) == ("BAD_MESSAGE", True)
            nursery.cancel_scope.cancel()


async def test_a_wrong_table_password_costs_a_second_of_requests(autojump_clock, records_db):
    async with trio.open_nursery() as nursery:
        server = await server_pairs.started(nursery, limits_config(rate=50, burst=200), records_db)
        owner, guesser = await connect(nursery, server), await connect(nursery, server)
        await owner.send(HELLO)
        await owner.send(
            {"t": "create_table", "id": 2, "variant": "verish", "seats": 2, "password": "s3cret"}
        )
        await guesser.send(HELLO)
        await trio.testing.wait_all_tasks_blocked()
        table = owner.last()["table"]["id"]
        start = trio.current_time()
        for k, guess in enumerate(["a", "b", "c", "d"]):  # as fast as it can
            await guesser.send({"t": "join_table", "id": 10 + k, "table": table, "password": guess})
        await trio.testing.wait_all_tasks_blocked()
        codes = [m["code"] for _, m in guesser.msgs if m["t"] == "error"]
        assert codes == ["WRONG_TABLE_PASSWORD", "RATE_LIMITED", "RATE_LIMITED", "RATE_LIMITED"]
        await trio.sleep_until(start + 0.9)  # still in the penalty second
        await guesser.send({"t": "ping", "id": 19})
        await trio.testing.wait_all_tasks_blocked()
        assert [m.get("code") for _, m in guesser.msgs if m.get("re") == 19] == ["RATE_LIMITED"]
        await trio.sleep_until(start + 1.1)  # a second and a request later: a token again
        await guesser.send({"t": "join_table", "id": 20, "table": table, "password": "s3cret"})
        await trio.testing.wait_all_tasks_blocked()
        assert [m["t"] for _, m in guesser.msgs if m.get("re") == 20] == ["table_joined"]
        nursery.cancel_scope.cancel()


# -- hostile requests (odd version ranges, forged tokens, reused ids...): each gets its documented answer


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


HOSTILE = {
    # a hello offering every version there could be: the server picks 1
    "proto_range_wide": ([{**HELLO, "proto": [1, 65535]}], [("welcome", None)]),
    "proto_range_huge": ([{**HELLO, "proto": [0, 2**40]}], [("error", "BAD_MESSAGE")]),
    "proto_range_reversed": ([{**HELLO, "proto": [5, 1]}], [("error", "UNSUPPORTED_VERSION")]),
    "forged_token": ([{**HELLO, "resume": {"token": "x" * 32, "last_seq": 0}}], [("error", "BAD_RESUME")]),
    "hello_twice": (
        [HELLO, {**HELLO, "id": 2}, {"t": "ping", "id": 3}],
        [("welcome", None), ("error", "BAD_STATE"), ("pong", None)],
    ),
    "id_reused_in_flight": (
        [HELLO, {"t": "ping", "id": 5}, {"t": "list_tables", "id": 5}, {"t": "ping", "id": 5}],
        [("welcome", None), ("pong", None), ("tables", None), ("pong", None)],
    ),
    "id_a_bool": ([HELLO, {"t": "ping", "id": True}], [("welcome", None), ("error", "BAD_MESSAGE")]),
    "unknown_fields_ignored": (
        [HELLO, {"t": "ping", "id": 2, "evil": {"x": [1, 2]}}],
        [("welcome", None), ("pong", None)],
    ),
    "map_of_4g_entries": (
        [HELLO, _frame(b"\xdf\xff\xff\xff\xff")],
        [("welcome", None), ("error", "BAD_FRAME")],
    ),
    "string_of_4g_bytes": (
        [HELLO, _frame(b"\x81\xa1t\xdb\xff\xff\xff\xff")],
        [("welcome", None), ("error", "BAD_FRAME")],
    ),
    "nesting_16000_deep": (
        [HELLO, _frame(b"\x81\xa1t" + b"\x91" * 16_000 + b"\xc0")],
        [("welcome", None), ("error", "BAD_FRAME")],
    ),
    "options_1500_keys": (
        [HELLO, {"t": "create_table", "id": 2, "options": {f"o{i}": i for i in range(1500)}}],
        [("welcome", None), ("error", "BAD_FRAME")],  # more values than MAX_CLIENT_OBJECTS
    ),
    "variant_dunder": (
        [HELLO, {"t": "create_table", "id": 2, "variant": "__class__"}],
        [("welcome", None), ("error", "BAD_OPTION")],
    ),
    # the server's max_chat is 10 here: longer is refused (BAD_OPTION), as over the protocol's 500
    "chat_over_max_chat": (
        [
            HELLO,
            {"t": "create_table", "id": 2, "variant": "verish", "seats": 2},
            {"t": "chat", "id": 3, "text": "x" * 11},
            {"t": "chat", "id": 4, "text": "x" * 10},
            {"t": "ping", "id": 5},
        ],
        [
            ("welcome", None),
            ("table_joined", None),
            ("error", "BAD_OPTION"),
            ("ok", None),
            ("chat", None),
            ("pong", None),
        ],
    ),
    "chat_over_500": (
        [
            HELLO,
            {"t": "create_table", "id": 2, "variant": "verish", "seats": 2},
            {"t": "chat", "id": 3, "text": "x" * 501},
            {"t": "chat", "id": 4, "text": ""},
            {"t": "ping", "id": 5},
        ],
        # not fatal: nothing is said, the connection stays (docs/PROTOCOL.md, section 8)
        [
            ("welcome", None),
            ("table_joined", None),
            ("error", "BAD_OPTION"),
            ("error", "BAD_OPTION"),
            ("pong", None),
        ],
    ),
    "game_request_in_lobby": (
        [HELLO, {"t": "lay", "id": 2, "cards": ["AS"], "rank": "A"}],
        [("welcome", None), ("error", "NOT_PLAYING")],
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
async def test_hostile_frames_get_their_documented_answer(name, autojump_clock, records_db):
    sent, expected = HOSTILE[name]
    async with trio.open_nursery() as nursery:
        server = await server_pairs.started(nursery, limits_config(idle_ms=1_000, max_chat=10), records_db)
        peer = await connect(nursery, server)
        await peer.stream.send_all(
            b"".join(m if isinstance(m, bytes) else protocol.encode_frame(m) for m in sent)
        )
        await trio.sleep(5)  # past idle_ms: the connection has ended either way
        assert not server.connections
        server.shutdown()
    got = [
        (m["t"], m.get("code")) for _, m in peer.msgs if m["t"] not in ("heartbeat", "bye", "table_update")
    ]
    assert got == expected
    fatal = [m for _, m in peer.msgs if m["t"] == "error" and m["fatal"]]
    assert not fatal or peer.msgs[-1][1] is fatal[0]  # a fatal error is the last word


async def test_a_resume_never_overflows_its_own_queue():
    """Events missed beyond half the outbox come as a snapshot, not a replay (``replay`` may be
    set above ``outbox``)."""
    config = ServerConfig(host=HOST, port=0).evolve(limits={"outbox": 16, "replay": 512})
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = Server(config)
            port = await nursery.start(server.run)
            ann = await Client.connect(HOST, port, "ann")
            joined = await ann.request("create_table", variant="verish", seats=2)
            token = ann.token
            await ann.aclose()
            bob = await Client.connect(HOST, port, "bob")
            await bob.request("join_table", table=joined["table"]["id"])
            for k in range(20):  # ann misses 20 chats and more: more than the queue holds
                await bob.request("chat", text=f"line {k}")
            back = await Client.connect(HOST, port, "ann", resume=(token, 0), keep=True)
            assert back.welcome["resumed"]
            seen = [await back.next_event() for _ in range(1)]
            assert seen[0]["t"] == "table_update" and back.bye is None
            assert (await back.request("ping"))["t"] == "pong"
            assert not [m for m in back.received if m["t"] == "chat"]
            nursery.cancel_scope.cancel()


async def test_passwords_in_any_script():
    """A password with non-ASCII characters (``secrets.compare_digest`` refuses such str)."""
    config = ServerConfig(host=HOST, port=0, password="пароль")
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(Server(config).run)
            for wrong in ("парол", "x", "пароль!"):
                with pytest.raises(ServerError) as refused:
                    await Client.connect(HOST, port, "eve", password=wrong)
                assert refused.value.code == "WRONG_PASSWORD"
            ann = await Client.connect(HOST, port, "ann", password="пароль")
            joined = await ann.request("create_table", variant="verish", seats=3, password="ёжик")
            bob = await Client.connect(HOST, port, "bob", password="пароль")
            with pytest.raises(ServerError) as refused:
                await bob.request("join_table", table=joined["table"]["id"], password="ежик")
            assert refused.value.code == "WRONG_TABLE_PASSWORD"
            cy = await Client.connect(HOST, port, "cy", password="пароль")
            assert (await cy.request("join_table", table=joined["table"]["id"], password="ёжик"))["seat"] == 1
            nursery.cancel_scope.cancel()


async def test_a_failing_shutdown_still_stops_the_server():
    """Whatever fails while the tables close and the clients are told bye, the server stops
    (its connections' and tables' tasks are ended) and the failure reaches the caller."""
    config = ServerConfig(host=HOST, port=0)
    broke = pytest.RaisesExc(RuntimeError, match="the disk broke")
    with trio.fail_after(10), pytest.RaisesGroup(broke, flatten_subgroups=True):
        async with trio.open_nursery() as nursery:
            server = Server(config)
            await nursery.start(server.run)
            ann = await Client.connect(HOST, server.port, "ann")
            joined = await ann.request("create_table", variant="verish", seats=2)
            table = server.tables[joined["table"]["id"]]
            really_close = table.close

            def close(reason: str, *, keep: bool = False) -> None:  # fails once, then works
                table.close = really_close  # type: ignore[method-assign]
                raise RuntimeError("the disk broke")

            table.close = close  # type: ignore[method-assign]
            server.shutdown()
    assert not server.connections


async def test_a_wrong_server_password_makes_its_address_wait():
    """After a wrong password from an address, its next hello (however many connections it
    opens) is checked only GUESS_WAIT_S later, the right password included; no password at all
    is no guess."""
    config = ServerConfig(host=HOST, port=0, password="sesame")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server = Server(config)
            port = await nursery.start(server.run)
            with pytest.raises(ServerError, match="this server needs its password"):
                await Client.connect(HOST, port, "eve")
            assert not server.passwords.waits(HOST)
            await Client.connect(HOST, port, "ann", password="sesame")
            with pytest.raises(ServerError, match="that is not this server's password"):
                await Client.connect(HOST, port, "eve", password="open")
            start = trio.current_time()
            async with trio.open_nursery() as guesses:  # three at once: one a second
                for guess in ("close", "shut", "sesame"):
                    guesses.start_soon(_try_password, port, guess)
            assert trio.current_time() - start >= 2 * GUESS_WAIT_S  # (the last two a second apart)
            nursery.cancel_scope.cancel()


async def _try_password(port: int, password: str) -> None:
    try:
        await Client.connect(HOST, port, "eve", password=password)
    except ServerError as exc:
        assert exc.code == "WRONG_PASSWORD"


async def test_one_address_keeps_few_sessions_of_connections_gone(autojump_clock, records_db):
    """Connecting, saying hello and closing again and again: of an address's sessions that are
    gone and hold no seat, the server keeps the newest ``max_per_address`` for a resume (the
    older ones are forgotten at once, not after their grace time)."""
    tokens = []
    async with trio.open_nursery() as nursery:
        server = await server_pairs.started(nursery, limits_config(max_per_address=2), records_db)
        for k in range(5):
            peer = await connect(nursery, server)
            await peer.send({**HELLO, "name": f"p{k}"})
            await trio.testing.wait_all_tasks_blocked()
            tokens.append(peer.last()["session"])
            await peer.stream.aclose()
            await trio.testing.wait_all_tasks_blocked()
        answers = []
        for token in tokens:
            peer = await connect(nursery, server)
            await peer.send({**HELLO, "resume": {"token": token, "last_seq": 0}})
            await trio.testing.wait_all_tasks_blocked()
            answers.append(peer.msgs[0][1].get("code", peer.msgs[0][1]["t"]))
            await peer.stream.aclose()
            await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert answers == ["BAD_RESUME", "BAD_RESUME", "welcome", "welcome", "welcome"]
