"""Side by side: the fan-out latency of the floor and of the real server as built from one or
more source trees (a change against the code before it), all running at once, measured in
turn in each of ROUNDS rounds of SAMPLES samples (in reverse order every other round, pinned as
the benchmark's latency section is), so they share the machine's load alike.

``PYTHONPATH=. .venv/bin/python -m scripts.benchmarks.compare [--rounds R] [--samples S]
[--clients N] TREE...``

A TREE is a checkout of this project (``git worktree add /tmp/base HEAD~1``, say); each
server imports ``neveryu`` from its own tree. Prints, for each, p50, p99, p50 / floor and the
server's CPU per sample; with ``--clients N``, then the capacity step at N clients for each
tree in turn (``--capacity-rounds``), each step's server CPU per action and p99.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from pathlib import Path

import trio

from . import capacity, floor, latency
from .procstat import cpu_seconds
from .runner import pinned
from .stats import summary_us
from .subproc import Helper

BLOCK_S = 10.0  # at most, per block of samples


def tree_path(tree: Path, scratch: Path) -> str:
    """A directory in ``scratch`` holding ``neveryu``, a link to ``tree``: put first on a
    process's ``PYTHONPATH``, it imports ``neveryu`` from that tree."""
    link_dir = scratch / str(len(list(scratch.iterdir())))
    link_dir.mkdir()
    (link_dir / "neveryu").symlink_to(tree.resolve(), target_is_directory=True)
    return str(link_dir)


def tree_helper(tree: Path, scratch: Path) -> Helper:
    """The benchmark's server importing ``neveryu`` from ``tree``."""
    return Helper("scripts.benchmarks.neveryu_server", first_path=tree_path(tree, scratch))


def capacity_rounds(trees: list[Path], scratch: Path, clients: int, seconds: float, rounds: int) -> None:
    """The capacity step at ``clients`` for each tree in turn (the order reversed every other
    round), ``rounds`` times; prints each step's server CPU per action and p99."""
    paths = {str(t): tree_path(t, scratch) for t in trees}
    names = list(paths)
    for r in range(rounds):
        for k in names if r % 2 == 0 else names[::-1]:
            res = capacity.step(clients, seconds, first_path=paths[k])
            print(
                f"capacity {clients} round {r + 1} {k:24} server CPU per action"
                f" {res['server_cpu_us_per_action']} µs  p99 {res['p99_ms']} ms"
                f"  seated {res['seated']}  dropped {res['dropped']}  load {os.getloadavg()[0]:.2f}",
                flush=True,
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--samples", type=int, default=400, help="per block")
    p.add_argument("--clients", type=int, default=0, help="then the capacity step at this many clients")
    p.add_argument("--capacity-rounds", type=int, default=3)
    p.add_argument("--capacity-seconds", type=float, default=20.0)
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
    if args.clients:
        with tempfile.TemporaryDirectory() as scratch:
            capacity_rounds(
                args.trees, Path(scratch), args.clients, args.capacity_seconds, args.capacity_rounds
            )


if __name__ == "__main__":
    main()
