"""Which addresses of this machine other machines can reach a server on.

A server listens on a *host*: one address, a name that resolves to addresses, or every
interface (``""``, ``None``, ``"0.0.0.0"``, ``"::"``). From that host this module works out the
IPv4 addresses of this machine's network interfaces that other machines can connect to
(never loopback), for the start-up printout (``print_reachable``) and for DNS-SD advertising
(``server.advertise``). IPv4 only: that is what DNS-SD advertising of neveryu carries.

The interface list comes from ``ifaddr`` (installed with ``zeroconf``).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from typing import TextIO

import attrs
import ifaddr

ALL_INTERFACES = frozenset({"", "0.0.0.0", "::", "*"})
"""Hosts that mean "listen on every interface" (``None`` means that too)."""


@attrs.frozen
class Reachable:
    """One IPv4 address of this machine on which a server can be reached.

    ``interface`` is the operating system's name of the interface (``"eth0"``), or None when
    the address belongs to no interface ifaddr lists. ``prefix`` is the network prefix length
    (24 for a /24), or None likewise.
    """

    address: str
    interface: str | None = None
    prefix: int | None = None


def _interface_addresses() -> list[Reachable]:
    """Every IPv4 address of every interface of this machine, loopback included."""
    return [
        Reachable(str(ip.ip), adapter.name, ip.network_prefix)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4
    ]


def _is_loopback(address: str) -> bool:
    return ipaddress.ip_address(address).is_loopback


def _resolve_ipv4(host: str) -> list[str]:
    """The IPv4 addresses *host* (an address or a name) stands for, in resolver order.

    Raises:
        OSError (``socket.gaierror``): the name does not resolve.
    """
    try:
        return [str(ipaddress.IPv4Address(host))]
    except ValueError:
        pass
    infos = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def reachable_addresses(host: str | None) -> list[Reachable]:
    """The non-loopback IPv4 addresses of this machine that a server listening on *host* answers on.

    Args:
        host: the host the server binds: None or one of ``ALL_INTERFACES`` for every interface;
            an IPv4 address; an IPv6 address (only ``"::"`` gives any result: the others are
            not advertised); or a name, resolved to its IPv4 addresses.

    Returns:
        The addresses in interface order; empty when the server listens on loopback only
        (``127.0.0.1``, ``localhost``) or this machine has no other interface up.

    Raises:
        OSError: *host* is a name that does not resolve.
    """
    known = _interface_addresses()
    if host is None or host in ALL_INTERFACES:
        return [r for r in known if not _is_loopback(r.address)]
    try:
        if ipaddress.ip_address(host).version == 6:
            return []
    except ValueError:
        pass
    by_address = {r.address: r for r in known}
    return [
        by_address.get(address, Reachable(address))
        for address in _resolve_ipv4(host)
        if not _is_loopback(address)
    ]


def _is_ipv6_elsewhere(host: str) -> bool:
    """True if *host* is an IPv6 address other machines may reach (not loopback)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.version == 6 and not address.is_loopback


def describe_reachable(host: str | None, port: int) -> list[str]:
    """The lines ``print_reachable`` prints: where others can join a server on *host*:*port*.

    A server on loopback only gets one line saying only this machine can join, and how to let
    others in; one on a single IPv6 address gets that address (which is not announced).
    Raises OSError like ``reachable_addresses``.
    """
    where = "every interface" if host is None or host in ALL_INTERFACES else host
    reachable = reachable_addresses(host)
    if not reachable:
        if host is None or host in ALL_INTERFACES:
            return [
                f"Listening on {where}, port {port}, but this machine has no network interface"
                " up other than loopback: only this machine can join."
            ]
        if _is_ipv6_elsewhere(host):
            return [
                f"Listening on {host} port {port}. Others on the network can join with:",
                f"  neveryu join [{host}]:{port}",
                f"(a firewall on this machine must let in TCP port {port};"
                " only IPv4 addresses are announced on the LAN, so this one is not)",
            ]
        return [
            f"Listening on {host} port {port}: only this machine can join"
            " (serve --host 0.0.0.0 lets others on the network join)."
        ]
    lines = [f"Listening on {where}, port {port}. Others on the network can join with:"]
    for r in reachable:
        via = f"    ({r.interface})" if r.interface else ""
        lines.append(f"  neveryu join {r.address}:{port}{via}")
    lines.append(f"(a firewall on this machine must let in TCP port {port})")
    return lines


def print_reachable(host: str | None, port: int, file: TextIO | None = None) -> None:
    """Print, for the server's start, the addresses of this machine others can join on.

    Args:
        host: the host the server listens on (see ``reachable_addresses``).
        port: the TCP port it listens on (the real one, after binding port 0).
        file: where to print; standard output by default.
    """
    out = file if file is not None else sys.stdout
    try:
        lines = describe_reachable(host, port)
    except OSError as e:
        lines = [f"Listening on {host} port {port} (its addresses are unknown: {e})."]
    for line in lines:
        print(line, file=out, flush=True)
