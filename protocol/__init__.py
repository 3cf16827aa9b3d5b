"""The neveryu wire protocol v1, sans-IO (docs/PROTOCOL.md).

Frames are a 4-byte big-endian length and one msgpack map. ``Connection`` turns bytes into checked
message dicts and back; ``ProtocolError`` is the only exception untrusted input raises; ``ERRORS``
is the registry of error codes. The message classes (one per request, reply and event) validate
and convert; ``parse_request`` picks the class of a client message; ``build_schema`` /
``load_schema`` give the JSON Schema.
"""

from ._codec import decode_body, encode_body, encode_frame, wire_problem
from ._connection import Connection, is_uint32
from ._errors import ERRORS, LocalProtocolError, ProtocolError, error
from ._limits import (
    DEFAULT_PORT,
    HEADER_SIZE,
    HEARTBEAT_MS,
    HELLO_TIMEOUT_MS,
    IDLE_TIMEOUT_MS,
    MAX_CHAT_LEN,
    MAX_CLIENT_FRAME,
    MAX_DEPTH,
    MAX_ID,
    MAX_NAME_LEN,
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
)
from ._messages import (
    EVENTS,
    GAME_REQUESTS,
    REPLIES,
    REQUESTS,
    BelieveRequest,
    Believed,
    Bye,
    ChallengeRequest,
    ChallengeVoid,
    Challenged,
    Chat,
    ChatRequest,
    CreateTable,
    DealEnded,
    DealerDrawn,
    DealStarted,
    DeclareNoneRequest,
    DiscardQuadsRequest,
    Error,
    Event,
    Heartbeat,
    Hello,
    JoinTable,
    Lay,
    LegalEvent,
    Leave,
    ListTables,
    MatchEnded,
    MatchStarted,
    Message,
    NoneDeclared,
    Ok,
    PileDiscarded,
    PileTaken,
    Ping,
    PlayerJoined,
    PlayerLeft,
    PlayerOut,
    Pong,
    QuadsDiscarded,
    Ready,
    Reply,
    Request,
    SchemaReply,
    SchemaRequest,
    SetHeld,
    SetLaid,
    SetReturned,
    SetRevealed,
    Spectate,
    Start,
    State,
    StockDrawn,
    TableClosed,
    TableJoined,
    Tables,
    TableUpdate,
    TimedOut,
    Turn,
    Variants,
    VariantsRequest,
    Welcome,
    WindowClosed,
    parse_request,
)
from ._schema import build_schema, load_schema, schema_json

__all__ = [name for name in list(globals()) if not name.startswith("_")]
