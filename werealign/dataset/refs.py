"""What a `--dataset` value names, resolved to the dataset directory `load_dataset` reads.

A reference is a dataset directory, nothing (the bundled sample), a folder written by `werealign release`
(a dataset card and data/, no dataset.json) or `hf:ORG/NAME` on the Hugging Face Hub; either release may end
in `#CONFIG` to read that config in place of the speech items. A release becomes a dataset directory in
werealign's cache (werealign.dataset.release_reader). Eval, score and the Python API resolve through here.
"""

from __future__ import annotations

import re
from pathlib import Path

from werealign.dataset.release_layout import CONFIG_SEP
from werealign.errors import UserError

HUB_PREFIX = "hf:"


def _parts(ref: str) -> tuple[str, str]:
    """(release, config): `REF#CONFIG` split, unless `#` is part of an existing path's name."""
    source, _, config = ref.partition(CONFIG_SEP) if not Path(ref).exists() else (ref, "", "")
    return source, config


def is_release_ref(path: Path | str) -> bool:
    """`hf:ORG/NAME[#CONFIG]`, or a folder holding a dataset card and data/ but no dataset.json."""
    text = str(path)
    if text.startswith(HUB_PREFIX):
        return True
    folder = Path(_parts(text)[0])
    return folder.is_dir() and (folder / "README.md").is_file() and (folder / "data").is_dir() \
        and not (folder / "dataset.json").exists()


def release_source(ref: str) -> tuple[str, str | None]:
    """(where `datasets` loads the release from, the extra config or None)."""
    source, config = _parts(ref)
    if source.startswith(HUB_PREFIX):
        repo = source[len(HUB_PREFIX):]
        if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
            raise UserError(f"--dataset {ref}: expected hf:ORG/NAME (a Hugging Face dataset repo)")
        return repo, config or None
    # An absolute path: `datasets` names a dataset after its folder, and "." has no name.
    return str(Path(source).resolve()), config or None


def dataset_path(ref: Path | str | None) -> Path | None:
    """What `load_dataset` reads for a `--dataset` value: a release (a folder `release` wrote, hf:ORG/NAME,
    REF#CONFIG) becomes its dataset directory in werealign's cache; a directory (or None, the bundled
    sample) is returned as given."""
    if ref is None or not is_release_ref(ref):
        return None if ref is None else Path(ref)
    from werealign.dataset.release_reader import release_to_dataset
    from werealign.llm.cache import cache_path

    source, extra = release_source(str(ref))
    return release_to_dataset(source, extra, str(ref), cache_path().parent / "releases")
