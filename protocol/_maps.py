"""The wire types shared by several messages (docs/PROTOCOL.md, shared maps)."""

from __future__ import annotations

from ._limits import MAX_NAME_LEN
from ._message import MAX_SET
from ._types import (
    COUNT,
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
    Ref,
    Str,
)

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
                doc="a bot seat: its bot's strength (random, honest, sharp or expert: welcome.bots); "
                "nil: a player's",
            ),
            "ready": Field(Bool(), doc="ready to start (bots are always ready)"),
            "away": Field(
                Bool(), doc="the player dropped or ran out of time: a bot plays for him until he is back"
            ),
            "absent": Field(
                Bool(),
                required=False,
                doc="the player's connection has been down for a second or more: his seat waits for"
                " him (then a bot plays it: away). Not sent (read it as false) by servers older than v1.2",
            ),
            "tag": Field(
                Str(4, 4),
                required=False,
                doc="the player's tag (docs/PLAYERS.md): tells apart players of the same name; absent: a"
                " bot, a guest, or an empty seat",
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
                MS,
                required=False,
                doc="the quads window's time at a timed table (`verish`; at an untimed one it waits"
                " for the taker; 0: none); absent from older servers",
            ),
            "deals": Field(Int(1), doc="deals per match"),
            "deal_no": Field(
                COUNT, doc="the number of the current or last deal of the match; 0 before the first"
            ),
            "match_scores": Field(
                Nullable(SCORES),
                required=False,
                doc="the scores of the match being played, after its deals that ended (as"
                " deal_ended.match_scores); nil: no match on; absent from servers older than v1.2",
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
