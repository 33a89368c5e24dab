"""Context gain: how much a model's score owes to the game (issue 19). Base minus no-context, with a 95% interval.

An item that a model answers as well without the game (no transcript, no public events: the no-context
variant) measures something other than judgment about the game, so every run that asks both variants
reports the difference, per task, per speech dimension and for the speech macro average.

The interval is a cluster bootstrap over games (items of one game share its transcript, so they are not
independent), the one in `werealign.stats.bootstrap`, never a second copy:
- paired protocol (every item asked in both variants): a PAIRED bootstrap on the items answered in both,
  the games drawn once for both variants so that game-to-game difficulty cancels
  (`stats.compare`, common items);
- randomized protocol (one variant per item, seeded): no item is asked both ways, so the two means are
  over different items. The estimate is unpaired by items: the games are still drawn once for both
  variants (both arms' items come from the same games, and a game's items move together), but all of each
  arm's items are kept, so item-to-item variation widens the interval as it should.
Decodes are drawn separately per variant (each variant's decodes are independent requests).
Only answered samples count (a failed request says nothing about the model), as on the leaderboard.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from werealign.schema import DIMENSIONS
from werealign.tasks import TASKS, resolve_mode
from werealign.stats.gain import AGAINST, BASE, gain  # noqa: F401 - BASE/AGAINST: the summary's readers
from werealign.tasks.common import correct_value, rounded

RESAMPLES = 2000
SEED = 0  # the bootstrap's own seed: results.json is byte-identical on every rescoring

Sample = dict[str, Any]


def _observations(samples: Sequence[Sample], value: Callable[[Sample], float]) -> list[Any]:
    from werealign.stats.observation import Observation

    return [Observation(task=s["task"], variant=s["variant"], item_id=s["item_id"], game_id=s["game_id"],
                        dimension=s.get("dimension"), role=s.get("viewpoint_role") or "", decode=s["decode"],
                        value=float(value(s)))
            for s in samples if not s["request_error"]]


def _estimate(base: list[Any], bare: list[Any], seed_parts: tuple, group_of=None) -> dict[str, Any] | None:
    from werealign.stats import bootstrap as stats

    found = gain(base, bare, seed=stats.derived_seed(SEED, "context_gain", *seed_parts), group_of=group_of)
    if found is None:
        return None
    c, design = found
    common = {o.item_id for o in base} & {o.item_id for o in bare}
    used = [o for o in base + bare if design == "unpaired" or o.item_id in common]
    return {"gain": rounded(c.difference), "low": rounded(c.low), "high": rounded(c.high), "above_zero": c.low > 0 and c.significant,
            "p_value": rounded(c.p_value), "design": design,
            "items": len({o.item_id for o in used}), "games": len({o.game_id for o in used})}


def _metric_and_value(task_name: str, mode: str | None) -> tuple[str, Callable[[Sample], float]]:
    """The per-sample value whose mean the gain is taken of, and its name."""
    from werealign.tasks.values import primary_value

    metric = TASKS[task_name].metric_for(mode)
    if metric == "exact_match":
        return metric, correct_value
    if metric == "role_accuracy":  # a per-seat micro average has no per-sample mean; this is its macro twin
        return "mean_item_role_accuracy", primary_value
    return metric, primary_value


def context_gain_block(samples: Sequence[Sample], modes: dict[str, str] | None = None) -> dict[str, Any] | None:
    """results.json `context_gain` (werealign.schema.runs.ContextGain as a dict), or None unless both variants ran."""
    variants = {s["variant"] for s in samples}
    if not {BASE, AGAINST} <= variants:
        return None
    tasks: dict[str, Any] = {}
    for name, task in TASKS.items():
        of_task = [s for s in samples if s["task"] == name]
        metric, value = _metric_and_value(name, resolve_mode(task, (modes or {}).get(name)))
        base = _observations([s for s in of_task if s["variant"] == BASE], value)
        bare = _observations([s for s in of_task if s["variant"] == AGAINST], value)
        dims = [d for d in dict.fromkeys([*DIMENSIONS, *sorted({o.dimension for o in base if o.dimension})])
                if any(o.dimension == d for o in base)]
        block = _estimate(base, bare, (name,), group_of=(lambda o: o.dimension) if dims else None)
        if block is None:
            continue
        by_dim = {}
        for d in dims:
            est = _estimate([o for o in base if o.dimension == d], [o for o in bare if o.dimension == d], (name, d))
            if est is not None:
                by_dim[d] = est
        tasks[name] = {"metric": metric, **block, "by_dimension": by_dim}
    if not tasks:
        return None
    return {"against": AGAINST, "resamples": RESAMPLES, "tasks": tasks}
