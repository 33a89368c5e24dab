"""Solvers by name: the built-in ones here, others from the `werealign.solvers` entry point group
(an entry point names a werealign.solvers.base.Solver) or `register` (tests, notebooks).

A solver is chosen by a spec, `NAME` or `NAME:key=value,key=value` (`--solver xu:questions=6`, or in a
suite file `solver: {name: xu, questions: 6}`). The canonical spec (options sorted, defaults left
out) is what run.json records, so the same solver with the same settings is the same run.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

from werealign.errors import UserError
from werealign.registry import Registry
from werealign.schema.runs import DEFAULT_SOLVER
from werealign.solvers.base import Solver, State, StepFailed, StepRecord, Steps  # noqa: F401 - the seam's vocabulary
from werealign.solvers.single import SINGLE

ENTRY_POINT_GROUP = "werealign.solvers"
assert DEFAULT_SOLVER == SINGLE.name


def _builtins() -> list[Solver]:
    from werealign.solvers.agent_designs import AGENTS

    return [SINGLE, *AGENTS]


SOLVERS: Registry[Solver] = Registry("solver", ENTRY_POINT_GROUP, _builtins, kind=Solver)
register = SOLVERS.register  # add a solver by its name (a name taken by another solver is refused)


def solver_names() -> list[str]:
    return sorted(SOLVERS)


def solvers() -> dict[str, Solver]:
    """Every known solver by name (built-in, registered, entry points)."""
    return dict(sorted(SOLVERS.items()))


def parse_spec(spec: str | Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """`xu:questions=6,k=3` (or a suite file's {name: xu, questions: 6}) -> ("xu", {"questions": "6", "k": "3"})."""
    if isinstance(spec, Mapping):
        given = dict(spec)
        name = given.pop("name", None)
        if not isinstance(name, str) or not name:
            raise UserError("solver: a mapping needs `name` (e.g. {name: xu, questions: 6})")
        return name, {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in given.items()}
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise UserError(f"--solver {spec}: '{part}' is not key=value (e.g. xu:questions=6)")
        options[key.strip()] = value.strip()
    return name.strip(), options


def _typed(solver: Solver, key: str, value: str) -> Any:
    default = solver.options[key]
    try:
        if isinstance(default, bool):
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError
            return value.lower() in ("true", "1", "yes")
        return type(default)(value)
    except ValueError:
        kind = {bool: "true or false", int: "a whole number", float: "a number"}.get(type(default), type(default).__name__)
        raise UserError(f"--solver {solver.name}: {key}={value} is not {kind}") from None


def get_solver(spec: str | Mapping[str, Any]) -> Solver:
    """The solver a spec names, configured with its options, or a UserError listing what is known."""
    name, given = parse_spec(spec)
    if name not in SOLVERS:
        raise UserError(f"--solver: unknown solver {name!r}; choose from {', '.join(solver_names())}")
    base = SOLVERS[name]
    unknown = sorted(set(given) - set(base.options))
    if unknown:
        known = ", ".join(f"{k}={v}" for k, v in base.options.items()) or "none"
        raise UserError(f"--solver {name}: unknown option {unknown[0]!r} (options: {known})")
    options = {k: _typed(base, k, v) for k, v in given.items()}
    options = {k: v for k, v in options.items() if v != base.options[k]}  # a default given is the default
    if not options:
        return base
    for key, value in options.items():
        if isinstance(value, int) and not isinstance(value, bool) and value < 1:
            raise UserError(f"--solver {name}: {key} must be at least 1")
        if isinstance(value, float) and value < 0:
            raise UserError(f"--solver {name}: {key} must not be negative")
    full = {**base.options, **options}
    spec_text = name + ":" + ",".join(f"{k}={_text(v)}" for k, v in sorted(options.items()))
    return dataclasses.replace(base, solve=functools.partial(base.solve, **full), options=full, spec=spec_text)


def canonical_spec(spec: str | Mapping[str, Any]) -> str:
    """The spec run.json records: the name, then only the options that differ from the defaults, sorted."""
    solver = get_solver(spec)
    return solver.spec or solver.name


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
