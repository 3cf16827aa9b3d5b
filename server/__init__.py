"""The neveryu server (DESIGN.md, server/): trio TCP, the lobby, tables and their referee.

Run one in-process (tests, ``neveryu play``)::

    import trio
    from neveryu.server import ServerConfig, serve

    async def main():
        config = ServerConfig(host="127.0.0.1", port=0, seed=1).evolve(table={"bot_delay_ms": 300})
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, config)   # the bound port, an int
            ...                                         # connect to 127.0.0.1:port
            nursery.cancel_scope.cancel()               # clients get bye, serve returns

Or in its own thread, from code that is not trio (``neveryu play`` runs the client on asyncio)::

    from neveryu.server import ServerConfig, start_in_thread

    running = start_in_thread(ServerConfig(host="127.0.0.1", port=0))
    print(running.port)
    ...
    running.stop()          # bye to every client; joins the thread (at most a few seconds)

``serve`` installs no signal handlers; ``neveryu serve`` (client/commands/serve.py) adds them
(SIGINT/SIGTERM: ``Server.shutdown()``; a second one exits at once) and DNS-SD advertising
(``server.advertise.advertise_server``). With a ``Server`` object, ``port = await
nursery.start(server.run)`` and ``server.shutdown()`` do the same as ``serve`` and expose
``server.tables``, ``server.sessions`` and ``server.connections``.

Inside, following one request: ``_server`` (listening, the handshake, the lobby) hands each
connection to ``_connection`` (its reader, its deadlines and rate limit), which hands each
request to the server; a table's requests go to ``_table`` (seats, match, who is sent which copy
of each event: ``_wire.copies``), whose ``_referee`` applies the deal's actions under the timing
rules of RULES.md (deadlines: ``_timers``); everything sent to a client goes through its
``_session`` (seq, replay for a resume) into its ``_outbox``, the one writer. Also:
``_settings``, ``_seats``, ``_bots`` (engine bots for bot and away seats), ``_config``
(settings, TOML), ``_thread``.
Settings: ``ServerConfig`` with its ``table`` (``TableDefaults``) and ``limits`` (``Limits``);
``load_config(path)`` reads a TOML file of the same names.
"""

from ._config import Limits, ServerConfig, TableDefaults, config_from_mapping, load_config
from ._server import SERVER_VERSION, Server, serve, variants_info
from ._thread import RunningServer, start_in_thread

__all__ = [
    "SERVER_VERSION",
    "Limits",
    "RunningServer",
    "Server",
    "ServerConfig",
    "TableDefaults",
    "config_from_mapping",
    "load_config",
    "serve",
    "start_in_thread",
    "variants_info",
]
