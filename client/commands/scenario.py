"""Run scenario files (docs/SCENARIOS.md): each file arranges a deal, applies its steps and checks
what happens after each. Prints one line per file (ok, or FAIL with every mismatch as a diff) and
exits 0 when all pass, 1 when any mismatch is found, 2 when a file cannot be read."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neveryu.engine import scenario


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        type=Path,
        help="scenario files (TOML), or folders holding *.toml files",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")


def _files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.glob("*.toml")) if p.is_dir() else [p])
    return out


def run(args: argparse.Namespace) -> int:
    failed = broken = passed = 0
    for path in _files(args.files):
        try:
            mismatches = scenario.run_file(path)
        except (OSError, scenario.ScenarioError) as e:
            broken += 1
            print(f"ERROR {path}: {e}", file=sys.stderr)
            continue
        if mismatches:
            failed += 1
            print(f"FAIL  {path}")
            for m in mismatches:
                print("  " + str(m).replace("\n", "\n  "))
        else:
            passed += 1
            if not args.quiet:
                print(f"ok    {path}")
    print(f"{passed} passed, {failed} failed" + (f", {broken} unreadable" if broken else ""))
    if broken:
        return 2
    return 1 if failed else 0
