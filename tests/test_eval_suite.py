"""Several models in one eval (repeated --model, --suite), and reading a run as a person does: the summary
in 80 columns, progress with a percentage and an ETA, plain lines without a terminal, resuming said aloud.

In-process with a fake completion function; one end-to-end CLI test (credentials checked for every model,
one model failing does not lose the others), in process too (tests/cli_inproc.py: the real entry point).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from cli_inproc import run_cli  # noqa: E402
from fake_llm import FakeCompletion  # noqa: E402
from run_factory import make_samples  # noqa: E402
from test_eval_cli import tiny_dataset  # noqa: E402

from werealign.errors import UserError  # noqa: E402
from werealign.eval import progress as progress_mod  # noqa: E402
from werealign.eval.progress import Progress, make_progress, summary  # noqa: E402
from werealign.eval.runner import EvalConfig, Execution, ModelJob, run_eval, run_evals  # noqa: E402
from werealign.eval.suite import load_suite, suite_values  # noqa: E402
from werealign.llm.client import Outcome  # noqa: E402


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return tiny_dataset(tmp_path_factory.mktemp("ds") / "tiny")


class CountingFake(FakeCompletion):
    """Tracks requests in flight across every model; `failing` models raise (a non-retryable error)."""

    def __init__(self, failing: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.failing = failing
        self.in_flight = 0
        self.peak = 0
        self.by_model: dict[str, int] = {}
        self.overlap = False  # two models had a request in flight at the same moment

    async def __call__(self, *, model: str, messages, **kwargs):
        if model in self.failing:
            self.calls.append({"model": model})
            raise ValueError(f"{model} is down")
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        self.by_model[model] = self.by_model.get(model, 0) + 1
        self.overlap |= sum(1 for n in self.by_model.values() if n) > 1
        try:
            await asyncio.sleep(0.005)
            return await super().__call__(model=model, messages=messages, **kwargs)
        finally:
            self.in_flight -= 1
            self.by_model[model] -= 1


def jobs(tiny: Path, out: Path, models: tuple[str, ...], **config) -> list[ModelJob]:
    base = {"dataset": str(tiny), "decodes": 2, **config}
    return [ModelJob(EvalConfig(model=m, **base), Execution(max_connections=3), out / m.replace("/", "_")) for m in models]


# --------------------------------------------------------------------------- several models


def test_models_share_one_connection_budget_and_resume_each(tiny: Path, tmp_path: Path) -> None:
    fake = CountingFake()
    models = ("openai/model-a", "openai/model-b", "openai/model-c")
    outcomes = run_evals(jobs(tiny, tmp_path, models), max_connections=3, acompletion=fake)
    assert [o.ok for o in outcomes] == [True, True, True]
    planned = outcomes[0].summary.unique_requests
    assert len(fake.calls) == 3 * planned
    assert fake.peak <= 3, "the budget is shared: never more than --max-connections in flight across models"
    assert fake.overlap, "the models run concurrently, not one after the other"
    for o, m in zip(outcomes, models, strict=True):
        results = json.loads((o.summary.run_dir / "results.json").read_text())
        assert results["model"] == m and results["complete"] is True
        assert o.summary.run_dir == tmp_path / m.replace("/", "_")
    # Rerunning the same jobs resumes each model: nothing is sent again, the results are the same bytes.
    before = [(o.summary.run_dir / "results.json").read_bytes() for o in outcomes]
    again = run_evals(jobs(tiny, tmp_path, models), max_connections=3, acompletion=fake)
    assert len(fake.calls) == 3 * planned and all(o.summary.sent == 0 for o in again)
    assert [(o.summary.run_dir / "results.json").read_bytes() for o in again] == before


def test_one_model_failing_keeps_the_others(tiny: Path, tmp_path: Path) -> None:
    fake = CountingFake(failing=("openai/down",))
    outcomes = run_evals(jobs(tiny, tmp_path, ("openai/up", "openai/down")), max_connections=2, acompletion=fake)
    up, down = outcomes
    assert up.ok and json.loads((up.summary.run_dir / "results.json").read_text())["complete"] is True
    assert not down.ok and "every request failed" in down.error and "is down" in down.error
    # the failed model's errors are stored, so a rerun retries them (and only them)
    n = len(fake.calls)
    fake.failing = ()
    outcomes = run_evals(jobs(tiny, tmp_path, ("openai/up", "openai/down")), max_connections=2, acompletion=fake)
    assert all(o.ok for o in outcomes) and outcomes[0].summary.sent == 0
    assert len(fake.calls) - n == outcomes[1].summary.sent > 0


def test_a_directory_of_another_run_fails_that_model_only(tiny: Path, tmp_path: Path) -> None:
    fake = FakeCompletion()
    run_eval(EvalConfig(model="openai/other", dataset=str(tiny), decodes=1), Execution(), out=tmp_path / "openai_b", acompletion=fake)
    a, b = run_evals(jobs(tiny, tmp_path, ("openai/a", "openai/b")), max_connections=2, acompletion=fake)
    assert a.ok and (tmp_path / "openai_a" / "results.json").is_file()
    assert not b.ok and "holds a different run" in b.error


def test_usage_errors_stop_every_model_before_anything_is_written(tiny: Path, tmp_path: Path) -> None:
    fake = FakeCompletion()
    js = jobs(tiny, tmp_path, ("openai/a", "openai/b"))
    js[1].run_dir = js[0].run_dir
    with pytest.raises(UserError, match="would share the run directory"):
        run_evals(js, max_connections=2, acompletion=fake)
    js = jobs(tiny, tmp_path, ("openai/a", "openai/b"))
    js[1] = ModelJob(js[1].config.model_copy(update={"decodes": 0}), js[1].execution, js[1].run_dir)
    with pytest.raises(UserError, match="--decodes"):
        run_evals(js, max_connections=2, acompletion=fake)
    assert not fake.calls and not any(tmp_path.iterdir())


# --------------------------------------------------------------------------- suite files


@pytest.mark.parametrize("name", ["baselines", "offline", "hosted-example"])
def test_bundled_suites_load(name: str) -> None:
    suite = load_suite(REPO / "eval" / "suites" / f"{name}.yaml")
    assert suite.models and suite_values(suite)["decodes"] == 5


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("name: s\nmodels: []\n", r"s\.yaml:2: models: List should have at least 1 item"),
        ("name: s\n", r"s\.yaml:1: models: Field required"),
        ("name: s\nsettings:\n  decode: 5\nmodels:\n  - model: a/b\n", r"s\.yaml:3: settings\.decode: unknown key"),
        ("name: s\nsettings:\n  decodes: '5'\nmodels:\n  - model: a/b\n", r"s\.yaml:3: settings\.decodes: .*integer.*got '5'"),
        ("name: s\nsettings:\n  variants: [base, xx]\nmodels:\n  - model: a/b\n", r"s\.yaml:3: settings\.variants\.1: .*'base'.*got 'xx'"),
        ("name: s\nsettings:\n  va_mode: loud\nmodels:\n  - model: a/b\n", r"s\.yaml:3: settings\.va_mode: .*loud"),
        ("name: s\nsettings:\n  modes:\n    opponent: guess\nmodels:\n  - model: a/b\n", r"s\.yaml:4: settings\.modes\.opponent: .*guess"),
        ("name: s\nmodels:\n  - model: a/b\n    max_token: 5\n", r"s\.yaml:4: models\.0\.max_token: unknown key"),
        ("name: s\nmodels:\n  - model: a/b\n  - model: a/b\n", r"s\.yaml:4: models\.1: a/b is listed twice"),
        ("name: s\nmodels:\n  - model: a/b\nmodels: []\n", r"s\.yaml:4: models: duplicate key"),
        ("- a/b\n", r"s\.yaml:1: \(root\): expected a mapping"),
    ],
)
def test_suite_file_errors_name_file_line_and_key(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(UserError, match=said) as e:
        load_suite(path)
    assert "\n" not in str(e.value)


def test_suite_settings_and_command_line_precedence(tiny: Path, tmp_path: Path, monkeypatch) -> None:
    """The file's settings apply, a model's own value beats them, and an option given on the command line beats both."""
    from typer.testing import CliRunner

    from werealign.cli import app

    seen: list[ModelJob] = []

    def fake_run_evals(jobs, **kw):
        seen.extend(jobs)
        return []

    monkeypatch.setattr("werealign.eval.runner.run_evals", fake_run_evals)
    path = tmp_path / "s.yaml"
    path.write_text("name: s\nsettings:\n  decodes: 3\n  variants: [base, rr]\n  max_tokens: 64\n  tasks: [speech]\n"
                    "models:\n  - model: openai/a\n  - model: openai/b\n    max_tokens: 128\n    api_base: http://127.0.0.1:9/v1\n")
    r = CliRunner().invoke(app, ["eval", "--suite", str(path), "--dataset", str(tiny), "--decodes", "2", "--out", str(tmp_path / "o"), "-q"])
    assert r.exit_code == 0, r.output
    a, b = seen
    assert a.config.decodes == b.config.decodes == 2  # command line wins
    assert a.config.variants == ("base", "rr") and a.config.tasks == ("speech",)
    assert a.config.max_tokens == 64 and b.config.max_tokens == 128  # the model's own value wins over settings
    assert b.execution.api_base == "http://127.0.0.1:9/v1" and a.execution.api_base is None
    assert a.run_dir == tmp_path / "o" / "openai_a"
    # any task's mode: from the file's `modes`, and --mode on the command line wins over it
    seen.clear()
    path.write_text("name: s\nsettings:\n  tasks: [vote, opponent]\n  modes: {opponent: roles, vote: full}\nmodels:\n  - model: openai/a\n")
    r = CliRunner().invoke(app, ["eval", "--suite", str(path), "--dataset", str(tiny), "--out", str(tmp_path / "m"), "-q"])
    assert r.exit_code == 0, r.output
    assert seen[0].config.modes == {"vote": "full", "opponent": "roles"}
    seen.clear()
    r = CliRunner().invoke(app, ["eval", "--suite", str(path), "--dataset", str(tiny), "--mode", "vote=mask-mvp", "--out", str(tmp_path / "m"), "-q"])
    assert r.exit_code == 0, r.output
    assert seen[0].config.modes == {"vote": "mask-mvp", "opponent": "set"}  # the option replaces the file's modes whole
    # a bad file starts nothing
    seen.clear()
    path.write_text("name: s\nmodels:\n  - modle: openai/a\n")
    r = CliRunner().invoke(app, ["eval", "--suite", str(path)])
    assert isinstance(r.exception, UserError) and "models.0.modle: unknown key" in str(r.exception) and not seen
    r = CliRunner().invoke(app, ["eval", "--suite", str(path), "--model", "openai/a"])
    assert isinstance(r.exception, UserError) and "--suite and --model" in str(r.exception)


def test_cli_several_models_check_every_key_first_and_keep_the_good_ones(tiny: Path, tmp_path: Path, monkeypatch) -> None:
    """The end-to-end CLI test: a model without its key fails alone, named, and nothing is sent for it."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    out = tmp_path / "runs"
    r = run_cli("eval", "--model", "werealign/longest", "--model", "openai/gpt-4o-mini", "--dataset", str(tiny),
                "--tasks", "vote", "--decodes", "1", "--out", str(out))
    assert r.returncode == 1
    assert "openai/gpt-4o-mini: OPENAI_API_KEY is not set" in r.stderr
    assert "1 of 2 models failed" in r.stderr
    assert r.stdout.strip() == str(out / "werealign_longest" / "results.json")
    assert json.loads((out / "werealign_longest" / "results.json").read_text())["complete"] is True
    assert not (out / "openai_gpt-4o-mini").exists()
    assert "models compared" in r.stderr and "failed" in r.stderr
    assert "werealign/longest: 100% 1/1 done" in r.stderr  # stderr is not a terminal: plain progress lines, by model


