"""Behaviour unchanged (issue 11): the built-in models give the pinned results.json numbers.

The pins were computed by the code before the refactor into tasks/, llm/ and the split runner; see
tests/pin_results.py for what is pinned and how to re-pin after an intended change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pin_results import PINS, compute

PINNED = json.loads(PINS.read_text(encoding="utf-8"))


def _check(setup: str, got: dict, hint: str) -> None:
    want = PINNED[setup]
    assert got["content_sha256"] == want["content_sha256"], (
        f"the {setup} dataset's content changed since the pin; {hint} if that was intended, re-pin with "
        "`python tests/pin_results.py` and review the diff"
    )
    for model, numbers in want["models"].items():
        assert got["models"][model] == numbers, f"{setup}: {model} scores changed"


def test_builtin_scores_on_the_sample_are_pinned(tmp_path: Path) -> None:
    _check("sample", compute("sample", None, tmp_path), "")


@pytest.mark.werebench
def test_builtin_scores_on_werebench_are_pinned(werebench_import, tmp_path: Path) -> None:
    # the session's one import of the real release (conftest), made as pin_results.py makes it: the importer, defaults
    _check("werebench", compute("werebench", werebench_import.path, tmp_path / "runs"), "(the importer's output differs)")
