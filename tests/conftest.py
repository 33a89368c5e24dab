"""Shared fixtures. Real WereBench data is read from ../shared/werebench, never copied."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# The suite is run again and again, and its CLI tests start fresh interpreters: where the environment turns Python's
# bytecode cache off (PYTHONDONTWRITEBYTECODE), every worker and every subprocess recompiled every module, and pytest
# rewrote every test module's asserts anew. Keep the cache for the suite (git ignores __pycache__).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)



@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """The collector as the CLI runs it (werealign.gc_tuning): a worker holds the release and its items for the whole
    session, and with the default threshold spent ~8% of its CPU re-walking them (BENCHMARKS.md, "garbage collector")."""
    from werealign.gc_tuning import collect_less

    collect_less()


REPO = Path(__file__).resolve().parents[1]
WEREBENCH = REPO.parent / "shared" / "werebench" / "dataset"


@pytest.fixture(scope="session")
def werebench_src() -> Path:
    """The WereBench release subset; tests that use it skip when it is absent."""
    if not (WEREBENCH / "WereBench" / "WereBench.json").is_file():
        pytest.skip("../shared/werebench is not present")
    return WEREBENCH


@dataclass(frozen=True)
class ImportedWerebench:
    path: Path  # the dataset directory written by `werealign import werebench`
    stdout: str  # what the command printed (its counts)


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


@pytest.fixture(scope="session")
def werebench_import(werebench_src: Path, tmp_path_factory) -> Iterator[ImportedWerebench]:
    """The real release imported once per session by the CLI (in-process), shared read-only by every test that only
    reads an imported WereBench dataset. A test that changed it would fail here, at teardown."""
    from cli_inproc import run_cli

    out = tmp_path_factory.mktemp("werebench-import") / "ds"
    r = run_cli("import", "werebench", werebench_src, "--out", out)
    assert r.returncode == 0, r.stderr
    digest = _tree_digest(out)
    yield ImportedWerebench(out, r.stdout)
    assert _tree_digest(out) == digest, f"a test wrote into the shared WereBench import {out}; copy it first"


@pytest.fixture(scope="session")
def werebench_validated(werebench_import):
    """`werealign validate --format json` of the shared import, run once (the real data takes seconds to check)."""
    from cli_inproc import run_cli

    return run_cli("validate", werebench_import.path, "--format", "json")


def _dataset_digest(ds) -> str:
    h = hashlib.sha256()
    for part in (ds.manifest, *ds.games.values(), *(i for kind in sorted(ds.items) for i in ds.items[kind]),
                 *(r for game_id in sorted(ds.osr) for r in ds.osr[game_id])):
        h.update(part.model_dump_json().encode() + b"\0")
    return h.hexdigest()


@pytest.fixture(scope="session")
def werebench_dataset(werebench_import):
    """`load_dataset` of the shared import, loaded once (0.4 s each, and some twenty tests read it), shared read-only:
    a test that changes a game or an item must copy it first (`model_copy`); one that did not fails here, at teardown."""
    from werealign.dataset import load_dataset

    ds = load_dataset(werebench_import.path)
    digest = _dataset_digest(ds)
    yield ds
    assert _dataset_digest(ds) == digest, "a test changed the shared loaded WereBench dataset; model_copy it first"


@pytest.fixture(scope="session")
def werebench_decisions(werebench_dataset) -> Iterator[dict]:
    """game id -> `derive_decisions(game, "all")` for every game of the shared import, derived once (about 3 s of CPU;
    several tests read every decider's items of the release). Read-only, like werebench_dataset: checked at teardown."""
    from werealign.game.decisions import derive_decisions

    def digest(derived: dict) -> str:
        h = hashlib.sha256()
        for game_id in sorted(derived):
            for kind in sorted(derived[game_id].items):
                for item in derived[game_id].items[kind]:
                    h.update(item.model_dump_json().encode() + b"\0")
            h.update(repr(derived[game_id].notes).encode())
        return h.hexdigest()

    derived = {game_id: derive_decisions(game, "all") for game_id, game in werebench_dataset.games.items()}
    before = digest(derived)
    yield derived
    assert digest(derived) == before, "a test changed the shared derived WereBench decisions; copy them first"


@dataclass(frozen=True)
class AuditedWerebench:
    split: Path  # the filtered split written by `werealign audit --filtered-out`
    result: object  # the command's subprocess.CompletedProcess-like result (returncode, stdout, stderr)


@pytest.fixture(scope="session")
def werebench_audit(werebench_import, tmp_path_factory) -> AuditedWerebench:
    """`werealign audit RELEASE --filtered-out SPLIT --format json --strict` of the shared import, run once: the audit
    of the real release takes tens of seconds of CPU, and --filtered-out prints the same audit (and exits 1 under
    --strict) after writing its split, so the audit's test and the split's test read one run."""
    from cli_inproc import run_cli

    split = tmp_path_factory.mktemp("werebench-audit") / "split"
    return AuditedWerebench(split, run_cli("audit", werebench_import.path, "--filtered-out", split, "--format", "json",
                                           "--strict"))


@pytest.fixture(scope="session")
def derived_caches(tmp_path_factory) -> Path:
    """One folder per worker for what eval derives from a dataset and its prompts alone: the floors (the shortcut
    models, the context attacks and their fits) and the faithful split. Each is keyed by the dataset's content, the
    prompts and the source of the code that computes it (werealign.eval.floors_cache, split_cache), so tests may
    share them: the bundled sample's floors are computed once per worker, not once in each of ~100 evals."""
    root = tmp_path_factory.mktemp("derived")
    for name in DERIVED:
        (root / name).mkdir()
    return root


DERIVED = ("floors", "splits")  # the folders beside the response cache that derived_caches shares


@pytest.fixture(autouse=True)
def private_response_cache(tmp_path_factory, monkeypatch, request, derived_caches) -> Path:
    """Every test gets its own shared response cache (never the user's); subprocesses inherit it. The floors and
    splits beside it are the worker's (derived_caches), and computed in process, not by the floors-ahead child
    (an interpreter that plans the run again: seconds of CPU per eval), except in tests marked `fresh_caches`,
    which check those caches and that child themselves."""
    path = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("WEREALIGN_CACHE_DIR", str(path))
    monkeypatch.delenv("WEREALIGN_CACHE", raising=False)
    if request.node.get_closest_marker("fresh_caches") is None:
        for name in DERIVED:
            (path / name).symlink_to(derived_caches / name, target_is_directory=True)
        monkeypatch.setenv("WEREALIGN_FLOORS_AHEAD", "off")
    return path


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def _chromium_browser() -> Iterator:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture()
def chromium():
    """Debian's chromium driven by Playwright (Playwright's own browser download cannot work here).

    Skips when either is missing; `.ci/run` installs both. One per test: Playwright's sync API runs an
    event loop of its own, which must not be open while a test runs asyncio.
    """
    yield from _chromium_browser()


@pytest.fixture(scope="module")
def chromium_module():
    """`chromium`, launched once for a file whose tests all drive the browser and none runs asyncio (a launch costs
    about a second of CPU); its tests share one worker under xdist (a module fixture, pytest_collection_modifyitems)."""
    yield from _chromium_browser()


WEREBENCH_FIXTURES = {"werebench_import", "werebench_validated", "werebench_audit"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (`--dist loadgroup`): every test on the shared WereBench import shares one worker (the import,
    its validation and its audit are made once, not once per worker); a test that uses a module fixture shares one
    worker with its file's others (loadgroup sends an unmarked test on its own, so such a fixture was built once per
    worker: test_restyle's items twice, 9 s each); any other test goes wherever a worker is free. tryfirst: xdist reads the groups in its own
    pytest_collection_modifyitems, which runs before a conftest's, so a marker added after it would place nothing."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if WEREBENCH_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.xdist_group("werebench-import"))
        elif item.get_closest_marker("xdist_group") is None and _uses_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(f"module:{item.path.name}"))


def _uses_a_module_fixture(item: pytest.Item) -> bool:
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return any(d.scope == "module" for fixturedefs in defs.values() for d in fixturedefs)
