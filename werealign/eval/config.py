"""What a run is asked to do (EvalConfig) and how its requests are sent (Execution), and their checks."""

from __future__ import annotations

from pydantic import Field

from werealign.errors import UserError
from werealign.splits import SPLITS
from werealign.schema.runs import DEFAULT_SOLVER, RunConfig, RunExecution
from werealign.tasks import TASKS, VARIANTS, modes_of, task_names, tasks_with_variant

PROTOCOLS: tuple[str, ...] = ("paired", "randomized")


class EvalConfig(RunConfig):
    """run.json `config`, with every registered task as the default selection."""

    tasks: tuple[str, ...] = Field(default_factory=task_names, description=RunConfig.model_fields["tasks"].description)


Execution = RunExecution  # run.json `execution`


def validate_config(config: RunConfig) -> None:
    bad = [t for t in config.tasks if t not in TASKS]
    if bad or not config.tasks:
        raise UserError(f"--tasks: unknown task {', '.join(bad) or '(none)'}; choose from {','.join(task_names())}")
    bad = [v for v in config.variants if v not in VARIANTS]
    if bad or not config.variants:
        raise UserError(f"--variant: unknown variant {', '.join(bad) or '(none)'}; choose from {','.join(VARIANTS)}")
    if config.protocol not in PROTOCOLS:
        raise UserError(f"--ablation-protocol: '{config.protocol}' is not one of {', '.join(PROTOCOLS)}")
    if config.split not in SPLITS:
        raise UserError(f"--split: '{config.split}' is not one of {', '.join(SPLITS)}")
    if config.decodes < 1:
        raise UserError("--decodes: must be at least 1")
    if config.limit is not None and config.limit < 1:
        raise UserError("--limit: must be at least 1")
    if not 0.0 <= config.temperature <= 2.0:
        raise UserError("--temperature: must be between 0 and 2")
    modes_of(config.modes, config.tasks)  # every mode names an evaluated task and one of its modes
    from werealign.llm.builtin_models import answers_in_process
    from werealign.solvers import get_solver

    get_solver(config.solver)  # a UserError naming the known solvers
    if answers_in_process(config.model) and config.solver != DEFAULT_SOLVER:
        raise UserError(f"--solver {config.solver}: the built-in baseline {config.model} answers from the options in one "
                        "step; solvers are for models (use --solver single, the default)")
    if config.max_tokens is not None and config.max_tokens < 1:
        raise UserError("--max-tokens: must be at least 1")
    for task in config.tasks:
        if not any(v in TASKS[task].variants for v in config.variants):
            allowed = ", ".join(v for v in VARIANTS if v in TASKS[task].variants)
            raise UserError(
                f"--variant {','.join(config.variants)}: no chosen variant applies to {task} items "
                f"(rr applies to {', '.join(tasks_with_variant('rr'))} items only); add one of {allowed}, "
                f"or drop {task} from --tasks"
            )
