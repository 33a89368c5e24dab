"""Floors computed once per dataset and prompts: every model, rerun and re-score of the same items and
prompts reuses them (the shortcut models, the options-only attack among them, take seconds on a release).

Keyed by the dataset's content hash, the run's modes, every decode's prompts (by item, variant and a
hash of the messages: the model's name is not part of a prompt) and the source of the code that computes
floors, so a changed baseline or scoring rule is never served a stale floor. Kept beside the shared
response cache (werealign.llm.cache) and off with it; a cache file that cannot be read is recomputed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from werealign.eval.floors import run_floors
from werealign.eval.plan import Planned
from werealign.files import atomic_write_text
from werealign.llm.cache import cache_enabled, cache_path
from werealign.llm.keys import canonical_json

Floors = dict[str, dict[str, dict[str, Any]]]


@lru_cache(maxsize=1)
def _code_hash() -> str:
    """sha256 of the modules floors depend on: the shortcut models (their policies too), the text helpers they read with, floors, the tasks."""
    root = Path(__file__).resolve().parents[1]
    files = [root / "eval" / "floors.py", root / "llm" / "builtin_models.py", *sorted((root / "baselines").glob("*.py")), root / "text" / "similarity.py", root / "text" / "seat_numbers.py", root / "text" / "seat_names.py",
             *sorted((root / "tasks").glob("*.py")), root / "shortcuts" / "context.py", root / "shortcuts" / "seats.py"]
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def floors_key(plan: Sequence[Planned], modes: dict[str, str], content_sha256: str) -> str:
    h = hashlib.sha256(canonical_json({"dataset": content_sha256, "modes": modes, "code": _code_hash()}).encode())
    for p in plan:  # every decode's prompt: the shortcut floors read each (werealign.eval.floors)
        h.update(f"{p.task}\0{p.variant}\0{p.item.item_id}\0{p.decode}\0".encode())
        h.update(hashlib.sha256(canonical_json(p.messages).encode()).digest())
    return h.hexdigest()


# Floors being computed elsewhere for the run in progress (werealign.eval.floors_ahead's child): each has
# `floors(key)`, the floors of `key` or None. Handed over once, to the run's cached_floors.
PENDING: list[Any] = []


def cached_path(key: str) -> Path | None:
    """Where the floors of `key` are cached (None: the cache is off)."""
    return cache_path().parent / "floors" / f"{key}.json" if cache_enabled() else None


def cached_floors(plan: Sequence[Planned], modes: dict[str, str], content_sha256: str) -> Floors:
    """run_floors(plan, modes), from the cache when these prompts were floored before (or from the child process
    computing them while the run sent its requests, werealign.eval.floors_ahead)."""
    key = floors_key(plan, modes, content_sha256)
    path = cached_path(key)
    if path is not None:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    pending = PENDING.pop() if PENDING else None
    floors = (pending.floors(key) if pending is not None else None) or run_floors(plan, modes)
    if path is not None:
        try:
            atomic_write_text(path, json.dumps(floors, ensure_ascii=False))  # key order kept: results.json shows it
        except Exception:  # noqa: BLE001 - a cache that cannot be written costs time, never a result
            pass
    return floors
