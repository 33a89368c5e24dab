"""Keep the candidate option set that puts its key where a random option sits (issue 43 must-have 1).

A generator that draws several candidate sets of nine options for one key (werealign.generation.minimal: grids of the
key's move changed; werealign.generation.human: other games' spans) weighs them here on every per-option statistic
the audit ranks (werealign.shortcuts.ensemble.STATS and the length's distance from the median,
werealign.shortcuts.exchange.RANKED). One candidate and one of its options are drawn; that option's rank range on
every statistic is the target, and the candidate whose key comes nearest to it on all of them together is kept
(`keep`). The target is a real option's ranks, so each statistic's target rank is uniform over moments, and the
statistics keep the joint shape real options have (independent targets per statistic would pull the key to the
middle of correlated ones). A key above (or below) every other option of every candidate on one statistic is
given away by it (`ends`): the generator gives no item there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from werealign.shortcuts.context import Shown
from werealign.shortcuts.ensemble import STATS, band_shares, text_stats
from werealign.shortcuts.exchange import RANKED, ranked_values
from werealign.text.similarity import mean_cosines

Range = tuple[int, int]  # (options strictly below, options at or below but itself): a rank range among the nine


def ranges(candidates: Sequence[Sequence[str]], shown: Shown, question: str = "",
           extra: Callable[[Sequence[str]], list[float]] | None = None) -> list[list[list[Range]]]:
    """Per candidate (its texts, the key first), per option, per statistic (RANKED, then `extra`'s column): its rank
    range. The statistics of a text alone are read once over every candidate's texts (the likeness to the talk with
    idf over them all: near the audit's, which fits it on one item's nine); those of a set (length band, centroid)
    per candidate."""
    universe = sorted({t for c in candidates for t in c})
    row = dict(zip(universe, text_stats(universe, shown, question)))
    band, centroid = STATS.index("band-share"), STATS.index("centroid")
    out = []
    for texts in candidates:
        rows = [list(row[t]) for t in texts]
        for r, b, c in zip(rows, band_shares([r[0] for r in rows]), mean_cosines(texts)):
            r[band], r[centroid] = b, round(c, 12)
        cols = list(ranked_values(rows).values())
        if extra is not None:
            cols.append(extra(texts))
        out.append([[(sum(v < c[i] for v in c), sum(v <= c[i] for v in c) - 1) for c in cols] for i in range(len(texts))])
    return out


def ends(found: Sequence[list[list[Range]]], names: Sequence[str] = RANKED) -> list[str]:
    """The statistics on which the key (option 0) is above, or below, every other option in every candidate."""
    if not found:
        return []
    top = len(found[0]) - 1
    return [names[s] for s in range(len(found[0][0]))
            if all(c[0][s][0] == top for c in found) or all(c[0][s][1] == 0 for c in found)]


def keep(found: Sequence[list[list[Range]]], rng: random.Random) -> tuple[int, int]:
    """(the candidate whose key, option 0, sits nearest, on every statistic together, to where one drawn option of one
    drawn candidate sits; how far it is, in rank steps summed over the statistics)."""
    ref = rng.choice(found)
    target = ref[rng.randrange(len(ref))]
    gaps = [sum(abs(a - x) + abs(b - y) for (a, b), (x, y) in zip(c[0], target)) for c in found]
    best = min(gaps)
    return rng.choice([n for n, gap in enumerate(gaps) if gap == best]), best
