"""What the scripted server answers on its own: the ``welcome``, the table a case seats the
client at, and the reply to every request a case's steps do not script (docs/PROTOCOL.md,
sections 4 and 5). The client always sits at seat 0; the other seats are bots."""

from __future__ import annotations

import copy
from typing import Any

from neveryu import engine, protocol

SESSION = "conformance-session-token-0123456789"
BOTS = ["random", "honest", "sharp"]


def welcome(re: int, heartbeat_ms: int, idle_ms: int) -> dict[str, Any]:
    """The scripted server's ``welcome`` to a fresh ``hello`` (section 4, hello → welcome)."""
    return {
        "t": "welcome",
        "re": re,
        "proto": protocol.PROTOCOL_VERSION,
        "minor": protocol.PROTOCOL_MINOR,
        "server": {"name": "conformance", "version": "1"},
        "session": SESSION,
        "resumed": False,
        "table": None,
        "seat": None,
        "limits": {
            "max_client_frame": protocol.MAX_CLIENT_FRAME,
            "max_server_frame": protocol.MAX_SERVER_FRAME,
            "max_chat": protocol.MAX_CHAT_LEN,
            "idle_ms": idle_ms,
        },
        "heartbeat_ms": heartbeat_ms,
        "bots": BOTS,
        "default_bot": "sharp",
        "records": False,
        "player": {"tag": None},
    }


def table(
    spec: dict[str, Any], name: str | None, ready: bool = False, playing: bool = False
) -> dict[str, Any]:
    """The summary of a case's table (``spec``: ``{variant, seats?, options?, players?}``) with
    the client (``name``; None: not seated yet) at seat 0, the other players named in
    ``players`` at the next seats and bots at the rest; nobody ``absent`` (a server since v1.2
    tells it of every seat)."""
    seats = [{"seat": 0, "name": name, "bot": None, "ready": ready, "away": False, "absent": False}]
    players = spec.get("players", [])
    for i in range(1, spec.get("seats", 3)):
        person = i <= len(players)
        seats.append(
            {
                "seat": i,
                "name": players[i - 1] if person else f"bot {i + 1}",
                "bot": None if person else "sharp",
                "ready": True,
                "away": False,
                "absent": False,
            }
        )
    return {
        "id": 1,
        "variant": spec["variant"],
        "options": copy.deepcopy(spec.get("options", {})),
        "seats": seats,
        "state": "playing" if playing else "waiting",
        "spectators": 0,
        "password": False,
        "turn_ms": 0,
        "challenge_window_ms": 1500,
        "tie_window_ms": 250,
        "quads_window_ms": 2000 if spec["variant"] == "verish" else 0,
        "deals": spec.get("deals", 1),
        "deal_no": 0,
        "seeded": False,
        "seed_from": None,
        "host": 0 if name is not None else None,
        "reveal_after_deal": False,
    }


def variants() -> list[dict[str, Any]]:
    """The ``variants`` reply's list: every variant the engine knows, without options."""
    return [
        {"name": r.name, "title": r.title, "players": list(r.players), "options": {}}
        for r in engine.VARIANTS.values()
    ]


def error(re: int, code: str, msg: str) -> dict[str, Any]:
    return {"t": "error", "re": re, "code": code, "msg": msg, "fatal": protocol.ERRORS[code][0]}


def default_reply(request: dict[str, Any]) -> dict[str, Any]:
    """The reply to a request no step scripts, when it needs no table change (those are the
    session's: ``create_table``, ``join_table``, ``spectate``, ``ready``, ``chat``)."""
    t, re = request["t"], request["id"]
    if t == "ping":
        return {"t": "pong", "re": re}
    if t == "variants":
        return {"t": "variants", "re": re, "variants": variants()}
    if t == "schema":
        return {"t": "schema", "re": re, "schema": protocol.load_schema()}
    if t in ("list_records", "get_record", "player_stats", "leaderboard"):
        return error(re, "RECORDS_OFF", "the scripted server keeps no records")
    if t == "hello":
        return error(re, "BAD_STATE", "hello twice")
    return {"t": "ok", "re": re}
