"""Run directories -> one entry per model: comparable runs checked, runs of one model merged."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.leaderboards.runs import Observation, Run, Unfinished, read_run

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
            if run.identity.get(what) != value and what == DATASET:
                raise UserError(f"{run.path}: not comparable with {first.path}: {_other_dataset(run, first)}")
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


DATASET = "dataset content_sha256"  # the identity that names the evaluated dataset's content


def _other_dataset(run: Run, reference: Run) -> str:
    """Why `run` is not on `reference`'s dataset, naming both datasets (a content hash tells a reader nothing)."""
    mine, theirs = run.dataset_label(), reference.dataset_label()
    if mine == theirs:  # same name, version and --dataset: the files changed between the runs (re-imported, edited)
        return f"evaluated another content of {mine} than {reference.path} did (the dataset changed between the runs)"
    return f"evaluated {mine}, not {theirs}"


def _skip_other_datasets(runs: list[Run], skipped: list[str]) -> list[Run]:
    """The runs on the dataset most of them evaluated (the first given among equals); one line in `skipped` per other run."""
    counts: dict[Any, int] = {}
    for run in runs:
        counts[run.identity[DATASET]] = counts.get(run.identity[DATASET], 0) + 1
    chosen = max(counts, key=lambda content: counts[content])  # max keeps the first of equal counts: the first given
    reference = next(r for r in runs if r.identity[DATASET] == chosen)
    for run in runs:
        if run.identity[DATASET] != chosen:
            skipped.append(f"skipped {run.path}: {_other_dataset(run, reference)}")
    return [r for r in runs if r.identity[DATASET] == chosen]


def collect(paths: Sequence[Path], skipped: list[str] | None = None) -> list[ModelEntry]:
    """Read, check and merge run directories; models in the order they were first given.

    With `skipped` (a list; `werealign leaderboard RUN...` gives one, so `runs/*` works), an unfinished run (no
    results.json) and a run on another dataset than most of the runs are left out, one line each in `skipped`;
    without it, either is a UserError. Any other difference (prompt version, protocol, limit, split, mode) is one."""
    if not paths:
        raise UserError("no run directory given")
    runs: list[Run] = []
    seen: set[Path] = set()
    for path in paths:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            try:
                runs.append(read_run(path))
            except Unfinished as e:
                if skipped is None:
                    raise
                skipped.append(f"skipped {e}")
    if skipped is not None and runs:
        runs = _skip_other_datasets(runs, skipped)
    if not runs:
        raise UserError(f"no finished run among the {len(seen)} given: nothing to rank")
    check_comparable(runs)
    by_model: dict[str, list[Run]] = {}
    for run in runs:
        by_model.setdefault(run.model, []).append(run)
    return [merge(model, model_runs) for model, model_runs in by_model.items()]
