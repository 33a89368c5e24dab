"""`werealign derive DATASET`: re-derive a whole dataset's VA, OI and decision items from its games, written as a dataset.

The per-game derivation is werealign.game.derive (what a game yields); this module is the dataset
around it (read, write through the output guard, carry the other files over).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from werealign.dataset import MANIFEST, load_dataset, write_dataset
from werealign.files import read_text
from werealign.game.decisions import Deciders, derive_decisions
from werealign.game.derive import DeriveNote, derive_decision_items
from werealign.files.output_dir import MARKER, check_inputs, check_replaceable, output_directory
from werealign.schema import OpponentItem, VoteItem
from werealign.schema.runs import STORE_NAME
from werealign.tasks import kind_of_model


@dataclass
class DatasetDerived:
    out: Path
    games: int
    vote: int
    opponent: int
    notes: dict[str, list[DeriveNote]]  # game id -> notes (each game its own outcome)
    decisions: dict[str, int]  # decision kind -> items made (werealign.game.decisions)
    decision_notes: dict[str, list[DeriveNote]]  # game id -> the decisions' notes
    agents: int = 0  # seats played by an agent in the dataset's games

    def counts(self) -> dict[str, int]:
        """Items made per kind, every kind derived (none included)."""
        return {kind_of_model(VoteItem): self.vote, kind_of_model(OpponentItem): self.opponent, **self.decisions}


def derive_dataset(src: Path, out: Path | None = None, overwrite: bool = False, deciders: Deciders = "winners",
                   include_agents: bool = False, va_oi_from: str = "mvp") -> DatasetDerived:
    """Re-derive every VA, OI and decision item of the dataset at `src` from its games (decisions of `deciders`);
    write to `out` (default: `src`, in place).

    Speech items, OSR variants and any other file of the dataset are kept as they are; the manifest
    is rewritten with the new counts and hashes. All or nothing: a failure leaves `out` untouched.
    """
    in_place = out is None or out.resolve() == src.resolve()  # --out DATASET is the default, said twice
    target = src if out is None else out
    if not in_place:
        check_inputs(target, [src])
        check_replaceable(target, "derive", overwrite)
    ds = load_dataset(src)
    kept = ds.items_to_copy()  # before any work: refuses a kind this installation would leave out
    vote: list[VoteItem] = []
    opponent: list[OpponentItem] = []
    notes: dict[str, list[DeriveNote]] = {}
    decisions: dict[str, list] = {}
    decision_notes: dict[str, list[DeriveNote]] = {}
    for game_id in sorted(ds.games):
        derived = derive_decision_items(ds.games[game_id], deciders=deciders, include_agents=include_agents,
                                        from_deciders=va_oi_from == "deciders")
        vote += derived.vote
        opponent += derived.opponent
        notes[game_id] = derived.notes
        made = derive_decisions(ds.games[game_id], deciders, include_agents)
        for kind, items in made.items.items():
            decisions.setdefault(kind, []).extend(items)
        decision_notes[game_id] = made.notes
    # A run's response store beside the dataset (an arena run's) is binary: carried over as it is.
    owned = {MANIFEST, "games", "items", "variants", STORE_NAME}
    extra = {p.relative_to(src).as_posix(): read_text(p, "dataset")
             for p in sorted(src.rglob("*")) if p.is_file() and p.relative_to(src).parts[0] not in owned | {MARKER}}
    m = ds.manifest
    with output_directory(target, command="derive", inputs=[src], overwrite=overwrite, in_place=in_place) as stage:
        write_dataset(stage, name=m.name, version=m.version, licence=m.licence, games=list(ds.games.values()),
                      items={**kept, kind_of_model(VoteItem): vote, kind_of_model(OpponentItem): opponent, **decisions}, osr=ds.osr, description=m.description, source=m.source, extra_files=extra)
        if (src / STORE_NAME).is_file():
            shutil.copy2(src / STORE_NAME, stage / STORE_NAME)
    agents = sum(s.agent is not None for g in ds.games.values() for s in g.seats)
    return DatasetDerived(target, len(ds.games), len(vote), len(opponent), notes, {k: len(v) for k, v in decisions.items()}, decision_notes, agents)


def why_none(kind: str, derived: DatasetDerived) -> str:
    """Why a kind got no item on this dataset, from the notes of its games (the most frequent reason first)."""
    from collections import Counter

    mvp_kinds = {kind_of_model(VoteItem): "va_", kind_of_model(OpponentItem): "oi_"}  # the kinds derived from the MVP's (or deciders') votes
    notes = derived.notes if kind in mvp_kinds else derived.decision_notes
    prefix = mvp_kinds.get(kind, kind + "_")
    general = {"no_mvp", "no_decider", "mvp_is_agent", "decisions_no_decider"}
    dropped = [n for ns in notes.values() for n in ns if n.kind == "dropped" and (n.code.startswith(prefix) or n.code in general)]
    codes = Counter(n.code for n in dropped)
    if not codes:
        return "no such decision is recorded in any game"
    why = {n.code: n.why.removeprefix("no decision items: ").removeprefix("no VA or OI item: ").removeprefix("no OI item: ").removeprefix("no item: ")
           for n in reversed(dropped)}
    return "; ".join(f"{why[code]} [{code} x{n}]" for code, n in codes.most_common(3))
