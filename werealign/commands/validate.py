"""`werealign validate PATH...`: schema and semantic checks of games, items and datasets."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import typer

from werealign.errors import UserError

FORMATS = ("text", "json")


def _json_safe(text: str) -> str:
    """Lone surrogates (a file name whose bytes are not UTF-8) as JSON \\u escapes, as ensure_ascii
    would write them: printing them raw fails or emits bytes that are not UTF-8, and the escape reads
    back as the same name."""
    return re.sub(r"[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def validate_command(
    paths: list[Path] = typer.Argument(..., help="Game files (.json), item or OSR files (.jsonl) or dataset directories."),
    format: str = typer.Option("text", "--format", help="text (one line per finding) or json (for machines)."),
    show_all: bool = typer.Option(False, "--all", help="Text: list every finding instead of the first 5 per file, game and check."),
    fix_manifest: bool = typer.Option(False, "--fix-manifest", help="First rewrite each dataset directory's dataset.json (counts, languages, content hashes) from its files, after an intended edit."),
) -> None:
    """Check files against the JSON Schemas and the game's semantics; exit 1 on errors.

    Text lines read FILE: GAME_OR_ITEM_ID: FIELD: SEVERITY: message, then the check code in brackets.
    """
    from werealign.validate import check_paths, collapse, count  # the checks load jsonschema: not at --help time

    if format not in FORMATS:
        raise UserError(f"--format: unknown format {format!r}; use text or json")
    if fix_manifest:
        from werealign.dataset import is_dataset_dir, rewrite_manifest

        if not_datasets := [str(p) for p in paths if not is_dataset_dir(p)]:
            raise UserError(f"--fix-manifest: {not_datasets[0]} is not a dataset directory (no dataset.json)")
        for p in paths:
            rewrite_manifest(p)
            print(f"rewrote {p / 'dataset.json'}", file=sys.stderr)
    report = check_paths(paths)
    errors, warnings = count(report.findings)
    if format == "json":
        doc = {
            "findings": [f.to_dict() for f in report.findings],
            "summary": {"errors": errors, "warnings": warnings, "files": len(report.files)},
        }
        print(_json_safe(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True)))
    else:
        for f in collapse(report.findings, 0 if show_all else 5):
            print(f.to_text())
        print(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)} in {len(report.files)} file{'s' * (len(report.files) != 1)}")
    if errors:
        raise typer.Exit(1)
