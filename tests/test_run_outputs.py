"""Typed run outputs (werealign.schema.runs): what eval writes validates against the models and the
generated JSON Schemas, and the readers accept version-1 files (written before format_version existed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from fake_llm import FakeCompletion
from werealign.eval.runner import EvalConfig, Execution, run_eval, score_run
from werealign.tasks import results_shapes
from werealign.schema.runs import (
    LEGACY_RUN_FORMAT,
    RUN_FORMAT_VERSION,
    TaskScores,
    read_results,
    read_run_record,
    read_sample_row,
)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "run"
    config = EvalConfig(model="openai/fake", decodes=2, variants=("base", "osr"))
    run_eval(config, Execution(), out=out, acompletion=FakeCompletion(), cache=False)
    return out


def _schema(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((REPO / "data" / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")))


def test_written_files_carry_the_format_version_and_match_the_schemas(run: Path) -> None:
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    rows = [json.loads(line) for line in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert record["format_version"] == results["format_version"] == RUN_FORMAT_VERSION
    assert {r["format_version"] for r in rows} == {RUN_FORMAT_VERSION}
    for name, obj in (("run", record), ("results", results), *(("sample", r) for r in rows)):
        errors = list(_schema(name).iter_errors(obj))
        assert not errors, f"{name}: {errors[0].message}"
    typed = read_results(results, results_shapes())
    assert set(typed.variants) == {"base", "osr"}
    assert typed.variants["base"]["vote"].primary == results["variants"]["base"]["vote"]["accuracy"]
    assert typed.variants["base"]["opponent"].primary == results["variants"]["base"]["opponent"]["mean_jaccard"]


def _as_version_1(obj: dict) -> dict:
    old = {k: v for k, v in obj.items() if k != "format_version"}
    return {"format": LEGACY_RUN_FORMAT, **old}


def test_version_1_files_are_read_as_the_current_models(run: Path) -> None:
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    row = json.loads((run / "samples.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert read_run_record(_as_version_1(record)) == read_run_record(record)
    assert read_results(_as_version_1(results), results_shapes()) == read_results(results, results_shapes())
    unmarked = {k: v for k, v in row.items() if k != "format_version"}  # version-1 rows had no marker
    assert read_sample_row(unmarked) == read_sample_row(row)


def test_a_version_1_run_directory_is_rescored(run: Path, tmp_path: Path) -> None:
    import shutil

    old = tmp_path / "old"
    shutil.copytree(run, old)
    record = json.loads((old / "run.json").read_text(encoding="utf-8"))
    (old / "run.json").write_text(json.dumps(_as_version_1(record)), encoding="utf-8")
    before = json.loads((run / "results.json").read_text(encoding="utf-8"))
    assert score_run(old).results.model_dump(mode="json") == before


def test_unknown_versions_and_fields_are_refused_naming_the_field(run: Path) -> None:
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    with pytest.raises(ValidationError, match="format_version"):
        read_run_record({**record, "format_version": 99})
    with pytest.raises(ValidationError, match="config.decodes"):
        read_run_record({**record, "config": {**record["config"], "decodes": "5"}})


def test_scores_of_a_task_kind_this_version_does_not_know_are_read_generically(run: Path) -> None:
    """Open world: a results.json from a werealign with another registered task still reads."""
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    invented = {"metric": "hit_rate", "hit_rate": 0.25, "hit_rate_std": None, "samples": 4, "answered": 4,
                "request_errors": 0, "parse_failures": 1, "items": 2, "by_viewpoint_role": {"merchant": {"score": 0.25, "answered": 4}}}
    results["variants"]["base"]["bargain"] = invented
    scores = read_results(results, results_shapes()).variants["base"]["bargain"]
    assert type(scores) is TaskScores and scores.primary == 0.25 and scores.by_viewpoint_role["merchant"].answered == 4


@pytest.mark.parametrize(("task", "field", "bad"), [("speech", "macro_accuracy", "0.5"), ("vote", "accuracy", [1]), ("opponent", "mean_jaccard", None)])
def test_a_malformed_known_task_block_is_refused_not_read_generically(run: Path, task: str, field: str, bad) -> None:
    """A known task's block that fails its own model must not slip through as generic TaskScores."""
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    block = results["variants"]["base"][task]
    if bad is None:
        del block[field]  # a missing field
    else:
        block[field] = bad  # a mistyped field
    with pytest.raises(ValidationError, match=field):
        read_results(results, results_shapes())
    fine = json.loads((run / "results.json").read_text(encoding="utf-8"))
    assert type(read_results(fine, results_shapes()).variants["base"][task]).__name__ != "TaskScores"
