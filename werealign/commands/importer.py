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
    corrections: Path | None = typer.Option(None, "--corrections", help="Folder of per-game corrections files (<game_id>.json): night facts "
                                            "set or removed by hand, each with the source and the words that state it."),
) -> None:
    """Convert an existing benchmark release into a dataset directory, with an import report naming every repair and drop."""
    from werealign.errors import UserError
    from werealign.importers import IMPORTERS

    importer = IMPORTERS.get_or_fail(name, "werealign import")
    if corrections is not None and not importer.takes_corrections:
        raise UserError(f"--corrections: the importer {name!r} takes no corrections file")
    done = importer.run(src, out, overwrite, corrections=corrections) if corrections is not None else importer.run(src, out, overwrite)
    for line in done.lines:
        print(line)
    print(f"wrote {done.out}" + (f" (report: {done.report})" if done.report else ""))
    if strict and done.lost:
        print(f"error: --strict: {done.lost} game(s) or item(s) dropped; see {done.report or done.out}", file=sys.stderr)
        raise typer.Exit(1)
