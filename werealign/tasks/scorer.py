"""How a task kind's samples become scores, and how those scores are shown: the `Scorer` a `Task` composes.

It holds the kind's results.json block (`score`, its primary `metric` per mode, the typed shapes of the block),
its floors (chance, the shortcut models, floors that need the game's truth), and what the leaderboard and the
release card show of it (columns, titles, card text). Leaderboards and the release read these, never a kind's
name: a kind from another package gets its own columns and card text the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

Sample = dict[str, Any]  # one samples.jsonl row as a dict (see werealign.schema.runs.SampleRow)
Block = dict[str, Any]  # one results.json block of a kind (variants.<variant>.<kind>), as read from a run


def correct_value(sample: Sample) -> float:
    return 1.0 if sample["correct"] else 0.0


@dataclass(frozen=True)
class BoardColumn:
    """A column of the main leaderboard table, as its kind defines it."""

    name: str  # the column header
    path: tuple[str, ...]  # where the value sits in the kind's results.json block
    dimension: str | None = None  # a slice of the kind's items (a speech dimension)
    macro: bool = False  # the mean over the dimensions of each dimension's score


def headline_of(blocks: Sequence[Block]) -> str:
    """The primary metric the runs report for a kind (the first named), or 'score' when none does."""
    return next((str(b["metric"]) for b in blocks if isinstance(b, dict) and b.get("metric")), "score")


@dataclass(frozen=True)
class Scorer:
    metric: str  # the primary score's field in results.json (the default mode's)
    score: Callable[[Sequence[Sample]], dict[str, Any]]  # this kind's samples -> its results.json block
    # answer (never None here) and gold -> right or wrong. The default suits a single-answer kind.
    is_correct: Callable[[Any, Any], bool] = lambda answer, gold: answer == gold
    # The primary metric per mode, when a mode changes it (default: `metric`).
    mode_metrics: dict[str, str] = field(default_factory=dict)
    # One sample's contribution to the default headline (samples.jsonl `score`; werealign.tasks.values).
    sample_value: Callable[[Sample], float] = correct_value
    # The shapes of its results.json block, one per headline metric (werealign.schema.runs); () = generic scores.
    results_models: tuple[type[BaseModel], ...] = ()

    # Floors (werealign.eval.floors). The built-in shortcut models whose scores are this kind's floors.
    shortcuts: tuple[str, ...] = ()
    # (item, metric, game) -> (expected correct units, units) of werealign/random's policy on one item: the
    # chance floor, micro-averaged over units (an item is one unit unless it asks several, e.g. one per seat).
    chance: Callable[[Any, str, Any], tuple[float, int]] | None = None
    # Floors that need the game's truth rather than a prompt: ([(game, item)], metric) -> {name: score}.
    truth_floors: Callable[[Sequence[tuple[Any, Any]], str], dict[str, float | None]] = lambda asked, metric: {}

    # How leaderboards show it (werealign.leaderboards.table_model).
    label: str = ""  # its name in column headers and titles ("" : the kind's name)
    # The metrics its column may show, the default first: the runs' headline when they all report one of them.
    # Empty: whatever headline the runs report.
    board_metrics: tuple[str, ...] = ()
    titles: dict[str, str] = field(default_factory=dict)  # shown metric -> table title, where "<label> <metric>" won't do
    # Its own columns from the runs' blocks of it (default: one column, `label`, of the shown metric).
    columns: Callable[[Sequence[Block]], tuple[BoardColumn, ...]] | None = None
    always_shown: bool = False  # its columns stand in the main table even when no run scored it (a gap is a finding)
    board_group: str = ""  # kinds of one group stand side by side, a rule before each new group ("": the others)
    macro_group: str = ""  # kinds averaged into one more column of this name (each kind's shown metric)
    macro_over_floor: bool = False  # that column averages each kind's skill over its best floor, not the metric itself
    card_text: str = ""  # what the release card says its config holds ("": the task's description); "{asked}": who is asked

    def metric_for(self, mode: str | None) -> str:
        return self.mode_metrics.get(mode or "", self.metric)

    def board_metric(self, blocks: Sequence[Block]) -> str:
        if not self.board_metrics:
            return headline_of(blocks)
        found = {b.get("metric") for b in blocks if isinstance(b, dict)}
        return found.pop() if len(found) == 1 and next(iter(found)) in self.board_metrics else self.board_metrics[0]

    def board_columns(self, name: str, blocks: Sequence[Block]) -> tuple[BoardColumn, ...]:
        if self.columns is not None:
            return self.columns(blocks)
        return (BoardColumn(self.label or name, (self.board_metric(blocks),)),)

    def title(self, name: str, blocks: Sequence[Block]) -> str:
        metric = self.board_metric(blocks)
        return self.titles.get(metric) or f"{self.label or name} {metric.replace('_', ' ')}"


# A kind no longer registered (read from an older run): shown by its runs' own headline.
GENERIC = Scorer(metric="score", score=lambda samples: {})
