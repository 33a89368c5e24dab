"""`werealign leaderboard RUN_DIR...`: the runs' scores as tables (md, LaTeX, CSV, HTML, JSON) and plots."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from werealign.errors import UserError


def leaderboard_command(
    runs: list[Path] = typer.Argument(..., help="Run directories written by `werealign eval` (runs of one model are merged)."),
    format: str = typer.Option("md", "--format", help="md, latex, csv, html (self-contained, sortable) or json."),
    out: Path | None = typer.Option(None, "--out", help="Write the table to this file (default: standard output)."),
    plots: Path | None = typer.Option(None, "--plots", help="Also write the dimension, role and floor plots (PNG, SVG and PDF) into this directory; the HTML table embeds them anyway."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap (same seed, same intervals)."),
    resamples: int = typer.Option(2000, "--resamples", min=100, help="Bootstrap resamples per interval and comparison."),
    arena: list[Path] = typer.Option([], "--arena", help="Arena directories: rank their models beside eval's (Kendall tau)."),
) -> None:
    """Main table (RI SJ DR PS CT Avg | VA OI), ablations, role-conditioned tables and shortcut floors.

    Each value is the one in its run's results.json, with a 95% interval from a bootstrap over games
    and decodes; models are compared pairwise on the same items. An unfinished run (no results.json) and
    runs on another dataset than most are skipped, one line each; runs of another prompt version, ablation
    protocol or item limit are refused.
    """
    from werealign.files import atomic_write_text
    from werealign.leaderboards.collect import collect
    from werealign.leaderboards.render import FORMATS, RENDERERS
    from werealign.leaderboards.tables import build

    if format not in FORMATS:
        raise UserError(f"--format: unknown format {format!r}; use one of {', '.join(FORMATS)}")
    skipped: list[str] = []
    entries = collect(runs, skipped)  # `runs/*` may hold an unfinished run, or one on another dataset: one line each
    for line in skipped:
        print(line, file=sys.stderr)
    board = build(entries, seed=seed, resamples=resamples)
    for warning in board.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    text = RENDERERS[format](board)
    if plots is not None:
        from werealign.leaderboards.plots import write_plots

        for path in write_plots(board, plots):
            print(f"wrote {path}", file=sys.stderr)
    if out is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(out, text)
        print(f"wrote {out}", file=sys.stderr)
    if arena:
        from werealign.analysis.rankings import beyond_survival, human_scores, text_block

        sys.stdout.write(text_block(beyond_survival(human_scores(board.entries), arena, seed=seed, resamples=resamples)))
