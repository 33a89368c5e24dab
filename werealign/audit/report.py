"""The audit's result: checks with verdicts, and the rules that turn a rate into a verdict.

`rate_verdict` (a rate that should be at chance 1/9): fail when the rate is at least twice chance
and a one-sided binomial test gives p < .01; warn when it is at least 1.5 x chance with p < .05;
else pass. A check with too few items to say anything (fewer than `MIN_ITEMS`) is `skip`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from werealign.schema.models import OPTION_KEYS

CHANCE = 1 / len(OPTION_KEYS)
MIN_ITEMS = 18  # two expected answers per letter: below this a rate or a distribution says nothing
VERDICTS = ("pass", "warn", "fail", "skip")
_SEVERITY = {"skip": 0, "pass": 1, "warn": 2, "fail": 3}


@dataclass
class Check:
    name: str
    scope: str  # a dimension, or "all"
    verdict: str
    value: float | None  # the headline number the verdict is about (a rate or a p-value)
    n: int
    detail: str
    examples: list[str] = field(default_factory=list)  # item ids that triggered the check

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AuditReport:
    dataset: str
    items: int
    checks: list[Check]
    # scope -> the n-grams that most separate keys from distractors: [{"ngram", "weight", "side"}]
    artifacts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # item id -> {"artifact_score": P(cross-fitted options-only attack picks the key), "context_score": P(the learned
    # context attack picks it), "context_best_score": P(the strongest context attack picks it), "ensemble_score": the
    # learned ensemble's highest member probability of the key, "ensemble_hit": its pick is the key, "leaks", "future"}
    item_scores: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        return max((c.verdict for c in self.checks), key=_SEVERITY.__getitem__, default="skip")

    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.verdict == "fail"]

    def find(self, name: str, scope: str = "all") -> Check:
        return next(c for c in self.checks if c.name == name and c.scope == scope)

    def to_dict(self) -> dict[str, Any]:
        counts = Counter(c.verdict for c in self.checks)
        return {
            "dataset": self.dataset,
            "items": self.items,
            "verdict": self.verdict,
            "summary": {v: counts.get(v, 0) for v in VERDICTS},
            "checks": [c.to_dict() for c in self.checks],
            "artifacts": self.artifacts,
            "item_scores": self.item_scores,
        }


def binom_p(successes: float, n: int, p: float) -> float:
    from scipy.stats import binomtest

    return float(binomtest(round(successes), n, p, alternative="greater").pvalue)


def rate_verdict(rate: float, n: int, successes: float) -> tuple[str, float]:
    p = binom_p(successes, n, CHANCE)
    if rate >= 2 * CHANCE and p < 0.01:
        return "fail", p
    if rate >= 1.5 * CHANCE and p < 0.05:
        return "warn", p
    return "pass", p


def skip(name: str, scope: str, n: int, why: str = "") -> Check:
    return Check(name, scope, "skip", None, n, why or f"{n} items; at least {MIN_ITEMS} needed")
