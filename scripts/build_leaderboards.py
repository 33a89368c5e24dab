"""Regenerate leaderboards/: tables and plots of the repository's own runs, in one command.

    python scripts/build_leaderboards.py [--runs runs/leaderboards] [--no-werebench]

- `sample/`: the offline built-in baselines (werealign/random, longest, lexical) on the bundled
  sample, every variant (base, rr, osr);
- `werebench/`: the same baselines on the WereBench release imported from ../shared/werebench/dataset,
  when it is present (base variant: the release has no rule reminders or rewrites).

Runs are kept under --runs (git-ignored) and resumed: a rerun pays only for what changed. Each
board is written as leaderboard.{md,html,json,csv,tex} plus plots/*.png, *.svg and *.pdf; the JSON and
the tables name runs by their directory name only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from werealign.leaderboards.collect import collect  # noqa: E402
from werealign.leaderboards.plots import write_plots  # noqa: E402
from werealign.leaderboards.render import RENDERERS  # noqa: E402
from werealign.leaderboards.tables import build  # noqa: E402
from werealign.files import atomic_write_text  # noqa: E402

BASELINES = ("werealign/random", "werealign/longest", "werealign/lexical")
WEREBENCH = REPO.parent / "shared" / "werebench" / "dataset"
EXTENSIONS = {"md": "md", "html": "html", "json": "json", "csv": "csv", "latex": "tex"}


def cli(*args: str | Path) -> None:
    # Paths relative to the repository: run.json records --dataset as given, and a machine path has no place there.
    rel = [os.path.relpath(a, REPO) if isinstance(a, Path) else a for a in args]
    subprocess.run([sys.executable, "-m", "werealign.cli", *rel], cwd=REPO, check=True)


def evaluate(runs: Path, dataset: Path | None, variants: str) -> list[Path]:
    dirs = []
    for model in BASELINES:
        out = runs / model.split("/", 1)[1]
        cli("eval", "--model", model, "--variant", variants, "--out", out, *(("--dataset", dataset) if dataset else ()))
        dirs.append(out)
    return dirs


def write_board(name: str, run_dirs: list[Path]) -> None:
    target = REPO / "leaderboards" / name
    board = build(collect(run_dirs), seed=0)
    for fmt, ext in EXTENSIONS.items():
        atomic_write_text(target / f"leaderboard.{ext}", RENDERERS[fmt](board))
    write_plots(board, target / "plots")
    print(f"wrote leaderboards/{name}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=Path, default=REPO / "runs" / "leaderboards", help="where runs are kept and resumed")
    ap.add_argument("--no-werebench", action="store_true", help="only the bundled sample")
    args = ap.parse_args()
    runs = args.runs.resolve()
    write_board("sample", evaluate(runs / "sample", None, "base,rr,osr"))
    if args.no_werebench or not (WEREBENCH / "WereBench" / "WereBench.json").is_file():
        print("skipped werebench: ../shared/werebench is not present", file=sys.stderr)
        return
    dataset = runs / "werebench-dataset"
    cli("import", "werebench", WEREBENCH, "--out", dataset, "--overwrite")
    write_board("werebench", evaluate(runs / "werebench", dataset, "base"))


if __name__ == "__main__":
    main()
