"""`werealign audit DATASET`: artifact checks of the speech items (see werealign/audit.py for each check)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from werealign.errors import UserError

FORMATS = ("text", "json")


def audit_command(
    dataset: Path = typer.Argument(None, help="Dataset directory (default: the bundled sample)."),
    format: str = typer.Option("text", "--format", help="text (one line per check) or json (for machines)."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any check fails (default: exit 0 whatever the verdicts)."),
) -> None:
    """Answer-key position, longest/shortest key, options-only baseline, duplicate options,
    explanation/key disagreement and leaking stems, over all items and per dimension, each
    with a verdict: pass, warn, fail, or skip (too few items to say)."""
    from werealign.audit import audit_items, render_text  # loads scipy and scikit-learn: not at --help time
    from werealign.dataset import load_dataset

    if format not in FORMATS:
        raise UserError(f"--format: unknown format {format!r}; use text or json")
    ds = load_dataset(dataset)
    if not ds.speech:
        raise UserError(f"{dataset or 'the bundled sample'}: the dataset has no speech items to audit")
    report = audit_items(ds)
    if format == "json":
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2, sort_keys=True))
    else:
        print(render_text(report))
    if strict and report.failed():
        raise typer.Exit(1)
