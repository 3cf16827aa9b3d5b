"""One frozen attrs class per message of protocol v1 (docs/PROTOCOL.md).

Every class has ``t`` (its type), ``KIND`` (``request``, ``reply`` or ``event``), keyword-only
fields whose wire types (``_types``) validate and normalise every value given to the
constructor (arrays become tuples; a bad value raises ``RemoteProtocolError("BAD_MESSAGE")``),
``to_wire() -> dict`` and ``from_wire(d)``. A request also names its ``REPLY``. Game events
mirror engine/_events.py field for field (as projected for the receiving seat).

``parse_request(d)`` turns a decoded client message into its request object; the JSON Schema
(``_schema``) is generated from these classes.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

import attrs

from ._errors import RemoteProtocolError, error
from ._limits import MAX_CHAT_LEN, MAX_NAME_LEN
from ._types import (
    CARD,
    COUNT,
    MAX_SEATS,
    MS,
    OPTION_VALUE,
    OPTIONS,
    RANK,
    SEAT,
    SET_NO,
    UINT32,
    Any_,
    Array,
    Bool,
    Field,
    Int,
    Map,
    MapOf,
    Nullable,
    Ref,
    Str,
    Tuple,
    Type,
    well_typed,
)

MAX_CARDS = 104  # a 2x52 deck
MAX_SET = 8  # a set of a 2x52 deck (RULES.md, `hoyle`: 1-8 cards)
MAX_TABLES = 1024


def wire(type_: Type, doc: str = "", *, required: bool = True) -> Any:
    """A message field of wire type ``type_``. An optional field (``required=False``) defaults
    to None, may be absent on the wire (absent and nil mean the same) and is left out of
    ``to_wire`` when None."""
    meta = {"wire": Field(type_, required, doc)}
    if required:
        return attrs.field(kw_only=True, metadata=meta)
    return attrs.field(kw_only=True, default=None, metadata=meta)


def _checked(t: str, fields: list[attrs.Attribute]) -> list[attrs.Attribute]:
    out = []
    for a in fields:
        f: Field = a.metadata["wire"]
        ty = f.type if f.required else _optional(f.type)
        out.append(a.evolve(converter=_converter(ty, f"{t}.{a.name}")))
    return out


def _optional(ty: Type) -> Type:
    return ty if isinstance(ty, Nullable) else Nullable(ty)


def _converter(ty: Type, where: str):
    def convert(value: Any) -> Any:
        return ty.check(value, where)

    return convert


REQUESTS: dict[str, type[Message]] = {}
REPLIES: dict[str, type[Message]] = {}
EVENTS: dict[str, type[Message]] = {}
_REGISTRY = {"request": REQUESTS, "reply": REPLIES, "event": EVENTS}


def message(t: str, kind: str, reply: str | None = None):
    """Class decorator: make a frozen, keyword-only attrs message class of type ``t`` and
    register it under ``kind`` (``request``, ``reply`` or ``event``)."""

    def wrap(cls):
        cls.t = t
        cls.KIND = kind
        cls.REPLY = reply
        cls = attrs.frozen(kw_only=True, field_transformer=lambda _c, fs: _checked(t, fs))(cls)
        _REGISTRY[kind][t] = cls
        return cls

    return wrap


class Message:
    """Base of every message class."""

    t: ClassVar[str]
    KIND: ClassVar[str]
    REPLY: ClassVar[str | None]

    @classmethod
    def wire_fields(cls) -> dict[str, Field]:
        """name -> ``Field`` (wire type, required, doc), envelope fields first. Made once per
        class (it was rebuilt twice per request): the same dict every time, not to be changed."""
        fields = cls.__dict__.get("_wire_fields")
        if fields is None:
            fields = {a.name: a.metadata["wire"] for a in attrs.fields(cls)}
            cls._wire_fields = fields
        return fields

    @classmethod
    def from_wire(cls, d: dict) -> Message:
        """Build from a decoded message dict. Unknown keys are ignored. Raises
        ``RemoteProtocolError("BAD_MESSAGE")`` (fatal) for a missing or wrongly typed field."""
        kwargs = {}
        for name, f in cls.wire_fields().items():
            if name in d:
                kwargs[name] = d[name]
            elif f.required:
                raise error("BAD_MESSAGE", f"{cls.t}: the field {name} is missing")
        return cls(**kwargs)

    def to_wire(self) -> dict:
        """The message as a wire dict: ``{"t": ..., fields...}``; tuples become lists; optional
        fields that are None are left out."""
        out: dict[str, Any] = {"t": self.t}
        for name, f in self.wire_fields().items():
            value = getattr(self, name)
            if value is None and not f.required:
                continue
            out[name] = None if value is None else f.type.to_wire(value)
        return out


class Request(Message):
    id: int


class Reply(Message):
    re: int | None


class Event(Message):
    seq: int
    ts: int


def _request_base(cls):
    cls.__annotations__ = {"id": "int", **inspect.get_annotations(cls)}
    cls.id = wire(UINT32, "the request id, chosen by the client; the reply carries it as re")
    return cls


def request(t: str, reply: str = "ok"):
    return lambda cls: message(t, "request", reply)(_request_base(cls))


def reply(t: str):
    def wrap(cls):
        cls.__annotations__ = {"re": "int", **inspect.get_annotations(cls)}
        cls.re = wire(UINT32, "the id of the request this answers")
        return message(t, "reply")(cls)

    return wrap


def event(t: str):
    def wrap(cls):
        cls.__annotations__ = {"seq": "int", "ts": "int", **inspect.get_annotations(cls)}
        cls.seq = wire(Int(1), "strictly increasing per session, kept across a resume")
        cls.ts = wire(Int(0), "Unix wall-clock time in ms (display and logs only)")
        return message(t, "event")(cls)

    return wrap


# -- shared maps ----------------------------------------------------------------------------------

NAME = Str(MAX_NAME_LEN, 1)
PASSWORD = Str(256)
DECK = Str(4, choices=("36", "52", "2x36", "2x52"))
HEX64 = Str(64, 64, "^[0-9a-f]{64}$")
FAIR = Int(1, 255)
CONTRIBUTIONS = Array(Nullable(HEX64), MAX_SEATS, 2)
SCORES = Array(Int(-(2**31), 2**31 - 1), MAX_SEATS)

SEAT_SUMMARY = Ref(
    "seat_summary",
    Map(
        {
            "seat": Field(SEAT),
            "name": Field(Nullable(NAME), doc="the player's name; nil for an empty seat"),
            "bot": Field(
                Nullable(Str(16)),
                doc="a bot seat: its bot's strength (random, honest or sharp: welcome.bots); nil: a player's",
            ),
            "ready": Field(Bool(), doc="ready to start (bots are always ready)"),
            "away": Field(
                Bool(), doc="the player dropped or ran out of time: a bot plays for him until he is back"
            ),
        },
        title="seat summary",
    ),
)

TABLE = Ref(
    "table",
    Map(
        {
            "id": Field(UINT32, doc="the table's id"),
            "variant": Field(
                Str(32, 1), doc="the variant's name (docs/PROTOCOL.md, the rules of each variant)"
            ),
            "options": Field(OPTIONS, doc="the variant options chosen at create_table"),
            "seats": Field(Array(SEAT_SUMMARY, MAX_SEATS, 2)),
            "state": Field(Str(16, choices=("waiting", "playing")), doc="playing while a match is on"),
            "spectators": Field(COUNT),
            "password": Field(Bool(), doc="true if joining needs the table's password"),
            "turn_ms": Field(MS, doc="the turn time limit; 0: untimed"),
            "challenge_window_ms": Field(MS, doc="the challenge window (challengers = anyone)"),
            "tie_window_ms": Field(MS, doc="challenges this close to the first are simultaneous"),
            "quads_window_ms": Field(
                MS, required=False, doc="the quads window (`verish`; 0: none); absent from older servers"
            ),
            "deals": Field(Int(1), doc="deals per match"),
            "deal_no": Field(
                COUNT, doc="the number of the current or last deal of the match; 0 before the first"
            ),
            "seeded": Field(
                Bool(),
                doc="true if the table's deals come from a fixed seed: reproducible, and whoever knows"
                " the seed knows every deck; false: fair deal 2, nobody can choose a deck",
            ),
            "reveal_after_deal": Field(
                Bool(),
                required=False,
                doc="true: its players may fetch each ended deal's whole record, every hand (get_record);"
                " false or absent: only what each of them saw",
            ),
            "seed_from": Field(
                Nullable(Str(16, choices=("table", "server"))),
                required=False,
                doc="who chose the fixed seed, and so could know every deck: table (its maker) or server"
                " (whoever runs it); nil: no fixed seed",
            ),
            "host": Field(
                Nullable(SEAT),
                required=False,
                doc="the seat of the table's host (who made it; seat_bot, seat_free); nil: none seated",
            ),
        },
        title="table summary",
    ),
)

LAY_BOUNDS = Map(
    {
        "min": Field(Int(1, MAX_SET), doc="fewest cards the set may have"),
        "max": Field(Int(1, MAX_SET), doc="most cards the set may have"),
        "ranks": Field(Array(RANK, 13, 1), doc="the ranks the claim may name (one where forced)"),
        "count_min": Field(
            Nullable(Int(1, MAX_SET)),
            required=False,
            doc="where counts may lie: fewest cards the claim may name",
        ),
        "count_max": Field(
            Nullable(Int(1, MAX_SET)),
            required=False,
            doc="where counts may lie: most cards the claim may name",
        ),
    }
)

LEGAL_FIELDS = {
    "lay": Field(Nullable(LAY_BOUNDS), doc="how the seat may lay a set now; nil: it may not"),
    "challenge": Field(Nullable(SET_NO), doc="the set_no the seat may challenge; nil: none"),
    "believe": Field(Nullable(SET_NO), doc="the set_no the seat may believe; nil: none"),
    "declare_none": Field(Nullable(RANK), doc="the rank the seat may declare none of; nil: it may not"),
    "discard_quads": Field(Array(RANK, 26), doc="the quads the seat may discard now, one rank per quad"),
    "decline_quads": Field(
        Bool(),
        doc="the seat holds the right to discard quads after taking the pile (verish), whatever it"
        " holds, and may give it up (decline_quads); the right ends with the next set laid",
    ),
}
LEGAL = Ref("legal", Map(LEGAL_FIELDS, title="legal actions"))

LAST_SET = Map(
    {
        "set_no": Field(SET_NO),
        "seat": Field(SEAT, doc="who laid it"),
        "rank": Field(RANK, doc="the claimed rank"),
        "count": Field(COUNT, doc="the claimed count"),
        "size": Field(Nullable(COUNT), doc="its number of cards, where the viewer may know it"),
        "none": Field(Bool(), doc="a declared none, not a set of cards"),
    }
)


# -- requests -----------------------------------------------------------------------------------


@request("hello", reply="welcome")
class Hello(Request):
    """The first request of a connection: versions spoken, who is connecting."""

    proto: tuple[int, int] = wire(
        Array(Int(1, 65535), 2, 2), "[min, max]: the protocol versions the client speaks (inclusive)"
    )
    client: dict = wire(
        Map({"name": Field(Str(64, 1)), "version": Field(Str(64))}), "the client program's name and version"
    )
    name: str = wire(NAME, "the player's name")
    password: str | None = wire(PASSWORD, "the server's password, where it has one", required=False)
    resume: dict | None = wire(
        Map(
            {
                "token": Field(Str(128, 1), doc="the session token from welcome"),
                "last_seq": Field(Int(0), doc="the last event seq received"),
            }
        ),
        "come back to a session after a dropped connection",
        required=False,
    )


@request("ping", reply="pong")
class Ping(Request):
    """Any time after hello; answered by pong. A sign of life."""


@request("schema", reply="schema")
class SchemaRequest(Request):
    """Ask for this JSON Schema."""


@request("variants", reply="variants")
class VariantsRequest(Request):
    """Ask for the variants the server offers and their options."""


@request("list_tables", reply="tables")
class ListTables(Request):
    """Ask for the tables on the server."""


@request("create_table", reply="table_joined")
class CreateTable(Request):
    """Make a table and take its seat 0. Absent fields take the server's defaults."""

    variant: str | None = wire(
        Str(32, 1), "a variant name, e.g. verish (the variants request lists them)", required=False
    )
    options: dict | None = wire(OPTIONS, "variant options, as listed by variants", required=False)
    seats: int | None = wire(Int(2, MAX_SEATS), "number of seats", required=False)
    bots: tuple[str | None, ...] | None = wire(
        Array(Nullable(Str(16, 1)), MAX_SEATS - 1),
        "one entry per bot: a strength from welcome.bots, or nil for the server's default;"
        " bots fill the last seats",
        required=False,
    )
    turn_ms: int | None = wire(MS, "turn time limit; 0: untimed", required=False)
    challenge_window_ms: int | None = wire(MS, "challenge window (challengers = anyone)", required=False)
    tie_window_ms: int | None = wire(MS, "tie window (challengers = anyone)", required=False)
    quads_window_ms: int | None = wire(
        MS,
        "quads window (`verish`: the next set waits while the taker may discard quads); 0: none",
        required=False,
    )
    password: str | None = wire(PASSWORD, "a password others need to join or spectate", required=False)
    seed: int | None = wire(
        Int(0, 2**63 - 1), "a fixed seed: reproducible deals (the table tells its players)", required=False
    )
    deals: int | None = wire(Int(1, 100), "deals in a match", required=False)
    reveal_after_deal: bool | None = wire(
        Bool(),
        "true: the players may fetch each ended deal's whole record, every hand; default: the server's"
        " (false unless it says otherwise)",
        required=False,
    )


