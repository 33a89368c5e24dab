"""Issue 36: no silent failure. generate exits 1 when every request failed; --max-failed FRACTION on eval and
generate; unparsable replies are counted in the summaries and coverage means a readable answer; a solver run
served from the shared response cache says so."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cli_inproc import run_cli
from fake_llm import FakeCompletion
from werealign.eval.config import EvalConfig
from werealign.eval.progress import summary_table
from werealign.eval.runner import Execution, run_eval
from werealign.llm.failures import failed_too_often

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import mock_server  # noqa: E402

KEY = {"OPENAI_API_KEY": "sk-unused"}


def test_generate_exits_1_when_every_request_failed_and_does_not_point_to_review(tmp_path: Path) -> None:
    with mock_server.spawn("--rate-400", "1") as base:
        r = run_cli("generate", "--model", "openai/mock", "--api-base", base + "/v1", "--out", str(tmp_path / "g"), "--limit", "1",
                    "--judges", "0", "--no-osr", "--quiet", env=KEY)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "every request failed" in r.stderr and "BadRequestError" in r.stderr
    assert "next: werealign review" not in r.stdout
    assert "failed)" in r.stdout and "unparsable" in r.stdout  # the summary line counts both


def test_generate_max_failed_is_checked_before_anything_runs(tmp_path: Path) -> None:
    r = run_cli("generate", "--model", "openai/mock", "--out", str(tmp_path / "g"), "--max-failed", "1.5", env=KEY)
    assert r.returncode == 1 and "--max-failed 1.5: give a fraction between 0 and 1" in r.stderr


def test_failed_too_often_by_default_only_when_all_failed() -> None:
    assert failed_too_often(0, 10, None) is None and failed_too_often(3, 10, None) is None
    assert "every request failed (10 of 10)" in failed_too_often(10, 10, None)
    assert failed_too_often(3, 10, 0.3) is None
    assert "more than --max-failed 0.2" in failed_too_often(3, 10, 0.2)
    assert failed_too_often(1, 10, 0.0) is not None


def test_eval_max_failed_exits_1_with_the_results_written(tmp_path: Path) -> None:
    with mock_server.spawn("--rate-400", "0.5", "--seed", "3") as base:
        args = ("eval", "--model", "openai/mock", "--api-base", base + "/v1", "--decodes", "1", "--tasks", "vote", "--quiet",
                "--no-cache")
        lenient = run_cli(*args, "--out", str(tmp_path / "a"), env=KEY)
        strict = run_cli(*args, "--out", str(tmp_path / "b"), "--max-failed", "0.1", env=KEY)
    totals = json.loads((tmp_path / "b" / "results.json").read_text())["totals"]
    assert 0 < totals["request_errors"] < totals["samples"], "the mock fails about half of the requests"
    assert lenient.returncode == 0, lenient.stderr
    assert strict.returncode == 1 and "more than --max-failed 0.1" in strict.stderr and "results are written" in strict.stderr


def test_all_unparsable_replies_have_zero_coverage_and_are_counted_in_the_summary(tmp_path: Path) -> None:
    fake = FakeCompletion(reply_for=lambda user: "I cannot decide.")
    config = EvalConfig(model="openai/fake", decodes=1, tasks=("speech",))
    summary = run_eval(config, Execution(), out=tmp_path / "r", acompletion=fake, cache=False)
    speech = summary.results.variants["base"]["speech"]
    assert speech.parse_failures == speech.samples > 0 and speech.coverage == 0.0
    from rich.console import Console

    console = Console(width=80, record=True)
    console.print(summary_table(summary.results, run_dir="r", sent=summary.sent, cached=summary.cached))
    text = console.export_text()
    assert f"parse failures {speech.samples}" in " ".join(text.split())
    assert " 0.0 " in text  # coverage column: nothing answered


def test_a_solver_run_served_from_the_shared_cache_counts_it(tmp_path: Path) -> None:
    config = EvalConfig(model="openai/fake", decodes=1, tasks=("vote",), solver="cot")
    first = run_eval(config, Execution(), out=tmp_path / "one", acompletion=FakeCompletion())
    assert first.sent > 0 and first.from_cache == 0
    again = FakeCompletion()
    second = run_eval(config, Execution(), out=tmp_path / "two", acompletion=again)  # another directory, the same requests
    assert again.calls == []
    assert second.sent == 0 and second.from_cache == first.sent and second.cached == first.sent


def test_a_deterministic_builtin_scores_an_items_options_once_not_once_per_decode(tmp_path: Path, monkeypatch) -> None:
    """werealign/lexical's TF-IDF scores of an item's options are computed once for all its shuffled decodes."""
    from werealign.shortcuts import context
    from werealign.text import similarity as text_similarity

    calls: list[int] = []
    real = text_similarity._tfidf_cosines

    def counted(*args, **kw):
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(text_similarity, "_tfidf_cosines", counted)
    monkeypatch.setenv("WEREALIGN_CACHE", "off")  # the floors (shortcut models on the first decode) computed by both runs
    per_decodes = {}
    for decodes in (1, 5):
        text_similarity._cosines.cache_clear()
        context.clear_memos()  # the floors' context features, remembered by content, read the same TF-IDF
        calls.clear()
        config = EvalConfig(model="werealign/lexical", decodes=decodes, tasks=("speech",))
        summary = run_eval(config, Execution(), out=tmp_path / str(decodes), cache=False)
        assert summary.results.totals.samples > 0
        per_decodes[decodes] = len(calls)
    assert per_decodes[1] > 0 and per_decodes[5] == per_decodes[1]


def test_the_comparison_of_several_models_counts_unparsable_replies(tmp_path: Path) -> None:
    from rich.console import Console

    from werealign.eval.progress import comparison
    from werealign.eval.runner import ModelJob, run_evals

    jobs = [ModelJob(EvalConfig(model=m, decodes=1, tasks=("vote",)), Execution(), tmp_path / m.replace("/", "-"))
            for m in ("openai/fake-a", "openai/fake-b")]
    outcomes = run_evals(jobs, max_connections=4, acompletion=FakeCompletion(reply_for=lambda user: "no idea"), cache=False)
    samples = outcomes[0].summary.results.totals.samples
    console = Console(width=80, record=True)
    console.print(comparison(outcomes))
    assert " ".join(console.export_text().split()).count(f"{samples} unparsable") == 2
