"""`werealign eval` and `werealign score` (issue 3, owned by the evaluation work)."""

from __future__ import annotations

from pathlib import Path

import typer


def eval_command(
    model: str = typer.Option(..., "--model", help="Any litellm model string, or a built-in: werealign/random, werealign/longest, werealign/lexical, local/smollm2."),
) -> None:
    """Evaluate a model on a dataset (default: the bundled sample)."""
    raise NotImplementedError("eval: in progress")


def score_command(run: Path = typer.Argument(..., help="A run directory written by `werealign eval`.")) -> None:
    """Re-score a run from its stored responses, with no model call."""
    raise NotImplementedError("score: in progress")
