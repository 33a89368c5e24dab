"""`werealign analyze`: the same game metrics over human games and arena games, side by side."""

from __future__ import annotations

from pathlib import Path

import typer


def analyze_command(
    paths: list[Path] = typer.Argument(..., help="Dataset directories (human games) and arena directories."),
    fmt: str = typer.Option("text", "--format", help="text (80 columns) or json."),
    plots: Path | None = typer.Option(None, "--plots", help="Also write PNG, SVG and PDF plots into this directory."),
) -> None:
    """Win rates, seer reveals, votes, participation; arena groups beside human ones."""
    from werealign.analysis.aggregate import aggregate
    from werealign.analysis.corpus import load_groups
    from werealign.analysis.report import json_report, text_report
    from werealign.errors import UserError
    from werealign.files import dumps

    if fmt not in ("text", "json"):
        raise UserError(f"--format {fmt}: choose text or json")
    groups = load_groups(paths)
    results = [{"label": g.label, "kind": g.kind, "metrics": aggregate(g)} for g in groups]
    per_game = [{"group": g.label, "game_id": gm.game_id, "winner": gm.winner, "days": gm.days, "seer": gm.seer,
                 "not_measured": gm.missing} for g in groups for gm, _ in g.games]
    if plots is not None:
        from werealign.analysis.plots import write_plots

        write_plots(results, plots)
    print(dumps(json_report(results, per_game)) if fmt == "json" else text_report(results), end="")
