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

from neveryu.client import discovery, server_list


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


def run(args: argparse.Namespace) -> int:
    try:
        servers = discovery.discover(args.timeout, args.interface)
    except (ValueError, OSError) as e:
        print(f"neveryu servers: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([s.to_json() for s in servers], ensure_ascii=False))
        if not servers:
            print(server_list.nothing_found(args.timeout), file=sys.stderr)
    elif servers:
        for line in server_list.table_lines(servers):
            print(line)
        first = servers[0]
        print(f"\nJoin one with: neveryu join {first.address}:{first.port}")
    else:
        print(server_list.nothing_found(args.timeout))
    return 0 if servers else 1
