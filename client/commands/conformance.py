"""Check a client or a server against docs/PROTOCOL.md, case by case (docs/CONFORMANCE.md).
"conformance client -- COMMAND..." starts the client for each case against a scripted server on
127.0.0.1 ({host} and {port} in COMMAND are replaced); "conformance server HOST:PORT" sends the
cases' requests to a server and checks its answers. Exit status: 0 when no case failed, 1 when
one did, 2 for bad arguments."""

from __future__ import annotations

import argparse
import pathlib
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="direction", metavar="DIRECTION", required=True)
    client = sub.add_parser("client", help="a scripted server takes a client through the cases")
    client.add_argument(
        "client_command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND",
        help="the client to start for each case ({host} and {port} are replaced; NEVERYU_HOST and"
        " NEVERYU_PORT are set); none: connect it yourself to the address printed for each case",
    )
    client.add_argument(
        "--without",
        action="append",
        default=[],
        metavar="FEATURE",
        help="a feature the client lacks (seat, resume): its cases are not applicable",
    )
    client.add_argument("--heartbeat-ms", type=int, default=1000, help="welcome.heartbeat_ms (default 1000)")
    client.add_argument(
        "--port", type=int, default=0, help="listen on this port for every case (default: any)"
    )
    client.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to connect and sit")
    client.add_argument("--jobs", type=int, default=1, help="cases run at once (each on its own port)")
    server = sub.add_parser("server", help="the cases' requests sent to a server, its answers checked")
    server.add_argument("server", metavar="HOST[:PORT]", help="the server (default port 7420)")
    server.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each answer")
    for p in (client, server):
        p.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
        p.add_argument("--json", action="store_true", help="print the report as JSON")
        p.add_argument("--junit", metavar="FILE", help="also write the report as JUnit XML")


def run(args: argparse.Namespace) -> int:
    import trio

    from neveryu import protocol
    from neveryu.client.address import parse_address
    from neveryu.client.conformance import catalogue, probe, report, run_client

    try:
        cases = catalogue.load(args.case or None)
        if args.direction == "client":
            command = [a for a in args.client_command if a != "--"] or None
            unknown = set(args.without) - set(catalogue.FEATURES)
            if unknown:
                raise ValueError(
                    f"unknown features {sorted(unknown)}; known: {', '.join(catalogue.FEATURES)}"
                )
            note = (lambda line: print(line, file=sys.stderr)) if args.json else print
            results = trio.run(
                lambda: run_client.run_cases(
                    cases,
                    command,
                    heartbeat_ms=args.heartbeat_ms,
                    without=frozenset(args.without),
                    port=args.port,
                    connect_s=args.connect_timeout,
                    jobs=max(1, args.jobs),
                    announce=note,
                )
            )
        else:
            host, port = parse_address(args.server, protocol.DEFAULT_PORT)
            results = trio.run(lambda: probe.run_cases(cases, host, port, args.timeout))
    except ValueError as exc:
        print(f"neveryu conformance: {exc}", file=sys.stderr)
        return 2
    print(report.as_json(results, args.direction) if args.json else report.text(results, args.direction))
    if args.junit:
        pathlib.Path(args.junit).write_text(report.junit(results, args.direction), encoding="utf-8")
    return 1 if any(r.status == "fail" for r in results) else 0
