"""Models, importers and solvers of another package, found through their entry point groups (issue 21), and
the registry's refusals: a broken entry point, a wrong object, a built-in's name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from plugin_site import plugin_site

from werealign.dataset import load_dataset
from werealign.errors import UserError
from werealign.importers import IMPORTERS
from werealign.llm.builtin_models import MODELS
from werealign.registry import Registry
from werealign.solvers import SOLVERS, get_solver

TESTS = Path(__file__).resolve().parent
pytestmark = pytest.mark.xdist_group("plugins")  # one worker adds the plug-ins and takes them away
ENTRY_POINTS = {
    "werealign.models": {"acme/highest": "toyplugins:HIGHEST"},
    "werealign.importers": {"bundle": "toyplugins:BUNDLE"},
    "werealign.solvers": {"acme-echo": "toyplugins:TWICE"},
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = plugin_site(tmp_path_factory.mktemp("site"), "toyplugins", ENTRY_POINTS)
    sys.path[:0] = [str(site), str(TESTS)]
    for registry in (MODELS, IMPORTERS, SOLVERS):
        registry.refresh()
    yield site
    sys.path.remove(str(site))
    sys.path.remove(str(TESTS))
    for registry, name in ((MODELS, "acme/highest"), (IMPORTERS, "bundle"), (SOLVERS, "acme-echo")):
        registry.unregister(name)


def _cli(site: Path, *args) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(TESTS), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "werealign.cli", *map(str, args)], capture_output=True, text=True, env=env, timeout=300)


def test_every_plugin_is_listed(site) -> None:
    r = _cli(site, "list")
    assert r.returncode == 0, r.stderr
    listed = {line.split()[0] for line in r.stdout.splitlines() if line.startswith("  ")}
    assert {"acme/highest", "bundle", "acme-echo"} <= listed


def test_a_model_of_another_package_answers_from_the_item(site, tmp_path) -> None:
    from werealign.eval.runner import EvalConfig, Execution, run_eval

    summary = run_eval(EvalConfig(model="acme/highest", tasks=("vote", "speech"), decodes=1), Execution(), out=tmp_path / "run")
    rows = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    votes = {i.item_id: i for i in load_dataset().vote}
    assert all(row["answer"] == max(votes[row["item_id"]].candidates) for row in rows if row["task"] == "vote")
    assert all(row["parse_error"] is None for row in rows)
    assert summary.results.totals.request_errors == 0
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["config"]["model"] == "acme/highest"


def test_an_importer_of_another_package_writes_a_valid_dataset(site, tmp_path) -> None:
    sample = load_dataset()
    game = next(iter(sample.games.values()))
    bundle = tmp_path / "bundle.json"
    bundle.write_text(json.dumps({"name": "bundled", "games": [game.model_dump(mode="json")],
                                  "vote": [v.model_dump(mode="json") for v in sample.vote if v.game_id == game.game_id]}))
    r = _cli(site, "import", "bundle", bundle, "--out", tmp_path / "ds")
    assert r.returncode == 0, r.stderr
    assert "vote items: 3" in r.stdout
    assert _cli(site, "validate", tmp_path / "ds").returncode == 0
    r = _cli(site, "import", "nope", bundle, "--out", tmp_path / "other")
    assert r.returncode != 0 and "unknown importer 'nope'" in r.stderr and "bundle" in r.stderr
    assert not (tmp_path / "other").exists()


def test_a_solver_of_another_package_is_chosen_by_name(site) -> None:
    assert get_solver("acme-echo").description == "asks once, notes the reply's start"


@dataclass(frozen=True)
class Thing:
    name: str


def _registry() -> Registry[Thing]:
    return Registry("thing", "werealign.test-things", lambda: [Thing("builtin")], kind=Thing)


@pytest.mark.parametrize(("value", "message"), [
    ("nowhere_such_module:THING", "could not be loaded: ModuleNotFoundError"),
    ("toyplugins:BUNDLE", "not a test_registry.Thing but Importer"),
])
def test_a_broken_entry_point_is_an_error_naming_it(tmp_path, monkeypatch, value, message) -> None:
    site = plugin_site(tmp_path, "broken", {"werealign.test-things": {"odd": value}})
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.syspath_prepend(str(site))
    registry = _registry()
    with pytest.raises(UserError, match=rf"entry point werealign.test-things:odd \({value}\).*{message}"):
        registry.names()


def test_an_entry_point_may_not_take_a_builtin_name_nor_name_another(tmp_path, monkeypatch) -> None:
    site = plugin_site(tmp_path, "clash", {"werealign.test-things": {"builtin": "test_registry:STOLEN"}})
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.syspath_prepend(str(site))
    with pytest.raises(UserError, match="'builtin' is a built-in thing; choose another name"):
        _registry().names()
    registry = Registry("thing", "werealign.test-none", lambda: [Thing("builtin")], kind=Thing)
    registry.register(Thing("mine"))
    with pytest.raises(ValueError, match="'mine' is already registered"):
        registry.register(Thing("mine"))
    with pytest.raises(ValueError, match="is built in"):
        registry.unregister("builtin")


STOLEN = Thing("builtin")


def test_a_package_put_on_the_path_later_is_found_by_name(tmp_path, monkeypatch) -> None:
    registry = _registry()
    assert registry.names() == ("builtin",) and "late" not in registry
    site = plugin_site(tmp_path, "late", {"werealign.test-things": {"late": "test_registry:LATE"}})
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.syspath_prepend(str(site))
    registry.refresh()
    assert registry["late"] is LATE and registry.names() == ("builtin", "late")


LATE = Thing("late")


def test_a_baseline_of_another_package_is_a_baseline_everywhere(site) -> None:
    from werealign.eval.config import EvalConfig, validate_config

    with pytest.raises(UserError, match="built-in baseline acme/highest answers from the options in one step"):
        validate_config(EvalConfig(model="acme/highest", solver="cot"))


def test_a_model_must_say_how_it_answers_and_be_named_provider_slash_name() -> None:
    from werealign.llm.builtin_models import BuiltinModel

    with pytest.raises(UserError, match="give exactly one of `answer`"):
        MODELS.register(BuiltinModel("acme/nothing", "neither an answer nor a server"))
    with pytest.raises(UserError, match="write it as provider/name"):
        MODELS.register(BuiltinModel("bare", "no provider", answer=lambda subject, seed: "Answer: A"))
    assert "acme/nothing" not in MODELS.names() and "bare" not in MODELS.names()
