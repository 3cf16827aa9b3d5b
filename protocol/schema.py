"""``python -m protocol.schema [PATH...]``: write the generated JSON Schema to each PATH
(default: protocol/schema.json and docs/protocol.schema.json beside the package)."""

from __future__ import annotations

import pathlib
import sys

from ._schema import schema_json


def main(argv: list[str]) -> int:
    here = pathlib.Path(__file__).resolve().parent
    paths = [pathlib.Path(p) for p in argv] or [
        here / "schema.json",
        here.parent / "docs" / "protocol.schema.json",
    ]
    text = schema_json()
    for path in paths:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
