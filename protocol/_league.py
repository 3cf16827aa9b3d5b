"""The players' requests of protocol v1 and their replies: a player's statistics and a
variant's leaderboard (docs/PROTOCOL.md, "Players, statistics and ratings"; docs/PLAYERS.md).

Everything here is public: names, tags, counts and ratings, made from the records of ended
deals. No card is in any of it.
"""

from __future__ import annotations

from typing import Any

from ._maps import NAME
from ._message import Reply, Request, reply, request, wire
from ._types import COUNT, MAX_SEATS, UINT32, Array, Field, Int, Map, Nullable, Ref, Str

PLAYER_KEY = Str(
    128,
    32,
    "^[A-Za-z0-9_-]+$",
    description="a player key: 32 to 128 characters of A-Z a-z 0-9 _ - (e.g. 32 random bytes in base64url)",
)
VARIANT = Str(32, 1)
RATING_UNIT = "hundredths of a rating point (2500: 25.00)"
SCORE = Int(-(2**31), 2**31 - 1)

PLAYER = Ref(
    "player",
    Map(
        {
            "id": Field(UINT32, doc="the player's stable id on this server"),
            "name": Field(NAME, doc="the latest name he played under; a bot's: its strength"),
            "tag": Field(
                Nullable(Str(4, 4, "^[0-9a-f]{4}$")),
                doc="a person's tag (from his player key): tells apart players of the same name; nil: a"
                " bot or a guest",
            ),
            "kind": Field(
                Str(8, choices=("person", "bot", "guest")),
                doc="person: sent a player key; bot: the server's bots of one strength; guest: sent no key"
                " (his session only)",
            ),
        },
        title="player",
    ),
)

RATING = Ref(
    "rating",
    Map(
        {
            "mu": Field(SCORE, doc=f"the skill estimate, in {RATING_UNIT}"),
            "sigma": Field(Int(0), doc=f"its uncertainty (one standard deviation), in {RATING_UNIT}"),
            "low": Field(SCORE, doc="mu - 2·sigma: the low end of the interval shown (boards sort by it)"),
            "high": Field(SCORE, doc="mu + 2·sigma"),
            "deals": Field(COUNT, doc="deals of the variant the rating counts"),
            "rank": Field(
                Nullable(Int(1)), doc="the player's place on the variant's leaderboard; nil: a guest (off it)"
            ),
        },
        title="rating",
    ),
)

VARIANT_STATS = Ref(
    "variant_stats",
    Map(
        {
            "variant": Field(VARIANT),
            "deals": Field(COUNT, doc="deals played"),
            "seats": Field(COUNT, doc="seats played: deals, but a bot holds several seats of one deal"),
            "lost": Field(COUNT, doc="last_loses: seats that lost"),
            "won": Field(COUNT, doc="first_wins: seats that won"),
            "places": Field(
                Array(COUNT, MAX_SEATS), doc="seats that went out first, second, ...: places[0] counts firsts"
            ),
            "score": Field(SCORE, doc="the score changes added up (losses, or chips won less chips paid)"),
            "sets": Field(COUNT, doc="sets laid (of the deals that replay; so every count below)"),
            "bluffs": Field(COUNT, doc="sets laid whose claim was false"),
            "bluffs_caught": Field(COUNT, doc="bluffs a challenge revealed; the others survived"),
            "challenges": Field(COUNT, doc="«Не верю» said and settled"),
            "challenges_right": Field(COUNT, doc="of which the claim was false"),
            "believes": Field(COUNT, doc="«Верю» said"),
            "believes_right": Field(COUNT, doc="of which the claim was true"),
            "cards_taken": Field(COUNT, doc="cards of the piles taken"),
            "actions": Field(COUNT, doc="actions made (lay, challenge, believe, declare none, quads)"),
            "action_ms": Field(COUNT, doc="the time they took, added up: action_ms / actions is the mean"),
            "timeouts": Field(COUNT, doc="turns whose time ran out"),
            "rating": Field(Nullable(RATING), doc="the rating in this variant"),
        },
        title="variant statistics",
    ),
)


@request("player_stats", reply="player_stats")
class PlayerStatsRequest(Request):
    """Ask for a player's statistics and ratings, per variant: by id, by name (everyone of that
    name), or your own (neither). ``BAD_OPTION`` for an unknown variant, ``NO_SUCH_PLAYER`` for
    an unknown id, ``RECORDS_OFF`` where the server keeps no records."""

    player: int | None = wire(UINT32, "a player's id (a leaderboard's, a record's seat)", required=False)
    name: str | None = wire(
        Str(40, 1), "everyone called so (names repeat); name#tag picks one; not with player", required=False
    )
    variant: str | None = wire(VARIANT, "only this variant", required=False)


@request("leaderboard", reply="leaderboard")
class LeaderboardRequest(Request):
    """Ask for a variant's leaderboard: its rated players, best first (by the low end of the
    rating's interval). ``BAD_OPTION`` for an unknown variant, ``RECORDS_OFF``."""

    variant: str = wire(VARIANT, "the variant")
    limit: int | None = wire(Int(1, 100), "at most this many (default 20)", required=False)
    offset: int | None = wire(Int(0, 2**31 - 1), "skip this many first (the next page)", required=False)


@reply("player_stats")
class PlayerStats(Reply):
    """A player's (or several players') statistics (player_stats)."""

    players: tuple[dict[str, Any], ...] = wire(
        Array(
            Map(
                {
                    "player": Field(PLAYER),
                    "variants": Field(Array(VARIANT_STATS, 64), doc="one entry per variant he played"),
                }
            ),
            16,
        ),
        "the players found, each with his statistics per variant; empty: none (or no deal recorded yet)",
    )


@reply("leaderboard")
class Leaderboard(Reply):
    """A variant's leaderboard (leaderboard)."""

    variant: str = wire(VARIANT, "the variant")
    total: int = wire(COUNT, "rated players of the variant (guests not counted)")
    players: tuple[dict[str, Any], ...] = wire(
        Array(Map({"player": Field(PLAYER), "rating": Field(RATING)}), 100),
        "from rank offset + 1 on, best first",
    )
