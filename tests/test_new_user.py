"""Points where a new user stopped (issue 24): each answered with one clear line, before any work is done."""

from __future__ import annotations

import pytest
from cli_inproc import run_cli

from werealign.dataset import bundled_sample_path
from werealign.baselines.models import BASELINES


@pytest.mark.parametrize("dry_run", [False, True])
def test_generate_refuses_a_baseline_before_sending_or_pricing(tmp_path, dry_run):
    for baseline in (BASELINES[0].name, BASELINES[-1].name):
        out = tmp_path / f"gen-{baseline.replace('/', '_')}"
        r = run_cli("generate", bundled_sample_path(), "--model", baseline, "--out", out,
                    *(["--dry-run"] if dry_run else []), block_litellm=True)
        assert r.returncode == 1
        assert r.stderr.count("\n") == 1 and baseline in r.stderr and "cannot draft" in r.stderr
        assert "cost" not in r.stdout and not out.exists()


def test_readme_says_how_the_browser_tests_get_chromium():
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    readme = (repo / "README.md").read_text(encoding="utf-8")
    ci = (repo / ".ci" / "run").read_text(encoding="utf-8")
    assert "apt-get install" in ci and "chromium" in ci  # what the README describes is what CI does
    section = readme.split("The browser tests", 1)[1].split("\n\n", 1)[0]
    assert "chromium" in section and ".ci/run" in section and "apt-get install chromium" in section


def test_a_truncated_json_file_says_it_ends_early(tmp_path):
    from werealign.errors import UserError
    from werealign.files import read_json, read_jsonl

    cut = tmp_path / "game.json"
    cut.write_text('{"game_id": "lantern-7", "seats": [1, 2, ', encoding="utf-8")
    with pytest.raises(UserError, match=r"game\.json:1:\d+: invalid JSON: .*ends early"):
        read_json(cut)
    lines = tmp_path / "items.jsonl"
    lines.write_text('{"item_id": "a"}\n{"item_id": "b", "opt\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"items\.jsonl:2:\d+: invalid JSON line: .*ends early"):
        list(read_jsonl(lines))
    broken = tmp_path / "middle.json"
    broken.write_text('{"a": 1,, "b": 2}', encoding="utf-8")  # bad in the middle: not called cut off
    with pytest.raises(UserError) as e:
        read_json(broken)
    assert "ends early" not in str(e.value)


def test_a_manifest_mismatch_names_the_command_that_fixes_it(tmp_path):
    import json
    import shutil

    root = tmp_path / "ds"
    shutil.copytree(bundled_sample_path(), root)
    vote = root / "items" / "vote.jsonl"
    rows = vote.read_text(encoding="utf-8").splitlines()
    vote.write_text("\n".join(rows[:-1]) + "\n", encoding="utf-8")  # an intended edit: one VA item removed
    r = run_cli("validate", root)
    assert r.returncode == 1 and "werealign validate --fix-manifest DATASET" in r.stdout
    r = run_cli("validate", "--fix-manifest", root)
    assert r.returncode == 0, r.stdout + r.stderr
    manifest = json.loads((root / "dataset.json").read_text())
    assert manifest["counts"]["vote"] == len(rows) - 1
    assert manifest["name"] == json.loads((bundled_sample_path() / "dataset.json").read_text())["name"]
    r = run_cli("validate", "--fix-manifest", root / "items" / "vote.jsonl")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "not a dataset directory" in r.stderr


def test_multi_model_progress_lines_fit_80_columns(capsys):
    from werealign.eval.progress import Progress

    for label in ("werealign/longest", "openrouter/some-lab/an-invented-model-with-a-very-long-name-2031"):
        p = Progress(3200, 100, live=False, plain=True, label=label)
        p.done_count, p.tokens, p.retries, p.retries_in_flight = 1300, 2_400_000, 7, 2
        assert len(p.line()) <= 80, p.line()
        p._say(p.line(), labelled=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("werealign/longest: 41% 1300/3200 done (100 cached) | ETA")
    assert all(len(line) <= 80 for line in lines) and lines[1].count("openrouter") == 1


def test_review_says_where_its_log_is(tmp_path):
    import shutil

    shutil.copytree(bundled_sample_path(), tmp_path / "ds")
    r = run_cli("review", tmp_path / "ds", "--export-only", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    assert f"review log: {tmp_path / 'ds.review.jsonl'}" in r.stdout.splitlines()
