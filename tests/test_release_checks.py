"""`werealign release` checks first (issue 21): invalid datasets, stale manifests and unreviewed items are
refused with one line naming the fix, before anything is written; --allow-unreviewed lets the last pass."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_eval_cli import cli, tiny_dataset  # noqa: E402

from werealign.dataset import load_dataset, write_dataset  # noqa: E402
from werealign.schema import ItemProvenance  # noqa: E402


def _rewrite(src: Path, dst: Path, **change_items) -> Path:
    """The dataset written again (a fresh manifest) with every item's fields updated by `change_items`."""
    ds = load_dataset(src)
    items = {k: [i.model_copy(update={name: f(i) for name, f in change_items.items()}) for i in v] for k, v in ds.items.items()}
    write_dataset(dst, name="tiny", version="0.0.1", licence="Apache-2.0", games=list(ds.games.values()),
                  items={"speech": items.get("speech", []), "vote": items.get("vote", []), "opponent": items.get("opponent", [])}, osr=ds.osr)
    return dst


@pytest.fixture(scope="module")
def unreviewed(tmp_path_factory) -> Path:
    return tiny_dataset(tmp_path_factory.mktemp("ds") / "tiny")


def test_unreviewed_items_are_refused_unless_allowed(unreviewed: Path, tmp_path: Path) -> None:
    out = tmp_path / "release"
    r = cli("release", str(unreviewed), "--out", str(out))
    assert r.returncode != 0 and not out.exists()
    [line] = r.stderr.strip().splitlines()
    assert "not reviewed (unreviewed), first tiny-" in line and "--allow-unreviewed" in line and "werealign review" in line
    r = cli("release", str(unreviewed), "--out", str(out), "--allow-unreviewed")
    assert r.returncode == 0, r.stderr
    assert (out / "README.md").is_file()


def test_reviewed_and_derived_items_release_without_the_flag(unreviewed: Path, tmp_path: Path) -> None:
    reviewed = _rewrite(unreviewed, tmp_path / "reviewed", provenance=lambda i: ItemProvenance(
        review="edited" if i.item_id.endswith("1") else "accepted"))
    assert cli("release", str(reviewed), "--out", str(tmp_path / "a")).returncode == 0
    derived = _rewrite(unreviewed, tmp_path / "derived", provenance=lambda i: ItemProvenance(
        review="accepted" if i.item_id.startswith("tiny-s") else "unreviewed", source_ref={"derived": "by hand, invented"}))
    assert cli("release", str(derived), "--out", str(tmp_path / "b")).returncode == 0
    rejected = _rewrite(unreviewed, tmp_path / "rejected", provenance=lambda i: ItemProvenance(
        review="rejected" if i.item_id == "tiny-s3" else "accepted"))
    r = cli("release", str(rejected), "--out", str(tmp_path / "c"))
    assert r.returncode != 0 and "1 speech item(s) are not reviewed (rejected), first tiny-s3" in r.stderr


def test_stale_manifest_is_refused_even_with_the_flag(unreviewed: Path, tmp_path: Path) -> None:
    import shutil

    src = tmp_path / "stale"
    shutil.copytree(unreviewed, src)
    path = src / "items" / "vote.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows[0]["answer"] = rows[0]["candidates"][0]  # a hand edit after the manifest was written
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = cli("release", str(src), "--out", str(tmp_path / "out"), "--allow-unreviewed")
    assert r.returncode != 0 and not (tmp_path / "out").exists()
    [line] = r.stderr.strip().splitlines()
    assert "dataset.json" in line and "manifest is stale" in line and "items/vote.jsonl" in line


def test_invalid_dataset_is_refused_naming_validate(unreviewed: Path, tmp_path: Path) -> None:
    bad = _rewrite(unreviewed, tmp_path / "bad", cutoff_segment=lambda i: 999)
    r = cli("release", str(bad), "--out", str(tmp_path / "out"), "--allow-unreviewed")
    assert r.returncode != 0 and not (tmp_path / "out").exists()
    [line] = r.stderr.strip().splitlines()
    assert "validation error(s), first:" in line and "werealign validate" in line and "tiny-" in line
