"""The protocol's one error type and the registry of error codes (docs/PROTOCOL.md, "Errors")."""

from __future__ import annotations

# code -> (fatal, when it is sent). Fatal: the server closes the connection after sending it.
ERRORS: dict[str, tuple[bool, str]] = {
    # framing and types (the bytes themselves are wrong)
    "BAD_FRAME": (
        True,
        "a frame of length 0, a body that is not exactly one msgpack map, trailing bytes "
        "inside the frame, invalid UTF-8, a float, bin or ext value, a key that is not a "
        "string, nesting deeper than the limit",
    ),
    "FRAME_TOO_LARGE": (True, "the length header is above the limit (16,384 from a client)"),
    "BAD_MESSAGE": (
        True,
        "a well-formed map that is not a valid message: no string t, no uint32 id, "
        "a field missing or of the wrong type, or out of its documented range (except "
        "in a game request: ILLEGAL_ACTION; and a chat text's length: BAD_OPTION)",
    ),
    "UNKNOWN_TYPE": (False, "a well-formed request whose t the server does not know"),
    # session
    "NOT_READY": (True, "a request other than hello before hello"),
    "UNSUPPORTED_VERSION": (True, "hello.proto does not include a version the server speaks"),
    "WRONG_PASSWORD": (True, "hello without the server's password, or with a wrong one"),
    "BAD_RESUME": (True, "hello.resume names a session the server does not know (or no longer keeps)"),
    "SERVER_FULL": (
        True,
        "the server takes no more connections: it holds its most in total, or from "
        "your address (sent on connecting, with re null)",
    ),
    "HELLO_TIMEOUT": (True, "no hello within the handshake time (sent with re null)"),
    "RATE_LIMITED": (
        False,
        "the server cannot take the request now: the client sends more requests per "
        "second than the server allows, or sent a wrong table password less than a second "
        "ago; nothing changed, try again later",
    ),
    "BAD_STATE": (
        False,
        "the request makes no sense now: hello twice; leave, ready, start or chat at no "
        "table; join_table, spectate or create_table while at a table; create_table "
        "while the server holds its most tables; contribute when the server takes no "
        "contribution from you for that deal (dealt already, another deal, a second one)",
    ),
    "INTERNAL_ERROR": (False, "the server failed to handle the request (a bug); nothing changed"),
    # lobby
    "NO_SUCH_TABLE": (False, "join_table or spectate names a table that does not exist"),
    "SEAT_TAKEN": (False, "join_table names a seat somebody holds"),
    "TABLE_FULL": (False, "join_table with no seat given, and no seat is free"),
    "WRONG_TABLE_PASSWORD": (
        False,
        "join_table or spectate of a table with a password, without it or with a wrong one",
    ),
    "BAD_OPTION": (
        False,
        "create_table with an unknown variant, option, or a value the variant does not "
        "allow, or with bots in every seat; seat_bot or seat_free naming a seat it cannot "
        "change; chat empty or longer than this server's welcome.limits.max_chat; "
        "player_stats or leaderboard of an unknown variant",
    ),
    "NOT_ALL_READY": (False, "start while a human seat is not ready, or while a seat is empty"),
    "ALREADY_PLAYING": (False, "start, or a change of seats, while the table is playing"),
    "NOT_HOST": (False, "seat_bot or seat_free from a player who is not the table's host"),
    # game (the engine's RuleViolation codes)
    "NOT_PLAYING": (
        False,
        "a game request while no deal is being played at your seat; ready or a game request from a spectator",
    ),
    "ILLEGAL_ACTION": (
        False,
        "the action breaks a rule (wrong rank or size, cards not in the hand, "
        "no such call in this variant, not allowed now), or a game request names an "
        'impossible value of the right type (set_no 0, a card "10H", nine cards)',
    ),
    "NOT_YOUR_TURN": (False, "only the seat to act may do this now"),
    "STALE_SET": (False, "challenge or believe names a set that is no longer the last one"),
    "PREMATURE": (
        False,
        "challenge names a set not laid yet where only the next player challenges "
        "(where anyone challenges, a challenge of the next set is ok and challenge_void)",
    ),
    "CHALLENGE_PENDING": (
        False,
        "lay or declare_none while a challenge of the last set is being settled (within its tie "
        "window): the challenge came first and reveals that set, so nothing was laid",
    ),
    "CHALLENGE_BARRED": (False, "challenge of a set this seat challenged prematurely (void)"),
    "DEAL_OVER": (False, "the deal has ended; no action is accepted"),
    # records
    "NO_SUCH_RECORD": (
        False,
        "get_record names a deal the server has no record of, or one you did not play",
    ),
    "RECORDS_OFF": (
        False,
        "list_records, get_record, player_stats or leaderboard on a server that keeps no records "
        "(turned off, or its database failed)",
    ),
    # players
    "NO_SUCH_PLAYER": (False, "player_stats names a player id the server does not know"),
}


class ProtocolError(Exception):
    """Something broke the protocol: the base of ``RemoteProtocolError`` (the peer's fault) and
    ``LocalProtocolError`` (ours), as in h11.

    Attributes: ``code`` (a key of ``ERRORS``), ``msg`` (for people), ``fatal`` (the server sends
    the error and closes), ``re`` (the id of the request at fault, or None when it could not be
    read). ``protocol.Error.of(exc)`` is its ``error`` reply.
    """

    def __init__(self, code: str, msg: str, fatal: bool = True, *, re: int | None = None) -> None:
        super().__init__(f"{code}: {msg}")
        self.code = code
        self.msg = msg
        self.fatal = fatal
        self.re = re


class RemoteProtocolError(ProtocolError):
    """The peer sent bytes or a message the protocol forbids. The only exception
    ``Connection.next_request``/``next_message`` and the decoding functions raise."""


class LocalProtocolError(ProtocolError):
    """We, not the peer, tried to send something the protocol forbids (a bug in our code): a
    message too large for a frame, or holding a float, bytes or another non-wire value."""


def error(code: str, msg: str, *, re: int | None = None) -> RemoteProtocolError:
    """A ``RemoteProtocolError`` of a registered ``code`` with the registry's fatality."""
    return RemoteProtocolError(code, msg, ERRORS[code][0], re=re)
