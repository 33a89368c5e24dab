"""One sample's score: its contribution to its task's default headline (the per-item statistic).

Written into every samples.jsonl row (`score`) so that the leaderboard and `werealign score` read the
same number; here for rows written before that field existed.
"""

from __future__ import annotations

from typing import Any


def primary_value(sample: dict[str, Any]) -> float:
    """A failed request scores 0, like a wrong answer (the headline counts it as wrong too); a kind no longer
    registered is read as right or wrong."""
    from werealign.tasks import TASKS
    from werealign.tasks.scorer import correct_value

    if sample.get("request_error"):
        return 0.0
    task = TASKS.get(sample["task"])
    return (task.scorer.sample_value if task is not None else correct_value)(sample)