@request("join_table", reply="table_joined")
class JoinTable(Request):
    """Take a seat at a table (the first free seat when ``seat`` is absent)."""

    table: int = wire(UINT32, "the table id")
    seat: int | None = wire(SEAT, "the seat wanted", required=False)
    password: str | None = wire(PASSWORD, "the table's password, where it has one", required=False)


@request("spectate", reply="table_joined")
class Spectate(Request):
    """Watch a table without a seat (no hand is ever shown)."""

    table: int = wire(UINT32, "the table id")
    password: str | None = wire(PASSWORD, "the table's password, where it has one", required=False)


@request("seat_bot")
class SeatBot(Request):
    """The table's host gives a seat to a bot: a free seat before a match; during a match the
    seat of a player who is absent or away (he loses it)."""

    seat: int = wire(SEAT, "the seat")
    strength: str | None = wire(
        Str(16, 1), "a strength from welcome.bots; absent or nil: the server's default", required=False
    )


@request("seat_free")
class SeatFree(Request):
    """The table's host frees a seat between matches: a bot seat is free for a player again; a
    player is removed from his seat (back in the lobby)."""

    seat: int = wire(SEAT, "the seat")


@request("leave")
class Leave(Request):
    """Leave the table (a seat during a match is then played by a bot)."""


