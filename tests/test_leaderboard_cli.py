"""End to end through the CLI, in this process (tests/cli_inproc.py), from the runs' folder with relative paths."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli_inproc import run_cli
from run_factory import write_run


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run_cli(*args, cwd=cwd)


def test_leaderboard_command_writes_tables_and_plots(tmp_path):
    write_run(tmp_path / "runs" / "a", "prov/a", 0.7)
    write_run(tmp_path / "runs" / "b", "werealign/random", 0.2)
    done = cli("leaderboard", "runs/a", "runs/b", "--format", "json", "--out", "board.json", "--plots", "plots",
               "--resamples", "200", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "board.json").read_text())
    assert [m["model"] for m in doc["models"]] == ["prov/a", "werealign/random"]
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == sorted(
        f"{n}.{e}" for n in ("floors", "dimensions", "roles") for e in ("png", "svg", "pdf"))
    assert str(tmp_path) not in (tmp_path / "board.json").read_text()  # no machine paths in the output
    md = cli("leaderboard", "runs/a", "--resamples", "100", cwd=tmp_path)
    assert md.returncode == 0 and md.stdout.startswith("# Leaderboard")


def test_leaderboard_command_bad_input_is_one_line_and_writes_nothing(tmp_path):
    write_run(tmp_path / "a", "prov/a")
    write_run(tmp_path / "b", "prov/b", prompt_version="v2")  # another dataset is skipped (tests/test_endings.py), this refused
    done = cli("leaderboard", "a", "b", "--out", "board.md", cwd=tmp_path)
    assert done.returncode == 1 and not (tmp_path / "board.md").exists()
    assert done.stderr.count("\n") == 1 and "not comparable" in done.stderr and "prompt version differs" in done.stderr
    done = cli("leaderboard", "a", "--format", "pdf", cwd=tmp_path)
    assert done.returncode == 1 and "unknown format 'pdf'" in done.stderr
