"""A solver's model calls and prompt characters for one sample, before anything is sent (`eval --dry-run`).

The solver runs on the sample with a placeholder for every reply, so its steps build the prompts they
would send: the task's prompt, each step's instruction, retrieved lines and experiences are counted as
they are. What cannot be known is the replies: a later step that quotes an earlier reply (xu's
reflection quotes its answers, every final step its notes) is counted with a placeholder of
`reply_chars` characters: the latest lines of the game the task's prompt shows (a reply talks about the
game, so retrieval by a reply, as xu's and mg's experience recall, finds what it would), in pieces
separated by '#', so a step that reads a list from a reply (xu's own questions) finds some; steps that
read a choice from it (xu's question numbers, sa's strategy) fall back as on an unreadable reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from werealign.solvers.base import Solver, State
from werealign.solvers.replay import drive
from werealign.solvers.prompting import shown_lines

PIECES = 4


@dataclass(frozen=True)
class Estimate:
    calls: int
    prompt_chars: int


class _DrySteps:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls = 0
        self.prompt_chars = 0

    async def ask(self, step: str, messages: list[dict[str, str]], *, params: dict[str, Any] | None = None) -> str:
        self.calls += 1
        self.prompt_chars += sum(len(m["content"]) for m in messages)
        return self.reply

    def note(self, step: str, output: str) -> None:
        pass


def placeholder(state: State, reply_chars: int) -> str:
    text = " ".join(shown_lines(state))[-reply_chars:] or "x" * reply_chars
    text = text.ljust(reply_chars, "x").replace("#", " ")
    size = max(1, len(text) // PIECES)
    return "#".join(text[i: i + size] for i in range(0, len(text), size))[:reply_chars]


def estimate_sample(solver: Solver, state: State, reply_chars: int) -> Estimate:
    steps = _DrySteps(placeholder(state, reply_chars))
    drive(solver.solve(state, steps))
    return Estimate(steps.calls, steps.prompt_chars)
