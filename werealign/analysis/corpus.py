"""Inputs of `analyze`: dataset directories (human games) and arena directories (self-play, split by
model: a model's group holds the games it played and, inside them, the seats it played)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from werealign.analysis.metrics import GameMetrics, game_metrics
from werealign.dataset import MANIFEST, dataset_files
from werealign.errors import UserError
from werealign.files import parse_model, read_json, read_jsonl
from werealign.schema import ArenaSummary, GameLog

ARENA_SUMMARY = "arena.json"  # werealign.arena.writer.SUMMARY (analysis never imports the arena)
TRACES = "traces"


@dataclass
class Group:
    label: str
    kind: str  # "human" or "arena"
    games: list[tuple[GameMetrics, frozenset[int]]] = field(default_factory=list)  # a game and the group's seats in it
    languages: set[str] = field(default_factory=set)
    moves: tuple[int, int] | None = None  # arena: (unreadable, decisions) of the model over the run
    flagged_games: int = 0  # arena: games where over the run's flag share of the model's moves fell back


def load_groups(paths: list[Path]) -> list[Group]:
    groups: list[Group] = []
    for path in paths:
        if not (path / MANIFEST).is_file():
            raise UserError(f"{path}: not a dataset or arena directory (no {MANIFEST})")
    names = [p.resolve().name or str(p) for p in paths]
    for path, name in zip(paths, names):
        games = _games(path)
        if (path / ARENA_SUMMARY).is_file():
            arena = _arena_groups(path, games)
            for g in arena:  # a model in two arena runs: one group per run
                g.label = f"{g.label}@{name}" if sum((p / ARENA_SUMMARY).is_file() for p in paths) > 1 else g.label
            groups += arena
        else:
            groups.append(Group(name, "human", [(game_metrics(g), frozenset(s.seat for s in g.seats)) for g in games],
                                languages={g.language for g in games}))
    seen: dict[str, int] = {}
    for g in groups:  # the same directory given twice, or two directories of one name
        seen[g.label] = seen.get(g.label, 0) + 1
        if seen[g.label] > 1:
            g.label = f"{g.label}#{seen[g.label]}"
    return groups


def _games(root: Path) -> list[GameLog]:
    out = []
    for gpath in sorted(dataset_files(root).games):
        out.append(parse_model(GameLog, read_json(gpath), str(gpath)))
    return out


def _arena_groups(root: Path, games: list[GameLog]) -> list[Group]:
    where = root / ARENA_SUMMARY
    summary = parse_model(ArenaSummary, read_json(where), str(where))
    rows = {r.game_id: (r.village, r.wolves) for r in summary.games}
    by_model: dict[str, Group] = {}
    for g in games:
        if g.game_id not in rows:
            raise UserError(f"{where}: game {g.game_id} of games/ has no row in the tournament table")
        trace_path = root / TRACES / f"{g.game_id}.jsonl"
        trace = [row for _, row in read_jsonl(trace_path)] if trace_path.is_file() else None
        gm = game_metrics(g, trace)
        village, wolves = rows[g.game_id]
        for model in dict.fromkeys((village, wolves)):
            seats = frozenset(s.seat for s in g.seats if (wolves if s.faction == "wolf" else village) == model)
            group = by_model.setdefault(model, Group(model, "arena"))
            group.games.append((gm, seats))
            group.languages.add(g.language)
    for model, group in by_model.items():
        row = summary.models.get(model)
        if row is not None:
            group.moves, group.flagged_games = (row.unreadable, row.decisions), len(row.flagged_games)
    return list(by_model.values())