# --------------------------------------------------------------------------- progress


def test_progress_shows_percent_and_eta(monkeypatch) -> None:
    clock = SimpleNamespace(now=100.0)
    monkeypatch.setattr(progress_mod.time, "perf_counter", lambda: clock.now)
    p = Progress(10, 2, live=False)
    p.start()
    assert "20% 2/10" in p.line() and "ETA --" in p.line()
    clock.now += 8.0
    for _ in range(4):
        p.done(Outcome(True, "Answer: A", {"total_tokens": 1}, 0.0, 0.1, 1))
    line = p.line()
    assert "60% 6/10 done (2 cached)" in line and "ETA 8s" in line  # 4 sent in 8 s, 4 left
    for _ in range(4):
        p.done(Outcome(True, "Answer: A", {"total_tokens": 1}, 0.0, 0.1, 1))
    assert "100% 10/10" in p.line() and "| done |" in p.line()


def test_without_a_terminal_progress_is_occasional_plain_lines(monkeypatch, capsys) -> None:
    clock = SimpleNamespace(now=0.0)
    monkeypatch.setattr(progress_mod.time, "perf_counter", lambda: clock.now)
    p = Progress(1000, 0, live=False, plain=True)
    p.start()
    for _ in range(1000):
        clock.now += 0.01  # 10 s in all: only the 10% steps print
        p.done(Outcome(True, "Answer: A", {"total_tokens": 1}, 0.0, 0.1, 1))
    p.stop()
    lines = capsys.readouterr().err.splitlines()
    assert 10 <= len(lines) <= 12, lines
    assert lines[-1].startswith("100% 1000/1000") and all("%" in line for line in lines)
    # a slow run: a line when none was printed for PLAIN_EVERY seconds, spaced out as the run grows
    p = Progress(1000, 0, live=False, plain=True)
    p.start()
    for _ in range(50):
        clock.now += 20.0  # 1000 s for 5% of the work: no 10% step, time-based lines only
        p.done(Outcome(True, "Answer: A", {"total_tokens": 1}, 0.0, 0.1, 1))
    lines = capsys.readouterr().err.splitlines()
    assert 3 <= len(lines) <= 12, lines  # not silence, not one per reply
    assert "ETA" in lines[-1]
    # requests stuck in retries (no reply at all) still show a line once PLAIN_EVERY seconds have passed
    clock.now += progress_mod.PLAIN_EVERY * 100
    p.event("retry_wait")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "retrying 1 (1 retries)" in lines[0]


