"""The lobby's answers that hold no state: the ``welcome`` a ``hello`` gets, the ``variants``
and ``schema`` replies (docs/PROTOCOL.md, "Lobby requests"), and which requests go to the table
a session sits at (``TABLE_REQUESTS``). The server (``_server``) sends them."""

from __future__ import annotations

import functools
from typing import Any

from neveryu import engine, protocol

from ._bots import default_strength, strengths
from ._config import ServerConfig, TableDefaults
from ._session import Session
from .records.players import tag_of

SERVER_VERSION = "0.1.0"

TABLE_REQUESTS = (
    protocol.Leave,
    protocol.Ready,
    protocol.Start,
    protocol.ChatRequest,
    protocol.Contribute,
    protocol.Lay,
    protocol.ChallengeRequest,
    protocol.BelieveRequest,
    protocol.DeclareNoneRequest,
    protocol.DiscardQuadsRequest,
    protocol.DeclineQuadsRequest,
    protocol.SeatBot,
    protocol.SeatFree,
)
"""The requests a session sends to the table it sits at (``join_table`` and ``spectate`` name
their table; the rest are the lobby's)."""


def variants_info(defaults: TableDefaults) -> list[dict[str, Any]]:
    """The ``variants`` reply: every variant with its seats and options (default, choices), and
    where it has a quads window (docs/RULES.md `verish`), its default length (``defaults``)."""
    out = []
    for rules in engine.VARIANTS.values():
        options: dict[str, Any] = {}
        choices: list[Any]
        for name in rules.options:
            default = getattr(rules, name)
            if name == "deck":
                choices = ["auto", *rules.deck_choices]
            elif name == "scoring":
                choices = list(rules.scoring_choices) or [default]
            elif isinstance(default, bool):
                choices = [False, True]
            elif name == "packet_size":
                choices = [2, 3]
            else:
                choices = [default]
            options[name] = {"default": default, "choices": choices}
        info: dict[str, Any] = {
            "name": rules.name,
            "title": rules.title,
            "players": list(rules.players),
            "options": options,
        }
        if rules.quads == "after_taking":
            info["quads_window_ms"] = defaults.quads_window_ms
        out.append(info)
    return out


@functools.cache
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema, read once."""
    return protocol.load_schema()


def welcome(
    config: ServerConfig, session: Session, records: bool, resumed: bool, restarted: bool = False
) -> dict[str, Any]:
    """The ``welcome`` reply to ``session``'s ``hello`` (docs/PROTOCOL.md, "Handshake"): a new
    session, or one ``resumed`` (``restarted``: brought back from the journal after the server
    started again). ``records``: whether this server keeps records."""
    limits = config.limits
    table = session.table
    return protocol.Welcome.wire_map(
        proto=protocol.PROTOCOL_VERSION,
        minor=protocol.PROTOCOL_MINOR,
        server={"name": config.name, "version": SERVER_VERSION},
        session=session.token,
        resumed=resumed,
        table=table.summary if table is not None else None,
        seat=session.seat if table is not None else None,
        limits={
            "max_client_frame": protocol.MAX_CLIENT_FRAME,
            "max_server_frame": protocol.MAX_SERVER_FRAME,
            "max_chat": limits.max_chat,
            "idle_ms": limits.idle_ms,
        },
        heartbeat_ms=limits.heartbeat_ms,
        bots=list(strengths()),
        default_bot=default_strength(),
        records=records,
        player={"tag": tag_of(session.player) if session.player is not None else None},
        restarted=True if restarted else None,
    )
