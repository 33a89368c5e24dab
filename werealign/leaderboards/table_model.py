"""The shapes of a leaderboard (Column, Cell, Row, Table, Leaderboard), the main columns and how values
are shown: what the table builders (werealign.leaderboards.tables and the gain tables beside it) share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from werealign.stats import bootstrap as stats
from werealign.leaderboards.collect import ModelEntry
from werealign.stats.observation import Observation

BASE = "base"


@dataclass(frozen=True)
class Column:
    name: str
    task: str
    path: tuple[str, ...]  # where the value sits in results.json, under variants.<variant>.<task>
    dimension: str | None = None
    role: str | None = None
    macro: bool = False  # the mean over dimensions of each dimension's accuracy (speech Avg)
    group_start: bool = False  # a rule before this column (between groups of kinds, Scorer.board_group)
    tasks: tuple[str, ...] = ()  # a macro over these kinds (the decisions' mean of each kind's score); `task` names it
    silent: bool = False  # its kind cannot discriminate on these runs' items (non_discriminating): shown apart, never in a headline
    # The macro averages each kind's skill over its best floor, (score - floor) / (1 - floor) (issue 42: a kind whose
    # constant answer scores high cannot lift it); a kind whose run reports no floor is left out of it.
    over_floor: bool = False

    def _floor(self, entry: ModelEntry, variant: str, task: str) -> float | None:
        floors = (entry.scores.get(variant, {}).get(task) or {}).get("floors") or {}
        best = floors.get("best_score") if isinstance(floors, dict) else None
        return float(best) if isinstance(best, (int, float)) and best < 1 else None

    def value(self, entry: ModelEntry, variant: str) -> float | None:
        if self.tasks:
            found = []
            for t in self.tasks:
                v = Column(t, t, self.path).value(entry, variant)
                floor = self._floor(entry, variant, t) if self.over_floor else 0.0
                if v is not None and floor is not None:
                    found.append((v - floor) / (1 - floor))
            return sum(found) / len(found) if found else None
        node: Any = entry.scores.get(variant, {}).get(self.task)
        for key in self.path:
            node = node.get(key) if isinstance(node, dict) else None
        return float(node) if isinstance(node, (int, float)) and not isinstance(node, bool) else None

    def observations(self, entry: ModelEntry, variant: str) -> list[Observation]:
        found = [o for o in entry.observations if (o.task in self.tasks if self.tasks else o.task == self.task) and o.variant == variant
                 and (self.dimension is None or o.dimension == self.dimension)
                 and (self.role is None or o.role == self.role)]
        if not (self.tasks and self.over_floor):
            return found
        floors = {t: self._floor(entry, variant, t) for t in self.tasks}  # each answer rescaled as its kind's score is
        return [replace(o, value=(o.value - f) / (1 - f)) for o in found if (f := floors.get(o.task)) is not None]

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


def tasks_in(entries: Sequence[ModelEntry]) -> list[str]:
    """Every task kind the runs scored, in registry order (a kind no longer registered after, by name)."""
    from werealign.tasks import TASKS

    found = {name for e in entries for tasks in e.scores.values() for name in tasks}
    return [t for t in TASKS if t in found] + sorted(found - set(TASKS))


def _scorer(task: str):
    from werealign.tasks import TASKS
    from werealign.tasks.scorer import GENERIC

    return TASKS[task].scorer if task in TASKS else GENERIC


def _blocks(task: str, entries: Sequence[ModelEntry]) -> list[dict[str, Any]]:
    """The runs' results.json blocks of one kind, every variant (what its scorer shows columns and titles from)."""
    return [tasks[task] for e in entries for tasks in e.scores.values() if isinstance(tasks.get(task), dict)]


def task_title(task: str, entries: Sequence[ModelEntry]) -> str:
    return _scorer(task).title(task, _blocks(task, entries))


def _shown_tasks(entries: Sequence[ModelEntry]) -> list[str]:
    """The kinds the main table shows: those always shown (a gap is a finding), then any other the runs scored."""
    from werealign.tasks import TASKS

    found = set(tasks_in(entries))
    return [t for t in TASKS if TASKS[t].scorer.always_shown or t in found] + sorted(found - set(TASKS))


def non_discriminating(entries: Sequence[ModelEntry]) -> dict[str, str]:
    """Kind -> why it cannot tell models apart on these runs' items (issue 45): its keys are one value, or its
    majority-key floor (the share of the most common key, werealign.eval.floors) is at or above NON_DISCRIMINATING
    in a run's base variant. Such a kind is reported, and never enters a headline or a macro."""
    from werealign.tasks.common import MAJORITY_KEY, NON_DISCRIMINATING

    out: dict[str, str] = {}
    for task in tasks_in(entries):
        shares = [b["floors"]["shortcuts"][MAJORITY_KEY] for e in entries if isinstance(b := e.scores.get(BASE, {}).get(task), dict)
                  and isinstance(b.get("floors"), dict) and isinstance((b["floors"].get("shortcuts") or {}).get(MAJORITY_KEY), (int, float))]
        if shares and max(shares) >= 1.0:
            out[task] = "every key is one value"
        elif shares and max(shares) >= NON_DISCRIMINATING:
            out[task] = f"its most common key is {shown(max(shares))}% of items (at or above {shown(NON_DISCRIMINATING)}%)"
    return out


def main_columns(entries: Sequence[ModelEntry]) -> list[Column]:
    """Each kind's own columns (its scorer's: the paper's RI SJ DR PS CT Avg | VA OI, then any other kind's), a rule
    between groups of kinds, and a macro column after each macro group (the decision kinds' mean, issue 31). A kind
    that cannot discriminate (non_discriminating) is left out: of its macro (its columns marked `silent`, shown only
    in the macro's table of kinds), or of the table when it belongs to none."""
    columns: list[Column] = []
    macros: dict[str, list[Column]] = {}
    group: str | None = None
    silent = non_discriminating(entries)
    for task in _shown_tasks(entries):
        scorer = _scorer(task)
        if task in silent and not scorer.macro_group:
            continue
        for i, spec in enumerate(scorer.board_columns(task, _blocks(task, entries))):
            start = i == 0 and group is not None and scorer.board_group != group
            columns.append(Column(spec.name, task, spec.path, dimension=spec.dimension, macro=spec.macro, group_start=start, silent=task in silent))
        group = scorer.board_group
        if scorer.macro_group and task not in silent:
            macros.setdefault(scorer.macro_group, []).append(columns[-1])
    for name, members in macros.items():  # the mean of each member kind's shown score
        over = all(_scorer(c.task).macro_over_floor for c in members)
        columns.append(Column(name, name, members[0].path, tasks=tuple(c.task for c in members), macro=True, over_floor=over))
    return columns


def headline_column(entries: Sequence[ModelEntry]) -> Column | None:
    """The column models are ordered by: the first registered kind's last column (speech: its Avg)."""
    from werealign.tasks import TASKS

    first = next(iter(TASKS), None)
    if first is None:
        return None
    spec = TASKS[first].scorer.board_columns(first, _blocks(first, entries))[-1]
    return Column(spec.name, first, spec.path)
