"""The default solver: one call with the task's prompt as rendered (the request key of a plain eval)."""

from __future__ import annotations

from werealign.schema.runs import DEFAULT_SOLVER
from werealign.solvers.base import Solver, State, Steps


async def _solve(state: State, steps: Steps) -> str:
    return await steps.ask("answer", state.messages)


SINGLE = Solver(DEFAULT_SOLVER, _solve, "one call: the task's prompt, the reply parsed", planned=True)
