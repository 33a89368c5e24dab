"""A two-step toy solver for the tests of the solver seam: reflect, count (a plain-Python step), answer.

The answer step repeats the task's prompt with the reflection appended to it, so the task's own answer
format and (in the mock and the fake) its answer rule still apply.
"""

from __future__ import annotations

from werealign.solvers import Solver, register
from werealign.solvers.base import State, Steps


async def _solve(state: State, steps: Steps) -> str:
    *head, last = state.messages
    thought = await steps.ask("reflect", [*head, {"role": "user", "content": last["content"] + "\n\nThink it over first."}])
    steps.note("count", f"{len(thought.split())} words")
    final = {"role": "user", "content": last["content"] + "\n\nYour first thoughts:\n" + thought + "\nNow answer."}
    return await steps.ask("answer", [*head, final], params={"temperature": 0.0})


TOY = Solver("toy-two-step", _solve, "reflect, then answer (tests only)")


def install() -> None:
    register(TOY)
