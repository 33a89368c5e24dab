"""The faithful split is judged once per dataset content (werealign.eval.split_cache): a rerun reads it, a changed
dataset, item list or unreadable cache file is judged again, and the result is apply_split's."""

from __future__ import annotations

import shutil

import pytest

from werealign.dataset import bundled_sample_path, load_dataset
from werealign.eval import split_cache
from werealign.splits import apply_split

pytestmark = pytest.mark.fresh_caches  # these check the floors and split caches (and the floors-ahead child) themselves


def test_judged_once_then_read_and_the_same_as_apply_split(tmp_path, monkeypatch):
    monkeypatch.setenv("WEREALIGN_CACHE_DIR", str(tmp_path / "cache"))
    shutil.copytree(bundled_sample_path(), tmp_path / "ds")
    ds = load_dataset(tmp_path / "ds")
    items = ds.items_of("speech")
    assert len(items) >= 3
    # an invented judgment: it says nothing about the real checks, only whether the cache answers in their place
    calls: list[str] = []

    def judge(item, game):
        calls.append(item.item_id)
        return "invented_reason" if item.item_id == items[1].item_id else None

    monkeypatch.setattr(split_cache, "unfaithful", judge)
    kept, left = split_cache.judged_split(ds, "speech", items, "faithful")
    assert [it.item_id for it in kept] == [it.item_id for i, it in enumerate(items) if i != 1]
    assert left == {"invented_reason": 1} and len(calls) == len(items)

    again = split_cache.judged_split(ds, "speech", items, "faithful")
    assert again == (kept, left) and len(calls) == len(items)  # read, not judged again

    split_cache.judged_split(ds, "speech", items[:2], "faithful")  # other items: judged
    assert len(calls) == len(items) + 2

    for f in (tmp_path / "cache" / "splits").iterdir():
        f.write_text("[not json", encoding="utf-8")
    assert split_cache.judged_split(ds, "speech", items, "faithful") == (kept, left)  # an unreadable file: judged again
    assert len(calls) == 2 * len(items) + 2

    game_file = next((tmp_path / "ds" / "games").iterdir())  # the dataset's content changes: judged again
    game_file.write_text(game_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    split_cache.judged_split(load_dataset(tmp_path / "ds"), "speech", items, "faithful")
    assert len(calls) == 3 * len(items) + 2


def test_all_and_no_cache_judge_as_apply_split_does(tmp_path, monkeypatch):
    monkeypatch.setenv("WEREALIGN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("WEREALIGN_CACHE", "off")
    ds = load_dataset(None)
    for task in ("speech", "vote", "opponent"):
        items = ds.items_of(task)
        assert split_cache.judged_split(ds, task, items, "faithful") == apply_split(items, ds.games, "faithful")
        assert split_cache.judged_split(ds, task, items, "all") == apply_split(items, ds.games, "all")
    assert not (tmp_path / "cache").exists()
