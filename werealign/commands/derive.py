"""`werealign derive DATASET`: VA, OI and decision items from the dataset's game logs (werealign.dataset.derive)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import typer


def derive_command(
    # Required, unlike the commands that only read a dataset: it updates DATASET in place by default,
    # and the bundled sample is part of the installed package.
    dataset: Path = typer.Argument(..., help="Dataset directory whose games to derive VA/OI items from."),
    out: Path | None = typer.Option(None, "--out", help="Write the dataset here instead of updating DATASET in place."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace --out if it is an earlier derive output."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any MVP vote is dropped (the output is still written)."),
    deciders: str = typer.Option("winners", "--deciders", help="Whose decisions become decision items: winners (the winning side), mvp or all; in a game without an MVP, whose votes become VA and OI items too."),
    va_oi_from: str = typer.Option("mvp", "--va-oi-from", help="mvp: VA and OI from the MVP's votes where a game names an MVP, else from the deciders' recorded ballots; deciders: from the deciders' ballots in every game."),
    include_agents: bool = typer.Option(False, "--include-agents", help="Ask seats played by an agent (seats[].agent) too; by default their turns stay, their choices are no keys."),
) -> None:
    """Derive the VA (vote) and OI (opponent) items from every game's MVP annotations, and the decision items (night
    moves, day ballots) from its events; speech items are kept."""
    from werealign.dataset.derive import derive_dataset, why_none
    from werealign.errors import UserError
    from werealign.game.decisions import DECIDERS
    from werealign.game.derive import BY_RULE

    if deciders not in DECIDERS:
        raise UserError(f"--deciders {deciders}: choose one of {', '.join(DECIDERS)}")
    if va_oi_from not in ("mvp", "deciders"):
        raise UserError(f"--va-oi-from {va_oi_from}: choose mvp or deciders")
    result = derive_dataset(dataset, out, overwrite=overwrite, deciders=deciders, include_agents=include_agents, va_oi_from=va_oi_from)
    for game_id, notes in result.notes.items():
        for n in notes:
            if n.kind != "converted":
                print(f"{n.kind}: {game_id}: MVP vote {n.vote}: {n.what}; {n.why} [{n.code}]", file=sys.stderr)
    # Decision notes are many (every night move the log cannot prove): counted by reason, not listed.
    skipped = Counter(n.code for notes in result.decision_notes.values() for n in notes if n.kind == "dropped")
    for code, n in sorted(skipped.items()):
        print(f"decisions not derived: {code}: {n}", file=sys.stderr)
    for kind, n in result.counts().items():  # every kind's count, and why a kind got none (issue 45: no MVP was silent)
        print(f"{kind}: {n} item(s)" + ("" if n else f" ({why_none(kind, result)})"), file=sys.stderr)
    made = ", ".join(f"{n} {kind}" for kind, n in result.decisions.items())
    agents = f"; {result.agents} seat(s) played by an agent {'asked' if include_agents else 'not asked (--include-agents)'}" if result.agents else ""
    print(f"derived {result.vote} vote (VA) and {result.opponent} opponent (OI) items from {result.games} games; "
          f"decision items ({deciders}): {made}{agents}; wrote {result.out}")
    dropped = sum(n.kind == "dropped" and n.code not in BY_RULE for notes in result.notes.values() for n in notes)
    if strict and dropped:
        print(f"error: --strict: {dropped} MVP vote(s) dropped (listed above); the output is written", file=sys.stderr)
        raise typer.Exit(1)
