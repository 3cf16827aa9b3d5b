"""The server's settings: one frozen record, read from the command line and a TOML file.

A TOML file holds the same names as ``ServerConfig`` at its top level, and two tables:
``[table]`` (``TableDefaults``: what a ``create_table`` request gets when it leaves a value out)
and ``[limits]`` (``Limits``: timeouts and bounds). Times are integer milliseconds::

    host = "0.0.0.0"
    port = 7420
    name = "dorm"
    password = "hunter2"       # optional: the server's password (``hello.password``)
    log_level = "info"
    db = "/srv/neveryu/records.sqlite3"   # where records go (default: the user's data folder)
    record = true              # false: keep no records
    journal = true             # false: keep no journal of live tables (no restore after a restart)
    journal_max_age_ms = 7200000   # the tables of a server gone longer than this are not restored

    [table]
    variant = "verish"
    turn_ms = 60000            # 0: untimed turns
    challenge_window_ms = 1500
    tie_window_ms = 250
    quads_window_ms = 10000    # verish, timed tables: the next set waits while the taker may discard quads
    deals = 5                  # deals per match
    contribute_ms = 1000       # fair deal 2: the wait for the players' contributions to a shuffle
    deal_pause_ms = 4000       # the pause between the deals of a match
    grace_ms = 30000           # a dropped player's seat waits this long, then a bot plays it

    [limits]
    handshake_ms = 5000
    heartbeat_ms = 10000
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import attrs
import platformdirs

from neveryu import protocol
from neveryu.protocol import DEFAULT_PORT

FRAME_BYTES = 256
"""What a frame costs a connection's byte budget (``Limits.byte_rate``) besides its length: the
work every frame makes, however small (reading it, a reply)."""


def _ms(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{attribute.name} must be a whole number of milliseconds >= 0, got {value!r}")


def _positive(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{attribute.name} must be a whole number >= 1, got {value!r}")


@attrs.frozen(kw_only=True)
class TableDefaults:
    """What a new table gets when its ``create_table`` request leaves a value out.

    ``turn_ms``: the turn time limit (0: untimed). ``challenge_window_ms`` and ``tie_window_ms``:
    docs/RULES.md, "Timing rules" (`anyone` variants). ``quads_window_ms``: at a timed table, how
    long the next set waits after a person takes the pile while he may discard quads
    (docs/RULES.md, `verish`; 0: no window); at an untimed one the window waits until he
    discards or declines.
    ``bot_delay_ms``: how long a bot (or an away player's bot) waits before it acts, so people can
    follow; it chooses halfway and acts at the end, and the bot that makes a timed-out player's
    move chooses half as long before his deadline, so the time of a bot's move says nothing of
    the move. ``deal_pause_ms``: the pause between the deals of a match.
    ``contribute_ms``: how long the server waits, before each deal of a table without a fixed
    seed, for the players' contributions to its shuffle (fair deal 2, docs/PROTOCOL.md section
    9; it deals as soon as every connected player's has come, so only a client that does not
    contribute makes a deal start this much later). ``deals``: deals per match. ``grace_ms``:
    how long a dropped player's seat waits before a bot plays it. ``close_ms``: how long a table
    lives after its last human left. ``reveal_after_deal``: the players may fetch each ended
    deal's whole record, every hand, not only what they saw (docs/RECORDS.md).
    """

    variant: str = "verish"
    seats: int = attrs.field(default=4, validator=_positive)
    turn_ms: int = attrs.field(default=60_000, validator=_ms)
    challenge_window_ms: int = attrs.field(default=1_500, validator=_ms)
    tie_window_ms: int = attrs.field(default=250, validator=_ms)
    quads_window_ms: int = attrs.field(default=10_000, validator=_ms)
    bot_delay_ms: int = attrs.field(default=800, validator=_ms)
    deal_pause_ms: int = attrs.field(default=4_000, validator=_ms)
    contribute_ms: int = attrs.field(default=1_000, validator=_ms)
    deals: int = attrs.field(default=5, validator=_positive)
    grace_ms: int = attrs.field(default=30_000, validator=_ms)
    close_ms: int = attrs.field(default=60_000, validator=_ms)
    reveal_after_deal: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))


@attrs.frozen(kw_only=True)
class Limits:
    """Timeouts and bounds that keep one client from hurting others (docs/ARCHITECTURE.md, server/), and
    what a client meets when it crosses one (docs/PROTOCOL.md, "Errors"):

    - ``handshake_ms``: time allowed for ``hello``; then fatal ``HELLO_TIMEOUT``.
    - ``heartbeat_ms``: the server sends ``heartbeat`` after this long without sending anything.
    - ``idle_ms``: a peer from which no whole frame arrived this long gets ``bye`` "idle" and is
      closed (bytes of an unfinished frame are no sign of life).
    - ``frame_ms``: a frame, once its first byte arrived, must be complete within this, else
      ``bye`` "frame_timeout" (a client dribbling bytes cannot hold a connection: slowloris).
    - ``send_ms``: each write (the frames queued at that moment) must be done within this, else
      the connection is closed.
    - ``outbox``: frames queued for one connection; a full queue means the client stopped
      reading: what is queued is dropped, ``bye`` "too_slow" goes out and the connection closes
      (its session keeps its seat and its events for a resume). A client's own requests wait
      while half of it is used, or while more than 256 KiB wait to be written to it.
    - ``replay``: events kept per session for a resume (older ones: a ``state`` snapshot).
    - ``rate``, ``burst``: requests per second one connection may send on average, and at once;
      more get ``RATE_LIMITED``. A ``WRONG_TABLE_PASSWORD`` empties the bucket and owes a second
      of refill: every request of the connection gets ``RATE_LIMITED`` for the next second.
    - ``byte_rate``, ``byte_burst``: bytes of frames one connection may have decoded per second on
      average, and at once, each frame counting as its length plus ``FRAME_BYTES`` (256). No
      error: the server decodes the connection's next frame only once the budget has room for
      it, so a client that sends more waits (TCP pushes back), and no frame, however it is made,
      costs the server more than its share (docs/PROTOCOL.md, section 8).
    - ``max_connections`` (in total), ``max_per_address``: more get fatal ``SERVER_FULL``.
    - ``max_tables``: more ``create_table`` get ``BAD_STATE``.
    - ``max_tables_per_address``: tables made from one IP address and still open; more
      ``create_table`` from there get ``BAD_STATE`` (one client cannot take every table).
    - ``max_chat``: characters of a chat line (at most the protocol's 500); longer (or empty):
      ``BAD_OPTION``, not fatal, as the protocol's own limit is.
    - ``shutdown_ms``: how long a shutdown waits for ``bye`` to reach the clients.
    """

    handshake_ms: int = attrs.field(default=5_000, validator=_positive)  # docs/PROTOCOL.md, 8.
    heartbeat_ms: int = attrs.field(default=10_000, validator=_positive)
    idle_ms: int = attrs.field(default=45_000, validator=_positive)
    frame_ms: int = attrs.field(default=10_000, validator=_positive)
    send_ms: int = attrs.field(default=10_000, validator=_positive)
    outbox: int = attrs.field(default=1_024, validator=_positive)
    replay: int = attrs.field(default=256, validator=_positive)
    max_tables: int = attrs.field(default=64, validator=_positive)
    max_tables_per_address: int = attrs.field(default=8, validator=_positive)
    max_chat: int = attrs.field(
        default=protocol.MAX_CHAT_LEN, validator=[_positive, attrs.validators.le(protocol.MAX_CHAT_LEN)]
    )
    rate: int = attrs.field(default=50, validator=_positive)
    burst: int = attrs.field(default=200, validator=_positive)
    byte_rate: int = attrs.field(default=32_768, validator=_positive)
    byte_burst: int = attrs.field(
        default=65_536, validator=[_positive, attrs.validators.ge(protocol.MAX_CLIENT_FRAME + FRAME_BYTES)]
    )
    shutdown_ms: int = attrs.field(default=2_000, validator=_ms)
    max_connections: int = attrs.field(default=256, validator=_positive)
    max_per_address: int = attrs.field(default=32, validator=_positive)


@attrs.frozen(kw_only=True)
class ServerConfig:
    """Everything ``serve`` needs. ``host`` "" or "0.0.0.0" binds every interface; ``port`` 0
    picks a free port (tests). ``password``: the server's password, None for none. ``seed``: a
    fixed seed for every table that does not give its own (tests, ``neveryu play``); None seeds
    each deal from ``secrets``. ``db``: the SQLite file that keeps the records of ended deals
    (docs/RECORDS.md); None keeps none (``neveryu serve`` and ``neveryu play`` default it to
    ``default_db_path()``); ``record`` False keeps none either way. ``journal``: keep a journal of
    the live tables in the same file, so that a server started again after a crash, a kill or a
    power cut restores them (docs/RECORDS.md, "The journal"); ``restore`` False (``--fresh``)
    starts without them and forgets them; the tables of a server gone for more than
    ``journal_max_age_ms`` (default 2 hours) are not restored."""

    host: str = ""
    port: int = DEFAULT_PORT
    name: str = "neveryu"
    password: str | None = None
    log_level: str = "info"
    seed: int | None = None
    db: str | None = None
    record: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))
    journal: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))
    restore: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))
    journal_max_age_ms: int = attrs.field(default=7_200_000, validator=_ms)
    table: TableDefaults = attrs.field(factory=TableDefaults)
    limits: Limits = attrs.field(factory=Limits)

    @property
    def records_path(self) -> str | None:
        """Where records are kept (None: nowhere)."""
        return self.db if self.record else None

    def evolve(self, **changes: Any) -> ServerConfig:
        """A copy with top-level fields changed; ``table={...}``/``limits={...}`` dicts change
        only the names they hold."""
        for key, _cls in (("table", TableDefaults), ("limits", Limits)):
            if isinstance(changes.get(key), dict):
                changes[key] = attrs.evolve(getattr(self, key), **changes[key])
        return attrs.evolve(self, **changes)


def config_from_mapping(data: dict[str, Any]) -> ServerConfig:
    """A ServerConfig from a parsed TOML document. Raises ValueError naming an unknown key."""
    data = dict(data)
    parts: dict[str, Any] = {}
    for key, cls in (("table", TableDefaults), ("limits", Limits)):
        sub = data.pop(key, {})
        if not isinstance(sub, dict):
            raise ValueError(f"[{key}] must be a table")
        _known(sub, cls, f"[{key}] ")
        parts[key] = cls(**sub)
    _known(data, ServerConfig, "")
    limits = parts["limits"]
    if limits.idle_ms <= limits.heartbeat_ms:  # (an operator's file; Limits alone allows it)
        raise ValueError(
            f"[limits] idle_ms ({limits.idle_ms}) must be above heartbeat_ms ({limits.heartbeat_ms}): "
            "a client sends ping after heartbeat_ms of silence, so every client would be dropped as idle"
        )
    return ServerConfig(**data, **parts)


def _known(data: dict[str, Any], cls: type, where: str) -> None:
    names = {a.name for a in attrs.fields(cls)} - {"table", "limits"}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{where}unknown setting {', '.join(unknown)} (known: {', '.join(sorted(names))})")


def default_db_path() -> Path:
    """The records' file when none is given: ``records.sqlite3`` in the user's data folder
    (platformdirs; ``~/.local/share/neveryu`` on Linux). ``NEVERYU_DATA_DIR`` moves it."""
    folder = os.environ.get("NEVERYU_DATA_DIR") or platformdirs.user_data_dir("neveryu", appauthor=False)
    return Path(folder) / "records.sqlite3"


def load_config(path: str | Path) -> ServerConfig:
    """Read a TOML config file (see the module's docstring). Raises OSError, ValueError
    (``tomllib.TOMLDecodeError`` is one) or TypeError for a file that is missing or wrong."""
    with open(path, "rb") as f:
        return config_from_mapping(tomllib.load(f))