def test_board_draws_one_line_per_model_within_the_width() -> None:
    from rich.console import Console

    from werealign.eval.progress import Board

    board = Board(live=False, plain=False)
    a = board.add("anthropic/claude-3-5-haiku-20241022", 200, 50)
    board.add("werealign/random", 10, 0)
    a.done(Outcome(True, "Answer: A", {"total_tokens": 7}, 0.01, 0.1, 1))
    console = Console(record=True, width=80)
    console.print(board._render())
    lines = console.export_text().splitlines()
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("anthropic/claude-3-5-haiku-20241022: 26% 51/200") and lines[1].startswith("werealign/random: 0% 0/10")


def test_quiet_is_silent_and_a_resumed_run_says_what_it_holds(tiny: Path, tmp_path: Path, capsys) -> None:
    fake = FakeCompletion()
    out = tmp_path / "r"
    config = EvalConfig(model="openai/m", dataset=str(tiny), decodes=2)
    first = run_eval(config, Execution(), out=out, acompletion=fake, progress_factory=make_progress(True))
    assert capsys.readouterr().err == ""
    with sqlite3.connect(out / "responses.sqlite") as db:  # as if the first run had been killed half-way
        keys = [k for (k,) in db.execute("SELECT key FROM responses ORDER BY key")]
        db.executemany("DELETE FROM responses WHERE key = ?", [(k,) for k in keys[: len(keys) // 2]])
    kept = len(keys) - len(keys) // 2
    again = run_eval(config, Execution(), out=out, acompletion=fake, progress_factory=make_progress(False), cache=False)
    err = capsys.readouterr().err  # pytest's capture is not a terminal: the plain lines
    assert f"resuming: {kept} replies already stored (${0.001 * kept:.4f} already paid); {len(keys) // 2} request(s) left to send" in err
    assert "100%" in err and again.sent == len(keys) // 2 and again.paid.requests == kept
    assert json.loads((out / "results.json").read_text()) == json.loads(first.run_dir.joinpath("results.json").read_text())
    # with the shared cache the deleted replies come back from it, and the notice says so
    with sqlite3.connect(out / "responses.sqlite") as db:
        db.executemany("DELETE FROM responses WHERE key = ?", [(k,) for k in keys[:3]])
    run_eval(config, Execution(), out=out, acompletion=fake, progress_factory=make_progress(False))
    err = capsys.readouterr().err
    assert f"resuming: {len(keys) - 3} replies already stored" in err and "3 more from the shared response cache; nothing left to send" in err


# --------------------------------------------------------------------------- the summary in 80 columns


def test_summary_fits_80_columns_with_every_task_variant_and_role() -> None:
    from rich.console import Console

    from werealign.eval.scoring import score_samples
    from werealign.schema.runs import DatasetRecord, Results, Versions

    variants = ("base", "rr", "osr")
    samples = make_samples("anthropic/claude-3-5-haiku-20241022", 0.4, variants=variants, decodes=5)
    for s in samples[::7]:  # some failed requests, so answered-only and coverage differ from the headline
        s.update(reply=None, answer=None, correct=None, request_error="RateLimitError: slow down")
    floor = {"chance": 0.111111, "shortcuts": {"werealign/longest": 0.228, "werealign/options-only": 0.106,
                                               "werealign/all-candidates": 0.354}, "best": "werealign/all-candidates", "best_score": 0.354}
    floors = {v: {t: {"metric": m, **floor} for t, m in (("speech", "macro_accuracy"), ("vote", "accuracy"), ("opponent", "mean_jaccard"))}
              for v in variants}
    results = Results(model="anthropic/claude-3-5-haiku-20241022",
                      dataset=DatasetRecord(path=None, name="werebench", version="1.0.0", manifest_sha256="0", content_sha256="0"),
                      versions=Versions(werealign="0", litellm=None, prompt_version="v1", templates_sha256="0"),
                      **score_samples(samples, planned=len(samples) + 3, floors=floors))
    console = Console(record=True, width=80)
    console.print(summary(results, run_dir="runs/anthropic_claude-3-5-haiku-20241022-0123456789", sent=1200, cached=300))
    text = console.export_text()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in text and not any(line.strip() == "%" for line in lines)  # nothing cut, no bare "%" header
    for word in ("macro_accuracy", "accuracy", "mean_jaccard", "answered", "coverage", "vs best", "RI", "CT",
                 "exact set", "moon-priestess", "lantern-keeper", "longest 22.8", "all-candidates 35.4", "missing 3"):
        assert word in text, word
    speech = results.variants["rr"]["speech"]
    row = next(line for line in lines if line.startswith("rr") and "macro_accuracy" in line).split()
    assert row[3:7] == [f"{100 * speech.macro_accuracy:.1f}", f"{100 * speech.macro_accuracy_std:.1f}",
                        f"{100 * speech.macro_accuracy_answered:.1f}", f"{100 * speech.coverage:.1f}"]
    assert row[7] == f"{100 * (speech.macro_accuracy - 0.354):+.1f}"
    role = results.variants["osr"]["vote"].by_viewpoint_role["moon-priestess"]
    assert any(line.startswith("osr") and "moon-priestess" in line and f"{100 * role.score:.1f} ({role.answered})" in line for line in lines)


def test_summary_of_oi_roles_mode_shows_role_accuracy_and_no_empty_set_table(tmp_path: Path) -> None:
    """OI `roles` has no seat set to score: its summary must not print a table of dashes for one."""
    from rich.console import Console

    config = EvalConfig(model="werealign/majority-role", tasks=("opponent",), decodes=1, modes={"opponent": "roles"})
    run = run_eval(config, Execution(), out=tmp_path / "r", cache=False)
    console = Console(record=True, width=80)
    console.print(summary(run.results, run_dir="r", sent=run.sent, cached=0))
    text = console.export_text()
    assert "role_accuracy" in text and "majority-role" in text
    assert "set scores" not in text



def test_token_counts_in_the_progress_line_are_compact() -> None:
    from werealign.eval.progress import _compact

    assert [_compact(n) for n in (12, 9_876, 145_306, 2_400_000)] == ["12", "9876", "145k", "2.4M"]
    p = Progress(64, 0, live=False, plain=False)
    p.done(Outcome(True, "Answer: A", {"total_tokens": 145_306}, 0.0, 0.1, 1))
    assert "145k tokens" in p.line() and "cached" not in p.line()  # nothing cached: not said
