"""The item a baseline answers: a solver State read as data (`ItemView`), never the prompt text re-parsed.

A State carries what its messages show (`State.shown`, werealign.solvers.base.Shown: options in shown order,
candidate seats, role cards, the shown transcript by seat), set by whoever rendered them (eval's plan); the task
(werealign.tasks) says what the answer line asks for. Never the gold or the hidden game, so a baseline cannot cheat.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from werealign.solvers.base import Shown, State
from werealign.tasks import TASKS, resolve_mode


@dataclass(frozen=True, kw_only=True)
class ItemView(Shown):
    """One item as its prompt shows it, as data: what the messages show (Shown) with the prompt and its task."""

    task: str  # the task kind
    shape: str  # what its answer line asks for: option | seat | seats | roles (Task.answer_shape in the run's mode)
    messages: list[dict[str, str]]  # the prompt as sent

    @property
    def zh(self) -> bool:
        """The prompt's language is Chinese (the answer line's label)."""
        return self.lang == "zh"

    @property
    def context(self) -> str:
        """The prompt's user text without its option lines: what the lexical model compares options with."""
        lines = "\n".join(str(m.get("content") or "") for m in self.messages if m.get("role") == "user").splitlines()
        shown = [f"{k}. {t}" for k, t in self.options]
        n = len(shown)
        start = next((i for i in range(len(lines) - n, -1, -1) if n and lines[i:i + n] == shown), None)
        return "\n".join(lines if start is None else lines[:start] + lines[start + n:])


def view_of(state: Any) -> ItemView:
    """The ItemView of a State whose messages ask a task's item; a ValueError for anything else (a baseline
    answers benchmark items only, as `werealign eval` sends them)."""
    if not isinstance(state, State) or state.shown is None or state.task not in TASKS:
        raise ValueError("a werealign baseline answers a benchmark item's State (its messages and what they show), "
                         "as `werealign eval` sends it; this request carries none")
    shown = state.shown()
    asked = TASKS[state.task].asked_in(resolve_mode(TASKS[state.task], state.mode))
    return ItemView(task=state.task, shape=asked.answer_shape, messages=state.messages,
                    **{f.name: getattr(shown, f.name) for f in fields(Shown)})
