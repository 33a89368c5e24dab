"""Points where a new user stopped (issue 24): each answered with one clear line, before any work is done."""

from __future__ import annotations

import pytest
from cli_inproc import run_cli

from werealign.dataset import bundled_sample_path
from werealign.llm.builtin_models import BASELINES, PROVIDER


@pytest.mark.parametrize("dry_run", [False, True])
def test_generate_refuses_a_baseline_before_sending_or_pricing(tmp_path, dry_run):
    for baseline in (BASELINES[0], BASELINES[-1]):
        out = tmp_path / f"gen-{baseline}"
        r = run_cli("generate", bundled_sample_path(), "--model", f"{PROVIDER}/{baseline}", "--out", out,
                    *(["--dry-run"] if dry_run else []), block_litellm=True)
        assert r.returncode == 1
        assert r.stderr.count("\n") == 1 and f"{PROVIDER}/{baseline}" in r.stderr and "cannot draft" in r.stderr
        assert "cost" not in r.stdout and not out.exists()


def test_readme_says_how_the_browser_tests_get_chromium():
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    readme = (repo / "README.md").read_text(encoding="utf-8")
    ci = (repo / ".ci" / "run").read_text(encoding="utf-8")
    assert "apt-get install" in ci and "chromium" in ci  # what the README describes is what CI does
    section = readme.split("The browser tests", 1)[1].split("\n\n", 1)[0]
    assert "chromium" in section and ".ci/run" in section and "apt-get install chromium" in section
