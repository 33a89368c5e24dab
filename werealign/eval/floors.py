"""Floors: what chance and the built-in shortcut models score on a run's own items and prompts.

A score means little without them: on the WereBench release the longest option answers 0.46 of PS
items, naming every candidate scores an OI Jaccard above random, and a voter's own last call answered
VA before the decision-point view. So every results.json block carries `floors`, in the block's own
metric (the task's primary metric in the run's mode):

- `chance`: the expected score of `werealign/random`'s policy (a uniform option or candidate; for OI
  each candidate named with probability 1/2, one uniform candidate when none is; in OI mode `roles` a
  uniform card of the game's card list per seat), computed exactly;
- `shortcuts`: each shortcut model of the task (`werealign.tasks.base.Task.shortcuts`, or those of a
  mode that asks its own question, `Ask.shortcuts`: majority-role and longest in OI mode `roles`) asked the
  run's first-decode prompts, its replies parsed and scored by the task exactly like a model's. The
  shortcut models read only the messages, so a floor is what the prompts themselves give away;
- OI (set modes) also `revealed-wolves`: naming exactly the seats that showed themselves wolves in public
  by the cut-off (a self-destruct is a public event every prompt shows), so an OI score is read against
  what needs no inference at all. VA's floors include `lexical` (the most-mentioned candidate).

Pure computation (no model call, no I/O): re-scoring a run recomputes the same floors.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from math import comb
from statistics import fmean
from typing import Any

from werealign.eval.plan import Planned
from werealign.eval.samples import build_sample
from werealign.llm.builtin_models import PROVIDER, baseline_reply
from werealign.llm.store import StoredResponse
from werealign.schema import GameLog
from werealign.tasks import TASKS, resolve_mode
from werealign.tasks.common import rounded


def run_floors(plan: Sequence[Planned], modes: dict[str, str]) -> dict[str, dict[str, dict[str, Any]]]:
    """variant -> task -> floors (werealign.schema.runs.Floors as a dict)."""
    first: dict[tuple[str, str], list[Planned]] = defaultdict(list)
    for p in plan:
        if p.decode == 0:
            first[(p.variant, p.task)].append(p)
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for (variant, task_name), ps in sorted(first.items()):
        task = TASKS[task_name]
        mode = resolve_mode(task, modes.get(task_name))
        metric = task.metric_for(mode)
        ask = task.asks.get(mode or "")
        shortcuts = {f"{PROVIDER}/{name}": _shortcut_score(name, ps, metric, mode) for name in (ask.shortcuts if ask else task.shortcuts)}
        if task_name == "opponent" and ask is None:
            shortcuts[REVEALED] = _revealed_wolves(ps, metric)
        if ask is not None:  # micro-averaged over the units (seats) of every item
            units = [ask.chance(p.game, p.item) for p in ps]
            total = sum(n for _, n in units)
            chance = rounded(sum(e for e, _ in units) / total) if total else None
        else:
            chance = _chance(ps, metric)
        ranked = sorted([("chance", chance), *shortcuts.items()], key=lambda kv: -(kv[1] if kv[1] is not None else -1.0))
        best, best_score = ranked[0]
        out[variant][task_name] = {"metric": metric, "chance": chance, "shortcuts": shortcuts, "best": best, "best_score": best_score}
    return dict(out)


REVEALED = "revealed-wolves"


def revealed_wolves(game: GameLog, cutoff: int) -> list[int]:
    """Seats whose self-destruct (a wolf's public act) everyone saw at or before the cut-off segment."""
    return sorted({int(e.actor) for e in game.events if e.kind == "self_destruct" and isinstance(e.actor, int)
                   and e.audience.kind == "everyone" and e.segment_id is not None and e.segment_id <= cutoff})


def _revealed_wolves(plan: Sequence[Planned], metric: str) -> float | None:
    """Mean score of naming only the publicly revealed wolves (nobody, when none is: score 0)."""
    per = []
    for p in plan:
        named = set(revealed_wolves(p.game, p.item.cutoff_segment)) & set(p.item.candidates)
        gold = set(p.item.answer)
        if metric == "exact_match":
            per.append(float(named == gold))
        else:
            per.append(len(named & gold) / len(named | gold) if named | gold else 1.0)
    return rounded(fmean(per)) if per else None


def _shortcut_score(name: str, plan: Sequence[Planned], metric: str, mode: str | None) -> float | None:
    rows = []
    for p in plan:
        reply = baseline_reply(name, p.view())
        stored = StoredResponse(key=p.key, request={}, status="ok", response=reply, usage=None, cost=None, latency=None,
                                error_class=None, error_message=None, attempts=1)
        rows.append(build_sample(p, stored).model_dump(mode="json"))
    task = TASKS[plan[0].task]
    ask = task.asks.get(mode or "")
    value = (ask.score if ask else task.score)(rows).get(metric)
    return value if isinstance(value, int | float) else None


def _chance(plan: Sequence[Planned], metric: str) -> float | None:
    task = plan[0].task
    if task == "opponent":
        per = [_random_subset(p.item.candidates, p.item.answer, metric) for p in plan]
        return rounded(fmean(per)) if per else None
    # A vote item that allows abstaining has one more answer than its candidates.
    per_item = [1 / len(p.item.options) if task == "speech" else 1 / (len(p.item.candidates) + getattr(p.item, "abstention_allowed", False))
                for p in plan]
    if metric == "macro_accuracy":
        by_dim: dict[str, list[float]] = defaultdict(list)
        for p, v in zip(plan, per_item):
            by_dim[p.item.dimension].append(v)
        return rounded(fmean(fmean(v) for v in by_dim.values())) if by_dim else None
    return rounded(fmean(per_item)) if per_item else None


def _random_subset(candidates: Sequence[int], gold: Sequence[int], metric: str) -> float:
    """Exact expected Jaccard (or exact match) of werealign/random's OI policy."""
    n, g = len(candidates), len(set(gold))
    g_in = len(set(gold) & set(candidates))
    total = 0.0
    for k in range(g_in + 1):  # gold seats named
        for j in range(n - g_in + 1):  # other seats named
            if k == 0 and j == 0:
                continue
            weight = comb(g_in, k) * comb(n - g_in, j) / 2**n
            total += weight * (k / (g + j) if metric != "exact_match" else float(k == g and j == 0))
    # Naming nobody is replaced by one uniform candidate.
    one = (g_in / n) * (1 / g if metric != "exact_match" else float(g == 1)) if n else 0.0
    return total + one / 2**n
