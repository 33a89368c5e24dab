"""The Python API (issue 35 must-have 8): werealign.evaluate / load_dataset / leaderboard take the commands'
own path and return typed results; `import werealign` stays cheap."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from fake_llm import FakeCompletion

import werealign
from werealign.errors import UserError
from werealign.schema.runs import Results, SampleRow, read_results
from werealign.tasks import results_shapes


def test_evaluate_a_builtin_model_on_the_bundled_sample(tmp_path: Path) -> None:
    out = tmp_path / "lexical"
    ev = werealign.evaluate("werealign/lexical", decodes=1, out=out, progress=False)  # the real litellm path, offline
    assert isinstance(ev, werealign.Evaluation) and isinstance(ev.results, Results)
    assert ev.run_dir == out and ev.sent > 0 and ev.request_errors == 0
    # The returned scores are the ones written to the run directory, and each task's headline is its metric's value.
    assert ev.results == read_results(json.loads((out / "results.json").read_text()), results_shapes())
    speech = ev.results.variants["base"]["speech"]
    assert ev.score("speech") == speech.macro_accuracy is not None and 0.0 <= ev.score("speech") <= 1.0
    assert ev.score("vote") == ev.results.variants["base"]["vote"].accuracy
    assert ev.score("speech", variant="rr") is None and ev.score("no-such-task") is None
    rows = ev.samples()
    assert all(isinstance(r, SampleRow) for r in rows) and len(rows) == ev.planned
    # every kind the sample has items of (the decision kinds are registered too, and the sample holds none of them)
    assert {r.task for r in rows} == set(ev.results.variants["base"]) == {"speech", "vote", "opponent"} <= set(ev.config.tasks)
    # The same call again resumes the run: nothing is sent, the same scores come back.
    again = werealign.evaluate("werealign/lexical", decodes=1, out=out, progress=False)
    assert again.sent == 0 and again.cached == ev.sent + ev.cached and again.results == ev.results


def test_evaluate_is_the_command_itself(tmp_path: Path) -> None:
    """The same options through `werealign eval` and through evaluate: the same run.json and results.json."""
    from typer.testing import CliRunner

    from werealign.cli import app

    args = dict(tasks=["vote", "opponent"], variants=["base", "no-context"], decodes=2, seed=3, modes={"vote": "full"})
    via_api = werealign.evaluate("werealign/random", out=tmp_path / "api", progress=False, **args)
    r = CliRunner().invoke(app, ["eval", "--model", "werealign/random", "--out", str(tmp_path / "cli"), "--tasks", "vote,opponent",
                                 "--variant", "base,no-context", "--decodes", "2", "--seed", "3", "--va-mode", "full", "--quiet"])
    assert r.exit_code == 0, r.output
    for name in ("run.json", "results.json"):
        assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    assert via_api.results.context_gain is not None  # base and no-context both ran: the gain is in the typed results


def test_evaluate_any_litellm_model_through_an_injected_completion(tmp_path: Path) -> None:
    """An invented model string and an invented answering rule: the API is not limited to the built-ins."""
    fake = FakeCompletion(reply_for=lambda user: "Answer: B")
    ev = werealign.evaluate("acme/made-up-7b", tasks="speech", decodes=1, out=tmp_path / "r", progress=False, acompletion=fake)
    rows = ev.samples()
    assert len(fake.calls) == ev.sent == len(rows) > 0 and {c["model"] for c in fake.calls} == {"acme/made-up-7b"}
    assert all(r.reply == "Answer: B" and r.parse_error is None for r in rows)
    shown_b = [r for r in rows if r.answer == r.gold]  # right exactly when the key was shown at position B
    assert ev.results.variants["base"]["speech"].accuracy == pytest.approx(len(shown_b) / len(rows))


def test_bad_input_is_the_commands_one_line_error(tmp_path: Path) -> None:
    out = tmp_path / "r"
    with pytest.raises(UserError, match="--decodes: must be at least 1"):
        werealign.evaluate("werealign/random", decodes=0, out=out, progress=False)
    with pytest.raises(UserError, match="unknown task 'nope'; choose from speech"):
        werealign.evaluate("werealign/random", tasks=["nope"], out=out, progress=False)
    with pytest.raises(UserError, match="--max-connections"):
        werealign.evaluate("werealign/random", max_connections=0, out=out, progress=False)
    assert not out.exists()  # refused before anything was written
    failing = FakeCompletion(fail_with=ValueError("the endpoint is down"))
    with pytest.raises(UserError, match=r"every request failed \(\d+\); the first failed with .*the endpoint is down"):
        werealign.evaluate("acme/down", tasks="vote", decodes=1, out=tmp_path / "down", progress=False, acompletion=failing)


def test_load_dataset_reads_what_eval_reads(tmp_path: Path) -> None:
    ds = werealign.load_dataset()
    assert ds.manifest.name == "werealign-sample" and ds.games
    assert all(ds.manifest.counts.count(kind) == len(items) for kind, items in ds.items.items())
    with pytest.raises(UserError, match=str(tmp_path / "missing")):
        werealign.load_dataset(tmp_path / "missing")


def test_leaderboard_of_two_evaluations(tmp_path: Path) -> None:
    runs = [werealign.evaluate(m, tasks="speech", decodes=1, out=tmp_path / m.split("/")[1], progress=False)
            for m in ("werealign/random", "werealign/longest")]
    board = werealign.leaderboard([runs[0], str(runs[1].run_dir)], resamples=200)
    main = board.tables[0]
    assert main.key == "main" and {r.model for r in main.rows} == {"werealign/random", "werealign/longest"}
    for ev in runs:
        row = next(r for r in main.rows if r.model == ev.config.model)
        avg = next(c for c in main.columns if c.task == "speech" and c.macro)
        assert row.cells[avg.name].value == pytest.approx(ev.score("speech"))
        assert row.cells[avg.name].low <= row.cells[avg.name].value <= row.cells[avg.name].high
    with pytest.raises(UserError, match="no run directory given"):
        werealign.leaderboard([])


def test_import_werealign_loads_no_api_until_asked() -> None:
    code = ("import sys, werealign; loaded = sorted(m for m in sys.modules if m.startswith('werealign')); "
            "print(loaded); werealign.evaluate; print('werealign.eval.runner' in sys.modules or 'werealign.api' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.splitlines()
    assert first == "['werealign', 'werealign.version']" and second == "True"
    assert {"evaluate", "load_dataset", "leaderboard", "Evaluation"} <= set(dir(werealign))
    with pytest.raises(AttributeError, match="no attribute 'evaluat'"):
        werealign.evaluat  # noqa: B018 - the typo must fail like any missing attribute


def test_the_api_defaults_are_the_commands_defaults() -> None:
    """A default changed on the command line must change here too (or this fails)."""
    from werealign.commands.eval import eval_command

    cli = {name: p.default.default for name, p in inspect.signature(eval_command).parameters.items() if name != "ctx"}
    renamed = {"variants": "variant", "progress": "quiet"}
    api = inspect.signature(werealign.evaluate).parameters
    for name, p in api.items():
        if name in ("model", "acompletion", "modes"):
            continue
        given = cli[renamed.get(name, name)]
        if name == "progress":
            assert p.default is not given
        else:
            assert p.default == given, name


def test_the_readme_example_runs_as_written(tmp_path: Path, monkeypatch, capsys) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## From Python\n", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)  # its runs/ directory
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "werealign-sample" in printed and "werealign/longest" in printed and "| " in printed  # the Markdown table
    assert (tmp_path / "runs" / "random" / "results.json").is_file() and (tmp_path / "runs" / "longest" / "results.json").is_file()


def test_the_version_is_the_packages() -> None:
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert werealign.__version__ == pyproject["project"]["version"]
