"""The replies of protocol v1 (docs/PROTOCOL.md, Replies): one per request (``error`` for any)."""

from __future__ import annotations

from typing import Any

from ._errors import ProtocolError
from ._maps import NAME, TABLE
from ._message import MAX_TABLES, Reply, message, reply, wire
from ._types import (
    MAX_SEATS,
    MS,
    OPTION_VALUE,
    SEAT,
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
)

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

    @classmethod
    def of(cls, exc: ProtocolError) -> Error:
        """The ``error`` reply telling the peer of ``exc``."""
        return cls(re=exc.re, code=exc.code, msg=exc.msg, fatal=exc.fatal)


@reply("welcome")
class Welcome(Reply):
    """The answer to hello: the session is open."""

    proto: int = wire(Int(1, 65535), "the protocol version chosen")
    minor: int | None = wire(
        Int(0, 65535),
        "the server's minor version within proto: 1 for 1.1 (every legal-changing batch ends with a"
        " legal, ...: docs/PROTOCOL.md, the changelog); absent: 1.0",
        required=False,
    )
    server: dict[str, Any] = wire(
        Map({"name": Field(Str(64)), "version": Field(Str(64))}), "the server's name and program version"
    )
    session: str = wire(Str(128, 1), "the session token (secret): hello.resume.token to come back")
    resumed: bool = wire(Bool(), "true if hello.resume brought back an existing session")
    table: dict[str, Any] | None = wire(
        Nullable(TABLE), "where the session sits (after a resume); nil: the lobby"
    )
    seat: int | None = wire(Nullable(SEAT), "the session's seat at that table; nil: none or spectating")
    limits: dict[str, Any] = wire(
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
        "the bot strengths create_table accepts, easiest first (random, honest, sharp, expert)",
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
    player: dict[str, Any] | None = wire(
        Map(
            {
                "tag": Field(Nullable(Str(4, 4)), doc="your tag (from hello.player_key); nil: a guest"),
            }
        ),
        "who you are among the players (docs/PLAYERS.md): absent from servers without players",
        required=False,
    )
    restarted: bool | None = wire(
        Bool(),
        "true: the session was resumed after the server restarted (its tables restored from its journal):"
        " a snapshot follows; absent: no restart",
        required=False,
    )


@reply("pong")
class Pong(Reply):
    """The answer to ping."""


@reply("schema")
class SchemaReply(Reply):
    """The protocol's JSON Schema (docs/protocol.schema.json) as a map."""

    schema: dict[str, Any] = wire(MapOf(Any_(), 256), "the JSON Schema document")


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

    variants: tuple[dict[str, Any], ...] = wire(Array(VARIANT_INFO, 64), "one entry per variant")


@reply("tables")
class Tables(Reply):
    """The tables on the server."""

    tables: tuple[dict[str, Any], ...] = wire(Array(TABLE, MAX_TABLES), "table summaries")


@reply("table_joined")
class TableJoined(Reply):
    """The session now sits (or watches) at ``table``."""

    table: dict[str, Any] = wire(TABLE, "the table")
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
