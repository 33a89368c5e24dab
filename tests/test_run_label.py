"""Issue 35 must-have 4 (part): a run's label lives on RunConfig, and every place that names a run uses it."""

from __future__ import annotations

from pathlib import Path

from werealign.eval.runner import ModelJob
from werealign.schema.runs import DEFAULT_SOLVER, RunConfig, RunExecution


def test_the_label_is_the_model_and_its_solver_unless_the_default() -> None:
    plain = RunConfig(model="acme/some-model", tasks=("vote",))
    assert plain.solver == DEFAULT_SOLVER and plain.label == "acme/some-model"
    solved = RunConfig(model="acme/some-model", tasks=("vote",), solver="invented:k=2")
    assert solved.label == "acme/some-model [invented:k=2]"
    assert "label" not in solved.model_dump() and "label" not in solved.model_dump_json()  # run.json is unchanged


def test_the_several_model_job_and_the_leaderboard_name_a_run_by_its_label(tmp_path: Path) -> None:
    import werealign
    from werealign.leaderboards.runs import read_run

    config = RunConfig(model="werealign/random", tasks=("vote",), solver="cot")
    assert ModelJob(config, RunExecution(), tmp_path).label == config.label
    ev = werealign.evaluate("werealign/random", tasks="vote", decodes=1, out=tmp_path / "r", progress=False)
    assert read_run(ev.run_dir).model == ev.config.label == "werealign/random"
