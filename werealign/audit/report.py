"""The audit's result: every check with its verdict (werealign.shortcuts.verdicts), the artifact n-grams and each
item's scores."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from werealign.shortcuts.verdicts import VERDICTS, Check

_SEVERITY = {"skip": 0, "pass": 1, "warn": 2, "fail": 3}


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
    # the context attacks the checks read (werealign.shortcuts.context.ContextAttacks), over the audited items: the
    # filtered split's verify reads them instead of fitting them again (not part of the report's JSON)
    context: Any = field(default=None, repr=False, compare=False)

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