@request("ready")
class Ready(Request):
    """Say whether this seat is ready for the match to start."""

    ready: bool = wire(Bool(), "true: ready")


@request("start")
class Start(Request):
    """Start the match: every seat taken, every player ready."""


@request("chat")
class ChatRequest(Request):
    """Say something to the table."""

    text: str = wire(Str(MAX_CHAT_LEN, 1), "the text")


@request("lay")
class Lay(Request):
    """Lay a set face down with a claim.

    RULES.md: set, claim."""

    cards: tuple[str, ...] = wire(Array(CARD, MAX_SET, 1), "the cards, from the hand")
    rank: str | None = wire(
        RANK, "the claimed rank; may be absent when legal.lay.ranks has one rank", required=False
    )
    count: int | None = wire(
        Int(1, MAX_SET),
        "the claimed count, where counts may lie; else absent (the number of cards)",
        required=False,
    )


@request("challenge")
class ChallengeRequest(Request):
    """«Не верю»: challenge set ``set_no``.

    RULES.md: challenge."""

    set_no: int = wire(SET_NO, "the set aimed at")


@request("believe")
class BelieveRequest(Request):
    """«Верю»: believe set ``set_no``.

    RULES.md: believe."""

    set_no: int = wire(SET_NO, "the set aimed at")


