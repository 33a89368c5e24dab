"""Observer speech items (viewpoint_seat null) end to end: validate, eval, score, re-score.

The dataset is the bundled sample with two speech items turned into observer items; nothing here
comes from the WereBench release.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cli_inproc import run_cli
from werealign.dataset import load_dataset, write_dataset


def cli(*args: str) -> subprocess.CompletedProcess:
    return run_cli(*args)


@pytest.fixture(scope="module")
def observer_dataset(tmp_path_factory) -> tuple[Path, set[str]]:
    sample = load_dataset()
    speech = list(sample.speech)
    observers = {speech[0].item_id, speech[-1].item_id}
    speech = [i.model_copy(update={"viewpoint_seat": None}) if i.item_id in observers else i for i in speech]
    root = tmp_path_factory.mktemp("obs") / "ds"
    write_dataset(root, name="observer-test", version="0.0.1", licence="Apache-2.0", games=list(sample.games.values()),
                  items={"speech": speech, "vote": sample.vote, "opponent": sample.opponent}, osr=sample.osr)
    return root, observers


def test_observer_dataset_validates(observer_dataset):
    root, _ = observer_dataset
    r = cli("validate", str(root))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "viewpoint" not in r.stdout


def test_eval_breaks_observer_items_down_under_observer(observer_dataset, tmp_path):
    root, observers = observer_dataset
    out = tmp_path / "run"
    r = cli("eval", "--model", "werealign/random", "--dataset", str(root), "--tasks", "speech", "--decodes", "2", "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    obs = [s for s in samples if s["item_id"] in observers]
    assert len(obs) == 2 * len(observers)
    assert all(s["viewpoint_seat"] is None and s["viewpoint_role"] == "observer" and s["request_error"] is None for s in obs)
    assert all(s["viewpoint_role"] != "observer" for s in samples if s["item_id"] not in observers)
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    by_role = results["variants"]["base"]["speech"]["by_viewpoint_role"]
    assert by_role["observer"]["answered"] == len(obs)
    assert sum(g["answered"] for g in by_role.values()) == len(samples)
    # re-scoring from the stored responses gives the same bytes
    before = (out / "results.json").read_bytes()
    r = cli("score", str(out))
    assert r.returncode == 0, r.stderr
    assert (out / "results.json").read_bytes() == before
