"""`werealign dataset build GAME.json... --out DIR`: a dataset directory from game logs (werealign.annotate.dataset)."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="Dataset directories: make one from game logs.", no_args_is_help=True)


@app.command("build")
def build_command(
    games: list[Path] = typer.Argument(..., help="Game logs (GAME.json, e.g. from `werealign annotate build`)."),
    out: Path = typer.Option(..., "--out", help="The dataset directory to write (dataset.json + games/)."),
    name: str = typer.Option(..., "--name", help="The dataset's name (dataset.json)."),
    licence: str = typer.Option(..., "--licence", help="The licence of the games, e.g. CC-BY-4.0 (dataset.json)."),
    version: str = typer.Option("0.1.0", "--version", help="The dataset's version."),
    description: str = typer.Option("", "--description", help="One line on what the games are."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace --out if it is an earlier `dataset build` output."),
) -> None:
    """Validate every game log and write them as one dataset directory; then `werealign derive DIR` makes its items."""
    from werealign.annotate.dataset import build_dataset

    built = build_dataset(games, out, name=name, licence=licence, version=version, description=description, overwrite=overwrite)
    agents = f"; {built.agents} seat(s) played by an agent" if built.agents else ""
    print(f"wrote {built.out}: {built.games} game(s), {built.warnings} validation warning(s){agents}; next: werealign derive {built.out}")
