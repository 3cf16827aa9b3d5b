"""Find neveryu servers on the local network with DNS-SD over multicast DNS.

Servers advertise the service type ``_neveryu._tcp`` (docs/PROTOCOL.md, section 12);
``discover`` browses for it for a few seconds and returns what answered. It blocks: from trio,
call it as ``await trio.to_thread.run_sync(discover, timeout)``.

Browsing sends multicast queries on every IPv4 interface of this machine, or on one
(``interface``). Nothing in this module runs at import.
"""

from __future__ import annotations

import ipaddress
import queue
import time
from typing import Any

import attrs
import ifaddr
import zeroconf

SERVICE_TYPE = "_neveryu._tcp.local."
"""The DNS-SD service type of neveryu servers, fully qualified (server/advertise.py sends it)."""

DEFAULT_TIMEOUT = 3.0
"""How long ``discover`` browses by default (seconds): enough for the first query, its
answers and the look-up of each server's records on a local network."""


@attrs.frozen
class Server:
    """A server found on the network, as its DNS-SD records describe it.

    ``name``: the TXT ``name`` (the instance name where the TXT has none). ``address``: the
    IPv4 address to connect to (one on a network of this machine where there is one), one of
    ``addresses``. ``port``: its TCP port. ``tables``, ``free`` (free seats) and ``proto`` (its
    protocol version): from the TXT record, None where missing or not a whole number >= 0.
    ``instance``: the DNS-SD instance name (unique on the network).
    """

    name: str
    address: str
    port: int
    tables: int | None
    free: int | None
    proto: int | None
    addresses: tuple[str, ...]
    instance: str

    def to_json(self) -> dict[str, Any]:
        """The object ``neveryu servers --json`` prints for this server (keys as the fields)."""
        return {
            "name": self.name,
            "address": self.address,
            "port": self.port,
            "tables": self.tables,
            "free": self.free,
            "proto": self.proto,
            "addresses": list(self.addresses),
            "instance": self.instance,
        }


def interface_addresses(interface: str) -> list[str]:
    """The IPv4 addresses of the interface named *interface* (``"eth0"``), or [*interface*]
    when it is itself an IPv4 address.

    Raises:
        ValueError: no interface has that name, or it has no IPv4 address.
    """
    try:
        return [str(ipaddress.IPv4Address(interface))]
    except ValueError:
        pass
    adapters = {a.name: a for a in ifaddr.get_adapters()}
    if interface not in adapters:
        raise ValueError(
            f"no network interface named {interface!r} (there are: {', '.join(sorted(adapters))})"
        )
    found = [str(ip.ip) for ip in adapters[interface].ips if ip.is_IPv4]
    if not found:
        raise ValueError(f"network interface {interface!r} has no IPv4 address")
    return found


def _local_networks() -> list[ipaddress.IPv4Network]:
    return [
        ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4 and not ipaddress.IPv4Address(ip.ip).is_loopback
    ]


def preferred_address(addresses: list[str], networks: list[ipaddress.IPv4Network]) -> str:
    """The first of *addresses* inside one of *networks* (this machine's), else the first one.

    Raises IndexError if *addresses* is empty.
    """
    for address in addresses:
        if any(ipaddress.IPv4Address(address) in net for net in networks):
            return address
    return addresses[0]


def _count(properties: dict[str, str | None], key: str) -> int | None:
    value = properties.get(key)
    if value is None or not value.isascii() or not value.isdecimal():
        return None
    return int(value)


def server_from_info(info: zeroconf.ServiceInfo, networks: list[ipaddress.IPv4Network]) -> Server | None:
    """The ``Server`` a resolved ServiceInfo describes, or None if it has no IPv4 address or port."""
    addresses = info.parsed_addresses(zeroconf.IPVersion.V4Only)
    if not addresses or not info.port:
        return None
    properties = info.decoded_properties
    instance = info.name[: -len(SERVICE_TYPE) - 1] if info.name.endswith(SERVICE_TYPE) else info.name
    return Server(
        name=properties.get("name") or instance,
        address=preferred_address(addresses, networks),
        port=info.port,
        tables=_count(properties, "tables"),
        free=_count(properties, "free"),
        proto=_count(properties, "proto"),
        addresses=tuple(addresses),
        instance=instance,
    )


def discover(timeout: float = DEFAULT_TIMEOUT, interface: str | None = None) -> list[Server]:
    """Browse the local network for neveryu servers for *timeout* seconds; blocks that long.

    Args:
        timeout: how long to browse (seconds, > 0).
        interface: browse on this interface only (its name, ``"eth0"``, or one of its IPv4
            addresses); None browses on every IPv4 interface.

    Returns:
        The servers that answered and did not say goodbye, sorted by name then address.

    Raises:
        ValueError: *timeout* is not > 0, or *interface* is unknown or has no IPv4 address.
        OSError: the multicast sockets cannot be opened (no network, no multicast route).
    """
    if not timeout > 0:
        raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
    interfaces = zeroconf.InterfaceChoice.All if interface is None else interface_addresses(interface)
    deadline = time.monotonic() + timeout
    networks = _local_networks()
    changes: queue.SimpleQueue[tuple[str, zeroconf.ServiceStateChange]] = queue.SimpleQueue()

    def on_change(**event: Any) -> None:  # zeroconf calls it with keywords, in its own thread
        changes.put((event["name"], event["state_change"]))

    found: dict[str, Server] = {}
    zc = zeroconf.Zeroconf(interfaces=interfaces, ip_version=zeroconf.IPVersion.V4Only)
    try:
        browser = zeroconf.ServiceBrowser(zc, SERVICE_TYPE, handlers=[on_change])
        try:
            while (left := deadline - time.monotonic()) > 0:
                try:
                    name, change = changes.get(timeout=left)
                except queue.Empty:
                    break
                if change is zeroconf.ServiceStateChange.Removed:
                    found.pop(name, None)
                    continue
                info = zeroconf.ServiceInfo(SERVICE_TYPE, name)
                left_ms = (deadline - time.monotonic()) * 1000
                if left_ms > 0 and info.request(zc, left_ms):
                    server = server_from_info(info, networks)
                    if server is not None:
                        found[name] = server
        finally:
            browser.cancel()
    finally:
        zc.close()
    return sorted(found.values(), key=lambda s: (s.name, s.address, s.port))
