"""A check with its verdict, and the rules that turn a rate into a verdict (the audit's report, werealign.audit.report,
lists the checks).

`rate_verdict` (a rate that should be at chance 1/9): fail when the rate is at least twice chance
and a one-sided binomial test gives p < .01; warn when it is at least 1.5 x chance with p < .05;
else pass. A check with too few items to say anything (fewer than `MIN_ITEMS`) is `skip`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from werealign.schema.models import OPTION_KEYS

CHANCE = 1 / len(OPTION_KEYS)
MIN_ITEMS = 18  # two expected answers per letter: below this a rate or a distribution says nothing
VERDICTS = ("pass", "warn", "fail", "skip")


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
