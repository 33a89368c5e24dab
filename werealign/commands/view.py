"""`werealign view`: a run directory as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

import typer


def view_command(
    run: Path = typer.Argument(..., help="A run directory written by `werealign eval`."),
    out: Path | None = typer.Option(None, "--out", help="The HTML file to write (default: RUN/view.html)."),
) -> None:
    """Every sample of a run: prompt, each solver step, reply, score; filters."""
    from werealign.eval.view import write_view

    print(write_view(run, out))
