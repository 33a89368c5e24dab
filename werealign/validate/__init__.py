"""`werealign validate`: JSON Schema plus semantic checks of games, items, rewrites and datasets.

    validate_paths(paths)        -> every finding for game files, item files, OSR files, dataset dirs
    validate_game(game, file)    -> every finding for one game (a dict as read, or a GameLog)

Paths that cannot be validated at all (missing, a directory that is not a dataset, an unknown
file type) raise UserError before anything is checked; everything else is a Finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from werealign.dataset import MANIFEST
from werealign.errors import UserError
from werealign.files import path_kind, require_file
from werealign.schema import GameLog
from werealign.tasks import TASKS
from werealign.validate.dataset_checks import validate_dataset
from werealign.validate.file_checks import (
    GameStore,
    check_game_file,
    check_items_rows,
    check_osr_rows,
    detect_jsonl_kind,
    item_file_names,
    kind_of,
    load_jsonl,
    validate_game_model,
)
from werealign.validate.findings import Finding, Sink, collapse, count

__all__ = ["Finding", "Report", "check_paths", "collapse", "count", "validate_game", "validate_paths"]


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return count(self.findings)[0] == 0


def validate_game(game: GameLog | dict, file: str) -> list[Finding]:
    """Findings of one game: schema (for a dict) and semantic checks. Reused by the annotation toolkit."""
    return validate_game_model(game, file)


def validate_paths(paths: Sequence[Path | str]) -> list[Finding]:
    return check_paths(paths).findings


def check_paths(paths: Sequence[Path | str]) -> Report:
    plan = [(_classify(Path(p)), Path(p)) for p in paths]  # every path is vetted before any output
    report = Report()
    for kind, p in plan:
        if kind == "dataset":
            findings, files = validate_dataset(p)
            report.findings += findings
            report.files += files
        elif kind == "game":
            out, _ = check_game_file(p, str(p), in_dataset=False)
            report.findings += out.findings
            report.files.append(str(p))
        else:
            report.findings += _check_jsonl(p)
            report.files.append(str(p))
    return report


def _classify(p: Path) -> str:
    # path_kind, not is_dir()/exists(): those raise a bare PermissionError under an unsearchable directory.
    if path_kind(p) == "directory":
        if path_kind(p / MANIFEST) == "file":  # is_dataset_dir, with a permission problem as one line
            return "dataset"
        raise UserError(f"{p}: not a werealign dataset directory (no {MANIFEST}); pass a dataset directory, a game .json or an items .jsonl")
    require_file(p, "game .json or items .jsonl")  # missing, or a FIFO that would block validate forever
    if p.name == MANIFEST:
        raise UserError(f"{p}: this is a dataset manifest; validate the whole dataset by passing its directory {p.parent}")
    if p.suffix == ".json":
        return "game"
    if p.suffix == ".jsonl":
        return "jsonl"
    raise UserError(f"{p}: unknown file type; expected a game .json, an items or OSR .jsonl, or a dataset directory")


def _sibling_games(p: Path, kind: str) -> Path | None:
    """The games/ directory of the dataset a lone file sits in (items/x.jsonl or variants/osr/x.jsonl)."""
    root = p.parent.parent.parent if kind == "osr" else p.parent.parent
    games = root / "games"
    return games if kind_of(games) == "directory" else None


def _check_jsonl(p: Path) -> list[Finding]:
    out = Sink(file=str(p))
    rows, _ = load_jsonl(p, out)
    kind = detect_jsonl_kind(p, rows)
    if kind is None:
        if rows:
            out.error("unknown-kind", "", f"cannot tell what this file holds; name it {item_file_names()}, "
                      "or put OSR rewrites under variants/osr/")
        return out.findings
    games_dir = _sibling_games(p, kind)
    store = GameStore(games_dir=games_dir) if games_dir else None
    if store is None:
        out.warning("references-not-checked", "", "no games/ directory next to this file, so references to games, seats and segments were not checked")
    if kind == "osr":
        check_osr_rows(p, rows, out, store)
    else:
        assert kind in TASKS
        check_items_rows(kind, rows, out, store)
    return out.findings
