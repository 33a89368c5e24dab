"""Solvers by name: the built-in ones here, others from the `werealign.solvers` entry point group
(an entry point names a werealign.solvers.base.Solver) or `register` (tests, notebooks)."""

from __future__ import annotations

from importlib.metadata import entry_points

from werealign.errors import UserError
from werealign.schema.runs import DEFAULT_SOLVER
from werealign.solvers.base import Solver, State, StepFailed, StepRecord, Steps  # noqa: F401 - the seam's vocabulary
from werealign.solvers.single import SINGLE

_REGISTERED: dict[str, Solver] = {SINGLE.name: SINGLE}
ENTRY_POINT_GROUP = "werealign.solvers"
assert DEFAULT_SOLVER == SINGLE.name


def register(solver: Solver) -> None:
    """Add a solver by its name; a name taken by another solver is refused."""
    taken = _REGISTERED.get(solver.name)
    if taken is not None and taken is not solver:
        raise ValueError(f"solver {solver.name!r} is already registered")
    _REGISTERED[solver.name] = solver


def _from_entry_points() -> None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in _REGISTERED:
            solver = ep.load()
            if not isinstance(solver, Solver) or solver.name != ep.name:
                raise UserError(f"entry point {ENTRY_POINT_GROUP}:{ep.name} ({ep.value}) is not a Solver named {ep.name!r}")
            _REGISTERED[ep.name] = solver


def solver_names() -> list[str]:
    _from_entry_points()
    return sorted(_REGISTERED)


def get_solver(name: str) -> Solver:
    """The solver called `name`, or a UserError listing the known ones."""
    if name not in _REGISTERED:
        _from_entry_points()
    if name not in _REGISTERED:
        raise UserError(f"--solver: unknown solver {name!r}; choose from {', '.join(solver_names())}")
    return _REGISTERED[name]
