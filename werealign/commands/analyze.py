"""`werealign analyze`: game metrics over human and self-play games (placeholder)."""

from __future__ import annotations

from pathlib import Path

import typer


def analyze_command(paths: list[Path] = typer.Argument(...)) -> None:
    """Game metrics."""
    raise NotImplementedError
