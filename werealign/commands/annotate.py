"""`werealign annotate ...` (issue 4, owned by the annotation work)."""

from __future__ import annotations

import typer

app = typer.Typer(help="Annotation toolkit: transcripts + annotator config -> validated game logs; quality measures.", no_args_is_help=True)
