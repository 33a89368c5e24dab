"""`werealign list`: every registry's names, one line each, within 80 columns; an unknown name is still listed."""

from __future__ import annotations

from cli_inproc import run_cli

from werealign.commands import importer
from werealign.llm import builtin_models
from werealign.tasks import TASKS, VARIANTS


def _listed(stdout: str) -> set[str]:
    return {line.split()[0] for line in stdout.splitlines() if line.startswith("  ")}


def test_lists_every_registry_name_within_80_columns():
    r = run_cli("list")
    assert r.returncode == 0, r.stderr
    names = _listed(r.stdout)
    assert set(TASKS) <= names and set(VARIANTS) <= names
    assert {f"{t.name}/{m}" for t in TASKS.values() for m in t.modes} <= names
    assert set(builtin_models.BUILTIN_MODELS) <= names
    assert {c.name for c in importer.app.registered_commands} <= names
    from werealign.solvers import solver_names
    assert set(solver_names()) <= names and "options: samples=5" in r.stdout
    assert all(len(line) <= 80 for line in r.stdout.splitlines()), max(r.stdout.splitlines(), key=len)
    for line in r.stdout.splitlines():
        if line.startswith("  "):
            assert len(line.split(None, 1)) == 2, f"no description: {line!r}"


def test_a_name_added_to_a_registry_is_listed(monkeypatch):
    monkeypatch.setattr(builtin_models, "BUILTIN_MODELS", (*builtin_models.BUILTIN_MODELS, "werealign/lantern-guess"))
    monkeypatch.setattr("werealign.tasks.VARIANTS", (*VARIANTS, "moonlit"))
    r = run_cli("list")
    assert r.returncode == 0, r.stderr
    assert {"werealign/lantern-guess", "moonlit"} <= _listed(r.stdout)
