"""Scoring pieces every task shares (counting rules: werealign.eval.scoring)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from statistics import fmean, pstdev
from typing import Any

from werealign.tasks.scorer import Sample, correct_value  # noqa: F401 - correct_value: shared by the kinds

OBSERVER_ROLE = "observer"  # the by-role group of items asked from no seat (viewpoint_seat null)
# The floor of answering every item with the kind's most common key (issue 45): a kind whose keys are one value,
# or nearly, cannot tell models apart, and the leaderboards keep it out of every headline (werealign.leaderboards).
MAJORITY_KEY = "majority-key"
NON_DISCRIMINATING = 0.9  # a majority-key floor at or above this: the kind cannot discriminate


def majority_share(answers: Sequence[Any]) -> float | None:
    """The share of the most common answer (lists read as sets), None without answers."""
    from collections import Counter

    keys = Counter(tuple(sorted(a)) if isinstance(a, list) else a for a in answers)
    return rounded(max(keys.values()) / len(answers)) if answers else None

Value = Callable[[Sample], float]


def rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def counts(samples: Sequence[Sample]) -> dict[str, int]:
    return {
        "samples": len(samples),
        "answered": sum(1 for s in samples if not s["request_error"]),
        "request_errors": sum(1 for s in samples if s["request_error"]),
        "parse_failures": sum(1 for s in samples if not s["request_error"] and s["parse_error"]),
        "items": len({s["item_id"] for s in samples}),
        # Share of samples with a readable answer: a reply that cannot be parsed answers nothing.
        "coverage": rounded(sum(1 for s in samples if not s["request_error"] and not s["parse_error"]) / len(samples)) if samples else None,
    }


def mean_value(samples: Iterable[Sample], value: Value) -> float | None:
    """The headline: over ALL samples, a failed request counting as wrong (0), like an unparsable reply."""
    vals = [0.0 if s["request_error"] else value(s) for s in samples]
    return fmean(vals) if vals else None


def mean_answered(samples: Iterable[Sample], value: Value) -> float | None:
    """The same over answered samples only (reported beside the headline, never instead of it)."""
    vals = [value(s) for s in samples if not s["request_error"]]
    return fmean(vals) if vals else None


def by_role(samples: Sequence[Sample], value: Value) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        observer = "viewpoint_seat" in s and s["viewpoint_seat"] is None
        groups[s.get("viewpoint_role") or (OBSERVER_ROLE if observer else "unknown")].append(s)
    return {role: {"score": rounded(mean_value(g, value)), "answered": counts(g)["answered"]} for role, g in sorted(groups.items())}


def decode_std(samples: Sequence[Sample], score_fn: Callable[[Sequence[Sample]], float | None]) -> tuple[list[float | None], float | None]:
    """Per-decode scores (decode run d = every sample with decode index d) and their population std."""
    by_decode: dict[int, list[Sample]] = defaultdict(list)
    for s in samples:
        by_decode[s["decode"]].append(s)
    per = [score_fn(by_decode[d]) for d in sorted(by_decode)]
    known = [p for p in per if p is not None]
    return [rounded(p) for p in per], (rounded(pstdev(known)) if len(known) >= 2 else None)
