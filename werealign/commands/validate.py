"""`werealign validate PATH...` (issue 2, owned by the validator work)."""

from __future__ import annotations

from pathlib import Path

import typer


def validate_command(
    paths: list[Path] = typer.Argument(..., help="Game files, item files (.jsonl) or dataset directories."),
    format: str = typer.Option("text", "--format", help="text or json"),
) -> None:
    """Check files against the JSON Schemas and the game's semantics; exit 1 on errors."""
    raise NotImplementedError("validate: in progress")
