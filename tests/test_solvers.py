"""The solver seam (issue 21): a two-step toy solver stores each step under its own key, resumes, re-scores,
and the default solver keeps today's prompts, keys and run identity."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import mock_server  # noqa: E402
import toy_solver  # noqa: E402
from cli_fork import fork_cli  # noqa: E402
from fake_llm import FakeCompletion  # noqa: E402
from test_eval_cli import cli, read_samples, strip_timing, tiny_dataset  # noqa: E402

from werealign.errors import UserError  # noqa: E402
from werealign.eval.plan import plan_run  # noqa: E402
from werealign.eval.runner import EvalConfig, Execution, run_eval, score_run  # noqa: E402
from werealign.llm.store import Store  # noqa: E402
from werealign.solvers import get_solver, solver_names  # noqa: E402

toy_solver.install()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return tiny_dataset(tmp_path_factory.mktemp("ds") / "tiny", n_speech=4)


def _run(tiny: Path, out: Path, fake: FakeCompletion, **config):
    settings = {"model": "openai/mock", "dataset": str(tiny), "decodes": 2, "tasks": ("speech", "vote"), **config}
    return run_eval(EvalConfig(**settings), Execution(max_connections=3), out=out, acompletion=fake, cache=False)


def test_two_step_solver_stores_each_step_and_resumes(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "toy"
    fake = FakeCompletion()
    summary = _run(tiny, out, fake, solver="toy-two-step")
    samples = read_samples(out)
    assert len(samples) == 10 and len(fake.calls) == 20  # (4 speech + 1 vote) x 2 decodes, two calls each
    for s in samples:
        assert [st["name"] for st in s["steps"]] == ["reflect", "count", "answer"]
        assert [st["kind"] for st in s["steps"]] == ["model", "python", "model"]
        reflect, _, answer = s["steps"]
        assert reflect["key"] != answer["key"] and answer["output"] == s["reply"]
        assert s["prompt_tokens"] == reflect["prompt_tokens"] + answer["prompt_tokens"]
        assert s["cost"] == pytest.approx(reflect["cost"] + answer["cost"])
        assert s["score"] == (1.0 if s["correct"] else 0.0)
    with Store(out / "responses.sqlite") as store:
        rows = store.load(with_request=True)
    assert set(rows) == {st["key"] for s in samples for st in s["steps"] if st["kind"] == "model"}
    # the answer step's own params are part of its request (and so of its key)
    assert all(rows[s["steps"][2]["key"]].request["params"]["temperature"] == 0.0 for s in samples)
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["solver"] == "toy-two-step"
    assert summary.results.totals.samples == 10

    again = FakeCompletion()
    _run(tiny, out, again, solver="toy-two-step")
    assert again.calls == []  # everything stored: nothing paid twice
    before = (out / "results.json").read_bytes()
    score_run(out)
    assert (out / "results.json").read_bytes() == before


def test_default_solver_keeps_keys_and_identity(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "single"
    fake = FakeCompletion()
    _run(tiny, out, fake)
    run = json.loads((out / "run.json").read_text())
    assert "solver" not in run["config"]  # a run made before solvers has the same config, so it resumes
    plan = plan_run(tiny_ds(tiny), EvalConfig(model="openai/mock", dataset=str(tiny), decodes=2, tasks=("speech", "vote")))
    samples = read_samples(out)
    assert {s["key"] for s in samples} == {p.key for p in plan}
    # sent as rendered (grouped by shared prefix, so not in plan order)
    assert sorted(json.dumps(c["messages"]) for c in fake.calls) == sorted(json.dumps(p.messages) for p in plan)
    for s in samples:
        [step] = s["steps"]
        assert step["key"] == s["key"] and step["output"] == s["reply"] and step["name"] == "answer"
    with pytest.raises(UserError, match=r"config\.solver\) differs|\(config\.solver differs"):
        _run(tiny, out, FakeCompletion(), solver="toy-two-step")  # another solver is another run


def tiny_ds(path: Path):
    from werealign.dataset import load_dataset

    return load_dataset(path)


def test_unknown_solver_is_refused_naming_the_known_ones(tiny: Path, tmp_path: Path) -> None:
    assert {"single", "toy-two-step"} <= set(solver_names())
    with pytest.raises(UserError, match="unknown solver 'nope'; choose from .*single"):
        get_solver("nope")
    r = cli("eval", "--model", "werealign/random", "--dataset", str(tiny), "--solver", "nope", "--out", str(tmp_path / "r"))
    assert r.returncode != 0 and "unknown solver 'nope'" in r.stderr and not (tmp_path / "r").exists()


def _ok_rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return con.execute("SELECT count(*) FROM responses WHERE status = 'ok'").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def test_kill_9_in_step_two_repays_only_step_two(tiny: Path, tmp_path: Path) -> None:
    """A real process killed while a sample's second step is in flight: the rerun pays for that step (and
    what was never sent), never for a step already stored."""
    out = tmp_path / "killed"
    env = {**os.environ, "OPENAI_API_KEY": "sk-unused"}
    with mock_server.spawn("--latency-ms", "600") as base:
        args = ["eval", "--model", "openai/mock", "--api-base", base + "/v1", "--dataset", str(tiny), "--out", str(out),
                "--tasks", "speech", "--decodes", "2", "--max-connections", "1", "--solver", "toy-two-step", "--quiet"]
        proc = fork_cli(*args, env=env)  # a process of its own, toy_solver installed (this module did)
        db = out / "responses.sqlite"
        deadline = time.monotonic() + 120
        # One connection, steps in order: an odd count of stored replies = a sample's step one is stored and
        # its step two is in flight (600 ms at the mock, polled every 20 ms).
        while not (_ok_rows(db) >= 3 and _ok_rows(db) % 2 == 1) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        proc.kill()
        proc.wait()
        with Store(db) as store:
            stored = store.load(with_request=True)
        assert len(stored) % 2 == 1 and 3 <= len(stored) < 16, "the kill must land in a step two"
        assert not (out / "results.json").exists()
        time.sleep(0.6)  # let the mock finish the step two that was in flight
        served_before = sum(mock_server.stats(base)["served"].values())
        mock_server.set_latency(base, 0)  # only the kill needed a step in flight; the rerun's 13 steps need not wait

        r = cli(*args, env=env)
        assert r.returncode == 0, r.stderr
        served = mock_server.stats(base)["served"]
        for row in stored.values():  # every stored step, step one of the killed sample included, paid once
            fp = mock_server.fingerprint({"messages": row.request["messages"], "seed": row.request["params"]["seed"]})
            assert served[fp] == 1
        assert sum(served.values()) - served_before == 16 - len(stored)  # the rerun paid only what was missing
        # 16 steps; the step two in flight at the kill was paid twice if the mock finished it before the
        # connection dropped (aiohttp cancels a handler whose client is gone)
        assert sum(served.values()) - 16 in (0, 1)

        whole = tmp_path / "whole"
        assert cli(*[a if a != str(out) else str(whole) for a in args], env=env).returncode == 0
    assert (out / "results.json").read_bytes() == (whole / "results.json").read_bytes()
    assert strip_timing(read_samples(out)) == strip_timing(read_samples(whole))


@pytest.fixture(scope="module")
def toy_run(tiny: Path, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("toy") / "run"
    _run(tiny, out, FakeCompletion(), solver="toy-two-step")
    return out


def test_view_shows_every_step_and_filters_in_chromium(toy_run: Path, tmp_path: Path, chromium) -> None:
    # the run is made before the browser starts: Playwright's own event loop must not be open during an eval
    out = toy_run
    r = cli("view", str(out), "--out", str(tmp_path / "page.html"))
    assert r.returncode == 0, r.stderr
    page = chromium.new_page()
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto((tmp_path / "page.html").as_uri())
    assert [u for u in requests if not u.startswith("file:")] == []  # self-contained
    samples = read_samples(out)
    results = json.loads((out / "results.json").read_text())
    macro = results["variants"]["base"]["speech"]["macro_accuracy"]
    assert f"base speech macro_accuracy {100 * macro:.1f}%" in page.inner_text("#headline")  # the run's headline on top, in %
    assert page.locator("details.sample").count() == len(samples)
    page.locator("details.item > summary").first.click()  # decodes are grouped by item (issue 36)
    first = page.locator("details.sample").first
    first.locator("summary").click()
    steps = first.locator(".step")
    assert steps.count() == 3 and "reflect" in steps.nth(0).inner_text() and "answer" in steps.nth(2).inner_text()
    assert "Think it over first." in steps.nth(0).inner_text()  # the step's own prompt, from responses.sqlite
    assert samples[0]["steps"][2]["output"] in steps.nth(2).inner_text()
    page.select_option("#f-task", "vote")
    assert page.locator("details.sample:not([hidden])").count() == sum(s["task"] == "vote" for s in samples)
    page.select_option("#f-task", "")
    page.select_option("#f-outcome", "wrong")
    assert page.locator("details.sample:not([hidden])").count() == sum(s["correct"] is False and not s["parse_error"] for s in samples)
    page.select_option("#f-outcome", "")
    page.select_option("#f-dimension", "RI")
    assert page.locator("details.sample:not([hidden])").count() == sum(s["dimension"] == "RI" for s in samples)


def test_view_of_a_run_without_samples_is_one_clear_line(tmp_path: Path) -> None:
    r = cli("view", str(tmp_path / "nope"))
    assert r.returncode != 0 and "not a run directory" in r.stderr and "Traceback" not in r.stderr


def test_progress_counts_samples_of_a_multi_step_solver(tiny: Path, tmp_path: Path) -> None:
    seen: list = []

    class Stub:
        def __init__(self, total: int, cached: int) -> None:
            seen.append(("total", total, cached))

        def event(self, name: str) -> None: ...
        def start(self) -> None: ...
        def stop(self) -> None: ...

        def done(self, outcome) -> None:
            seen.append(("done", outcome.ok, outcome.usage["total_tokens"]))

    settings = {"model": "openai/mock", "dataset": str(tiny), "decodes": 2, "tasks": ("speech", "vote"), "solver": "toy-two-step"}
    run_eval(EvalConfig(**settings), Execution(max_connections=3), out=tmp_path / "r", acompletion=FakeCompletion(),
             cache=False, progress_factory=Stub)
    dones = [s for s in seen if s[0] == "done"]
    assert seen[0] == ("total", 10, 0) and len(dones) == 10  # one per sample, not per call
    assert all(ok and tokens > 0 for _, ok, tokens in dones)


def test_solver_steps_go_through_the_shared_cache(tiny: Path, tmp_path: Path) -> None:
    settings = {"model": "openai/mock", "dataset": str(tiny), "decodes": 1, "tasks": ("speech",), "solver": "toy-two-step"}
    first = FakeCompletion()
    run_eval(EvalConfig(**settings), Execution(max_connections=2), out=tmp_path / "a", acompletion=first, cache=True)
    again = FakeCompletion()
    run_eval(EvalConfig(**settings), Execution(max_connections=2), out=tmp_path / "b", acompletion=again, cache=True)
    assert len(first.calls) == 8 and again.calls == []  # every step of another run directory came from the cache
    with Store(tmp_path / "b" / "responses.sqlite") as store:
        assert len(store.ok_keys()) == 8  # and the run's own store is complete without it
    assert strip_timing(read_samples(tmp_path / "a")) == strip_timing(read_samples(tmp_path / "b"))
