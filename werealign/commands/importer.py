"""`werealign import NAME SRC --out DATASET`: run a registered importer (werealign.importers)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def import_command(
    name: str = typer.Argument(..., help="The importer: werebench, or one another package registers (`werealign list`)."),
    src: Path = typer.Argument(..., help="The source release, e.g. the dataset/ folder of the official WereBench release."),
    out: Path = typer.Option(..., "--out", help="Dataset directory to write (must be empty unless --overwrite)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace --out if it is an earlier import output."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any game or item is dropped (the dataset and report are still written)."),
) -> None:
    """Convert an existing benchmark release into a dataset directory, with an import report naming every repair and drop."""
    from werealign.importers import IMPORTERS

    done = IMPORTERS.get_or_fail(name, "werealign import").run(src, out, overwrite)
    for line in done.lines:
        print(line)
    print(f"wrote {done.out}" + (f" (report: {done.report})" if done.report else ""))
    if strict and done.lost:
        print(f"error: --strict: {done.lost} game(s) or item(s) dropped; see {done.report or done.out}", file=sys.stderr)
        raise typer.Exit(1)
