"""`werealign eval --dataset` reads what `werealign release` wrote: a folder, hf:ORG/NAME (offline cache), #CONFIG."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from cli_inproc import run_cli
from werealign.dataset import bundled_sample_path, load_dataset, write_dataset
from werealign.errors import UserError
from werealign.eval.rundir import content_sha256
from werealign.release.build import build_release


@pytest.fixture
def offline(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))  # a fresh cache: nothing from an earlier test
    import datasets
    import huggingface_hub.constants

    # Both libraries read these once, at import: an earlier test may have imported them already.
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-home" / "datasets")
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True, raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    return datasets


def _subset(tmp_path: Path, keep: int) -> Path:
    """A second dataset directory over the same games, with some of the speech items (as a filtered split)."""
    ds = load_dataset(None)
    m = ds.manifest
    root = tmp_path / "subset"
    root.mkdir()
    write_dataset(root, name="sample-filtered", version="0.1", licence=m.licence, games=list(ds.games.values()),
                  items={"speech": ds.speech[:keep], "vote": ds.vote, "opponent": ds.opponent}, description="kept by an invented filter")
    return root


def _eval(dataset: str, out: Path, *extra: str) -> dict:
    r = run_cli("eval", "--model", "werealign/longest", "--dataset", dataset, "--decodes", "1", "--out", out, "-q", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads((out / "run.json").read_text())


def test_eval_reads_a_release_folder_as_the_directory_it_was_built_from(offline, tmp_path):
    build_release(None, tmp_path / "rel")
    record = _eval(str(tmp_path / "rel"), tmp_path / "run")
    # The same games, items and rewrites, byte for byte: the run scores the data the release was built from.
    assert record["dataset"]["content_sha256"] == content_sha256(bundled_sample_path())
    assert record["dataset"]["name"] == load_dataset(None).manifest.name
    r = run_cli("score", tmp_path / "run")  # re-scoring finds the release again
    assert r.returncode == 0, r.stderr


def test_eval_reads_hf_repo_from_the_local_cache_offline(offline, tmp_path):
    folder = tmp_path / "werebench-mini"
    build_release(None, folder)
    # Fill the datasets cache as a download of org/werebench-mini would (offline: no network here).
    for config in ("manifest", "games", "speech", "vote", "opponent", "osr"):
        offline.load_dataset(str(folder), config, split="test")
    cache = tmp_path / "hf-home" / "datasets"
    (cache / "werebench-mini").rename(cache / "org___werebench-mini")
    shutil.rmtree(folder)  # nothing left to read but the cache
    record = _eval("hf:org/werebench-mini", tmp_path / "run")
    assert record["dataset"]["content_sha256"] == content_sha256(bundled_sample_path())
    assert record["config"]["dataset"] == "hf:org/werebench-mini"


def test_a_repo_missing_from_the_offline_cache_is_one_line(offline, tmp_path):
    r = run_cli("eval", "--model", "werealign/longest", "--dataset", "hf:org/not-cached", "--out", tmp_path / "run")
    assert r.returncode != 0
    assert r.stderr.count("\n") == 1 and "hf:org/not-cached" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "run").exists()


def test_an_extra_config_ships_and_evaluates_on_its_own(offline, tmp_path):
    subset = _subset(tmp_path, keep=7)
    build_release(None, tmp_path / "rel", extras={"filtered": subset})
    card = (tmp_path / "rel" / "README.md").read_text()
    head = yaml.safe_load(card.split("---\n")[1])
    assert "filtered" in {c["config_name"] for c in head["configs"]}
    assert "Config `filtered`:" in card and "--dataset '.#filtered'" in card
    _eval(f"{tmp_path / 'rel'}#filtered", tmp_path / "run", "--tasks", "speech")
    samples = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert {s["item_id"] for s in samples} == {i.item_id for i in load_dataset(subset).speech}


def test_an_extra_config_from_other_games_is_refused(tmp_path):
    ds = load_dataset(None)
    game = next(iter(ds.games.values()))
    other = game.model_copy(update={"game_id": "invented-other-game"})
    item = ds.speech[0].model_copy(update={"game_id": other.game_id})
    root = tmp_path / "other"
    write_dataset(root, name="x", version="1", licence="cc-by-4.0", games=[other], items={"speech": [item], "vote": [], "opponent": []})
    with pytest.raises(UserError, match="invented-other-game"):
        build_release(None, tmp_path / "rel", extras={"other": root})
    assert not (tmp_path / "rel").exists()


def test_card_says_how_to_install_cite_and_where_the_data_comes_from(tmp_path):
    build_release(None, tmp_path / "rel", reference="hf:org/name")
    card = (tmp_path / "rel" / "README.md").read_text()
    head = yaml.safe_load(card.split("---\n")[1])
    assert head["annotations_creators"] and set(head["annotations_creators"]) <= {
        "expert-generated", "machine-generated", "crowdsourced", "found", "no-annotation", "other"}
    assert head["source_datasets"] in (["original"], ["extended"])
    assert "pip install ./werealign" in card and "not on a package index" in card
    assert "--dataset 'hf:org/name'" in card
    assert "@article{" in card and "arXiv:2510.11389" in card
    audit_header = next(line for line in card.splitlines() if line.startswith("| dimension |"))
    assert "options-only" in audit_header and "key-longest" in audit_header


def test_the_cards_own_command_works_from_inside_the_release(offline, tmp_path):
    """What 'How to evaluate' says, run as it says (a built-in model instead of a paid one)."""
    build_release(None, tmp_path / "rel")
    card = (tmp_path / "rel" / "README.md").read_text()
    command = next(line for line in card.splitlines() if line.startswith("werealign eval "))
    args = command.split()[1:]
    args[args.index("--model") + 1] = "werealign/lexical"
    args = [a.strip("'") for a in args]
    r = run_cli(*args, "-q", cwd=tmp_path / "rel")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "runs" / "gpt-4o-mini" / "results.json").is_file()
