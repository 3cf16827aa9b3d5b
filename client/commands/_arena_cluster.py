"""The arena's tasks on a Dask ``distributed`` cluster (``neveryu arena --scheduler ADDRESS``), for
a run that outgrows one machine: an optional extra (``pip install 'neveryu[cluster]'``), needed on
the machine that runs the command and on every worker, each with the same neveryu installed.

A task is a call of ``arena.play_groups`` (a few duplicate groups), a pure function of the run's
seed, so a run on a cluster gives the figures of the same command on one machine. The results are
taken in the order of the tasks, with a bounded number submitted ahead, as the process pool's.
"""

from __future__ import annotations

import importlib
import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from neveryu.engine.arena import Played

CONNECT_S = 10.0
"""How long to wait for the scheduler, in seconds."""


class ClusterError(Exception):
    """The cluster cannot be used: the extra is not installed, or the scheduler is unreachable."""


def results(
    address: str, play: Callable[..., list[Played]], calls: Iterable[tuple[Any, ...]], ahead: int
) -> Iterator[list[Played]]:
    """``play(*call)`` for each of ``calls``, run on the cluster whose scheduler is at
    ``address``, in the order of ``calls``; ``ahead``: tasks submitted per worker thread ahead of
    the one waited for. Raises ClusterError (before any task) when it cannot connect; a task
    that fails raises its error here. Ctrl-C cancels the tasks submitted."""
    try:  # (untyped: the extra's API is used as documented, not checked by mypy)
        dask: Any = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("--scheduler needs the cluster extra: pip install 'neveryu[cluster]'") from None
    try:
        client = dask.Client(address, timeout=CONNECT_S, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the scheduler at {address}: {exc}") from None
    with client:
        threads = max(1, sum(client.nthreads().values()))
        todo = iter(calls)
        first = itertools.islice(todo, threads * ahead)
        pending = deque(client.submit(play, *call, pure=False) for call in first)
        try:
            while pending:
                future = pending.popleft()
                done: list[Played] = future.result()
                future.release()
                for call in todo:
                    pending.append(client.submit(play, *call, pure=False))
                    break
                yield done
        except KeyboardInterrupt:
            client.cancel(list(pending))
            raise
