"""DNS-SD advertising of a running server over multicast DNS (docs/PROTOCOL.md, section 12,
"Finding servers on a LAN").

A server announces one service instance of type ``_neveryu._tcp`` (``SERVICE_TYPE``) whose SRV
record carries its TCP port and whose TXT record carries:

=========  ==============================================================================
key        value (UTF-8 text)
=========  ==============================================================================
txtvers    ``1``: the version of this TXT layout
name       the server's name, as in ``welcome.server.name``
proto      the protocol version the server speaks (``PROTOCOL_VERSION``)
tables     how many tables the server has now (decimal)
free       how many seats are free now at tables waiting for players (decimal)
=========  ==============================================================================

Advertising touches only the interfaces the server listens on (``server.addresses``): a
server bound to loopback (``127.0.0.1``, as ``neveryu play`` and tests are) advertises
nothing, opens no multicast socket and sends no packet. zeroconf's blocking calls (opening its
sockets, probing, announcing, goodbyes) run in worker threads (``trio.to_thread``), so the
server starts serving at once and shuts down within ``CLOSE_TIMEOUT`` seconds; a failure to
advertise is logged and never stops the server.

Use::

    async with advertising(name, host, port) as ad:
        ...  # serve; ad.update(tables=2, free=3) whenever the counts change

or, beside a running ``server.Server``, ``nursery.start_soon(advertise_server, server)``: it
follows the server's tables on its own (``neveryu serve`` does this unless ``--no-advertise``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import secrets
import socket
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any

import trio
import zeroconf

from neveryu.protocol import PROTOCOL_VERSION

from .addresses import reachable_addresses

if TYPE_CHECKING:
    from ._server import Server

log = logging.getLogger(__name__)

SERVICE_TYPE = "_neveryu._tcp.local."
"""The DNS-SD service type (RFC 6763) of neveryu servers, fully qualified."""

TXT_VERSION = 1
"""The ``txtvers`` this module writes."""

CLOSE_TIMEOUT = 1.0
"""Longest time (seconds) shutdown waits for the goodbye packets before it gives up on them."""

FOLLOW_EVERY = 1.0
"""How often ``advertise_server`` reads the server's counts (seconds)."""

_MAX_LABEL = 63  # bytes of a DNS label: the instance name must fit in one


def instance_label(name: str) -> str:
    """The DNS-SD instance name for a server called *name*: dots turned to spaces (a dot would
    split the label), cut to 63 bytes of UTF-8 at a character boundary, ``"neveryu"`` if empty."""
    label = " ".join(name.replace(".", " ").split()) or "neveryu"
    while len(label.encode()) > _MAX_LABEL:
        label = label[:-1]
    return label


def txt_properties(name: str, tables: int, free: int, proto: int = PROTOCOL_VERSION) -> dict[str, str]:
    """The TXT record of a server as a dict of UTF-8 strings (keys in the module docstring).

    Raises ValueError if a count is negative.
    """
    if tables < 0 or free < 0:
        raise ValueError(f"counts must be >= 0, got tables={tables} free={free}")
    return {
        "txtvers": str(TXT_VERSION),
        "name": name.encode()[:200].decode(errors="ignore"),
        "proto": str(proto),
        "tables": str(tables),
        "free": str(free),
    }


