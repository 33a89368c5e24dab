"""Reading one run directory: the only module of werealign.leaderboards that knows the run files.

Everything else works on `Run` and `Observation`, so when the run outputs get typed models
(werealign/schema/runs.py) only this module changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.eval.scoring import OBSERVER_ROLE, primary_value
from werealign.files import path_kind, read_json, read_jsonl

RUN_JSON, RESULTS, SAMPLES = "run.json", "results.json", "samples.jsonl"


@dataclass(frozen=True)
class Observation:
    """One answered sample reduced to what statistics need: its score and how it is clustered."""

    task: str
    variant: str
    item_id: str
    game_id: str
    dimension: str | None
    role: str
    decode: int
    value: float  # 1/0 for speech and VA, the Jaccard for OI (the per-sample score results.json averages)


@dataclass(frozen=True)
class Run:
    path: Path
    model: str
    complete: bool
    dataset: dict[str, Any]  # name, version, content_sha256 of the evaluated dataset
    # What must be equal for two runs to share a table (see collect.py): description -> value.
    identity: dict[str, Any]
    decodes: int
    scores: dict[str, dict[str, dict[str, Any]]]  # results.json "variants": variant -> task -> scores
    observations: tuple[Observation, ...]


def _field(obj: Any, dotted: str, where: Path) -> Any:
    value = obj
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            raise UserError(f"{where}: missing field {dotted}")
        value = value[part]
    return value


def _observation(row: Any, where: str) -> Observation | None:
    if not isinstance(row, dict):
        raise UserError(f"{where}: expected a JSON object")
    try:
        if row["request_error"]:
            return None  # a failed request says nothing about the model; scoring leaves it out too
        seat_known = "viewpoint_seat" in row and row["viewpoint_seat"] is None
        role = row.get("viewpoint_role") or (OBSERVER_ROLE if seat_known else "unknown")
        return Observation(
            task=row["task"], variant=row["variant"], item_id=row["item_id"], game_id=row["game_id"],
            dimension=row.get("dimension"), role=role, decode=int(row["decode"]), value=float(primary_value(row)),
        )
    except KeyError as e:
        raise UserError(f"{where}: missing field {e.args[0]}") from None
    except (TypeError, ValueError) as e:
        raise UserError(f"{where}: malformed sample: {e}") from None


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
        raise UserError(f"{path}: no {RESULTS}: the run was interrupted before it was scored; "
                        f"`werealign score {path}` scores what was answered (shown as partial)")
    record, results = read_json(path / RUN_JSON), read_json(path / RESULTS)
    if path_kind(path / SAMPLES) == "missing":
        raise UserError(f"{path}: no {SAMPLES} beside {RESULTS}; rerun `werealign score {path}`")
    model = _field(results, "model", path / RESULTS)
    if model != _field(record, "config.model", path / RUN_JSON):
        raise UserError(f"{path}: {RESULTS} is of model {model!r} but {RUN_JSON} of {record['config']['model']!r}")
    config = _field(record, "config", path / RUN_JSON)
    identity = {
        "dataset content_sha256": _field(results, "dataset.content_sha256", path / RESULTS),
        "prompt version": _field(results, "versions.prompt_version", path / RESULTS),
        "prompt templates_sha256": _field(results, "versions.templates_sha256", path / RESULTS),
        "ablation protocol": config.get("protocol"),
        "item limit": config.get("limit"),
    }
    observations = tuple(
        o for lineno, row in read_jsonl(path / SAMPLES)
        if (o := _observation(row, f"{path / SAMPLES}:{lineno}")) is not None
    )
    scores = _field(results, "variants", path / RESULTS)
    if not isinstance(scores, dict):
        raise UserError(f"{path / RESULTS}: field variants: expected an object")
    return Run(
        path=path, model=model, complete=bool(_field(results, "complete", path / RESULTS)),
        dataset={k: _field(results, f"dataset.{k}", path / RESULTS) for k in ("name", "version", "content_sha256")},
        identity=identity,
        decodes=int(config.get("decodes") or 1), scores=scores, observations=observations,
    )
