"""One sample's score: its contribution to its task's default headline (the per-item statistic).

Written into every samples.jsonl row (`score`) so that the leaderboard and `werealign score` read the
same number; here for rows written before that field existed.
"""

from __future__ import annotations

from typing import Any


def primary_value(sample: dict[str, Any]) -> float:
    """A failed request scores 0, like a wrong answer (the headline counts it as wrong too)."""
    from werealign.tasks.common import correct_value
    from werealign.tasks.opponent import jaccard, role_value

    if sample.get("request_error"):
        return 0.0
    if sample["task"] == "opponent":
        # OI mode `roles` records a seat -> role gold: the share of seats labelled right.
        return role_value(sample) if isinstance(sample["gold"], dict) else jaccard(sample)
    return correct_value(sample)
