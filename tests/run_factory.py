"""Run directories written the way `werealign eval` writes them, without a model: for leaderboard tests.

Correctness is decided by a stable hash against a per-model skill, so scores differ between models
and decodes, are reproducible, and results.json is computed by the real scoring code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from werealign.eval.scoring import score_samples

DIMS = ("RI", "SJ", "DR", "PS", "CT")
# Invented roles: the tables must take whatever roles the runs hold.
ROLES = ("moon-priestess", "lantern-keeper", "villager")


def _unit(*parts: object) -> float:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def make_samples(model: str, skill: float, *, games: int = 4, decodes: int = 3, variants: Sequence[str] = ("base",),
                 tasks: Sequence[str] = ("speech", "vote", "opponent"), dims: Sequence[str] = DIMS,
                 correct: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    rows = []
    for variant in variants:
        for g in range(games):
            game, role = f"game-{g}", ROLES[g % len(ROLES)]
            items: list[tuple[str, str, str | None]] = []
            if "speech" in tasks:
                items += [("speech", f"{game}-{d}-{k}", d) for d in dims for k in range(2)]
            if "vote" in tasks:
                items.append(("vote", f"{game}-VA", None))
            if "opponent" in tasks:
                items.append(("opponent", f"{game}-OI", None))
            for task, item_id, dim in items:
                for decode in range(decodes):
                    row = {"task": task, "item_id": item_id, "game_id": game, "dimension": dim, "viewpoint_seat": 3,
                           "viewpoint_role": role, "variant": variant, "decode": decode}
                    ok = correct(row) if correct else _unit(model, item_id, variant, decode) < skill
                    gold: Any = {"speech": "C", "vote": 5, "opponent": [1, 4, 9]}[task]
                    answer: Any = gold if ok else {"speech": "A", "vote": 2, "opponent": [1, 2]}[task]
                    rows.append({**row, "option_order": None, "key": f"{model}|{item_id}|{variant}|{decode}",
                                 "gold": gold, "reply": f"Answer: {answer}", "answer": answer, "correct": ok,
                                 "parse_error": None, "request_error": None, "attempts": 1, "finish_reason": "stop",
                                 "prompt_tokens": 100, "completion_tokens": 5, "cost": 0.0, "latency": 0.01})
    return rows


def write_run(root: Path, model: str, skill: float = 0.5, *, dataset_sha: str = "d" * 64, prompt_version: str = "v1",
              protocol: str = "paired", missing: int = 0, decodes: int = 3, **kw: Any) -> Path:
    """A run directory; `missing` > 0 makes it a half-finished run (complete false)."""
    samples = make_samples(model, skill, decodes=decodes, **kw)
    dataset = {"path": None, "name": "invented", "version": "1", "manifest_sha256": "m" * 64, "content_sha256": dataset_sha}
    versions = {"werealign": "0.1.0", "litellm": "1.106.2", "prompt_version": prompt_version, "templates_sha256": "t" * 64}
    variants = sorted({s["variant"] for s in samples})
    record = {"format": "werealign-run/1",
              "config": {"model": model, "dataset": None, "tasks": ["speech", "vote", "opponent"], "variants": variants,
                         "protocol": protocol, "decodes": decodes, "permute": True, "seed": 0, "limit": None,
                         "temperature": 0.7, "max_tokens": 1024},
              "execution": {"api_base": None}, "dataset": dataset, "versions": versions}
    results = {"format": "werealign-run/1", "model": model, "dataset": dataset, "versions": versions,
               **score_samples(samples, planned=len(samples) + missing)}
    root.mkdir(parents=True, exist_ok=True)
    (root / "run.json").write_text(json.dumps(record))
    (root / "results.json").write_text(json.dumps(results))
    (root / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    return root
