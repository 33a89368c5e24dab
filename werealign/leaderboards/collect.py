"""Run directories -> one entry per model: comparable runs checked, runs of one model merged."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.leaderboards.runs import Observation, Run, read_run

# Built-in offline models live under this litellm provider prefix; their scores are the shortcut floors.
BASELINE_PREFIX = "werealign/"


@dataclass(frozen=True)
class ModelEntry:
    model: str
    runs: tuple[Run, ...]
    scores: dict[str, dict[str, dict[str, Any]]]  # variant -> task -> the scores of the run that made them
    observations: tuple[Observation, ...]

    @property
    def partial(self) -> bool:
        return not all(r.complete for r in self.runs)

    @property
    def baseline(self) -> bool:
        return self.model.startswith(BASELINE_PREFIX)

    @property
    def base_model(self) -> str:
        """The model without its solver (entries of one model with several solvers share it)."""
        return self.runs[0].base_model or self.model

    @property
    def solver(self) -> str:
        return self.runs[0].solver


def _short(value: Any) -> str:
    text = str(value)
    return text[:12] + "…" if len(text) > 16 else text


def check_comparable(runs: Sequence[Run]) -> None:
    """Refuse, naming both runs and the first difference, runs whose numbers do not mean the same thing."""
    first = runs[0]
    for run in runs[1:]:
        for what, value in first.identity.items():
            if run.identity.get(what) != value:
                raise UserError(
                    f"{run.path}: not comparable with {first.path}: {what} differs "
                    f"({_short(run.identity.get(what))} vs {_short(value)})")
    seen: dict[str, Run] = {}  # task -> the first run that evaluated it
    for run in runs:
        for task, mode in sorted(run.modes.items()):
            other = seen.setdefault(task, run)
            if other.modes[task] != mode:
                raise UserError(f"{run.path}: not comparable with {other.path}: {task} mode differs ({mode} vs {other.modes[task]})")


def merge(model: str, runs: Sequence[Run]) -> ModelEntry:
    """One model's runs as one entry; two runs scoring the same variant and task is ambiguous, so refused."""
    scores: dict[str, dict[str, dict[str, Any]]] = {}
    source: dict[tuple[str, str], Path] = {}
    for run in runs:
        for variant, tasks in run.scores.items():
            for task, task_scores in tasks.items():
                if (variant, task) in source:
                    raise UserError(f"{run.path}: model {model} has two runs scoring variant {variant} task {task} "
                                    f"(also {source[variant, task]}); give one of them")
                source[variant, task] = run.path
                scores.setdefault(variant, {})[task] = task_scores
    observations = tuple(o for run in runs for o in run.observations)
    return ModelEntry(model=model, runs=tuple(runs), scores=scores, observations=observations)


def collect(paths: Sequence[Path]) -> list[ModelEntry]:
    """Read, check and merge run directories; models in the order they were first given."""
    if not paths:
        raise UserError("no run directory given")
    runs: list[Run] = []
    seen: set[Path] = set()
    for path in paths:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            runs.append(read_run(path))
    check_comparable(runs)
    by_model: dict[str, list[Run]] = {}
    for run in runs:
        by_model.setdefault(run.model, []).append(run)
    return [merge(model, model_runs) for model, model_runs in by_model.items()]
