"""Review fixes of the evaluation path: a dataset edited after it was written is a different dataset."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from werealign.dataset import bundled_sample_path
from werealign.errors import UserError
from werealign.eval.runner import EvalConfig, Execution, run_eval, score_run


def _edit_first_vote_answer(root: Path) -> None:
    path = root / "items" / "vote.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[0])
    row["answer"] = next(c for c in row["candidates"] if c != row["answer"])
    lines[0] = json.dumps(row, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_item_edited_after_the_run_is_not_scored_or_resumed_under_the_old_identity(tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    shutil.copytree(bundled_sample_path(), ds)
    config = EvalConfig(model="werealign/random", dataset=str(ds), tasks=("vote",), decodes=1, limit=1)
    run = tmp_path / "run"
    run_eval(config, Execution(), out=run)
    before = (run / "results.json").read_bytes()
    assert score_run(run).results.totals.samples == 1

    _edit_first_vote_answer(ds)  # the manifest (and its sha256) is unchanged: only the content differs
    with pytest.raises(UserError, match="dataset.content_sha256 does not match"):
        score_run(run)
    with pytest.raises(UserError, match=r"different run \(dataset.content_sha256 differs\)"):
        run_eval(config, Execution(), out=run)
    assert (run / "results.json").read_bytes() == before  # nothing was rewritten


def test_item_whose_seat_or_cutoff_is_not_in_its_game_is_refused_by_item_and_field() -> None:
    from crafted_game import crafted_game, crafted_opponent_item, crafted_vote_item

    from werealign.eval.prompts import render_messages

    game = crafted_game()
    last = max(s for u in game.utterances for s in u.segment_ids)
    render_messages(game, crafted_opponent_item().model_copy(update={"cutoff_segment": last}))  # the last segment is fine
    late = crafted_opponent_item().model_copy(update={"cutoff_segment": last + 1})
    with pytest.raises(UserError, match=rf"item {late.item_id}: cutoff_segment {last + 1} is after the last segment"):
        render_messages(game, late)
    stranger = crafted_vote_item().model_copy(update={"viewpoint_seat": 30})
    with pytest.raises(UserError, match=rf"item {stranger.item_id}: viewpoint_seat 30 is not a seat of game {game.game_id}"):
        render_messages(game, stranger)


def test_a_second_eval_on_a_busy_run_directory_is_refused(tmp_path: Path) -> None:
    """Two evals of one run at once would both send, and pay for, the same missing requests."""
    fcntl = pytest.importorskip("fcntl")
    config = EvalConfig(model="werealign/random", tasks=("vote",), decodes=1, limit=1)
    run = tmp_path / "run"
    run_eval(config, Execution(), out=run)
    held = os.open(run, os.O_RDONLY)  # what a running eval holds: a lock on the run directory
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(UserError, match="another `werealign eval` is running on this run directory"):
            run_eval(config, Execution(), out=run)
    finally:
        os.close(held)
    assert run_eval(config, Execution(), out=run).sent == 0  # released: the rerun resumes (nothing missing)


def test_a_run_from_another_werealign_version_resumes_and_pays_only_for_changed_prompts(tmp_path: Path) -> None:
    """Refusing would leave two choices, both paying again: another --out, or --overwrite."""
    config = EvalConfig(model="werealign/random", tasks=("vote",), decodes=2, limit=1)
    run = tmp_path / "run"
    first = run_eval(config, Execution(), out=run)
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    installed = record["versions"]
    record["versions"] = {**installed, "werealign": "0.0.0-old", "templates_sha256": "0" * 64}
    (run / "run.json").write_text(json.dumps(record), encoding="utf-8")

    again = run_eval(config, Execution(), out=run)
    assert again.sent == 0 and again.cached == first.sent  # the prompts did not change: nothing is asked again
    assert len(again.warnings) == 1 and "versions.templates_sha256 differs" in again.warnings[0]
    assert json.loads((run / "run.json").read_text(encoding="utf-8"))["versions"] == installed
    assert again.results == first.results
    # config and dataset still identify the run
    with pytest.raises(UserError, match=r"different run \(config.seed differs\)"):
        run_eval(EvalConfig(**{**config.__dict__, "seed": 1}), Execution(), out=run)


def test_overwrite_of_a_busy_run_directory_is_refused_and_deletes_nothing(tmp_path: Path) -> None:
    """--overwrite empties the directory only under the lock: never under a run that is still writing."""
    fcntl = pytest.importorskip("fcntl")
    config = EvalConfig(model="werealign/random", tasks=("vote",), decodes=1, limit=1)
    run = tmp_path / "run"
    run_eval(config, Execution(), out=run)
    before = sorted(p.name for p in run.iterdir())
    held = os.open(run, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(UserError, match="another `werealign eval` is running"):
            run_eval(EvalConfig(**{**config.__dict__, "seed": 3}), Execution(), out=run, overwrite=True)
    finally:
        os.close(held)
    assert sorted(p.name for p in run.iterdir()) == before
    assert score_run(run).results.totals.samples == 1


def test_overwrite_with_a_mistyped_model_deletes_nothing(tmp_path: Path) -> None:
    config = EvalConfig(model="werealign/random", tasks=("vote",), decodes=1, limit=1)
    run = tmp_path / "run"
    run_eval(config, Execution(), out=run)
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    with pytest.raises(UserError, match="unknown built-in model"):
        run_eval(EvalConfig(**{**config.__dict__, "model": "werealign/randm"}), Execution(), out=run, overwrite=True)
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before


def test_out_under_a_file_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    config = EvalConfig(model="werealign/random", tasks=("vote",), decodes=1, limit=1)
    with pytest.raises(UserError, match="afile.*cannot write"):
        run_eval(config, Execution(), out=tmp_path / "afile" / "run")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("decodes", "3", r"config\.decodes: Input should be a valid integer"),
        ("tasks", "speech", r"config\.tasks: Input should be a valid array"),
        ("tasks", ["dance"], r"config: --tasks: unknown task dance"),
        ("colour", "red", r"config\.colour: Extra inputs are not permitted"),
    ],
)
def test_a_hand_edited_run_json_is_a_one_line_error_naming_the_field(tmp_path: Path, field: str, value, message: str) -> None:
    config = EvalConfig(model="werealign/random", tasks=("vote",), decodes=1, limit=1)
    run = tmp_path / "run"
    run_eval(config, Execution(), out=run)
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    record["config"][field] = value
    (run / "run.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(UserError, match=rf"run\.json: {message}"):
        score_run(run)


def test_score_from_elsewhere_says_the_relative_dataset_came_from_run_json(tmp_path: Path, monkeypatch) -> None:
    shutil.copytree(bundled_sample_path(), tmp_path / "ds")
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run"
    run_eval(EvalConfig(model="werealign/random", dataset="ds", tasks=("vote",), decodes=1, limit=1), Execution(), out=run)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    with pytest.raises(UserError, match=r"config\.dataset 'ds' \(as given to eval\).*--dataset"):
        score_run(run)
    assert score_run(run, dataset=tmp_path / "ds").results.totals.samples == 1
