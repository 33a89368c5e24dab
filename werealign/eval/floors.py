"""Floors: what chance and the built-in shortcut models score on a run's own items and prompts.

A score means little without them: on the WereBench release the longest option answers 0.46 of PS
items, naming every candidate scores an OI Jaccard above random, and a voter's own last call answered
VA before the decision-point view. So every results.json block carries `floors`, in the block's own
metric (the task's primary metric in the run's mode):

- `chance`: the expected score of `werealign/random`'s policy (a uniform option or candidate; for OI
  each candidate named with probability 1/2, one uniform candidate when none is; in OI mode `roles` a
  uniform card of the game's card list per seat), computed exactly;
- `shortcuts`: each shortcut model of the task in the run's mode (`werealign.tasks.scorer.Scorer.shortcuts`; a
  mode that asks its own question has its own: majority-role and longest in OI mode `roles`) asked every
  prompt of the run, every decode's (the option order differs per decode, and a shortcut breaking a tie by
  position answers differently: a floor of the first decode alone sat 1.1 points above werealign/longest's own
  score over five decodes on the release), its replies parsed and scored by the task exactly like a model's. The
  shortcut models see only the item as its prompt shows it, so a floor is what the prompts themselves give away;
- `majority-key` (single-answer kinds without options: VA and the decision kinds): the share of the most common key;
  at or above werealign.tasks.common.NON_DISCRIMINATING the kind cannot discriminate and no headline takes it;
- a task's `truth_floors`: OI (set modes) has `revealed-wolves`, naming exactly the seats that showed
  themselves wolves in public by the cut-off (a self-destruct is a public event every prompt shows), so an OI
  score is read against what needs no inference at all. VA's floors include `lexical` (the most-mentioned candidate).
  Speech has `context-attack`: the best of the audit's context attacks (werealign.shortcuts.context), cross-fitted over
  the run's items with games held out (dead seats named, overlap with the transcript and own words, style, clauses).

Pure computation (no model call, no I/O): re-scoring a run recomputes the same floors.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from werealign.eval.plan import Planned
from werealign.eval.samples import build_sample
from werealign.llm.builtin_models import PROVIDER, in_process_reply
from werealign.llm.store import StoredResponse
from werealign.tasks import TASKS, resolve_mode
from werealign.tasks.common import MAJORITY_KEY, majority_share, rounded
from werealign.tasks.scorer import Scorer


def run_floors(plan: Sequence[Planned], modes: dict[str, str]) -> dict[str, dict[str, dict[str, Any]]]:
    """variant -> task -> floors (werealign.schema.runs.Floors as a dict)."""
    every: dict[tuple[str, str], list[Planned]] = defaultdict(list)
    for p in plan:
        every[(p.variant, p.task)].append(p)
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for (variant, task_name), all_decodes in sorted(every.items()):
        ps = [p for p in all_decodes if p.decode == 0]  # chance and the truth floors do not depend on the option order
        task = TASKS[task_name]
        mode = resolve_mode(task, modes.get(task_name))
        metric = task.metric_for(mode)
        scorer = task.asked_in(mode).scorer
        shortcuts = {f"{PROVIDER}/{name}": _shortcut_score(name, all_decodes, metric, mode) for name in scorer.shortcuts}
        # floors that need the game's truth, not a prompt (OI: the publicly revealed wolves)
        shortcuts.update(scorer.truth_floors([(p.game, p.item) for p in ps], metric))
        if metric == "accuracy" and all(not hasattr(p.item, "options") and hasattr(p.item, "answer") for p in ps):
            # one key per item, no option letters: the most common key is a floor, and says when a kind cannot discriminate
            shortcuts[MAJORITY_KEY] = majority_share([p.item.answer for p in ps])
        chance = _chance(ps, metric, scorer)
        ranked = sorted([("chance", chance), *shortcuts.items()], key=lambda kv: -(kv[1] if kv[1] is not None else -1.0))
        best, best_score = ranked[0]
        out[variant][task_name] = {"metric": metric, "chance": chance, "shortcuts": shortcuts, "best": best, "best_score": best_score}
    return dict(out)


def _shortcut_score(name: str, plan: Sequence[Planned], metric: str, mode: str | None) -> float | None:
    rows = []
    replies: dict[tuple, str] = {}  # a shortcut reads the prompt, so decodes showing the same option order share a reply
    for p in plan:
        shown = (p.variant, p.item.item_id, tuple(p.option_order) if p.option_order is not None else None)
        if shown not in replies:
            replies[shown] = in_process_reply(f"{PROVIDER}/{name}", p.state())
        reply = replies[shown]
        stored = StoredResponse(key=p.key, request={}, status="ok", response=reply, usage=None, cost=None, latency=None,
                                error_class=None, error_message=None, attempts=1)
        rows.append(build_sample(p, stored).model_dump(mode="json"))
    value = TASKS[plan[0].task].asked_in(mode).scorer.score(rows).get(metric)
    return value if isinstance(value, int | float) else None


def _chance(plan: Sequence[Planned], metric: str, scorer: Scorer) -> float | None:
    """The mean of the task's per-item chance (Scorer.chance): micro-averaged over the units of items that ask
    several (a seat each); a macro accuracy is averaged per dimension first. None when the task does not say what
    chance is."""
    if scorer.chance is None:
        return None
    units = [scorer.chance(p.item, metric, p.game) for p in plan]
    if any(n != 1 for _, n in units):
        total = sum(n for _, n in units)
        return rounded(sum(e for e, _ in units) / total) if total else None
    per_item = [e for e, _ in units]
    if metric == "macro_accuracy":
        by_dim: dict[str, list[float]] = defaultdict(list)
        for p, v in zip(plan, per_item):
            by_dim[p.item.dimension].append(v)
        return rounded(fmean(fmean(v) for v in by_dim.values())) if by_dim else None
    return rounded(fmean(per_item)) if per_item else None
