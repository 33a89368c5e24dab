"""Fewer garbage collections for a process that holds a whole dataset in memory.

CPython starts a collection after every 700 net new container objects, and each older-generation collection walks
every live object. A command that has loaded the release (tens of thousands of turns, items and parsed JSON nodes)
then spends a good share of its CPU re-walking objects that are not garbage: `werealign audit` of the release spent
2.1 s of ~20 s in the collector, in 3,235 collections (BENCHMARKS.md, "garbage collector"). The young generation is
collected after 100,000 allocations instead: 82 collections. Cycles are still collected, later; memory grows by at
most the garbage those allocations leave. Nothing is frozen here: eval freezes what lives for a run, and unfreezes it
(werealign.eval.runner._long_lived).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 100_000


def collect_less() -> None:
    """Raise the young generation's threshold (the older generations' ratios kept). Idempotent."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
