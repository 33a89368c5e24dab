"""The split judged once per dataset content: every model, rerun and re-score of the same dataset reads it.

Judging the faithful split builds a context for each speech item and reads its stem and options for hidden roles
(werealign.splits): about a second of every eval of the release, the largest fixed cost a run has beyond what a
plain request loop does. The judgment depends only on the dataset's files and the code that judges, so it is kept
beside the shared response cache (werealign.llm.cache) and off with it, keyed by the dataset's content hash, the task,
the split and the source of that code; a cache file that cannot be read, or does not fit the items, is judged again.
A dataset that is not a directory (none is, today) is judged every time.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from werealign.dataset import Dataset, content_sha256
from werealign.files import atomic_write_text
from werealign.llm.cache import cache_enabled, cache_path
from werealign.llm.keys import canonical_json
from werealign.splits import apply_split, unfaithful


@lru_cache(maxsize=1)
def _code_hash() -> str:
    """sha256 of the code the split's judgment runs: the splits, the leak checks (werealign.shortcuts), what a seat knows (game),
    how a context is worded (render), the role catalogue and the text helpers."""
    root = Path(__file__).resolve().parents[1]
    files = [root / "splits.py", root / "schema" / "roles.py", root / "schema" / "role_catalogue.json",
             *(sorted((root / d).glob("*.py")) for d in ("shortcuts", "game", "render", "text"))]
    h = hashlib.sha256()
    for f in (p for entry in files for p in (entry if isinstance(entry, list) else [entry])):
        h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def judged_split(ds: Dataset, task: str, items: Sequence[Any], split: str) -> tuple[list[Any], Counter[str]]:
    """apply_split(items, ds.games, split), from the cache when this dataset's items were judged before."""
    if split == "all" or ds.root is None or not cache_enabled():
        return apply_split(items, ds.games, split)
    key = hashlib.sha256(canonical_json({"dataset": content_sha256(ds.root), "task": task, "split": split,
                                         "items": [it.item_id for it in items], "code": _code_hash()}).encode()).hexdigest()
    path = cache_path().parent / "splits" / f"{key}.json"
    try:
        reasons = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(reasons, list) or len(reasons) != len(items) or not all(r is None or isinstance(r, str) for r in reasons):
            raise ValueError
    except (OSError, ValueError):
        # Items whose game is missing are kept, as apply_split keeps them: the planner names them as an error.
        reasons = [unfaithful(it, ds.games[it.game_id]) if it.game_id in ds.games else None for it in items]
        try:
            atomic_write_text(path, json.dumps(reasons))
        except Exception:  # noqa: BLE001 - a cache that cannot be written costs time, never a result
            pass
    return [it for it, why in zip(items, reasons, strict=True) if not why], Counter(why for why in reasons if why)
