"""How a task kind's items are checked: what werealign.validate and the de-duplication ask of a kind.

The hooks get what they need of werealign.validate through their arguments: `out` is a findings sink
(werealign.validate.findings.Sink), `idx` a game index; validate reads the task registry, so the tasks never
import it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def _same_cut(item: Any) -> tuple:
    return (item.game_id, item.viewpoint_seat, item.cutoff_segment)


@dataclass(frozen=True)
class ItemChecks:
    # Does a JSON object of an unnamed items file look like an item of this kind (first match in registry order)?
    looks_like: Callable[[dict[str, Any]], bool] = lambda row: False
    check: Callable[[Any, Any], None] = lambda item, out: None  # the item alone
    # Against its game: the phase the cut-off must lie in (None: any), reporting what makes it unknown ...
    cutoff_phase: Callable[[Any, Any, Any], str | None] = lambda item, idx, out: None
    check_refs: Callable[[Any, Any, Any], None] = lambda item, idx, out: None  # ... and the rest, after the cut-off
    # What makes two items of this kind the same question, whatever their ids.
    same_question: Callable[[Any], tuple] = _same_cut
