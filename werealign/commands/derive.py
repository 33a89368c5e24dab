"""`werealign derive DATASET`: every derived kind's items from the dataset's game logs (werealign.dataset.derive)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import typer


def derive_command(
    # Required, unlike the commands that only read a dataset: it updates DATASET in place by default,
    # and the bundled sample is part of the installed package.
    dataset: Path = typer.Argument(..., help="Dataset directory whose games to derive items from."),
    out: Path | None = typer.Option(None, "--out", help="Write the dataset here instead of updating DATASET in place."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace --out if it is an earlier derive output."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any annotated decision (an MVP's vote) gives no item (the output is still written)."),
    deciders: str = typer.Option("winners", "--deciders", help="Whose decisions become decision items: winners (the winning side), mvp or all; in a game without an MVP, whose votes become VA and OI items too."),
    va_oi_from: str = typer.Option("mvp", "--va-oi-from", help="mvp: VA and OI from the MVP's votes where a game names an MVP, else from the deciders' recorded ballots; deciders: from the deciders' ballots in every game."),
    include_agents: bool = typer.Option(False, "--include-agents", help="Ask seats played by an agent (seats[].agent) too; by default their turns stay, their choices are no keys."),
) -> None:
    """Ask every registered kind that is derived (VA and OI from the MVP's annotated votes, the decision kinds from the
    events, a plug-in's) for its items of every game; the other kinds' items (speech) are kept."""
    from werealign.dataset.derive import derive_dataset, why_none
    from werealign.errors import UserError
    from werealign.game.derivation import DECIDERS, VA_OI_FROM
    from werealign.game.derive import BY_RULE
    from werealign.tasks import TASKS

    if deciders not in DECIDERS:
        raise UserError(f"--deciders {deciders}: choose one of {', '.join(DECIDERS)}")
    if va_oi_from not in VA_OI_FROM:
        raise UserError(f"--va-oi-from {va_oi_from}: choose {' or '.join(VA_OI_FROM)}")
    result = derive_dataset(dataset, out, overwrite=overwrite, deciders=deciders, include_agents=include_agents, va_oi_from=va_oi_from)
    listed = result.notes(listed=True)
    for game_id, notes in listed.items():  # each annotation that gave no item (an MVP's vote): few, and each a loss
        for n in notes:
            if n.kind != "converted":
                print(f"{n.kind}: {game_id}: {n.vote}: {n.what}; {n.why} [{n.code}]", file=sys.stderr)
    # Every kind's count, and why it got fewer: the facts not derived (every night move the log cannot prove) are many,
    # so counted by reason; a kind with none says why (issue 45: no MVP was silent).
    for kind in TASKS:
        if kind in result.kept:
            print(f"{kind}: {result.kept[kind]} item(s) kept (not derived: {TASKS[kind].items_from or 'given with the dataset'})", file=sys.stderr)
        if kind not in result.kinds:
            continue
        d = result.kinds[kind]
        n = len(d.items)
        reasons = Counter(note.code for notes in d.notes.values() for note in notes if note.kind == "dropped")
        why = "; not derived: " + ", ".join(f"{c} x{k}" for c, k in sorted(reasons.items())) if reasons else ""
        if not n:
            why = f" ({why_none(kind, result)})"
        print(f"{kind}: {n} item(s){why}", file=sys.stderr)
    made = ", ".join(f"{n} {kind}" for kind, n in result.counts().items())
    agents = f"; {result.agents} seat(s) played by an agent {'asked' if include_agents else 'not asked (--include-agents)'}" if result.agents else ""
    print(f"derived from {result.games} games (deciders: {deciders}): {made}{agents}; wrote {result.out}")
    dropped = sum(n.kind == "dropped" and n.code not in BY_RULE for notes in listed.values() for n in notes)
    if strict and dropped:
        print(f"error: --strict: {dropped} annotated decision(s) gave no item (listed above); the output is written", file=sys.stderr)
        raise typer.Exit(1)
