"""`werealign import werebench SRC --out DATASET` (issue 2, owned by the importer work)."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="Convert an existing benchmark release into a werealign dataset directory.", no_args_is_help=True)


@app.command("werebench")
def import_werebench_command(
    src: Path = typer.Argument(..., help="The dataset/ folder of the official WereBench release."),
    out: Path = typer.Option(..., "--out", help="Dataset directory to write."),
) -> None:
    """Convert WereBench game logs and speech items; derive VA and OI items; write an import report."""
    raise NotImplementedError("import: in progress")
