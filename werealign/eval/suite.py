"""Suite files (`werealign eval --suite FILE.yaml`): a named list of models with shared eval settings.

    name: baselines
    description: Offline trivial baselines.
    settings:            # any of: the `werealign eval` options below, under their option names
      decodes: 5
      variants: [base, rr, osr]
      ablation_protocol: randomized
    models:
      - model: werealign/random
      - model: local/smollm2
        max_tokens: 256  # per-model: api_base, max_tokens, temperature, timeout, max_attempts, solver
      - model: local/smollm2
        solver: {name: xu, questions: 6}  # the same model again with another solver (its own run)

The file is checked strictly before anything runs: an unknown key, a value of the wrong type, an
unknown task, variant or mode, or no model at all is one error naming `file:line: key.path`. What a
setting means is what its `werealign eval` option means; an option given on the command line wins over
the file (and a model's own value over `settings`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from werealign.schema.runs import DEFAULT_SOLVER
from werealign.errors import UserError
from werealign.eval.config import PROTOCOLS
from werealign.splits import SPLITS
from werealign.tasks import TASKS, VARIANTS, task_names


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SuiteSettings(_Strict):
    """Eval options every model of the suite runs with (each field is the `werealign eval` option of that name)."""

    tasks: list[str] | None = Field(None, min_length=1)  # registered task kinds: checked in load_suite (open set)
    variants: list[Literal[VARIANTS]] | None = Field(None, min_length=1)  # type: ignore[valid-type]
    ablation_protocol: Literal[PROTOCOLS] | None = None  # type: ignore[valid-type]
    decodes: int | None = Field(None, ge=1)
    permute: bool | None = None
    seed: int | None = None
    limit: int | None = Field(None, ge=1)
    split: Literal[tuple(SPLITS)] | None = None  # type: ignore[valid-type]
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    max_tokens: int | None = Field(None, ge=1)
    va_mode: str | None = None
    modes: dict[str, str] | None = None  # any task's mode by task name (`--mode TASK=MODE`)
    oi_mode: str | None = None
    max_connections: int | None = Field(None, ge=1)
    timeout: float | None = Field(None, gt=0)
    max_attempts: int | None = Field(None, ge=1)
    solver: str | dict[str, Any] | None = None  # `xu:questions=6` or {name: xu, questions: 6}


class SuiteModel(_Strict):
    """One model of the suite, with the options it needs of its own."""

    model: str = Field(min_length=1)
    api_base: str | None = None
    max_tokens: int | None = Field(None, ge=1)
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    timeout: float | None = Field(None, gt=0)
    max_attempts: int | None = Field(None, ge=1)
    solver: str | dict[str, Any] | None = None  # the same model with several solvers: one entry per solver


class Suite(_Strict):
    name: str = Field(min_length=1)
    description: str | None = None
    settings: SuiteSettings = SuiteSettings()
    models: list[SuiteModel] = Field(min_length=1)


def load_suite(path: Path) -> Suite:
    """Read and check a suite file; the first problem is a UserError naming `file:line: key.path`."""
    from werealign.files.located_yaml import read_yaml  # YAML with line numbers and duplicate keys refused
    from werealign.tasks import modes_of, task_of_mode_alias

    data, source = read_yaml(path)
    if not isinstance(data, dict):
        raise source.error((), "expected a mapping with name, description, settings and models")
    try:
        suite = Suite.model_validate(data)
    except ValidationError as e:
        # An unknown key first: a misspelt key also makes the real one "missing", and the typo is the cause.
        err = min(e.errors(), key=lambda x: x["type"] != "extra_forbidden")
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith(("literal[", "function-"))))
        detail = f", got {err['input']!r}"[:80] if err["type"] not in ("missing", "extra_forbidden") else ""
        message = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        raise source.error(loc, f"{message}{detail}") from None
    settings = suite.settings
    for i, name in enumerate(settings.tasks or ()):
        if name not in TASKS:
            raise source.error(("settings", "tasks", i), f"unknown task {name!r}; choose from {', '.join(task_names())}")
    tasks = tuple(settings.tasks or task_names())
    for key in (k for k in SuiteSettings.model_fields if k.endswith("_mode")):  # the --<alias>-mode shorthands
        value = getattr(settings, key)
        if value is not None:
            task = task_of_mode_alias(key.removesuffix("_mode"))
            try:
                if task is None:
                    raise UserError(f"no registered task kind takes the shorthand {key}; use modes: {{TASK: MODE}}")
                modes_of({task.name: value}, tasks)
            except UserError as e:
                raise source.error(("settings", key), str(e)) from None
    for task, value in (settings.modes or {}).items():
        try:
            modes_of({task: value}, tasks)
        except UserError as e:
            raise source.error(("settings", "modes", task), str(e)) from None
    from werealign.solvers import canonical_spec

    specs = [("settings",)] if settings.solver is not None else []
    specs += [("models", i) for i, m in enumerate(suite.models) if m.solver is not None]
    for loc in specs:
        holder = settings if loc == ("settings",) else suite.models[loc[1]]
        try:
            canonical_spec(holder.solver)
        except UserError as e:
            raise source.error((*loc, "solver"), str(e)) from None
    seen: dict[str, int] = {}
    for i, entry in enumerate(suite.models):
        solver = canonical_spec(entry.solver or settings.solver or DEFAULT_SOLVER)
        where = (entry.model, entry.api_base, entry.max_tokens, entry.temperature, solver)
        key = repr(where)
        if key in seen:
            raise source.error(("models", i), f"{entry.model} is listed twice with the same options (first: models.{seen[key]})")
        seen[key] = i
    return suite


def suite_values(suite: Suite) -> dict[str, Any]:
    """The settings as `werealign eval` parameter names -> values (only those the file gives)."""
    names = {"variants": "variant", "ablation_protocol": "protocol"}
    values: dict[str, Any] = {}
    for key, value in suite.settings.model_dump(exclude_none=True).items():
        values[names.get(key, key)] = ",".join(value) if isinstance(value, list) else value
    return values