@request("declare_none")
class DeclareNoneRequest(Request):
    """Claim to hold no card of the rank due (``declare_none``)."""


@request("discard_quads")
class DiscardQuadsRequest(Request):
    """Discard quads from the hand, one rank per quad.

    RULES.md: quad."""

    ranks: tuple[str, ...] = wire(Array(RANK, 26, 1), "one rank per quad")


@request("decline_quads")
class DeclineQuadsRequest(Request):
    """Give up the right to discard quads after taking the pile (``legal.decline_quads``):
    keep them.

    RULES.md: quad (`verish`, quads after taking)."""


@request("contribute")
class Contribute(Request):
    """Fair deal 2: this seat's contribution to the shuffle of deal ``deal_no``, sent on
    ``seed_committed`` (docs/PROTOCOL.md, section 9). ``BAD_STATE`` when the server no longer
    takes one (the deal is dealt, another deal, sent twice), ``NOT_PLAYING`` from a spectator."""

    deal_no: int = wire(Int(1), "the deal's number, as seed_committed gave it")
    contribution: str = wire(HEX64, "32 fresh random bytes from a cryptographic generator, as lowercase hex")


@request("list_records", reply="records")
class ListRecords(Request):
    """Ask for deals the server recorded, newest first: its last deals, or the ones you played.

    docs/RECORDS.md: what a record holds."""

    mine: bool | None = wire(
        Bool(),
        "true: only deals you played (your session held a seat when the deal began); default: the"
        " server's last deals",
        required=False,
    )
    before: int | None = wire(UINT32, "only deals with a smaller id (the next page)", required=False)
    limit: int | None = wire(Int(1, 100), "at most this many (default 20)", required=False)


@request("get_record", reply="record")
class GetRecord(Request):
    """Fetch the record of a deal you played: as you saw it, or whole where its table's
    ``reveal_after_deal`` allows.

    docs/RECORDS.md: the hand-history format."""

    deal: int = wire(UINT32, "the deal's id (list_records)")


# -- replies -----------------------------------------------------------------------------------


@reply("ok")
class Ok(Reply):
    """The request was done."""


@message("error", "reply")
class Error(Reply):
    """The request was refused (or the bytes were bad: ``re`` nil). ``fatal``: the server
    closes the connection after this."""

    re: int | None = wire(Nullable(UINT32), "the id of the request at fault; nil when it could not be read")
    code: str = wire(Str(64, 1), "an error code (docs/PROTOCOL.md, Errors)")
    msg: str = wire(Str(1000), "for people")
    fatal: bool = wire(Bool(), "true: the connection closes")


@reply("welcome")
class Welcome(Reply):
    """The answer to hello: the session is open."""

    proto: int = wire(Int(1, 65535), "the protocol version chosen")
    server: dict = wire(
        Map({"name": Field(Str(64)), "version": Field(Str(64))}), "the server's name and program version"
    )
    session: str = wire(Str(128, 1), "the session token (secret): hello.resume.token to come back")
    resumed: bool = wire(Bool(), "true if hello.resume brought back an existing session")
    table: dict | None = wire(Nullable(TABLE), "where the session sits (after a resume); nil: the lobby")
    seat: int | None = wire(Nullable(SEAT), "the session's seat at that table; nil: none or spectating")
    limits: dict = wire(
        Map(
            {
                "max_client_frame": Field(Int(1), doc="bytes"),
                "max_server_frame": Field(Int(1), doc="bytes"),
                "max_chat": Field(Int(1), doc="characters of chat.text"),
                "idle_ms": Field(MS, doc="a peer silent this long is dropped"),
            }
        ),
        "the server's limits",
    )
    heartbeat_ms: int = wire(
        MS, "the server sends heartbeat after this long without sending; a client should ping as often"
    )
    bots: tuple[str, ...] | None = wire(
        Array(Str(16, 1), 16),
        "the bot strengths create_table accepts, easiest first (random, honest, sharp)",
        required=False,
    )
    default_bot: str | None = wire(
        Str(16, 1), "the strength of a bot seat asked for without one (create_table.bots nil)", required=False
    )
    records: bool | None = wire(
        Bool(),
        "true: the server keeps records of ended deals (list_records, get_record); false or absent: it"
        " keeps none",
        required=False,
    )


@reply("pong")
class Pong(Reply):
    """The answer to ping."""


@reply("schema")
class SchemaReply(Reply):
    """The protocol's JSON Schema (docs/protocol.schema.json) as a map."""

    schema: dict = wire(MapOf(Any_(), 256), "the JSON Schema document")


VARIANT_INFO = Map(
    {
        "name": Field(Str(32, 1), doc="the stable identifier, used in create_table"),
        "title": Field(Str(64), doc="the Russian title"),
        "players": Field(Array(Int(1, MAX_SEATS), 2, 2), doc="[min, max] seats"),
        "quads_window_ms": Field(
            MS,
            required=False,
            doc="where the variant has a quads window (`verish`): its default, which create_table may change",
        ),
        "options": Field(
            MapOf(
                Map(
                    {
                        "default": Field(OPTION_VALUE),
                        "choices": Field(Array(OPTION_VALUE, 16)),
                    }
                ),
                16,
            ),
            doc="option name -> its default and its choices",
        ),
    }
)


