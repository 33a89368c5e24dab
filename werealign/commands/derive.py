"""`werealign derive DATASET`: VA and OI items from the dataset's game logs (werealign.dataset_derive)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def derive_command(
    # Required, unlike the commands that only read a dataset: it updates DATASET in place by default,
    # and the bundled sample is part of the installed package.
    dataset: Path = typer.Argument(..., help="Dataset directory whose games to derive VA/OI items from."),
    out: Path | None = typer.Option(None, "--out", help="Write the dataset here instead of updating DATASET in place."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace --out if it is an earlier derive output."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any item is dropped (the output is still written)."),
) -> None:
    """Derive the VA (vote) and OI (opponent) items from every game's MVP annotations; speech items are kept."""
    from werealign.dataset_derive import derive_dataset
    from werealign.game.derive import BY_RULE

    result = derive_dataset(dataset, out, overwrite=overwrite)
    for game_id, notes in result.notes.items():
        for n in notes:
            if n.kind != "converted":
                print(f"{n.kind}: {game_id}: MVP vote {n.vote}: {n.what}; {n.why} [{n.code}]", file=sys.stderr)
    print(f"derived {result.vote} vote (VA) and {result.opponent} opponent (OI) items from {result.games} games; wrote {result.out}")
    dropped = sum(n.kind == "dropped" and n.code not in BY_RULE for notes in result.notes.values() for n in notes)
    if strict and dropped:
        print(f"error: --strict: {dropped} MVP vote(s) dropped (listed above); the output is written", file=sys.stderr)
        raise typer.Exit(1)
