"""The context gain as an estimate: base minus no-context on the same items, with its cluster-bootstrap interval.

Shared by results.json (werealign.eval.context_gain) and the leaderboard's table
(werealign.leaderboards.context_gain), so the two always compute the same number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

BASE, AGAINST = "base", "no-context"


def gain(base: Sequence[Any], bare: Sequence[Any], *, seed: int, resamples: int | None = None,
         group_of: Callable[[Any], object] | None = None) -> tuple[Any, str] | None:
    """(stats.Comparison of base - bare, design) on Observations (werealign.stats.observation); None when either side is empty.

    design: 'paired' when some item was asked both ways (the estimate is on those items), else 'unpaired'.
    `resamples`: default stats.DEFAULT_RESAMPLES."""
    if not base or not bare:
        return None
    # Imported here: stats needs numpy (~70 ms), and most evals (no no-context variant) never get this far.
    from werealign.stats import bootstrap as stats

    resamples = stats.DEFAULT_RESAMPLES if resamples is None else resamples
    paired = bool({o.item_id for o in base} & {o.item_id for o in bare})
    kw = {"group_of": group_of} if group_of is not None else {}
    found = stats.compare(base, bare, seed=seed, resamples=resamples, common_items=paired, **kw)
    return (found, "paired" if paired else "unpaired") if found is not None else None