@reply("variants")
class Variants(Reply):
    """The variants the server offers."""

    variants: tuple[dict, ...] = wire(Array(VARIANT_INFO, 64), "one entry per variant")


@reply("tables")
class Tables(Reply):
    """The tables on the server."""

    tables: tuple[dict, ...] = wire(Array(TABLE, MAX_TABLES), "table summaries")


@reply("table_joined")
class TableJoined(Reply):
    """The session now sits (or watches) at ``table``."""

    table: dict = wire(TABLE, "the table")
    seat: int | None = wire(Nullable(SEAT), "the seat taken; nil: spectating")


RECORD_SUMMARY = Ref(
    "record_summary",
    Map(
        {
            "id": Field(UINT32, doc="the deal's id in the server's records (get_record)"),
            "ended_ms": Field(Int(0), doc="when the deal ended: Unix wall-clock time in ms"),
            "variant": Field(Str(32, 1), doc="the variant"),
            "table": Field(UINT32, doc="the table it was played at"),
            "deal_no": Field(Int(1), doc="the deal's number in its match"),
            "deals": Field(Int(1), doc="deals in its match"),
            "seats": Field(
                Array(
                    Map(
                        {
                            "seat": Field(SEAT),
                            "name": Field(Nullable(NAME), doc="the player's name; nil: nobody sat there"),
                            "bot": Field(Nullable(Str(16)), doc="a bot seat's strength; nil: a player's"),
                        }
                    ),
                    MAX_SEATS,
                    2,
                ),
                doc="who sat where",
            ),
            "loser": Field(Nullable(SEAT), doc="last_loses: the loser"),
            "winner": Field(Nullable(SEAT), doc="first_wins: the winner"),
            "out": Field(Array(SEAT, MAX_SEATS), doc="seats in the order they went out"),
            "seat": Field(
                Nullable(SEAT), doc="your seat in it: you may fetch it (get_record); nil: you did not play it"
            ),
        },
        title="record summary",
    ),
)


@reply("records")
class Records(Reply):
    """Deals the server recorded, newest first (list_records)."""

    records: tuple[dict[str, Any], ...] = wire(Array(RECORD_SUMMARY, 100), "one summary per deal")


@reply("record")
class RecordReply(Reply):
    """One deal's record (get_record)."""

    record: dict[str, Any] = wire(
        MapOf(Any_(), 64),
        "the deal in the hand-history format of docs/RECORDS.md (docs/record.schema.json): as you saw"
        " it (view: your seat), or whole (view: nil) where its table's reveal_after_deal allowed",
    )


# -- lobby and table events ---------------------------------------------------------------------


@event("heartbeat")
class Heartbeat(Event):
    """The server has sent nothing for heartbeat_ms: it is alive."""


@event("bye")
class Bye(Event):
    """The server closes the connection (shutdown, replaced, idle, frame_timeout, too_slow)."""

    reason: str = wire(Str(64), "why")


@event("table_update")
class TableUpdate(Event):
    """Something on the table changed (seats, ready, away, state, spectators)."""

    table: dict = wire(TABLE, "the table now")


@event("table_closed")
class TableClosed(Event):
    """The table is gone; the session is back in the lobby."""

    table: int = wire(UINT32, "the table id")
    reason: str = wire(Str(200), "why")


@event("chat")
class Chat(Event):
    """Someone at the table said something."""

    seat: int | None = wire(Nullable(SEAT), "the speaker's seat; nil: a spectator")
    name: str = wire(NAME, "the speaker's name")
    text: str = wire(Str(MAX_CHAT_LEN), "what was said")


@event("player_joined")
class PlayerJoined(Event):
    """A player took a seat."""

    seat: int = wire(SEAT, "the seat")
    name: str = wire(NAME, "the player's name")


@event("player_left")
class PlayerLeft(Event):
    """A player left a seat (during a match a bot plays it)."""

    seat: int = wire(SEAT, "the seat")
    name: str = wire(NAME, "the player's name")
    reason: str = wire(Str(64), "left, dropped, or removed (by the table's host)")
    by: int | None = wire(SEAT, "removed: the host's seat", required=False)


@event("seat_changed")
class SeatChanged(Event):
    """The table's host changed a seat; ``table_update`` follows."""

    seat: int = wire(SEAT, "the seat changed")
    by: int = wire(SEAT, "the host's seat")
    action: str = wire(
        Str(32, choices=("bot", "bot_removed", "removed")),
        "bot: a bot took the seat; bot_removed: a bot seat is free again; removed: its player was removed",
    )
    name: str | None = wire(Nullable(NAME), "the player who lost the seat, where one did")
    strength: str | None = wire(Nullable(Str(16, 1)), "bot: the bot's strength")


@event("match_started")
class MatchStarted(Event):
    """The match begins; its first deal follows."""

    table: dict = wire(TABLE, "the table")
    deals: int = wire(Int(1), "deals in the match")


@event("match_ended")
class MatchEnded(Event):
    """The match is over; the table waits for players to be ready again."""

    scores: tuple[int, ...] = wire(
        SCORES, "the match's score per seat (docs/PROTOCOL.md, the rules of each variant: scoring)"
    )
    deals: int = wire(COUNT, "deals played")


# -- game events (engine/_events.py, projected for the receiver) --------------------------------


