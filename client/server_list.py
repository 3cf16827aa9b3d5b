"""Showing the servers that discovery found, and picking one: the text `neveryu servers` prints
and the pick list `neveryu join` without a host shows (client/discovery.py finds them).

For ``join``::

    server = server_list.browse_and_pick(timeout, interface)
    if server is None:
        return 1          # nothing found (what to do instead was printed) or the user gave up
    host, port = server.address, server.port
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from neveryu.client import discovery
from neveryu.client.discovery import Server

_NOTHING_FOUND = """\
No neveryu server answered on the local network within {timeout:g} s.
If you know the server's address, connect to it directly: neveryu join HOST[:PORT]
(the port is 7420 unless the server chose another; `neveryu serve` prints its addresses).
Discovery can fail when:
  - a firewall on this machine or the server's drops multicast DNS (UDP port 5353);
  - the server is on another subnet (multicast DNS does not cross routers);
  - the network blocks multicast (guest Wi-Fi, client isolation, some office networks);
  - the server listens on 127.0.0.1 only, or was started with --no-advertise;
  - answers are slow here: browse longer (neveryu servers --timeout 10)."""


def nothing_found(timeout: float) -> str:
    """What to tell a user when browsing *timeout* seconds found no server: how to connect by
    address, and why discovery may fail (several lines, no final newline)."""
    return _NOTHING_FOUND.format(timeout=timeout)


def table_lines(servers: list[Server], numbered: bool = False) -> list[str]:
    """The lines of a listing: a header row and one row per server (name, address:port,
    tables, free seats, protocol version; ``?`` where the server did not say), each row
    preceded by its number from 1 when *numbered*."""
    rows: list[tuple[str, ...]] = [("#", "NAME", "ADDRESS", "TABLES", "FREE SEATS", "PROTOCOL")]
    for n, s in enumerate(servers, 1):
        rows.append(
            (
                str(n),
                s.name,
                f"{s.address}:{s.port}",
                "?" if s.tables is None else str(s.tables),
                "?" if s.free is None else str(s.free),
                "?" if s.proto is None else str(s.proto),
            )
        )
    if not numbered:
        rows = [row[1:] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def pick(
    servers: list[Server], ask: Callable[[str], str] = input, out: TextIO | None = None
) -> Server | None:
    """Show *servers* numbered and ask which one to join (the only one: whether to join it);
    Enter takes the first.

    Args:
        servers: what ``discovery.discover`` returned (not empty).
        ask: reads one answer, given the prompt (``input``; tests pass their own).
        out: where the list goes (standard output by default).

    Returns:
        The chosen server, or None when the user answers ``q`` or ends the input.
    """
    out = out if out is not None else sys.stdout
    for line in table_lines(servers, numbered=True):
        print(line, file=out)
    if len(servers) == 1:
        prompt = "Join this server? [Enter: yes, q: quit] "
    else:
        prompt = f"Join which server? [1-{len(servers)}, Enter: 1, q: quit] "
    while True:
        try:
            answer = ask(prompt).strip()
        except EOFError:
            return None
        if answer == "":
            return servers[0]
        if answer.lower() in ("q", "quit"):
            return None
        if answer.isdecimal() and 1 <= int(answer) <= len(servers):
            return servers[int(answer) - 1]
        print(
            "Press Enter to join it, or q."
            if len(servers) == 1
            else f"Type a number from 1 to {len(servers)}, or q.",
            file=out,
        )


def browse_and_pick(
    timeout: float = discovery.DEFAULT_TIMEOUT,
    interface: str | None = None,
    ask: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Server | None:
    """Browse the local network (``discovery.discover``, blocks *timeout* seconds) and let the
    user pick a server; when none answered, print how to connect by address and why discovery
    may fail, and return None. None too when the user gives up.

    Raises ValueError and OSError like ``discovery.discover``.
    """
    out = out if out is not None else sys.stdout
    print(f"Looking for servers on the local network ({timeout:g} s)...", file=out, flush=True)
    servers = discovery.discover(timeout, interface)
    if not servers:
        print(nothing_found(timeout), file=out)
        return None
    return pick(servers, ask, out)
