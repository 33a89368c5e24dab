"""`werealign derive DATASET`: re-derive a whole dataset's items from its games, written as a dataset.

Every registered kind that is derived (`Task.derive`: VA, OI, the decision kinds, a plug-in's) is asked for the items
of every game (werealign.game.derivation); nothing here lists the kinds. This module is the dataset around them
(read, write through the output guard, carry the other kinds' items and the other files over).
"""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werealign.dataset import MANIFEST, load_dataset, write_dataset
from werealign.errors import UserError
from werealign.files import read_text
from werealign.files.output_dir import MARKER, check_inputs, check_replaceable, output_directory
from werealign.game.derivation import Deciders, DeriveNote, DeriveOptions, Deriving, Made
from werealign.schema import GameLog
from werealign.schema.runs import STORE_NAME
from werealign.tasks import TASKS
from werealign.tasks.base import Task


@dataclass
class KindDerived:
    """One kind over the dataset: its items, and each game's notes (each game its own outcome)."""

    items: list[Any] = field(default_factory=list)
    notes: dict[str, list[DeriveNote]] = field(default_factory=dict)  # game id -> the notes of its derive
    listed: bool = False  # its dropped notes are listed one by one (Made.listed)


@dataclass
class DatasetDerived:
    out: Path
    games: int
    kinds: dict[str, KindDerived]  # every derived kind, in registry order (built-ins first)
    kept: dict[str, int]  # the kinds derive does not make -> their items carried over
    agents: int = 0  # seats played by an agent in the dataset's games

    def counts(self) -> dict[str, int]:
        """Items made per kind, every kind derived (none included)."""
        return {kind: len(d.items) for kind, d in self.kinds.items()}

    def notes(self, listed: bool) -> dict[str, list[DeriveNote]]:
        """game id -> the notes of the kinds whose notes are (not) `listed`, each once (a note about several kinds, e.g.
        'the game names no MVP', is one fact), in kind order."""
        out: dict[str, list[DeriveNote]] = {}
        for d in self.kinds.values():
            if d.listed != listed:
                continue
            for game_id, notes in d.notes.items():
                mine = out.setdefault(game_id, [])
                seen = {id(m) for m in mine}
                mine += [n for n in notes if id(n) not in seen]
        return out


def derive_game(task: Task, at: Deriving) -> Made:
    """What one kind made of one game, checked: its items are its own model's and of this game."""
    try:
        made = task.derive(at)  # type: ignore[misc] - only derived kinds are asked
    except UserError:
        raise
    except Exception as e:  # noqa: BLE001 - a plug-in's derive failing is named, never a bare traceback
        raise UserError(f"game {at.game.game_id}: task kind {task.name!r} could not derive its items: {type(e).__name__}: {e}") from e
    if not isinstance(made, Made):
        raise UserError(f"task kind {task.name!r}: derive returned {type(made).__name__}, not a werealign.game.derivation.Made")
    for item in made.items:
        if type(item) is not task.item_model or item.game_id != at.game.game_id:
            what = type(item).__name__ if type(item) is not task.item_model else f"an item of game {item.game_id!r}"
            raise UserError(f"game {at.game.game_id}: task kind {task.name!r}: derive made {what}, not a "
                            f"{task.item_model.__name__} of this game")
    return made


def derive_games(games: list[GameLog], options: DeriveOptions) -> dict[str, KindDerived]:
    """Every derived kind's items and notes over `games` (in the given order)."""
    derived = {name: task for name, task in TASKS.items() if task.derive is not None}
    out = {name: KindDerived() for name in derived}
    for game in games:
        at = Deriving(game, options)  # one per game: the kinds reading one pass share it
        for name, task in derived.items():
            made = derive_game(task, at)
            out[name].items += made.items
            out[name].notes[game.game_id] = made.notes
            out[name].listed |= made.listed
    return out


def derive_dataset(src: Path, out: Path | None = None, overwrite: bool = False, deciders: Deciders = "winners",
                   include_agents: bool = False, va_oi_from: str = "mvp") -> DatasetDerived:
    """Re-derive the items of every derived kind of the dataset at `src` from its games (decisions of `deciders`);
    write to `out` (default: `src`, in place).

    The other kinds' items (speech: generated), OSR variants and any other file of the dataset are kept as they are;
    the manifest is rewritten with the new counts and hashes. All or nothing: a failure leaves `out` untouched.
    """
    in_place = out is None or out.resolve() == src.resolve()  # --out DATASET is the default, said twice
    target = src if out is None else out
    if not in_place:
        check_inputs(target, [src])
        check_replaceable(target, "derive", overwrite)
    ds = load_dataset(src)
    kept = ds.items_to_copy()  # before any work: refuses a kind this installation would leave out
    kinds = derive_games([ds.games[g] for g in sorted(ds.games)], DeriveOptions(deciders, include_agents, va_oi_from))
    # A run's response store beside the dataset (an arena run's) is binary: carried over as it is.
    owned = {MANIFEST, "games", "items", "variants", STORE_NAME}
    extra = {p.relative_to(src).as_posix(): read_text(p, "dataset")
             for p in sorted(src.rglob("*")) if p.is_file() and p.relative_to(src).parts[0] not in owned | {MARKER}}
    m = ds.manifest
    with output_directory(target, command="derive", inputs=[src], overwrite=overwrite, in_place=in_place) as stage:
        write_dataset(stage, name=m.name, version=m.version, licence=m.licence, games=list(ds.games.values()),
                      items={**kept, **{kind: d.items for kind, d in kinds.items()}}, osr=ds.osr, description=m.description,
                      source=m.source, extra_files=extra)
        if (src / STORE_NAME).is_file():
            shutil.copy2(src / STORE_NAME, stage / STORE_NAME)
    agents = sum(s.agent is not None for g in ds.games.values() for s in g.seats)
    return DatasetDerived(target, len(ds.games), kinds, {k: len(v) for k, v in kept.items() if k not in kinds}, agents)


# How a note's why begins, which the reason of a kind's zero leaves out (the line names the kind already).
_PREFIXES = ("no decision items: ", "no VA or OI item: ", "no OI item: ", "no item: ")


def why_none(kind: str, derived: DatasetDerived) -> str:
    """Why a kind got no item on this dataset, from its notes over the games (the most frequent reason first)."""
    dropped = [n for ns in derived.kinds[kind].notes.values() for n in ns if n.kind == "dropped"]
    codes = Counter(n.code for n in dropped)
    if not codes:
        return "no such decision is recorded in any game"
    why = {}
    for n in reversed(dropped):
        text = n.why
        for prefix in _PREFIXES:
            text = text.removeprefix(prefix)
        why[n.code] = text
    return "; ".join(f"{why[code]} [{code} x{n}]" for code, n in codes.most_common(3))
