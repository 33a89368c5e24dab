"""Fewer garbage collections for a process that holds a whole dataset in memory.

CPython starts a collection after every 700 net new container objects, and each older-generation collection walks
every live object. A command that has loaded the release (tens of thousands of turns, items and parsed JSON nodes)
then spends a quarter of its CPU re-walking objects that are not garbage: `werealign audit` of the release spent 5.9 s
of 23 s in the collector (BENCHMARKS.md, "garbage collector"). Objects alive at start-up (the imported modules) are
frozen out of every later walk, and the young generation is collected after 100,000 allocations instead of 700.
Cycles are still collected, later; memory grows by at most the garbage those allocations leave.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 100_000


def collect_less() -> None:
    """Freeze what is alive now (the interpreter's and the imported modules' objects) and raise the young generation's
    threshold. Idempotent; call once the imports are done (no collection first: the imports leave no garbage worth the
    45 ms a full one takes)."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
