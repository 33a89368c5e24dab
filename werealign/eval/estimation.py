"""results.json `estimation`: how well a solver's role estimates match the truth (Strategy Adaptation's Est).

A solver that estimates roles records a python step named `estimation` whose output is JSON with
`correct` and `total` (seats guessed right, seats estimated) -- werealign.solvers.agents' `sa` does.
Its score is the share of estimated seats right, per sample, averaged with the task scores' cluster
bootstrap over games; `by_role` splits it by the viewpoint's true role (the paper's per-role table).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from werealign.tasks.common import rounded

STEP = "estimation"
SEED = 0


def _read(sample: dict[str, Any]) -> tuple[int, int] | None:
    for step in sample.get("steps") or ():
        if step.get("name") == STEP and step.get("kind") == "python" and step.get("output"):
            try:
                data = json.loads(step["output"])
                return int(data["correct"]), int(data["total"])
            except (ValueError, KeyError, TypeError):
                return None
    return None


def estimation_block(samples: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """{accuracy, low, high, samples, seats, games, by_role}; None when no sample estimated roles."""
    from werealign.stats.observation import Observation

    obs, seats, by_role = [], 0, {}
    for s in samples:
        read = _read(s)
        if read is None or read[1] == 0:
            continue
        correct, total = read
        seats += total
        role = s.get("viewpoint_role") or "observer"
        by_role.setdefault(role, []).append(correct / total)
        obs.append(Observation(task=s["task"], variant=s["variant"], item_id=s["item_id"], game_id=s["game_id"],
                               dimension=s.get("dimension"), role=role, decode=s["decode"], value=correct / total))
    if not obs:
        return None
    from werealign.stats import bootstrap as stats  # numpy (~70 ms): only when some sample estimated roles

    est = stats.estimate(obs, seed=stats.derived_seed(SEED, "estimation"))
    return {"accuracy": rounded(est.value), "low": rounded(est.low), "high": rounded(est.high), "samples": len(obs),
            "seats": seats, "games": est.games, "by_role": {r: rounded(sum(v) / len(v)) for r, v in sorted(by_role.items())}}
