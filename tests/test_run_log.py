"""One readable run log (issue 21): every sample row carries its score, a failed request scores 0 in the
headline and in the leaderboard alike, so a faulty run gets real intervals (never NaN) that hold its headline."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_llm import FakeCompletion  # noqa: E402
from test_eval_cli import cli, read_samples, tiny_dataset  # noqa: E402

from werealign.eval.runner import EvalConfig, Execution, run_eval  # noqa: E402


class FailingSome(FakeCompletion):
    """Every third request fails for good (a non-provider error is not retried); the others answer."""

    async def __call__(self, *, model: str, messages: list, **kwargs):
        self.calls.append({"messages": messages, **kwargs})
        if len(self.calls) % 3 == 0:
            raise ValueError("the endpoint dropped this request")
        reply = await FakeCompletion.__call__(self, model=model, messages=messages, **kwargs)
        self.calls.pop()
        return reply


def _finite(obj) -> bool:
    if isinstance(obj, float):
        return math.isfinite(obj)
    if isinstance(obj, dict):
        return all(_finite(v) for v in obj.values())
    if isinstance(obj, list):
        return all(_finite(v) for v in obj)
    return True


def test_faulty_run_gets_real_intervals_holding_its_headline(tmp_path: Path) -> None:
    ds = tiny_dataset(tmp_path / "ds", n_speech=10)
    out = tmp_path / "run"
    summary = run_eval(EvalConfig(model="openai/flaky", dataset=str(ds), decodes=3, tasks=("speech", "vote")),
                       Execution(max_connections=1, max_attempts=1), out=out, acompletion=FailingSome(), cache=False)
    assert summary.request_errors > 0
    samples = read_samples(out)
    failed = [s for s in samples if s["request_error"]]
    assert failed and all(s["score"] == 0.0 for s in failed)
    assert all(s["score"] == (1.0 if s["correct"] else 0.0) for s in samples if not s["request_error"])
    results = json.loads((out / "results.json").read_text())
    speech = results["variants"]["base"]["speech"]
    # the headline is the mean of the rows' scores per dimension: what the leaderboard reads
    by_dim: dict[str, list[float]] = {}
    for s in samples:
        if s["task"] == "speech":
            by_dim.setdefault(s["dimension"], []).append(s["score"])
    assert math.isclose(speech["macro_accuracy"], sum(sum(v) / len(v) for v in by_dim.values()) / len(by_dim), abs_tol=1e-4)

    r = cli("leaderboard", str(out), "--format", "json", "--resamples", "200")
    assert r.returncode == 0, r.stderr
    assert "NaN" not in r.stdout and "Infinity" not in r.stdout
    board = json.loads(r.stdout)
    assert _finite(board)
    _check_intervals_hold_headlines(board)


def _check_intervals_hold_headlines(node) -> None:
    """Every {value, low, high} cell found in the board: low <= value <= high, all real numbers."""
    if isinstance(node, dict):
        if {"value", "low", "high"} <= set(node) and node["value"] is not None:
            assert node["low"] is not None and node["high"] is not None, node
            assert node["low"] - 1e-9 <= node["value"] <= node["high"] + 1e-9, node
        for v in node.values():
            _check_intervals_hold_headlines(v)
    elif isinstance(node, list):
        for v in node:
            _check_intervals_hold_headlines(v)



def test_rows_written_before_steps_and_scores_still_read(tmp_path: Path) -> None:
    """samples.jsonl rows of an older werealign (no steps, no score): the leaderboard computes each score,
    and `werealign view` shows the prompt from responses.sqlite under the row's key."""
    ds = tiny_dataset(tmp_path / "ds", n_speech=5)
    out = tmp_path / "run"
    run_eval(EvalConfig(model="openai/old", dataset=str(ds), decodes=2, tasks=("speech", "vote")),
             Execution(max_connections=1, max_attempts=1), out=out, acompletion=FailingSome(), cache=False)
    new = cli("leaderboard", str(out), "--format", "json", "--resamples", "200").stdout
    rows = read_samples(out)
    old = [{k: v for k, v in r.items() if k not in ("steps", "score", "cached_tokens", "cache_saving_usd")} for r in rows]
    (out / "samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old))
    assert cli("leaderboard", str(out), "--format", "json", "--resamples", "200").stdout == new
    r = cli("view", str(out), "--out", str(tmp_path / "v.html"))
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "v.html").read_text()
    assert page.count('class="step"') == len(rows) and "Candidates" in page  # each row's one step, with its prompt
