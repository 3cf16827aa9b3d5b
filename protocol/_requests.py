"""The requests of protocol v1 (docs/PROTOCOL.md, Requests); their replies are in ``_replies``."""

from __future__ import annotations

from typing import Any

from ._league import PLAYER_KEY
from ._limits import MAX_CHAT_LEN, MAX_SEQ
from ._maps import HEX64, NAME, PASSWORD
from ._message import MAX_SET, Request, request, wire
from ._types import (
    CARD,
    MAX_SEATS,
    MS,
    OPTIONS,
    RANK,
    SEAT,
    SET_NO,
    UINT32,
    Array,
    Bool,
    Field,
    Int,
    Map,
    Nullable,
    Str,
)

# -- requests -----------------------------------------------------------------------------------


@request("hello", reply="welcome")
class Hello(Request):
    """The first request of a connection: versions spoken, who is connecting."""

    proto: tuple[int, int] = wire(
        Array(Int(1, 65535), 2, 2), "[min, max]: the protocol versions the client speaks (inclusive)"
    )
    client: dict[str, Any] = wire(
        Map({"name": Field(Str(64, 1)), "version": Field(Str(64))}), "the client program's name and version"
    )
    name: str = wire(NAME, "the player's name")
    password: str | None = wire(PASSWORD, "the server's password, where it has one", required=False)
    resume: dict[str, Any] | None = wire(
        Map(
            {
                "token": Field(Str(128, 1), doc="the session token from welcome"),
                "last_seq": Field(Int(0, MAX_SEQ), doc="the last event seq received"),
            }
        ),
        "come back to a session after a dropped connection",
        required=False,
    )
    player_key: str | None = wire(
        PLAYER_KEY,
        "the player's key, made once and kept secret by the client: the server keeps only its hash and"
        " gives the player a stable id (docs/PLAYERS.md); absent: a guest",
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
    options: dict[str, Any] | None = wire(OPTIONS, "variant options, as listed by variants", required=False)
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
        "quads window (`verish`: the next set waits while the taker may discard quads): its time at a"
        " timed table; at an untimed one it waits for the taker's decision; 0: none",
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

    docs/RULES.md: set, claim."""

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

    docs/RULES.md: challenge."""

    set_no: int = wire(SET_NO, "the set aimed at")


@request("believe")
class BelieveRequest(Request):
    """«Верю»: believe set ``set_no``.

    docs/RULES.md: believe."""

    set_no: int = wire(SET_NO, "the set aimed at")


@request("declare_none")
class DeclareNoneRequest(Request):
    """Claim to hold no card of the rank due (``declare_none``)."""


@request("discard_quads")
class DiscardQuadsRequest(Request):
    """Discard quads from the hand, one rank per quad.

    docs/RULES.md: quad."""

    ranks: tuple[str, ...] = wire(Array(RANK, 26, 1), "one rank per quad")


@request("decline_quads")
class DeclineQuadsRequest(Request):
    """Give up the right to discard quads after taking the pile (``legal.decline_quads``):
    keep them.

    docs/RULES.md: quad (`verish`, quads after taking)."""


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
