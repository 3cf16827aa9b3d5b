"""Print the wire protocol's version, limits and JSON Schema (docs/PROTOCOL.md,
docs/protocol.schema.json). With --schema, print only the schema (JSON), e.g. for a validator."""

from __future__ import annotations

import argparse
import json

from neveryu import protocol


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--schema", action="store_true", help="print only the JSON Schema")


def run(args: argparse.Namespace) -> int:
    schema = protocol.load_schema()
    if not args.schema:
        print(f"neveryu protocol v{protocol.PROTOCOL_VERSION}.{protocol.PROTOCOL_MINOR}")
        print(f"default port: {protocol.DEFAULT_PORT}")
        print(
            f"frames: 4-byte big-endian length + one msgpack map; at most {protocol.MAX_CLIENT_FRAME} bytes "
            f"from a client, {protocol.MAX_SERVER_FRAME} from a server"
        )
        print("spec: docs/PROTOCOL.md; JSON Schema follows")
        print()
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0
