"""Not built yet."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    print("neveryu: this command is not built yet", flush=True)
    return 2
