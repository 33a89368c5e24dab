"""Issue 35: the dataset layer says what a `--dataset` value names (werealign.dataset.refs), so eval resolves a
release without importing the release package. Invented folders only: no `datasets` call is made here."""

from __future__ import annotations

from pathlib import Path

import pytest

from werealign.dataset.refs import dataset_path, is_release_ref, release_source
from werealign.errors import UserError


def _release_like(folder: Path) -> Path:
    (folder / "data" / "anything").mkdir(parents=True)
    (folder / "README.md").write_text("---\n---\n", encoding="utf-8")
    return folder


def test_a_directory_or_nothing_is_returned_as_given(tmp_path):
    plain = tmp_path / "my#dataset"  # a '#' in an existing folder's name is part of the name, not a config
    plain.mkdir()
    (plain / "dataset.json").write_text("{}", encoding="utf-8")
    assert dataset_path(None) is None
    assert dataset_path(plain) == plain and dataset_path(str(plain)) == plain
    assert not is_release_ref(plain)


def test_a_release_folder_is_told_from_a_dataset_directory_by_its_card_and_data(tmp_path):
    release = _release_like(tmp_path / "moonlit-release")
    assert is_release_ref(release) and is_release_ref(f"{release}#whispers")
    assert release_source(f"{release}#whispers") == (str(release.resolve()), "whispers")
    assert release_source(str(release)) == (str(release.resolve()), None)
    (release / "dataset.json").write_text("{}", encoding="utf-8")  # a dataset directory that happens to have a card
    assert not is_release_ref(release)


def test_hub_references_name_org_and_repo():
    assert is_release_ref("hf:lantern-guild/dusk-items#extra")
    assert release_source("hf:lantern-guild/dusk-items#extra") == ("lantern-guild/dusk-items", "extra")
    with pytest.raises(UserError, match=r"--dataset hf:no-slash: expected hf:ORG/NAME"):
        release_source("hf:no-slash")
