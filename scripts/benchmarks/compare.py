"""Side by side: the fan-out latency of the floor and of the real server as built from one or
more source trees (a change against the code before it), all running at once, measured in
turn in each of ROUNDS rounds of SAMPLES samples (in reverse order every other round, pinned as
the benchmark's latency section is), so they share the machine's load alike.

``PYTHONPATH=. .venv/bin/python -m scripts.benchmarks.compare [--rounds R] [--samples S] TREE...``

A TREE is a checkout of this project (``git worktree add /tmp/base HEAD~1``, say); each
server imports ``neveryu`` from its own tree. Prints, for each, p50, p99, p50 / floor and the
server's CPU per sample.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from pathlib import Path

import trio

from . import floor, latency
from .procstat import cpu_seconds
from .runner import pinned
from .stats import summary_us
from .subproc import Helper

BLOCK_S = 10.0  # at most, per block of samples


def tree_helper(tree: Path, scratch: Path) -> Helper:
    """The benchmark's server importing ``neveryu`` from ``tree`` (a directory named
    ``neveryu`` linking to it comes first on its ``PYTHONPATH``)."""
    link_dir = scratch / str(len(list(scratch.iterdir())))
    link_dir.mkdir()
    (link_dir / "neveryu").symlink_to(tree.resolve(), target_is_directory=True)
    return Helper("scripts.benchmarks.neveryu_server", first_path=str(link_dir))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--samples", type=int, default=400, help="per block")
    p.add_argument("trees", nargs="+", type=Path)
    args = p.parse_args()
    names = ["floor", *(str(t) for t in args.trees)]
    pooled: dict[str, list[float]] = {k: [] for k in names}
    cpu = dict.fromkeys(names, 0.0)
    print(f"load average {os.getloadavg()[0]:.2f}")
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        helpers = {"floor": stack.enter_context(Helper("scripts.benchmarks.floor"))}
        for tree in args.trees:
            helpers[str(tree)] = stack.enter_context(tree_helper(tree, scratch))
        stack.enter_context(pinned([h.pid for h in helpers.values()], True))
        for r in range(args.rounds):
            for k in names if r % 2 == 0 else names[::-1]:
                h = helpers[k]
                c0 = cpu_seconds(h.pid)
                if k == "floor":
                    result = trio.run(floor.latency, h.port, args.samples, BLOCK_S)
                else:
                    result = trio.run(latency.latency, h.port, args.samples, BLOCK_S)
                pooled[k] += result["samples"]
                cpu[k] += cpu_seconds(h.pid) - c0
    base = summary_us(pooled["floor"])["p50_us"]
    for k in names:
        s = summary_us(pooled[k])
        print(
            f"{k:24} p50 {s['p50_us']:8.1f} µs  p99 {s['p99_us']:8.1f} µs"
            f"  p50/floor {s['p50_us'] / base:5.2f}"
            f"  server CPU per sample {cpu[k] / max(len(pooled[k]), 1) * 1e6:7.1f} µs  ({s['n']} samples)"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
