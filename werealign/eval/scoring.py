"""Scores from samples: pure functions, no I/O, no model, deterministic output.

A *sample* is one row of samples.jsonl: one item x decode x variant, with the parsed answer and the gold.

Counting rules (the same for every task):
- a sample whose request finally failed (`request_error`) is left out of every score and counted under
  `request_errors`: it says nothing about the model. `complete` is false when any sample is missing or failed;
- a reply that cannot be parsed strictly (`parse_error`) counts as wrong and is also counted under
  `parse_failures`.

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

from collections import defaultdict
from collections.abc import Iterable, Sequence
from statistics import fmean, pstdev
from typing import Any

from werealign.schema.models import DIMENSIONS

OBSERVER_ROLE = "observer"  # the by-role group of items asked from no seat (viewpoint_seat null)

TASKS: tuple[str, ...] = ("speech", "vote", "opponent")
Sample = dict[str, Any]


def is_correct(task: str, answer: Any, gold: Any) -> bool:
    if answer is None:
        return False
    if task == "opponent":
        return sorted(answer) == sorted(gold)
    return answer == gold


def set_scores(pred: Sequence[int] | None, gold: Sequence[int]) -> dict[str, float]:
    """Per-sample set agreement for OI; a parse failure (None) is an empty prediction."""
    p, g = set(pred or ()), set(gold)
    inter = len(p & g)
    union = len(p | g)
    precision = inter / len(p) if p else 0.0
    recall = inter / len(g) if g else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "jaccard": inter / union if union else 1.0,
        "exact": float(p == g),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "tp": inter,
        "n_pred": len(p),
        "n_gold": len(g),
    }


def primary_value(sample: Sample) -> float:
    if sample["task"] == "opponent":
        return set_scores(sample["answer"], sample["gold"])["jaccard"]
    return 1.0 if sample["correct"] else 0.0


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _counts(samples: Sequence[Sample]) -> dict[str, int]:
    return {
        "samples": len(samples),
        "answered": sum(1 for s in samples if not s["request_error"]),
        "request_errors": sum(1 for s in samples if s["request_error"]),
        "parse_failures": sum(1 for s in samples if not s["request_error"] and s["parse_error"]),
        "items": len({s["item_id"] for s in samples}),
    }


def _mean_primary(samples: Iterable[Sample]) -> float | None:
    vals = [primary_value(s) for s in samples if not s["request_error"]]
    return fmean(vals) if vals else None


def _by_role(samples: Sequence[Sample]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        observer = "viewpoint_seat" in s and s["viewpoint_seat"] is None
        groups[s.get("viewpoint_role") or (OBSERVER_ROLE if observer else "unknown")].append(s)
    return {role: {"score": _r(_mean_primary(g)), "answered": _counts(g)["answered"]} for role, g in sorted(groups.items())}


def _decode_std(samples: Sequence[Sample], score_fn) -> tuple[list[float | None], float | None]:
    by_decode: dict[int, list[Sample]] = defaultdict(list)
    for s in samples:
        by_decode[s["decode"]].append(s)
    per = [score_fn(by_decode[d]) for d in sorted(by_decode)]
    known = [p for p in per if p is not None]
    return [_r(p) for p in per], (_r(pstdev(known)) if len(known) >= 2 else None)


def _macro(samples: Sequence[Sample]) -> float | None:
    dims: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        dims[s["dimension"]].append(s)
    accs = [a for a in (_mean_primary(dims[d]) for d in DIMENSIONS if d in dims) if a is not None]
    return fmean(accs) if accs else None


def score_speech(samples: Sequence[Sample]) -> dict[str, Any]:
    by_dim: dict[str, Any] = {}
    for dim in DIMENSIONS:
        group = [s for s in samples if s["dimension"] == dim]
        if group:
            by_dim[dim] = {"accuracy": _r(_mean_primary(group)), **_counts(group)}
    per_decode, std = _decode_std(samples, _macro)
    return {
        "metric": "macro_accuracy",
        "macro_accuracy": _r(_macro(samples)),
        "macro_accuracy_std": std,
        "per_decode_macro_accuracy": per_decode,
        "accuracy": _r(_mean_primary(samples)),
        "by_dimension": by_dim,
        "by_viewpoint_role": _by_role(samples),
        **_counts(samples),
    }


def score_vote(samples: Sequence[Sample]) -> dict[str, Any]:
    per_decode, std = _decode_std(samples, _mean_primary)
    return {
        "metric": "accuracy",
        "accuracy": _r(_mean_primary(samples)),
        "accuracy_std": std,
        "per_decode_accuracy": per_decode,
        "by_viewpoint_role": _by_role(samples),
        **_counts(samples),
    }


def score_opponent(samples: Sequence[Sample]) -> dict[str, Any]:
    answered = [s for s in samples if not s["request_error"]]
    per = [set_scores(s["answer"], s["gold"]) for s in answered]
    tp = sum(p["tp"] for p in per)
    n_pred = sum(p["n_pred"] for p in per)
    n_gold = sum(p["n_gold"] for p in per)
    micro_p = tp / n_pred if n_pred else 0.0
    micro_r = tp / n_gold if n_gold else 0.0
    per_decode, std = _decode_std(samples, _mean_primary)

    def avg(field: str) -> float | None:
        return _r(fmean(p[field] for p in per)) if per else None

    return {
        "metric": "mean_jaccard",
        "mean_jaccard": avg("jaccard"),
        "mean_jaccard_std": std,
        "per_decode_mean_jaccard": per_decode,
        "exact_match": avg("exact"),
        "precision": avg("precision"),
        "recall": avg("recall"),
        "f1": avg("f1"),
        "micro_precision": _r(micro_p) if per else None,
        "micro_recall": _r(micro_r) if per else None,
        "micro_f1": _r(2 * micro_p * micro_r / (micro_p + micro_r) if micro_p + micro_r else 0.0) if per else None,
        "by_viewpoint_role": _by_role(samples),
        **_counts(samples),
    }


SCORERS = {"speech": score_speech, "vote": score_vote, "opponent": score_opponent}


def usage_totals(samples: Sequence[Sample]) -> dict[str, Any]:
    """Tokens summed over answered samples; cost only when litellm knew the price of every one."""
    answered = [s for s in samples if not s["request_error"]]
    costs = [s["cost"] for s in answered]
    known = [c for c in costs if c is not None]
    return {
        "prompt_tokens": sum(s.get("prompt_tokens") or 0 for s in answered),
        "completion_tokens": sum(s.get("completion_tokens") or 0 for s in answered),
        "cost_usd": _r(sum(known)) if answered and len(known) == len(costs) else None,
        "cost_known_for": len(known),
    }


def score_samples(samples: Sequence[Sample], *, planned: int | None = None) -> dict[str, Any]:
    """results.json content (without the run configuration): per variant, per task."""
    variants: dict[str, dict[str, Any]] = {}
    for variant in sorted({s["variant"] for s in samples}):
        vs = [s for s in samples if s["variant"] == variant]
        variants[variant] = {task: SCORERS[task]([s for s in vs if s["task"] == task]) for task in TASKS if any(s["task"] == task for s in vs)}
    totals = _counts(samples)
    missing = (planned - len(samples)) if planned is not None else 0
    # Replies the provider cut at max_tokens: usually why a reasoning model "fails to parse".
    truncated = sum(1 for s in samples if s.get("finish_reason") == "length")
    return {
        "complete": totals["request_errors"] == 0 and missing == 0,
        "totals": {**totals, "missing": missing, "truncated_replies": truncated},
        "usage": usage_totals(samples),
        "variants": variants,
    }