@event("dealer_drawn")
class DealerDrawn(Event):
    """The first dealer by a draw (``first_dealer = lowest_draw``)."""

    draws: tuple = wire(
        Array(Array(Tuple((SEAT, CARD)), MAX_SEATS, 1), 64, 1),
        "one array of [seat, card] per round of drawing",
    )
    dealer: int = wire(SEAT, "the dealer")


@event("seed_committed")
class SeedCommitted(Event):
    """Fair deal 2, before the cards of deal ``deal_no`` are dealt: the server has drawn its
    secret seed and commits to it; every seated player's client answers with ``contribute``
    within ``time_ms`` (docs/PROTOCOL.md, section 9)."""

    deal_no: int = wire(Int(1), "the deal's number in the match")
    seed_hash: str = wire(HEX64, "SHA-256 of the server's 32-byte seed, lowercase hex")
    dealer: int = wire(SEAT, "the dealer, fixed before anyone contributes")
    deck: str = wire(DECK, "the deck kind")
    contributions: tuple[str | None, ...] = wire(
        CONTRIBUTIONS, "the contributions fixed already: the server's bot seats'; nil for the others"
    )
    time_ms: int = wire(MS, "how long the server waits for the contributions")


@event("deal_started")
class DealStarted(Event):
    """The cards are dealt."""

    dealer: int = wire(SEAT, "the dealer")
    deck: str = wire(DECK, "the deck kind")
    hand: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_CARDS)), "the receiver's own hand; nil for a spectator"
    )
    hand_counts: tuple[int, ...] | None = wire(
        Nullable(Array(COUNT, MAX_SEATS)), "cards per seat; nil where hidden"
    )
    hidden: int = wire(COUNT, "hidden cards (never shown until the disclosure)")
    set_aside: int = wire(COUNT, "cards set aside face down")
    stock: int = wire(COUNT, "cards in the stock")
    commitment: str = wire(HEX64, "SHA-256 of salt:deck (fair deal)")
    deal_no: int = wire(Int(1), "the deal's number in the match")
    fair: int | None = wire(
        FAIR, "the fair-deal scheme: 2, the deck comes from seed and contributions; absent: 1", required=False
    )
    seed_hash: str | None = wire(HEX64, "fair deal 2: SHA-256 of the server's seed", required=False)
    contributions: tuple[str | None, ...] | None = wire(
        CONTRIBUTIONS, "fair deal 2: each seat's contribution in seat order; nil: none", required=False
    )


@event("turn")
class Turn(Event):
    """``seat`` is to act."""

    seat: int = wire(SEAT, "the seat to act")
    ranks: tuple[str, ...] = wire(Array(RANK, 13), "the ranks its set may claim")
    set_no: int | None = wire(Nullable(SET_NO), "the set it answers; nil when it leads")
    time_ms: int | None = wire(Nullable(MS), "its turn time; nil: untimed")


@event("set_laid")
class SetLaid(Event):
    """A set is on the pile."""

    seat: int = wire(SEAT, "who laid it")
    set_no: int = wire(SET_NO, "its number in the deal")
    rank: str = wire(RANK, "the claimed rank")
    count: int = wire(COUNT, "the claimed count")
    cards: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_SET)), "the cards: only for the seat that laid them"
    )
    size: int | None = wire(Nullable(COUNT), "its number of cards; nil where counts may lie and are hidden")


@event("none_declared")
class NoneDeclared(Event):
    """``seat`` claims to hold no card of ``rank`` (a claim numbered ``set_no``)."""

    seat: int = wire(SEAT, "the declarer")
    set_no: int = wire(SET_NO, "the claim's number")
    rank: str = wire(RANK, "the rank")


@event("set_held")
class SetHeld(Event):
    """To the layer only: his early set waits for the challenge window to close."""

    seat: int = wire(SEAT, "the receiver")
    cards: tuple[str, ...] = wire(Array(CARD, MAX_SET), "the cards held")
    rank: str = wire(RANK, "the claim's rank")
    count: int = wire(COUNT, "the claim's count")


@event("set_returned")
class SetReturned(Event):
    """To the layer only: a challenge came first; his held set is back in his hand."""

    seat: int = wire(SEAT, "the receiver")
    cards: tuple[str, ...] = wire(Array(CARD, MAX_SET), "the cards returned")


@event("window_closed")
class WindowClosed(Event):
    """Set ``set_no``'s challenge window closed."""

    set_no: int = wire(SET_NO, "the set")


@event("challenge_void")
class ChallengeVoid(Event):
    """A premature challenge: void, and its maker may not challenge that set."""

    seat: int = wire(SEAT, "the challenger")
    set_no: int = wire(SET_NO, "the set not laid yet")


@event("challenged")
class Challenged(Event):
    """«Не верю»: ``seat`` challenges set ``set_no``."""

    seat: int = wire(SEAT, "the challenger")
    set_no: int = wire(SET_NO, "the set")
    tied: tuple[int, ...] = wire(
        Array(SEAT, MAX_SEATS), "others who spoke within the tie window and lost on seat order"
    )


@event("believed")
class Believed(Event):
    """«Верю»: ``seat`` believes set ``set_no``."""

    seat: int = wire(SEAT, "the believer")
    set_no: int = wire(SET_NO, "the set")


