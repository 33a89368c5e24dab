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


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture()
def chromium():
    """Debian's chromium driven by Playwright (Playwright's own browser download cannot work here).

    Skips when either is missing; `.ci/run` installs both. One per test: Playwright's sync API runs an
    event loop of its own, which must not be open while a test runs asyncio.
    """
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
