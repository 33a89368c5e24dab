"""Shared fixtures. Real WereBench data is read from ../shared/werebench, never copied."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
WEREBENCH = REPO.parent / "shared" / "werebench" / "dataset"


@pytest.fixture(scope="session")
def werebench_src() -> Path:
    """The WereBench release subset; tests that use it skip when it is absent."""
    if not (WEREBENCH / "WereBench" / "WereBench.json").is_file():
        pytest.skip("../shared/werebench is not present")
    return WEREBENCH


@pytest.fixture(autouse=True)
def private_response_cache(tmp_path_factory, monkeypatch) -> Path:
    """Every test gets its own shared response cache (never the user's); subprocesses inherit it."""
    path = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("WEREALIGN_CACHE_DIR", str(path))
    monkeypatch.delenv("WEREALIGN_CACHE", raising=False)
    return path
