"""`werealign release DATASET --out DIR [--push-to-hub REPO]`: the Hugging Face dataset folder."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def release_command(
    dataset: Path = typer.Argument(None, help="Dataset directory (default: the bundled sample)."),
    out: Path = typer.Option(..., "--out", help="Folder to write: README.md (dataset card) and data/<config>/test.parquet."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace --out if it exists and is not empty."),
    push_to_hub: str | None = typer.Option(None, "--push-to-hub", help="Also upload the folder to this Hub dataset repo (token from HF_TOKEN)."),
    private: bool = typer.Option(False, "--private", help="With --push-to-hub: create the repo as private."),
    allow_unreviewed: bool = typer.Option(False, "--allow-unreviewed", help="Release items no person reviewed (or rejected) too; the dataset must still validate."),
    extra_config: list[str] | None = typer.Option(None, "--extra-config", metavar="NAME=DIR", help="Also ship the speech items of the dataset directory DIR as config NAME (an audit-filtered split, a human-voiced set); repeatable."),
) -> None:
    """One config per item kind (speech, vote, opponent) plus games, osr and manifest, loadable with
    `datasets.load_dataset(OUT, CONFIG)`; nested fields round-trip exactly (Json columns).
    `werealign eval --dataset OUT` evaluates the folder (hf:REPO once pushed)."""
    from werealign.release.build import build_release, parse_extra
    from werealign.release.checks import check_releasable

    extras = dict(parse_extra(spec) for spec in extra_config or [])
    check_releasable(dataset, allow_unreviewed=allow_unreviewed)  # before anything is written
    for folder in extras.values():
        check_releasable(folder, allow_unreviewed=allow_unreviewed)
    reference = f"hf:{push_to_hub}" if push_to_hub else None
    release = build_release(dataset, out, overwrite=overwrite, extras=extras, reference=reference)
    print(f"wrote {out}: " + ", ".join(f"{name} {n}" for name, n in release.rows.items()), file=sys.stderr)
    if push_to_hub:
        from werealign.release.push import push_release

        print(f"pushed to {push_release(out, push_to_hub, private=private)}", file=sys.stderr)
