"""A dataset's first run computes its split and floors in a child process while it imports litellm and sends
(werealign.eval.floors_ahead): the child's floors and split are the ones the run computes itself, to the byte; a
child that fails or plans other prompts changes nothing but time, and never outlives the run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_eval_cli import tiny_dataset  # noqa: E402

import werealign.eval.floors_cache as floors_cache  # noqa: E402
from werealign.dataset import load_dataset  # noqa: E402
from werealign.eval.floors import run_floors  # noqa: E402
from werealign.eval.floors_ahead import SWITCH_ENV, floors_ahead  # noqa: E402
from werealign.eval.plan import plan_run  # noqa: E402
from werealign.eval.rundir import run_record  # noqa: E402
from werealign.eval.runner import EvalConfig, Execution  # noqa: E402

pytestmark = pytest.mark.fresh_caches  # these check the floors and split caches (and the floors-ahead child) themselves

CHILD_S = 180.0  # a child on a loaded machine: imports, the dataset, the plan and the floors


def _planned(dataset: Path | None, **config):
    cfg = EvalConfig(model="openai/mock", dataset=str(dataset) if dataset else None, decodes=2, **config)
    ds = load_dataset(dataset)
    record = run_record(ds, cfg, Execution())
    return plan_run(ds, cfg), record


def _key(plan, record) -> str:
    return floors_cache.floors_key(plan, record.config.modes, record.dataset.content_sha256)


def test_the_childs_floors_and_split_are_the_runs_own_on_the_bundled_sample(private_response_cache: Path, monkeypatch) -> None:
    monkeypatch.setenv("WEREALIGN_CACHE", "off")  # judged and floored in process, nothing cached
    plan, record = _planned(None, split="faithful")  # every kind the sample has: each task's shortcuts and truth floors
    in_process = run_floors(plan, record.config.modes)
    monkeypatch.delenv("WEREALIGN_CACHE")
    with floors_ahead(record.config) as ahead:
        assert ahead is not None
        got = ahead.floors(_key(plan, record), timeout=CHILD_S)
        assert got is not None, ahead.stderr.decode(errors="replace")[-2000:]
        # the child cached the floors it computed: the run reads them there, computing none itself (its answer taken
        # above, the child is no longer pending: only the cache is left to read)
        floors_cache.PENDING.remove(ahead)
        monkeypatch.setattr(floors_cache, "run_floors", lambda *a: pytest.fail("the run computed floors the child had"))
        cached = floors_cache.cached_floors(plan, record.config.modes, record.dataset.content_sha256)
    assert json.dumps(got, ensure_ascii=False) == json.dumps(in_process, ensure_ascii=False) == json.dumps(cached, ensure_ascii=False)
    assert len(got["base"]) >= 2
    # the splits the child judged and cached give the run the plan it makes judging them itself
    assert len(list((private_response_cache / "splits").glob("*.json"))) >= 2
    assert plan_run(load_dataset(None), record.config) == plan


def test_the_run_takes_the_childs_floors(tmp_path: Path, monkeypatch) -> None:
    """With no cache the run reads the child's answer (the run reading the floors the child cached: the test above)."""
    plan, record = _planned(tiny_dataset(tmp_path / "ds", n_speech=5))
    expected = run_floors(plan, record.config.modes)
    monkeypatch.setattr(floors_cache, "run_floors", lambda *a: pytest.fail("the run computed floors the child had"))
    monkeypatch.setenv("WEREALIGN_CACHE", "off")  # no cache: the run reads the child's answer
    with floors_ahead(record.config) as ahead:
        assert ahead is not None
        got = floors_cache.cached_floors(plan, record.config.modes, record.dataset.content_sha256)
    assert json.dumps(got) == json.dumps(expected) and ahead.proc.returncode == 0


def test_a_child_that_planned_other_prompts_or_failed_is_not_taken(tmp_path: Path) -> None:
    root = tiny_dataset(tmp_path / "ds", n_speech=5)
    plan, record = _planned(root)
    other = record.config.model_copy(update={"seed": 1})  # other option orders: other prompts, another key
    with floors_ahead(other) as ahead:
        assert ahead is not None and ahead.floors(_key(plan, record), timeout=CHILD_S) is None
        assert ahead.proc.returncode == 0  # it computed them, for prompts that are not the run's
    gone = record.config.model_copy(update={"dataset": str(tmp_path / "nowhere")})
    with floors_ahead(gone) as ahead:
        assert ahead is not None and ahead.floors(_key(plan, record), timeout=CHILD_S) is None
        assert ahead.proc.returncode != 0 and b"nowhere" in ahead.stderr


def test_the_child_never_outlives_the_run_and_can_be_switched_off(tmp_path: Path, monkeypatch) -> None:
    plan, record = _planned(tiny_dataset(tmp_path / "ds", n_speech=5))
    with floors_ahead(record.config) as ahead:
        assert ahead is not None and ahead.proc.poll() is None  # just started: still importing
    assert ahead.proc.poll() is not None and ahead not in floors_cache.PENDING  # the run ended without asking: stopped, forgotten
    monkeypatch.setenv(SWITCH_ENV, "off")
    with floors_ahead(record.config) as ahead:
        assert ahead is None
