"""The neveryu server (docs/ARCHITECTURE.md, server/): trio TCP, the lobby, tables and their referee.

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

Inside, following one request: ``_server`` (listening, the handshake, the lobby; the lobby's
stateless answers: ``_lobby``) hands each connection to ``_connection`` (its reader, its
deadlines and rate limit), which hands each request to the server; a table's requests go to
``_table`` (seats, people, deadlines; its requests: ``_table_requests``; what its deadlines
do: ``_table_deadlines``; who sits where: ``_seating``; what its parts may use of it:
``_table_protocol``) and its match to
``_game`` (deals, its bots: ``_game_bots``, a searching bot in a worker thread: ``_bot_search``,
its deals' records and journal notes: ``_game_records``, who is sent which copy of each event:
``_wire.copies``), whose ``_referee`` applies the deal's
actions under the timing rules of docs/RULES.md (deadlines: ``_timers``); everything sent to a
client goes through its ``_session`` (seq, replay for a resume) into its ``_outbox``, the one
writer. Also: ``_settings``,
``_seats``, ``_bots`` (engine bots for bot and away seats), ``_shuffle`` (fair deal 2),
``_restore`` (live tables back from the journal), ``_config`` (settings, TOML), ``_thread``.
Settings: ``ServerConfig`` with its ``table`` (``TableDefaults``) and ``limits`` (``Limits``);
``load_config(path)`` reads a TOML file of the same names.

What the server keeps lives apart, in ``records/``; of the live server it imports only
``_wire`` (events as messages), ``_password.Digest``, and for its types ``Session``, ``Seat``,
``TableSettings`` and the like (no module of the live server imports back into a cycle):

- Records (docs/RECORDS.md): every ended deal goes to one SQLite file (``records.database``:
  schema and migrations; ``records.history``: its rows) through one writer thread
  (``records.writer.RecordsWriter``); the table notes a deal while it is played
  (``records.deal_notes``) from its referee's accepted actions; ``records.deal_record`` is the
  record itself. ``records.replay`` plays a record again through the engine;
  ``records.hand_history`` gives it as the hand-history JSON (whole, or as one seat saw it) and
  as the messages each seat was sent; ``records.history_requests`` serves ``list_records`` and
  ``get_record``.
- The journal of live tables (docs/RECORDS.md, "The journal"): ``records.journal`` (what a table
  notes) and ``records.journal_rows`` (its rows, written by the same writer thread).
- Players (docs/PLAYERS.md): ``records.players`` (a stable id from the client's player key, bots
  one per strength, guests), ``records.statistics`` (what a seat did, from a replay),
  ``records.ratings`` (OpenSkill Plackett–Luce), ``records.derive`` (statistics and ratings made
  from the records, deal by deal, in the writer's transaction; ``rebuild``), ``records.league``
  (statistics and leaderboards read), ``records.player_requests`` (``player_stats``,
  ``leaderboard``).

The commands that read records (``history``, ``replay``, ``export``, ``stats``) use the names
below::

    from neveryu.server import check_record, connect_records, list_deals, load_deal, record_json

    conn = connect_records(path)                 # read: StoreError when it cannot be used
    for summary in list_deals(conn, limit=20):   # newest first
        record = load_deal(conn, summary.id)     # a DealRecord (None: no such deal)
        steps = check_record(record)             # the replay; ReplayError when it differs
        doc = record_json(record, steps)         # the hand history (JSON values)
"""

import os
import sqlite3

from ._collector import settle as settle_collector
from ._config import Limits, ServerConfig, TableDefaults, config_from_mapping, default_db_path, load_config
from ._lobby import SERVER_VERSION, variants_info
from ._server import Server, serve
from ._thread import RunningServer, start_in_thread
from .records.database import StoreError
from .records.database import connect as _connect
from .records.deal_record import DealRecord, RecordError, seat_label
from .records.derive import Rebuilt, catch_up, pending, rebuild
from .records.hand_history import dumps as record_text
from .records.hand_history import record_from_json, record_json, seat_messages, table_summary
from .records.history import Summary, deal_ids, list_deals, load_deal
from .records.league import PlayerStats, Standing, VariantStats, leaderboard, player_stats
from .records.players import Player, person_key, player_by_id, player_by_key, players_named
from .records.replay import ReplayError, Step
from .records.replay import check as check_record
from .records.replay import describe as describe_action
from .records.writer import RecordsWriter

Records = RecordsWriter
"""The name ``RecordsWriter`` had before it was given one that says what it is."""


def connect_records(path: str | os.PathLike[str], *, write: bool = False) -> sqlite3.Connection:
    """A connection to the records at ``path``, which must exist (an older schema is upgraded);
    ``write``: one that may write (the players' statistics and ratings: ``catch_up``,
    ``rebuild``). Raises StoreError."""
    if write and not os.path.isfile(path):
        raise StoreError(f"there is no records database at {path}")
    return _connect(path, write=write)


__all__ = [
    "SERVER_VERSION",
    "DealRecord",
    "Limits",
    "Player",
    "PlayerStats",
    "Rebuilt",
    "RecordError",
    "Records",
    "RecordsWriter",
    "ReplayError",
    "RunningServer",
    "Server",
    "ServerConfig",
    "Standing",
    "Step",
    "StoreError",
    "Summary",
    "TableDefaults",
    "VariantStats",
    "catch_up",
    "check_record",
    "config_from_mapping",
    "connect_records",
    "deal_ids",
    "default_db_path",
    "describe_action",
    "leaderboard",
    "list_deals",
    "load_config",
    "load_deal",
    "pending",
    "person_key",
    "player_by_id",
    "player_by_key",
    "player_stats",
    "players_named",
    "rebuild",
    "record_from_json",
    "record_json",
    "record_text",
    "seat_label",
    "seat_messages",
    "serve",
    "settle_collector",
    "start_in_thread",
    "table_summary",
    "variants_info",
]
