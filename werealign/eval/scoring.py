"""Scores from samples: pure functions, no I/O, no model, deterministic output.

A *sample* is one row of samples.jsonl: one item x decode x variant, with the parsed answer and the gold.

Counting rules (the same for every task):
- a sample whose request finally failed (`request_error`) counts as WRONG in every headline score, over all
  samples (leaving it out would reward a model for failing on hard items), and is counted under
  `request_errors`; every headline has an `*_answered` twin over answered samples only, and `coverage`
  (answered / samples) says how far apart the two may be. `complete` is false when any sample is missing or failed;
- a reply that cannot be parsed strictly (`parse_error`) counts as wrong and is also counted under
  `parse_failures`.

Each task's own scores come from its module in werealign/tasks/ (summarised here):
Speech (9-way MCQ): accuracy per dimension = correct / answered; `macro_accuracy` = unweighted mean over
the dimensions present; `macro_accuracy_std` = population standard deviation (ddof=0) of the per-decode
macro accuracies (decode run d = every sample with decode index d), null with fewer than two decodes.
VA: exact match of the seat with the human's vote; same std over decode runs.
OI (primary metric `mean_jaccard`): for each sample, Jaccard |P ∩ G| / |P ∪ G| between the predicted seat
set P and the true opposing faction G (0 for a parse failure), averaged over samples. Alternatives reported
beside it: `exact_match` (P == G), `precision`/`recall`/`f1` macro-averaged over samples (precision of an
empty prediction = 0), and `micro_precision`/`micro_recall`/`micro_f1` from summed counts.
Breakdowns by the viewpoint player's true role: the mean per-sample score of that role's answered samples
(speech: accuracy pooled over the dimensions, not a macro average, since a role rarely has items of every
dimension; VA: accuracy; OI: mean Jaccard); observer speech items (no viewpoint seat, public information
only) are grouped under "observer".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from werealign.tasks import TASKS, resolve_mode
from werealign.tasks.common import OBSERVER_ROLE, correct_value, counts, rounded  # noqa: F401 (OBSERVER_ROLE: leaderboards)
from werealign.tasks.values import primary_value  # noqa: F401 - its home is werealign.tasks (leaderboards read it too)

Sample = dict[str, Any]


def usage_totals(samples: Sequence[Sample]) -> dict[str, Any]:
    """Tokens summed over answered samples; cost only when litellm knew the price of every one."""
    answered = [s for s in samples if not s["request_error"]]
    costs = [s["cost"] for s in answered]
    known = [c for c in costs if c is not None]
    return {
        "prompt_tokens": sum(s.get("prompt_tokens") or 0 for s in answered),
        "completion_tokens": sum(s.get("completion_tokens") or 0 for s in answered),
        "cost_usd": rounded(sum(known)) if answered and len(known) == len(costs) else None,
        "cost_known_for": len(known),
        **cache_totals(answered),
    }


def cache_totals(answered: Sequence[Sample]) -> dict[str, Any]:
    """Prompt-cache reads summed, and their saving (None unless every sample that read the cache is priced)."""
    hit = [s for s in answered if s.get("cached_tokens")]
    savings = [s.get("cache_saving_usd") for s in hit]
    return {
        "cached_prompt_tokens": sum(s["cached_tokens"] for s in hit),
        "cache_saving_usd": rounded(sum(savings)) if hit and None not in savings else None,
    }


def score_samples(
    samples: Sequence[Sample],
    *,
    planned: int | None = None,
    modes: dict[str, str] | None = None,
    floors: dict[str, dict[str, dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """results.json content (without the run configuration): per variant, per task (registry order).

    `modes`: the run's task modes (a mode may change a task's headline metric); `floors`: variant -> task ->
    floors (werealign.eval.floors), attached to the matching blocks."""
    variants: dict[str, dict[str, Any]] = {}
    for variant in sorted({s["variant"] for s in samples}):
        vs = [s for s in samples if s["variant"] == variant]
        variants[variant] = {}
        for name, task in TASKS.items():
            if not any(s["task"] == name for s in vs):
                continue
            mode = resolve_mode(task, (modes or {}).get(name))
            block = task.asked_in(mode).scorer.score([s for s in vs if s["task"] == name])
            block["metric"] = task.metric_for(mode)
            if floors and name in floors.get(variant, {}):
                block["floors"] = floors[variant][name]
            variants[variant][name] = _checked(name, block)
    from werealign.eval.context_gain import context_gain_block
    from werealign.eval.estimation import estimation_block

    totals = counts(samples)
    missing = (planned - len(samples)) if planned is not None else 0
    # Replies the provider cut at max_tokens: usually why a reasoning model "fails to parse".
    truncated = sum(1 for s in samples if s.get("finish_reason") == "length")
    return {
        "complete": totals["request_errors"] == 0 and missing == 0,
        "totals": {**totals, "missing": missing, "truncated_replies": truncated, **budget_totals(samples)},
        "usage": usage_totals(samples),
        "variants": variants,
        "context_gain": context_gain_block(samples, modes),
        "estimation": estimation_block(samples),
    }


def budget_totals(samples: Sequence[Sample]) -> dict[str, int]:
    """What the context budget cut (werealign.eval.context_budget); nothing when it cut nothing."""
    from werealign.eval.context_budget import OVER_BUDGET_ERROR

    cut = [s.get("turns_cut") or 0 for s in samples]
    over = sum(1 for s in samples if (s["request_error"] or "").startswith(OVER_BUDGET_ERROR))
    found = {"turns_cut": sum(cut), "samples_cut": sum(1 for c in cut if c), "over_budget": over}
    return {k: v for k, v in found.items() if v}


def _checked(task: str, block: dict[str, Any]) -> dict[str, Any]:
    """A task's score block as results.json needs it: another package's kind gets a message naming what its
    `score` left out, never a wall of union errors when the results are written."""
    from pydantic import ValidationError

    from werealign.schema.runs import TaskScores

    try:
        TaskScores.model_validate(block)
    except ValidationError as e:
        first = e.errors()[0]
        raise TypeError(f"task {task}: its score() block is not a results.json TaskScores: "
                        f"{'.'.join(map(str, first['loc'])) or '(block)'}: {first['msg']}") from None
    return block
