"""The shapes of a leaderboard (Column, Cell, Row, Table, Leaderboard), the main columns and how values
are shown: what the table builders (werealign.leaderboards.tables and the gain tables beside it) share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from werealign.stats import bootstrap as stats
from werealign.leaderboards.collect import ModelEntry
from werealign.stats.observation import Observation
from werealign.schema.models import DIMENSIONS

BASE = "base"
TASK_TITLES = {"speech": "speech accuracy", "vote": "VA accuracy", "opponent": "OI mean Jaccard"}


@dataclass(frozen=True)
class Column:
    name: str
    task: str
    path: tuple[str, ...]  # where the value sits in results.json, under variants.<variant>.<task>
    dimension: str | None = None
    role: str | None = None
    macro: bool = False  # the mean over dimensions of each dimension's accuracy (speech Avg)
    group_start: bool = False  # a rule before this column (between speech and decision tasks)
    tasks: tuple[str, ...] = ()  # a macro over these kinds (the decisions' mean of each kind's score); `task` names it

    def value(self, entry: ModelEntry, variant: str) -> float | None:
        if self.tasks:
            found = [v for t in self.tasks if (v := Column(t, t, self.path).value(entry, variant)) is not None]
            return sum(found) / len(found) if found else None
        node: Any = entry.scores.get(variant, {}).get(self.task)
        for key in self.path:
            node = node.get(key) if isinstance(node, dict) else None
        return float(node) if isinstance(node, (int, float)) and not isinstance(node, bool) else None

    def observations(self, entry: ModelEntry, variant: str) -> list[Observation]:
        return [o for o in entry.observations if (o.task in self.tasks if self.tasks else o.task == self.task) and o.variant == variant
                and (self.dimension is None or o.dimension == self.dimension)
                and (self.role is None or o.role == self.role)]

    def group_of(self):
        if self.tasks:
            return lambda o: o.task
        return (lambda o: o.dimension) if self.macro else (lambda o: None)


@dataclass
class Cell:
    value: float | None  # None: the model has no score here (task not run, dimension absent)
    low: float | None = None
    high: float | None = None
    rank: int | None = None  # 1 best, 2 second (on the shown, rounded values: ties share a rank)
    significant: bool = False  # rank 1 and significantly above every other row of the column
    change: float | None = None  # ablation: value - base value of the same model
    change_low: float | None = None
    change_high: float | None = None
    change_significant: bool = False
    games: int | None = None  # games behind the interval


@dataclass
class Row:
    label: str
    model: str | None  # None for a derived row (the shortcut floor)
    partial: bool = False
    baseline: bool = False
    variant: str = BASE
    cells: dict[str, Cell] = field(default_factory=dict)


@dataclass
class Table:
    key: str
    title: str
    columns: list[Column]
    rows: list[Row]
    notes: list[str] = field(default_factory=list)


@dataclass
class Leaderboard:
    tables: list[Table]
    comparisons: list[dict[str, Any]]
    entries: list[ModelEntry]
    seed: int
    resamples: int
    warnings: list[str] = field(default_factory=list)  # for stderr; each also stands in its table's notes


def games_note(table: Table) -> tuple[str | None, str | None]:
    """(note, warning): how many games each interval of the table rests on, and whether that is too few."""
    counts = sorted({c.games for r in table.rows for c in r.cells.values() if c.games is not None})
    if not counts:
        return None, None
    note = (f"each interval from {counts[0]} game(s)" if len(counts) == 1
            else "games behind each interval: g=N beside it")
    if counts[0] >= stats.MIN_GAMES:
        return note, None
    return note, (f"intervals from fewer than {stats.MIN_GAMES} games are too few resamples to trust; "
                  "those get no significance marks")


def shown(value: float) -> str:
    """How a score is printed: a percentage with one decimal (also the precision ranks and ties use)."""
    return f"{value * 100:.1f}"


def _dimensions(entries: Sequence[ModelEntry]) -> list[str]:
    found = {d for e in entries for tasks in e.scores.values() for d in tasks.get("speech", {}).get("by_dimension", {})}
    return [*DIMENSIONS, *sorted(found - set(DIMENSIONS))]  # the five always shown: a missing one is a finding


def oi_metric(entries: Sequence[ModelEntry]) -> str:
    """The OI column's field: the runs' OI headline (collect refuses runs of different OI modes); mean Jaccard
    when no run has OI or its headline is a variant of the set (exact match sits beside it in results.json)."""
    found = {tasks["opponent"].get("metric") for e in entries for tasks in e.scores.values() if "opponent" in tasks}
    return "role_accuracy" if found == {"role_accuracy"} else "mean_jaccard"


def tasks_in(entries: Sequence[ModelEntry]) -> list[str]:
    """Every task kind the runs scored, in registry order (a kind no longer registered after, by name)."""
    from werealign.tasks import TASKS

    found = {name for e in entries for tasks in e.scores.values() for name in tasks}
    return [t for t in TASKS if t in found] + sorted(found - set(TASKS))


def other_tasks(entries: Sequence[ModelEntry]) -> dict[str, str]:
    """Kinds beyond the paper's three (another package's): task -> the primary metric its runs report."""
    metrics: dict[str, str] = {}
    for task in tasks_in(entries):
        if task not in TASK_TITLES:
            metrics[task] = next((str(tasks[task].get("metric")) for e in entries for tasks in e.scores.values()
                                  if isinstance(tasks.get(task), dict) and tasks[task].get("metric")), "score")
    return metrics


def task_title(task: str, entries: Sequence[ModelEntry]) -> str:
    if task == "opponent" and oi_metric(entries) == "role_accuracy":
        return "OI role accuracy"
    return TASK_TITLES.get(task) or f"{task} {other_tasks(entries).get(task, 'score').replace('_', ' ')}"


def main_columns(entries: Sequence[ModelEntry]) -> list[Column]:
    """The paper's columns (RI SJ DR PS CT Avg | VA OI), then one per other kind the runs scored."""
    dims = [Column(d, "speech", ("by_dimension", d, "accuracy"), dimension=d) for d in _dimensions(entries)]
    others = [Column(task, task, (metric,), group_start=i == 0) for i, (task, metric) in enumerate(other_tasks(entries).items())]
    decisions = tuple(c.task for c in others if c.task in decision_kinds())
    if decisions:  # the decision kinds' macro: the mean of each kind's accuracy (issue 31)
        others.append(Column(DECISIONS, DECISIONS, ("accuracy",), tasks=decisions, macro=True))
    return [*dims, Column("Avg", "speech", ("macro_accuracy",), macro=True),
            Column("VA", "vote", ("accuracy",), group_start=True), Column("OI", "opponent", (oi_metric(entries),)), *others]


DECISIONS = "decisions"  # the macro column over the decision kinds


def decision_kinds() -> frozenset[str]:
    from werealign.schema.decisions import ALL_DECISION_MODELS

    return frozenset(ALL_DECISION_MODELS)
