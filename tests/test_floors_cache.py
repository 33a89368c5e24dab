"""Floors are computed once per dataset and prompts (issue 21, speed): a second model, a rerun or a
re-score reuses them, byte for byte; other prompts or another mode get their own."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_llm import FakeCompletion  # noqa: E402
from test_eval_cli import tiny_dataset  # noqa: E402

import werealign.eval.floors_cache as floors_cache  # noqa: E402
from werealign.eval.runner import EvalConfig, Execution, run_eval, score_run  # noqa: E402
import pytest

pytestmark = pytest.mark.fresh_caches  # these check the floors and split caches (and the floors-ahead child) themselves


def test_floors_are_cached_per_dataset_and_prompts(tmp_path: Path, private_response_cache: Path, monkeypatch) -> None:
    ds = tiny_dataset(tmp_path / "ds", n_speech=5)
    calls: list[int] = []
    real = floors_cache.run_floors
    monkeypatch.setattr(floors_cache, "run_floors", lambda plan, modes: calls.append(1) or real(plan, modes))

    def run(model: str, out: str, **config):
        return run_eval(EvalConfig(model=model, dataset=str(ds), decodes=2, **config), Execution(max_connections=2),
                        out=tmp_path / out, acompletion=FakeCompletion(), cache=False)

    run("openai/a", "a")
    assert len(calls) == 1 and len(list((private_response_cache / "floors").glob("*.json"))) == 1
    run("openai/b", "b")  # another model, the same prompts: the same floors, not recomputed
    score_run(tmp_path / "a")
    assert len(calls) == 1
    a = (tmp_path / "a" / "results.json").read_text()
    b = (tmp_path / "b" / "results.json").read_text()
    assert a.split('"floors"')[1:] == b.split('"floors"')[1:]  # every floors block, byte for byte
    monkeypatch.setenv("WEREALIGN_CACHE", "off")
    score_run(tmp_path / "a")  # computed afresh: the same bytes as the cached ones
    assert len(calls) == 2 and (tmp_path / "a" / "results.json").read_text() == a
    monkeypatch.delenv("WEREALIGN_CACHE")
    run("openai/a", "c", variants=("base", "rr"))  # other prompts (rule reminders): their own floors
    run("openai/a", "d", modes={"opponent": "set-accuracy"})  # another mode: its own floors
    assert len(calls) == 4
