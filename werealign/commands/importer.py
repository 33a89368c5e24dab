"""`werealign import werebench SRC --out DATASET` (issue 2, owned by the importer work)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

app = typer.Typer(help="Convert an existing benchmark release into a werealign dataset directory.", no_args_is_help=True)


@app.command("werebench")
def import_werebench_command(
    src: Path = typer.Argument(..., help="The dataset/ folder of the official WereBench release."),
    out: Path = typer.Option(..., "--out", help="Dataset directory to write (must be empty unless --overwrite)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace --out if it is an earlier import output."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any game or item is dropped (the dataset and report are still written)."),
) -> None:
    """Convert WereBench game logs and speech items; derive VA and OI items; write an import report."""
    from werealign.importers.werebench import REPORT_MD, import_werebench

    s = import_werebench(src, out, overwrite=overwrite)
    c = s.counts
    print(f"games: {c['games_converted']}/{c['games_in_source']} converted, {c['games_dropped']} dropped")
    print(f"speech items: {c['speech_converted']}/{c['speech_in_source']} converted, {c['speech_dropped']} dropped")
    print(f"vote items (VA): {c['vote_items']} from {c['mvp_votes_in_source']} MVP votes; opponent items (OI): {c['opponent_items']}")
    print(f"per-segment text attached to {c['turns_with_segments']} of {c['turns']} turns")
    if "night_actions_read" in c:
        print(f"own night actions read from the annotator log: {c['night_actions_read']}")  # two lines: 80 columns
        print(f"viewpoint seats still without night knowledge: {c['viewpoints_without_night_knowledge']}")
    print(f"repairs: {s.repairs}, drops: {s.drops}, warnings: {s.warnings}")
    print(f"wrote {s.out} (report: {s.out / REPORT_MD})")
    if strict and s.lost:
        print(f"error: --strict: {s.lost} game(s) or item(s) dropped; see {s.out / REPORT_MD}", file=sys.stderr)
        raise typer.Exit(1)
