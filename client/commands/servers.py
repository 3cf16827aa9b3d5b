"""List the neveryu servers on the local network and exit.

Browses with DNS-SD over multicast DNS (service type _neveryu._tcp, docs/PROTOCOL.md) for
--timeout seconds on every IPv4 interface, or on --interface only, then prints what answered.

With --json it prints one JSON array, one object per server, with the keys: "name" (the
server's name), "address" (the IPv4 address to connect to), "port" (its TCP port), "tables"
(how many tables it has), "free" (free seats at tables waiting for players), "proto" (its
protocol version), "addresses" (every IPv4 address it advertised) and "instance" (its DNS-SD
instance name, unique on the network). "tables", "free" and "proto" are null when a server
did not send them.

Exit status: 0 when a server was found, 1 when none was, 2 on an error (an unknown interface,
no network).
"""

from __future__ import annotations

import argparse
import json
import sys

from client import discovery

NOTHING_FOUND = """\
No neveryu server answered on the local network within {timeout:g} s.
If you know the server's address, connect to it directly: neveryu join HOST[:PORT]
(the port is 7420 unless the server chose another; `neveryu serve` prints its addresses).
Discovery can fail when:
  - a firewall on this machine or the server's drops multicast DNS (UDP port 5353);
  - the server is on another subnet (multicast DNS does not cross routers);
  - the network blocks multicast (guest Wi-Fi, client isolation, some office networks);
  - the server listens on 127.0.0.1 only, or was started with --no-advertise;
  - it takes longer here: try --timeout 10."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON array (keys above) for scripts")
    parser.add_argument(
        "--timeout",
        type=float,
        default=discovery.DEFAULT_TIMEOUT,
        metavar="S",
        help=f"browse this many seconds (default {discovery.DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--interface",
        metavar="IF",
        default=None,
        help="browse on this network interface only (a name such as eth0, or its IPv4 address)",
    )


def format_table(servers: list[discovery.Server]) -> list[str]:
    """The lines of the human-readable listing: a header row and one row per server."""
    rows = [("NAME", "ADDRESS", "TABLES", "FREE SEATS", "PROTOCOL")]
    for s in servers:
        rows.append(
            (
                s.name,
                f"{s.address}:{s.port}",
                "?" if s.tables is None else str(s.tables),
                "?" if s.free is None else str(s.free),
                "?" if s.proto is None else str(s.proto),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def run(args: argparse.Namespace) -> int:
    try:
        servers = discovery.discover(args.timeout, args.interface)
    except (ValueError, OSError) as e:
        print(f"neveryu servers: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([s.to_json() for s in servers], ensure_ascii=False))
        if not servers:
            print(NOTHING_FOUND.format(timeout=args.timeout), file=sys.stderr)
    elif servers:
        for line in format_table(servers):
            print(line)
        first = servers[0]
        print(f"\nJoin one with: neveryu join {first.address}:{first.port}")
    else:
        print(NOTHING_FOUND.format(timeout=args.timeout))
    return 0 if servers else 1
