"""``neveryu bot`` (client/commands/bot.py): take a seat at a server's table and keep it.

``play_bot`` connects (``botclient.Client``), joins the first waiting table with a free seat (or
the table asked for, or makes one) and lets a ``BotPlayer`` play there. A connection lost without
a ``bye`` that ends it (the server restarted, the network failed, the server dropped a client it
did not hear from) is resumed as ``neveryu join`` resumes it (docs/PROTOCOL.md, "Resume" and
"Across a server restart"): with the session's token and last ``seq``, tried again after 0.5, 1,
2, 3, then every 5 s, for ``resume_for_s`` at most. After a restart the bot says so ("the server
restarted; resuming…") and plays on from the snapshot, its engine bot learning the deal again
from ``state.history``. A server that no longer knows the session, or no longer seats it
(``BAD_RESUME``, its table gone), is joined afresh. A peer that is not a neveryu server is given
up after the handshake time, in the words ``join`` uses (client/handshake.py).
"""

from __future__ import annotations

import itertools
import logging
import random
from typing import Any

import attrs
import trio

from neveryu.client.botclient import BotPlayer, Client, ConnectionClosed, ServerError
from neveryu.client.handshake import HANDSHAKE_S, RETRY_DELAYS_S, Refused

log = logging.getLogger("neveryu.bot")

RESUME_FOR_S = 120.0  # a lost connection is tried again this long before the bot gives up
RESUMABLE_BYES = frozenset({"idle", "too_slow", "frame_timeout"})  # bye reasons that are a drop
DROPPED = (ConnectionClosed, OSError, trio.BrokenResourceError, trio.ClosedResourceError)
UNREACHED = (OSError, Refused, ConnectionClosed, trio.BrokenResourceError, trio.ClosedResourceError)


@attrs.frozen
class Server:
    """Where the bot plays and as whom: ``handshake_s`` bounds each connection's handshake."""

    host: str
    port: int
    name: str
    password: str | None = None
    handshake_s: float = HANDSHAKE_S

    async def connect(self, resume: tuple[str, int] | None = None) -> Client:
        """``Client.connect`` (its errors)."""
        return await Client.connect(
            self.host,
            self.port,
            self.name,
            password=self.password,
            resume=resume,
            handshake_s=self.handshake_s,
        )


async def play_bot(
    host: str,
    port: int,
    *,
    name: str = "bot",
    strength: str = "sharp",
    password: str | None = None,
    table: int | None = None,
    table_password: str | None = None,
    matches: int | None = None,
    delay: float = 0.0,
    seed: int | None = None,
    resume_for_s: float = RESUME_FOR_S,
    handshake_s: float = HANDSHAKE_S,
) -> BotPlayer:
    """Connect, take a seat and play (``neveryu bot``); resume the seat when the connection is
    lost. ``table`` None: the first waiting table with a free seat, else a new table of the
    server's default variant. ``matches`` None: play until the table closes. Returns the player
    when it stops. Raises ValueError for an unknown ``strength``; ``ServerError`` when the
    server refuses; ``Refused`` (not a neveryu server), OSError (unreachable) or
    ``ConnectionClosed`` (a ``bye`` that ends it) when it cannot go on."""
    from neveryu.engine import bots

    if strength not in bots.STRENGTHS:
        raise ValueError(f"unknown bot strength {strength!r}; known: {', '.join(bots.STRENGTHS)}")
    server = Server(host, port, name, password, handshake_s)
    rng = random.Random(seed)
    client = await server.connect()
    player: BotPlayer | None = None
    try:
        while True:
            if player is None or player.client is not client:  # a new session: a seat afresh
                joined = await take_seat(client, table, table_password)
                log.info("%s sits at seat %d of table %d", name, joined["seat"] + 1, joined["table"]["id"])
                seated = BotPlayer(client, joined["table"], joined["seat"], strength, rng=rng, delay=delay)
                if player is not None:
                    seated.deals, seated.matches = player.deals, player.matches
                player = seated
            try:
                await player.play(matches)
                return player
            except DROPPED as exc:
                bye = exc.bye if isinstance(exc, ConnectionClosed) else None
                if bye is not None and bye.get("reason") not in RESUMABLE_BYES:
                    raise  # the server stopped, or another connection took the session over
                log.warning("%s: the connection is lost (%s); resuming…", name, _why(exc))
            await client.aclose()
            client = await resume_seat(server, client.token, client.last_seq, resume_for_s)
            if client.welcome.get("resumed") and client.welcome.get("table") is not None:
                player.resumed(client)
    finally:
        await client.aclose()


async def take_seat(client: Client, table: int | None, table_password: str | None) -> dict[str, Any]:
    """Join ``table`` (None: the first waiting table with a free seat and no password, else a new
    table): the ``table_joined`` reply. Raises ``ServerError``."""
    if table is None:
        for summary in (await client.request("list_tables"))["tables"]:
            free = any(s["name"] is None and s["bot"] is None for s in summary["seats"])
            if summary["state"] == "waiting" and free and not summary["password"]:
                table = summary["id"]
                break
    if table is None:
        return await client.request("create_table")
    fields: dict[str, Any] = {"table": table}
    if table_password is not None:
        fields["password"] = table_password
    return await client.request("join_table", **fields)


async def resume_seat(server: Server, token: str, last_seq: int, resume_for_s: float) -> Client:
    """A new connection resuming the session ``token`` (``last_seq``: the last event received),
    tried again after each of ``RETRY_DELAYS_S`` (then its last) until ``resume_for_s`` have
    passed; then the last failure is raised. A server that no longer knows the session
    (``BAD_RESUME``) gives a new one (``welcome.resumed`` false); one whose table is gone, the
    session in the lobby (``welcome.table`` null)."""
    deadline = trio.current_time() + resume_for_s
    for attempt in itertools.count():  # (until it returns or raises)
        try:
            client = await server.connect(resume=(token, last_seq))
        except ServerError as exc:
            if exc.code != "BAD_RESUME":
                raise
            log.warning("%s: the server no longer knows this seat (%s); joining afresh", server.name, exc.msg)
            return await server.connect()
        except UNREACHED as exc:
            pause = RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)]
            if trio.current_time() + pause > deadline:
                raise
            log.info("%s: not back yet (%s); trying again in %g s", server.name, _why(exc), pause)
            await trio.sleep(pause)
            continue
        if client.welcome.get("restarted"):
            log.warning("%s: the server restarted; resuming…", server.name)
        elif client.welcome.get("table") is None:
            log.warning("%s: the seat is gone (its table closed); joining afresh", server.name)
        else:
            log.info("%s: the connection is back", server.name)
        return client
    raise AssertionError("itertools.count ended")


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