@event("set_revealed")
class SetRevealed(Event):
    """The last set is turned up (public)."""

    seat: int = wire(SEAT, "who laid it")
    set_no: int = wire(SET_NO, "the set")
    rank: str = wire(RANK, "the claimed rank")
    count: int = wire(COUNT, "the claimed count")
    cards: tuple[str, ...] = wire(
        Array(CARD, MAX_CARDS), "its cards (a declared none: the declarer's cards of that rank)"
    )
    claim_true: bool = wire(Bool(), "whether the claim held")


@event("pile_taken")
class PileTaken(Event):
    """``seat`` takes the pile into his hand."""

    seat: int = wire(SEAT, "the taker")
    count: int | None = wire(Nullable(COUNT), "cards taken; nil where counts are hidden")
    cards: tuple[str, ...] | None = wire(Nullable(Array(CARD, MAX_CARDS)), "the cards: only for the taker")


@event("pile_discarded")
class PileDiscarded(Event):
    """The pile goes to the discard (a believed true set)."""

    count: int = wire(COUNT, "its cards")


@event("quads_discarded")
class QuadsDiscarded(Event):
    """``seat`` discards ``count`` quads."""

    seat: int = wire(SEAT, "the seat")
    count: int = wire(COUNT, "quads discarded")
    ranks: tuple[str, ...] | None = wire(
        Nullable(Array(RANK, 26)), "their ranks: public when shown, else only for the seat"
    )
    shown: bool = wire(Bool(), "shown face up (after_taking) or face down (on_turn)")
    cards: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_CARDS)),
        "the cards discarded: only for the seat (with two decks it may hold more than four of a rank)",
    )


@event("quads_declined")
class QuadsDeclined(Event):
    """``seat``, who has just taken the pile, gives up his right to discard quads (`verish`)."""

    seat: int = wire(SEAT, "the seat")


@event("quads_window_opened")
class QuadsWindowOpened(Event):
    """The quads window: the next set waits while ``seat``, who has just taken the pile, may
    discard quads (`verish`; it opens after every take by a person, whatever he holds).

    RULES.md: quad (`verish`, quads after taking, Decision)."""

    seat: int = wire(SEAT, "the taker")
    time_ms: int = wire(MS, "how long the window stays open at most")


@event("quads_window_closed")
class QuadsWindowClosed(Event):
    """``seat``'s quads window closed (its time was up, or he discarded or declined); a set held
    for it is laid next."""

    seat: int = wire(SEAT, "the taker")


@event("stock_drawn")
class StockDrawn(Event):
    """``seat`` draws from the stock (`hoyle-three`)."""

    seat: int = wire(SEAT, "the seat")
    count: int = wire(COUNT, "cards drawn")
    cards: tuple[str, ...] | None = wire(Nullable(Array(CARD, MAX_SET)), "the cards: only for the seat")


@event("timed_out")
class TimedOut(Event):
    """``seat``'s turn time ran out; the server acts for it next and marks it away."""

    seat: int = wire(SEAT, "the seat")


@event("player_out")
class PlayerOut(Event):
    """``seat`` has finished: it is out, and skipped from then on.

    RULES.md: out."""

    seat: int = wire(SEAT, "the seat")
    place: int = wire(Int(1, MAX_SEATS), "1 for the first out")


@event("deal_ended")
class DealEnded(Event):
    """The deal is over; the fair-deal disclosure."""

    loser: int | None = wire(Nullable(SEAT), "last_loses: the loser")
    winner: int | None = wire(Nullable(SEAT), "first_wins: the winner")
    out: tuple[int, ...] = wire(Array(SEAT, MAX_SEATS), "seats in the order they went out")
    scores: tuple[int, ...] = wire(SCORES, "this deal's score change per seat")
    hand_counts: tuple[int, ...] = wire(Array(COUNT, MAX_SEATS), "cards left per seat")
    salt: str = wire(HEX64, "the salt of the commitment")
    deck: tuple[str, ...] = wire(Array(CARD, MAX_CARDS), "the shuffled deck in dealing order, top first")
    match_scores: tuple[int, ...] | None = wire(Nullable(SCORES), "the match's scores so far")
    deal_no: int = wire(Int(1), "the deal's number in the match")
    next_deal_ms: int | None = wire(
        Nullable(MS), "the pause before the match's next deal; nil: the match is over", required=False
    )
    seed: str | None = wire(
        HEX64, "fair deal 2: the server's seed, disclosed (its SHA-256 is seed_hash)", required=False
    )


@event("legal")
class LegalEvent(Event):
    """To one seat: what it may do now (after every batch of game events that changes it)."""

    lay: dict | None = wire(Nullable(LAY_BOUNDS), LEGAL_FIELDS["lay"].doc)
    challenge: int | None = wire(Nullable(SET_NO), LEGAL_FIELDS["challenge"].doc)
    believe: int | None = wire(Nullable(SET_NO), LEGAL_FIELDS["believe"].doc)
    declare_none: str | None = wire(Nullable(RANK), LEGAL_FIELDS["declare_none"].doc)
    discard_quads: tuple[str, ...] = wire(Array(RANK, 26), LEGAL_FIELDS["discard_quads"].doc)
    decline_quads: bool = wire(Bool(), LEGAL_FIELDS["decline_quads"].doc)


