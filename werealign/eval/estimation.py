"""results.json `estimation`: a solver's role estimates against the truth, as Strategy Adaptation scores them.

A solver that estimates roles records a python step named `estimation` whose output is JSON with
`by_seat`: seat -> {role: its true role, ratings: {role: 0-4}, acc} (werealign.solvers.sa does). The
paper's measures (Nakamori et al., eq. 1 and 2):

- Acc(i,j): rater i's rating of seat j's true role over the sum of i's ratings of j;
- Est(j): the mean of Acc(i,j) over the raters of j. Here a rater is a sample (an item's viewpoint at its
  cut-off, one decode), so Est(j) averages every sample that rated seat j of its game.

The block holds Acc's mean per sample (the mean over the seats it rated) with its 95% cluster-bootstrap
interval over games (the task scores' bootstrap); the same per viewpoint role (`by_role`); Est per target
role (`est_by_role`: how well each role is read, the paper's Est of the werewolves among them) with
intervals; Est per seat of every game (`by_seat`); and the strategies the samples chose (`strategies`).
A seat asked but not rated, or rated 0 on every role, has no Acc (`unrated`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from werealign.tasks.common import rounded

STEP = "estimation"
CHOICE_STEP = "choice"
SEED = 0


def _step(sample: dict[str, Any], name: str) -> dict[str, Any] | None:
    for step in sample.get("steps") or ():
        if step.get("name") == name and step.get("kind") == "python" and step.get("output"):
            try:
                data = json.loads(step["output"])
            except ValueError:
                return None
            return data if isinstance(data, dict) else None
    return None


def _ratings(sample: dict[str, Any]) -> tuple[dict[int, tuple[str | None, float]], int] | None:
    """Seat -> (true role, Acc) of the seats the sample rated, and how many it was asked; None: no estimation step."""
    data = _step(sample, STEP)
    if data is None or not isinstance(data.get("by_seat"), dict):
        return None  # not an estimating solver (or one of before the 0-4 scale: its share is another measure)
    rated = {int(seat): (v.get("role"), float(v["acc"])) for seat, v in data["by_seat"].items()
             if isinstance(v, dict) and isinstance(v.get("acc"), int | float)}
    return rated, int(data.get("seats", len(rated)))


def _interval(obs: list, what: str, key: str) -> dict[str, Any]:
    from werealign.stats import bootstrap as stats

    est = stats.estimate(obs, seed=stats.derived_seed(SEED, "estimation", what, key))
    return {"value": rounded(est.value), "low": rounded(est.low), "high": rounded(est.high), "samples": len(obs), "games": est.games}


def estimation_block(samples: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The `estimation` block (see the module docstring); None when no sample estimated roles."""
    from werealign.stats.observation import Observation

    per_sample, per_role, per_target = [], {}, {}
    by_seat: dict[str, dict[int, list[float]]] = {}
    truth: dict[tuple[str, int], str | None] = {}
    ratings = unrated = 0
    strategies: Counter[str] = Counter()
    for s in samples:
        read = _ratings(s)
        if read is None:
            continue
        choice = _step(s, CHOICE_STEP)
        strategies[str(choice.get("strategy") or "none") if choice else "none"] += 1
        rated, asked = read
        unrated += max(0, asked - len(rated))
        if not rated:
            continue
        ratings += len(rated)
        role = s.get("viewpoint_role") or "observer"

        def observe(value: float, group: str, s=s) -> Observation:
            return Observation(task=s["task"], variant=s["variant"], item_id=s["item_id"], game_id=s["game_id"],
                               dimension=s.get("dimension"), role=group, decode=s["decode"], value=value)

        mean = sum(a for _, a in rated.values()) / len(rated)
        per_sample.append(observe(mean, role))
        per_role.setdefault(role, []).append(observe(mean, role))
        for seat, (target, a) in rated.items():
            per_target.setdefault(target or "unknown", []).append(observe(a, target or "unknown"))
            by_seat.setdefault(s["game_id"], {}).setdefault(seat, []).append(a)
            truth[(s["game_id"], seat)] = target
    if not per_sample:
        return None
    overall = _interval(per_sample, "acc", "all")
    return {
        "metric": "acc", "accuracy": overall["value"], "low": overall["low"], "high": overall["high"],
        "samples": len(per_sample), "seats": ratings, "unrated": unrated, "games": overall["games"],
        "by_role": {r: _interval(v, "by_role", r) for r, v in sorted(per_role.items())},
        "est_by_role": {r: _interval(v, "est_by_role", r) for r, v in sorted(per_target.items())},
        "by_seat": {g: {str(seat): {"role": truth[(g, seat)], "est": rounded(sum(v) / len(v)), "raters": len(v)}
                        for seat, v in sorted(seats.items())} for g, seats in sorted(by_seat.items())},
        "strategies": dict(sorted(strategies.items())),
    }
