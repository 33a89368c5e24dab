"""Reading one run directory: the only module of werealign.leaderboards that knows the run files.

Files are read only through the run-output models (werealign.schema.runs), which accept every
format version; everything else in werealign.leaderboards works on `Run` and `Observation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from werealign.errors import UserError
from werealign.files import describe_validation_error, path_kind, read_json, read_jsonl
from werealign.schema.runs import DEFAULT_SOLVER, Results, SampleRow, read_results, read_run_record, read_sample_row
from werealign.stats.observation import Observation
from werealign.tasks.common import OBSERVER_ROLE
from werealign.tasks import results_shapes
from werealign.tasks.values import primary_value

RUN_JSON, RESULTS, SAMPLES = "run.json", "results.json", "samples.jsonl"


@dataclass(frozen=True)
class Run:
    path: Path
    model: str  # the label the leaderboard shows: the model, and its solver unless the default (`m [cot]`)
    complete: bool
    dataset: dict[str, Any]  # name, version, content_sha256 of the evaluated dataset
    # What must be equal for two runs to share a table (see collect.py): description -> value.
    identity: dict[str, Any]
    # The mode of each task it evaluated (run.json config.modes): a mode changes a task's prompt or metric (VA
    # view, OI set / roles), so two runs must agree on the mode of every task both evaluated.
    modes: dict[str, str]
    decodes: int
    scores: dict[str, dict[str, dict[str, Any]]]  # results.json "variants": variant -> task -> scores
    observations: tuple[Observation, ...]
    base_model: str = ""  # the model alone (run.json config.model)
    solver: str = DEFAULT_SOLVER
    dataset_given: str | None = None  # run.json config.dataset: --dataset as given (None: the bundled sample)

    def dataset_label(self) -> str:
        """The evaluated dataset as a reader knows it: its name and version, and --dataset as given."""
        name = " ".join(str(v) for v in (self.dataset.get("name"), self.dataset.get("version")) if v)
        given = self.dataset_given if self.dataset_given is not None else "the bundled sample"
        return f"{name or 'an unnamed dataset'} ({given})"


class Unfinished(UserError):
    """A run directory with no results.json yet: interrupted (or still running) before it was scored."""


def _parse(reader, data: Any, where: str):
    try:
        return reader(data)
    except ValidationError as e:
        raise UserError(f"{where}: {describe_validation_error(e)}") from None


def _observation(row: SampleRow) -> Observation:
    # The row's own score, which the headline is made of: a failed request scores 0 in both, so the
    # headline and its interval always agree. Rows written before `score` existed get it computed.
    value = row.score if row.score is not None else primary_value(row.model_dump())
    role = row.viewpoint_role or (OBSERVER_ROLE if row.viewpoint_seat is None else "unknown")
    return Observation(task=row.task, variant=row.variant, item_id=row.item_id, game_id=row.game_id,
                       dimension=row.dimension, role=role, decode=row.decode,
                       value=float(value))


def read_run(path: Path) -> Run:
    """A run directory, or a one-line UserError saying why it cannot be put on a leaderboard."""
    kind = path_kind(path)
    if kind == "missing":
        raise UserError(f"{path}: run directory not found")
    if kind != "directory":
        raise UserError(f"{path}: not a directory; a run is the directory `werealign eval` wrote")
    if path_kind(path / RUN_JSON) == "missing":
        raise UserError(f"{path}: not a run directory (no {RUN_JSON})")
    if path_kind(path / RESULTS) == "missing":
        raise Unfinished(f"{path}: no {RESULTS}: the run was interrupted before it was scored; "
                         f"`werealign score {path}` scores what was answered (shown as partial)")
    if path_kind(path / SAMPLES) == "missing":
        raise UserError(f"{path}: no {SAMPLES} beside {RESULTS}; rerun `werealign score {path}`")
    record = _parse(read_run_record, read_json(path / RUN_JSON), str(path / RUN_JSON))
    results: Results = _parse(partial(read_results, shapes=results_shapes()), read_json(path / RESULTS), str(path / RESULTS))
    if results.model != record.config.model:
        raise UserError(f"{path}: {RESULTS} is of model {results.model!r} but {RUN_JSON} of {record.config.model!r}")
    observations = tuple(
        _observation(_parse(read_sample_row, data, f"{path / SAMPLES}:{lineno}")) for lineno, data in read_jsonl(path / SAMPLES)
    )
    identity = {
        "dataset content_sha256": results.dataset.content_sha256,
        "prompt version": results.versions.prompt_version,
        "prompt templates_sha256": results.versions.templates_sha256,
        "ablation protocol": record.config.protocol,
        "item limit": record.config.limit,
        "split": record.config.split,
    }
    scores = {variant: {task: s.model_dump() for task, s in tasks.items()} for variant, tasks in results.variants.items()}
    solver = record.config.solver
    return Run(
        path=path, model=record.config.label, complete=results.complete,
        dataset={"name": results.dataset.name, "version": results.dataset.version, "content_sha256": results.dataset.content_sha256},
        identity=identity, modes=dict(record.config.modes), decodes=record.config.decodes, scores=scores, observations=observations,
        base_model=results.model, solver=solver, dataset_given=record.config.dataset,
    )
