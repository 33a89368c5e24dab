"""`werealign list`: every registry's names, one line each, within 80 columns; an unknown name is still listed."""

from __future__ import annotations

from cli_inproc import run_cli

from werealign.importers import IMPORTERS
from werealign.llm import builtin_models
from werealign.tasks import TASKS, VARIANTS


def _entries(stdout: str) -> list[str]:
    """The entry lines: two spaces, then the name (a deeper indent continues the description above, issue 36)."""
    return [line for line in stdout.splitlines() if line.startswith("  ") and not line.startswith("   ")]


def _listed(stdout: str) -> set[str]:
    return {line.split()[0] for line in _entries(stdout)}


def test_lists_every_registry_name_within_80_columns():
    r = run_cli("list")
    assert r.returncode == 0, r.stderr
    names = _listed(r.stdout)
    assert set(TASKS) <= names and set(VARIANTS) <= names
    assert {f"{t.name}/{m}" for t in TASKS.values() for m in t.modes} <= names
    assert set(builtin_models.builtin_model_names()) <= names
    assert set(IMPORTERS) <= names
    from werealign.solvers import solver_names
    assert set(solver_names()) <= names and "options: samples=5" in r.stdout
    assert all(len(line) <= 80 for line in r.stdout.splitlines()), max(r.stdout.splitlines(), key=len)
    for line in _entries(r.stdout):
        assert len(line.split(None, 1)) == 2, f"no description: {line!r}"


def test_a_name_added_to_a_registry_is_listed(monkeypatch, request):
    lantern = builtin_models.BuiltinModel("werealign/lantern-guess", "an invented baseline", answer=lambda subject, seed: "Answer: A")
    builtin_models.MODELS.register(lantern)
    request.addfinalizer(lambda: builtin_models.MODELS.unregister(lantern.name))
    monkeypatch.setattr("werealign.tasks.VARIANTS", (*VARIANTS, "moonlit"))
    r = run_cli("list")
    assert r.returncode == 0, r.stderr
    assert {"werealign/lantern-guess", "moonlit"} <= _listed(r.stdout)