class Advertisement:
    """A server's DNS-SD advertisement, as ``advertising`` yields it.

    ``addresses`` are the IPv4 addresses advertised (empty: nothing is advertised, for a server
    on loopback or with ``enabled=False``). ``registered`` is set once the announcement went out
    (tests wait on it), or advertising failed; ``instance`` is then the instance name the
    network accepted (zeroconf appends ``-2``, ``-3``... on a conflict with another server of
    the same name), None after a failure.
    """

    def __init__(self, name: str, port: int, addresses: list[str], tables: int, free: int) -> None:
        self.name = name
        self.port = port
        self.addresses = tuple(addresses)
        self.instance: str | None = None
        self.registered = trio.Event()
        self._counts = (tables, free)
        self._announced = self._counts
        self._changed = trio.Event()
        self._announcement = trio.Event()
        self._running = bool(addresses)
        # A host name of our own, never this machine's real one (which another responder, such
        # as avahi, may own), unique even between machines cloned with the same name.
        hostname = instance_label(socket.gethostname().split(".")[0])[:40]
        self._host = f"neveryu-{hostname}-{port}-{secrets.token_hex(3)}.local."
        txt_properties(name, tables, free)  # validate now, in the caller's task

    def update(self, *, tables: int, free: int) -> None:
        """Set the counts of tables and free seats to advertise; cheap, synchronous, never blocks.

        The new TXT record is announced in the background; updates that come faster than the
        announcements (about 0.7 s each) are merged, the last one wins.
        Raises ValueError if a count is negative.
        """
        txt_properties(self.name, tables, free)
        if (tables, free) != self._counts:
            self._counts = (tables, free)
            self._changed.set()

    async def flushed(self) -> None:
        """Wait until the counts last given to ``update`` have been announced (at once when
        nothing is advertised, or advertising has stopped)."""
        if self._running:
            await self.registered.wait()
        while self._running and self._announced != self._counts:
            await self._announcement.wait()

    def _announced_now(self, counts: tuple[int, int]) -> None:
        self._announced = counts
        self._announcement.set()
        self._announcement = trio.Event()

    def _info(self, instance: str, counts: tuple[int, int]) -> zeroconf.ServiceInfo:
        tables, free = counts
        return zeroconf.ServiceInfo(
            SERVICE_TYPE,
            f"{instance}.{SERVICE_TYPE}",
            port=self.port,
            properties=txt_properties(self.name, tables, free),
            server=self._host,
            parsed_addresses=list(self.addresses),
        )

    async def _run(self) -> None:
        """Register, then announce each change of the counts, until cancelled; close at the end."""
        zc: zeroconf.Zeroconf | None = None
        try:
            zc = await trio.to_thread.run_sync(
                functools.partial(
                    zeroconf.Zeroconf,
                    interfaces=list(self.addresses),
                    ip_version=zeroconf.IPVersion.V4Only,
                )
            )
            counts = self._counts
            info = self._info(instance_label(self.name), counts)
            await trio.to_thread.run_sync(
                functools.partial(zc.register_service, info, allow_name_change=True),
                abandon_on_cancel=True,
            )
            self.instance = info.name[: -len(SERVICE_TYPE) - 1]
            log.info("advertising %r on %s port %d", self.instance, ", ".join(self.addresses), self.port)
            self._announced_now(counts)
            self.registered.set()
            while True:
                await self._changed.wait()
                self._changed = trio.Event()
                counts = self._counts
                await trio.to_thread.run_sync(
                    zc.update_service, self._info(self.instance, counts), abandon_on_cancel=True
                )
                self._announced_now(counts)
        except (OSError, zeroconf.Error) as e:
            log.warning("cannot advertise the server on the local network (DNS-SD): %s", e)
        finally:
            self._running = False
            self._announcement.set()
            self.registered.set()
            if zc is not None:
                with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                    await trio.to_thread.run_sync(zc.close, abandon_on_cancel=True)


@contextlib.asynccontextmanager
async def advertising(
    name: str,
    host: str | None,
    port: int,
    *,
    tables: int = 0,
    free: int = 0,
    enabled: bool = True,
) -> AsyncIterator[Advertisement]:
    """Advertise a server with DNS-SD while the block runs; withdraw it (goodbye packets) after.

    Args:
        name: the server's name (the TXT ``name``; also the instance name, cut to 63 bytes).
        host: the host the server listens on; only its non-loopback IPv4 addresses are
            advertised, and multicast is sent on those interfaces only (``server.addresses``).
        port: the TCP port the server listens on (the real one, after binding port 0).
        tables, free: the counts to advertise at first; change them with ``update``.
        enabled: False advertises nothing (``neveryu serve --no-advertise``).

    Yields:
        The ``Advertisement``. Entering returns at once: opening sockets, probing (about 2 s)
        and announcing happen in a background task. Leaving waits at most ``CLOSE_TIMEOUT``
        seconds. Errors of the network (no multicast route, a firewall) are logged, not raised.

    Raises:
        ValueError: a negative count.
        OSError: *host* is a name that does not resolve.
    """
    addresses = [r.address for r in reachable_addresses(host)] if enabled else []
    ad = Advertisement(name, port, addresses, tables, free)
    async with trio.open_nursery() as nursery:
        if addresses:
            nursery.start_soon(ad._run)
        try:
            yield ad
        finally:
            nursery.cancel_scope.cancel()


def lobby_counts(tables: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """(tables, free seats) of a server whose tables have these summaries (the objects of the
    ``tables`` reply, docs/PROTOCOL.md): a free seat is one nobody holds (``name`` null) at a
    table in state ``"waiting"``."""
    count = free = 0
    for table in tables:
        count += 1
        if table.get("state") == "waiting":
            free += sum(1 for seat in table.get("seats", ()) if seat.get("name") is None)
    return count, free


async def advertise_server(server: Server, *, every: float = FOLLOW_EVERY) -> None:
    """Advertise a running ``server.Server`` (its config's name and host, its bound port) until
    cancelled, reading its tables every *every* seconds to keep the counts current.

    Start it once the server is listening (``server.port`` is set); cancelling it withdraws
    the advertisement within ``CLOSE_TIMEOUT`` seconds. Raises OSError if the configured host is
    a name that does not resolve.
    """
    if server.port is None:
        raise RuntimeError("advertise_server: the server is not listening yet")
    config = server.config
    counts = lobby_counts(t.summary for t in list(server.tables.values()))
    async with advertising(config.name, config.host, server.port, tables=counts[0], free=counts[1]) as ad:
        if not ad.addresses:
            return
        while True:
            await trio.sleep(every)
            tables, free = lobby_counts(t.summary for t in list(server.tables.values()))
            ad.update(tables=tables, free=free)