@event("state")
class State(Event):
    """A full snapshot of what the receiver may know of the deal (after join, spectate or resume
    during a match), plus the table's summary; it never holds another seat's cards.

    The deal fields mirror engine/_view.py View."""

    variant: str = wire(Str(32, 1), "the variant")
    seat: int | None = wire(Nullable(SEAT), "the receiver's seat; nil: spectating")
    players: int = wire(Int(2, MAX_SEATS), "seats in the deal")
    deck: str = wire(DECK, "the deck kind")
    dealer: int = wire(SEAT, "the dealer")
    hand: tuple[str, ...] | None = wire(
        Nullable(Array(CARD, MAX_CARDS)), "the receiver's hand; nil for a spectator"
    )
    hand_counts: tuple[int, ...] | None = wire(
        Nullable(Array(COUNT, MAX_SEATS)), "cards per seat; nil where hidden"
    )
    pile: int | None = wire(Nullable(COUNT), "cards in the pile; nil where hidden")
    discard: int = wire(COUNT, "cards in the discard")
    stock: int = wire(COUNT, "cards in the stock")
    hidden: int = wire(COUNT, "hidden cards")
    set_aside: int = wire(COUNT, "cards set aside")
    last: dict | None = wire(Nullable(LAST_SET), "the last set, apart from the pile; nil: none")
    ranks: tuple[str, ...] = wire(Array(RANK, 13), "the ranks the next set may claim")
    turn: int | None = wire(Nullable(SEAT), "the seat to act; nil when the deal is over")
    set_no: int = wire(COUNT, "the number of the latest set laid (0: none yet)")
    window_open: bool = wire(Bool(), "the last set's challenge window is open")
    quads_window: int | None = wire(
        SEAT,
        "the taker whose quads window holds the next set (`verish`); absent or nil: none",
        required=False,
    )
    out: tuple[int, ...] = wire(Array(SEAT, MAX_SEATS), "seats out, in order")
    waiting: tuple[int, ...] = wire(Array(SEAT, MAX_SEATS), "empty-handed seats not yet out (last cards)")
    over: bool = wire(Bool(), "the deal has ended")
    loser: int | None = wire(Nullable(SEAT), "the loser once over (last_loses)")
    winner: int | None = wire(Nullable(SEAT), "the winner once over (first_wins)")
    legal: dict = wire(LEGAL, "what the receiver may do now")
    table: dict = wire(TABLE, "the table")
    deal_no: int = wire(Int(1), "the deal's number in the match")
    commitment: str = wire(HEX64, "the deal's commitment")
    match_scores: tuple[int, ...] | None = wire(Nullable(SCORES), "the match's scores so far")
    time_ms: int | None = wire(Nullable(MS), "turn time left; nil: untimed")
    fair: int | None = wire(FAIR, "the fair-deal scheme, as in deal_started", required=False)
    seed_hash: str | None = wire(HEX64, "fair deal 2: SHA-256 of the server's seed", required=False)
    contributions: tuple[str | None, ...] | None = wire(
        CONTRIBUTIONS, "fair deal 2: each seat's contribution in seat order; nil: none", required=False
    )


GAME_REQUESTS = frozenset({"lay", "challenge", "believe", "declare_none", "discard_quads", "decline_quads"})
"""The requests that act in a deal (docs/PROTOCOL.md, Game requests)."""


def parse_request(d: dict[str, Any]) -> Request:
    """The request object for a decoded client message ``d`` (a dict with ``t`` and ``id``):
    every field checked by its wire type, arrays as tuples, absent optional fields None.

    Raises ``RemoteProtocolError``: ``UNKNOWN_TYPE`` (non-fatal) for a ``t`` no request has,
    ``BAD_MESSAGE`` (fatal) for a missing id or a missing or wrongly typed field; both carry
    ``re`` = the id when it is a uint32. A game request (``GAME_REQUESTS``) whose fields all
    have the right kind but a value out of range (``set_no`` 0, a card ``"10H"``, nine cards,
    ``count`` 0, no ranks) is refused with the non-fatal ``ILLEGAL_ACTION``: it names an
    impossible action, it does not break the protocol.
    """
    cls, re = _request_class(d)
    try:
        return cls.from_wire(d)
    except RemoteProtocolError as exc:
        raise _as_answered(exc, cls, d, re) from None


def _request_class(d: dict) -> tuple[type[Message], int | None]:
    """The request class ``d`` names and the id its answer carries (None: not a uint32).
    Raises ``RemoteProtocolError``: ``BAD_MESSAGE`` for a ``t`` that is no string, ``UNKNOWN_TYPE``."""
    rid = d.get("id")
    re = rid if type(rid) is int and 0 <= rid <= UINT32.hi else None
    t = d.get("t")
    if type(t) is not str:
        raise error("BAD_MESSAGE", "a message needs t, a string", re=re)
    cls = REQUESTS.get(t)
    if cls is None:
        raise error("UNKNOWN_TYPE", f"unknown request type {t[:40]!r}", re=re)
    return cls, re


def _as_answered(
    exc: RemoteProtocolError, cls: type[Message], d: dict, re: int | None
) -> RemoteProtocolError:
    """``exc`` as the client is told it: with ``re``; a well-typed game request whose values
    are out of range is the non-fatal ``ILLEGAL_ACTION`` (see ``parse_request``)."""
    exc.re = re
    if cls.t in GAME_REQUESTS and re is not None and _well_typed(cls, d):
        return RemoteProtocolError("ILLEGAL_ACTION", exc.msg, False, re=re)
    return exc


def _well_typed(cls: type[Message], d: dict) -> bool:
    """Every required field of ``cls`` is in ``d`` and every field there has its wire kind."""
    return all(
        well_typed(f.type, d[name]) if name in d else not f.required for name, f in cls.wire_fields().items()
    )
