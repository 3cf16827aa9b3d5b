"""The cyclic garbage collector, set for a process that serves (``neveryu serve`` calls ``settle``
once its server listens; a library user's process is left as it is).

A server holds many long-lived objects (each connection's tasks, streams and cancel scopes; each
table's deal) and makes many short-lived ones for every action. With CPython's defaults its
generational collector then pauses the server for long: every full collection scans again what
was loaded at start (modules, classes, functions), which is never garbage; and collecting the
youngest generation every 700 allocations (a few actions) promotes objects that live a few
hundred milliseconds (a task waiting for its client's next request) to the oldest generation,
whose growth is what triggers full collections. ``settle`` changes when cycles are looked for,
never what is found: nothing that is garbage stays alive for more than a collection longer.
"""

from __future__ import annotations

import functools
import gc

YOUNG_THRESHOLD = 10_000  # allocations between collections of the youngest generation (CPython: 700)


@functools.cache
def settle() -> None:
    """Once per process, when it serves: collect, then freeze what is alive
    (``gc.freeze``: no later collection scans it), and collect the youngest generation every
    ``YOUNG_THRESHOLD`` allocations (the older generations' thresholds are kept)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
