"""`werealign eval` and `werealign score` (issue 3). Heavy imports stay inside the functions."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import typer

from werealign.schema.runs import DEFAULT_SOLVER
from werealign.errors import UserError
from werealign.llm.failures import check_max_failed, failed_too_often


def _csv(value: str, option: str) -> tuple[str, ...]:
    parts = tuple(p.strip() for p in value.split(",") if p.strip())
    if not parts:
        raise UserError(f"{option}: give at least one value")
    if len(set(parts)) != len(parts):
        raise UserError(f"{option}: '{value}' names a value twice")
    return parts


# The mode shorthands `--<alias>-mode` the CLI declares (typer declares options statically); which kind each
# sets is the registry's (Task.mode_alias), so a kind's modes are set by `--mode KIND=MODE` whatever its alias.
SHORTHANDS = ("va", "oi")


def _modes(shorthands: dict[str, str | None], modes: list[str] | dict[str, str] | None,
           tasks: tuple[str, ...]) -> dict[str, str]:
    """run.json's `modes`: every evaluated task with modes gets one (its default unless given). `modes`: any
    task's, as --mode TASK=MODE (or a suite's mapping); `shorthands`: alias -> the mode given as --<alias>-mode."""
    from werealign.tasks import modes_of, task_of_mode_alias

    given: dict[str, str] = {}
    option_of: dict[str, str] = {}
    pairs = list(modes.items()) if isinstance(modes, dict) else [_mode_pair(text) for text in modes or ()]
    for task, mode in pairs:
        if task in given:
            raise UserError(f"--mode {task}={mode}: {task}'s mode is already given ({given[task]})")
        given[task], option_of[task] = mode, "--mode"
    for alias, mode in shorthands.items():
        if mode is not None:
            option, kind = f"--{alias}-mode", task_of_mode_alias(alias)
            if kind is None:
                raise UserError(f"{option} {mode}: no registered task kind takes this shorthand; use --mode TASK=MODE")
            task = kind.name
            if task in given and given[task] != mode:
                raise UserError(f"{option} {mode}: {task}'s mode is also given as {given[task]} (--mode); give it once")
            given[task], option_of[task] = mode, option
    for task in given:
        if task not in tasks:
            raise UserError(f"{option_of[task]}: {task} items are not evaluated (--tasks {','.join(tasks)})")
    return modes_of(given, tasks)


def _mode_pair(text: str) -> tuple[str, str]:
    task, sep, mode = text.partition("=")
    if not sep or not task.strip() or not mode.strip():
        raise UserError(f"--mode {text}: expected TASK=MODE, e.g. vote=full (werealign list shows every task's modes)")
    return task.strip(), mode.strip()


_PER_MODEL = ("api_base", "max_tokens", "temperature", "timeout", "max_attempts", "solver")  # a suite model may set these itself


def _config(model: str, dataset: Path | str | None, tasks: str, variant: str, protocol: str, decodes: int, permute: bool,
            seed: int, limit: int | None, temperature: float, max_tokens: int | None, va_mode: str | None,
            oi_mode: str | None, solver: str = DEFAULT_SOLVER, modes: list[str] | dict[str, str] | None = None, split: str = "faithful",
            context_budget: int | None = None):
    from werealign.eval.runner import EvalConfig
    from werealign.llm.model_limits import default_max_tokens
    from werealign.solvers import canonical_spec

    solver = canonical_spec(solver)  # an unknown name or option is refused before anything is planned

    from werealign.tasks import task_names as registered

    task_names = _csv(tasks, "--tasks") if tasks is not None else registered()
    return EvalConfig(
        model=model,
        dataset=str(dataset) if dataset is not None else None,
        tasks=task_names,
        variants=_csv(variant, "--variant"),
        protocol=protocol,
        decodes=decodes,
        permute=permute,
        seed=seed,
        limit=limit,
        split=split,
        temperature=temperature,
        max_tokens=max_tokens if max_tokens is not None else default_max_tokens(model),  # a local model's own reply budget
        context_budget=context_budget,
        modes=_modes(dict(zip(SHORTHANDS, (va_mode, oi_mode))), modes, task_names),
        solver=solver,
    )


def _execution(model: str, api_base: str | None, max_connections: int, timeout: float | None, max_attempts: int | None):
    from werealign.eval.runner import Execution
    from werealign.llm.model_limits import default_max_attempts, default_timeout

    timeout = default_timeout(model) if timeout is None else timeout  # a local model reads a long prompt slowly
    max_attempts = default_max_attempts(model) if max_attempts is None else max_attempts

    if max_connections < 1:
        raise UserError("--max-connections: must be at least 1")
    if timeout <= 0:
        raise UserError("--timeout: must be positive")
    if max_attempts < 1:
        raise UserError("--max-attempts: must be at least 1")
    return Execution(api_base=api_base, max_connections=max_connections, timeout=timeout, max_attempts=max_attempts)


def eval_command(
    ctx: typer.Context,
    model: list[str] | None = typer.Option(None, "--model", help="Any litellm model string (provider keys come from the environment, as litellm reads them), or a built-in (`werealign list` shows every one, those of installed plug-ins too): werealign/random, werealign/longest, werealign/lexical, the shortcuts werealign/options-only, werealign/own-last-call, werealign/all-candidates, werealign/majority-role, werealign/own-style, or local/smollm2. Repeat it to evaluate several models at once (sharing --max-connections, one run directory each)."),
    suite: Path | None = typer.Option(None, "--suite", help="A suite file (eval/suites/*.yaml): models and their settings, run like several --model; options given here win over the file's settings."),
    dataset: Path | None = typer.Option(None, "--dataset", help="Dataset directory, a folder written by `werealign release`, or hf:ORG/NAME (a release on the Hub, from the local cache when offline); RELEASE#CONFIG for an extra config (default: the bundled sample)."),
    tasks: str | None = typer.Option(None, "--tasks", help="Comma-separated task kinds (default: every registered one: speech, vote, opponent and those of installed plug-ins)."),
    variant: str = typer.Option("base", "--variant", help="Comma-separated ablation variants: base, rr (rule reminder, speech only), osr (objective speech rewrites), no-context (rules, own role and question: no transcript, no events; base minus it is the context gain), options-only (only the options or candidates)."),
    protocol: str = typer.Option("paired", "--ablation-protocol", help="paired: every variant on every item; randomized: one variant per item, drawn with --seed (the paper's)."),
    decodes: int = typer.Option(5, "--decodes", help="Independent decodes per item (std is reported across decode runs)."),
    permute: bool = typer.Option(True, "--permute/--no-permute", help="Shuffle speech options per decode (seeded by seed, item, decode)."),
    seed: int = typer.Option(0, "--seed", help="Seed of option orders, variant assignment and per-decode sampling seeds."),
    limit: int | None = typer.Option(None, "--limit", help="Use N items of each task, sampled with --seed across the speech dimensions (round-robin), not the first N."),
    split: str = typer.Option("faithful", "--split", help="faithful (default): leave out items whose viewpoint lacks a night fact the rules say it held (knowledge_missing) or whose stem names a hidden role; all: every item (the release's full set, for comparison with published numbers; incomplete prompts say what they lack)."),
    temperature: float = typer.Option(0.7, "--temperature", help="Sampling temperature (recorded in run.json)."),
    max_tokens: int | None = typer.Option(None, "--max-tokens", help="Maximum completion tokens per request (default: no cap of ours, the provider's limit; recorded in run.json)."),
    va_mode: str | None = typer.Option(None, "--va-mode", help="Shorthand of --mode for the task kind whose mode alias is va (the MVP's vote): what its prompt shows of the voter's own speech; `werealign list` shows its modes."),
    modes: list[str] | None = typer.Option(None, "--mode", help="TASK=MODE for any task with modes (repeatable; `werealign list` shows them and what each changes); --va-mode and --oi-mode are shorthands."),
    oi_mode: str | None = typer.Option(None, "--oi-mode", help="Shorthand of --mode for the task kind whose mode alias is oi (the opposing faction): how it is asked and scored; `werealign list` shows its modes."),
    api_base: str | None = typer.Option(None, "--api-base", help="Any OpenAI-compatible endpoint (vLLM, llama.cpp, a mock), e.g. http://127.0.0.1:8000/v1 with --model openai/NAME."),
    max_connections: int = typer.Option(16, "--max-connections", help="Requests in flight at once."),
    timeout: float | None = typer.Option(None, "--timeout", help="Seconds per attempt (default: the model's own, e.g. 900 for local/smollm2; else 120)."),
    max_attempts: int | None = typer.Option(None, "--max-attempts", help="Attempts per request (429, 5xx, timeouts and connection errors are retried; default: the model's own, else 6)."),
    context_budget: int | None = typer.Option(None, "--context-budget", help="Prompt tokens a request may take: the oldest turns are cut first (rules, own role and knowledge, events and the latest turns kept); a prompt that still does not fit is reported and not sent. Default: the model's context where known (local/smollm2: 8192 less the reply budget); 0: no budget."),
    max_failed: float | None = typer.Option(None, "--max-failed", help="Exit 1 when more than this fraction of the samples failed (0 to 1; default: only when every request failed). Results are still written."),
    out: Path | None = typer.Option(None, "--out", help="Run directory (default: runs/<model>-<config hash>); with several models, the parent of one directory per model. Rerunning the same command resumes it."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Discard what the run directory holds and start afresh."),
    solver: str = typer.Option(DEFAULT_SOLVER, "--solver", help="How the model answers: single (one call), cot, self-consistency, sa, xu, mg, or another registered solver; options as NAME:key=value,... (werealign list shows them)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the samples, model calls, tokens and cost the run would take (solver steps included), and a local model's estimated wall time (from a short timed probe of it when the run may be long); write nothing."),
    cache: bool = typer.Option(True, "--cache/--no-cache", help="Reuse replies already paid for by other runs (the shared response cache, see eval/README.md; WEREALIGN_CACHE=off turns it off too)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live progress and no summary table."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Run a local model (local/smollm2) even when its wall time, estimated from a short timed probe before anything is sent, is over an hour (--limit also allows it)."),
) -> None:
    """Evaluate a model (or several) on a dataset (default: the bundled sample); resumable, see `werealign score`."""
    from werealign.eval.progress import make_progress, print_summary
    from werealign.eval.runner import run_eval

    models = list(model or [])
    if suite is not None or len(models) != 1:
        values = dict(dataset=dataset, tasks=tasks, variant=variant, protocol=protocol, decodes=decodes, permute=permute, seed=seed,
                      limit=limit, temperature=temperature, max_tokens=max_tokens, va_mode=va_mode, oi_mode=oi_mode, modes=modes,
                      api_base=api_base, max_connections=max_connections, timeout=timeout, max_attempts=max_attempts, solver=solver,
                      split=split, context_budget=context_budget)
        _eval_many(ctx, models, suite, values, out=out, overwrite=overwrite, cache=cache, quiet=quiet, dry_run=dry_run, max_failed=max_failed,
                   yes=yes)
        return
    check_max_failed(max_failed)
    execution = _execution(models[0], api_base, max_connections, timeout, max_attempts)
    config = _config(models[0], dataset, tasks, variant, protocol, decodes, permute, seed, limit, temperature, max_tokens, va_mode, oi_mode, solver,
                     modes, split=split, context_budget=context_budget)
    if dry_run:
        from werealign.eval.dry_run import estimate_run

        print(estimate_run(config).line(config.label))
    _check_wall_time(config, execution, out, yes=yes, dry_run=dry_run, overwrite=overwrite)
    if dry_run:
        return
    # On Ctrl-C asyncio drops queued request coroutines unawaited; the warning would bury the message below.
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
    try:
        summary = run_eval(config, execution, out=out, overwrite=overwrite, progress_factory=make_progress(quiet), cache=cache)
    except KeyboardInterrupt:
        # Every response that arrived is already committed (DESIGN.md invariant 3): say how to resume.
        print("interrupted: the responses received so far are stored; rerun the same command to resume", file=sys.stderr)
        raise typer.Exit(130) from None
    for warning in summary.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if summary.from_cache:
        print(f"{summary.from_cache} reply(ies) reused from the shared response cache (not paid again)", file=sys.stderr)
    if summary.all_failed:  # nothing scored: no summary to show
        raise UserError(f"{summary.failure}.")
    if (line := _cache_line(summary.results)) is not None:
        print(line, file=sys.stderr)
    if not quiet:
        print_summary(summary.results, run_dir=str(summary.run_dir), sent=summary.sent, cached=summary.cached, limit=config.limit)
    if summary.request_errors:
        print(
            f"warning: {summary.request_errors} request(s) failed and count as wrong in the headline scores (answered-only scores beside them) "
            f"(first: {summary.first_error or summary.first_over_budget}); rerun the same command to retry them",
            file=sys.stderr,
        )
    print(summary.run_dir / "results.json")
    if summary.failure is not None:  # scored, yet nothing measured (no sample sent, no reply read): said last, exit 1
        raise UserError(f"{summary.failure}; the results are written.")
    totals = summary.results.totals
    if (why := failed_too_often(totals.request_errors, totals.samples, 1.0 if max_failed is None else max_failed)) is not None:
        raise UserError(f"{why.replace('requests', 'samples')}; the results are written, the failed samples count as wrong")


def _check_wall_time(config, execution, out: Path | None, *, yes: bool, dry_run: bool, overwrite: bool) -> None:
    """A local model's run: say its estimated wall time (a timed probe, werealign.eval.wall_time) and refuse one over an
    hour unless --limit or --yes chose it, naming a command that fits. `out`: --out (replies a resumed run holds are
    not counted; a dry run, as --overwrite, prices the run from scratch)."""
    from werealign.llm.speed_probe import is_local

    if not is_local(config.model):
        return
    from werealign.eval import rundir
    from werealign.eval.wall_time import HOUR, duration, estimate_wall_time

    run_dir = None if dry_run or overwrite else (out if out is not None else rundir.default_run_dir(config))
    estimate = estimate_wall_time(config, execution.timeout, run_dir)
    print(estimate.line(config.label), file=sys.stdout if dry_run else sys.stderr)
    if dry_run or estimate.seconds <= HOUR or yes or config.limit is not None:
        return
    if estimate.fits is not None:
        command = " ".join(["werealign eval --model", config.model,
                            *(["--dataset", str(config.dataset)] if config.dataset is not None else []),
                            "--limit", str(estimate.fits), "--decodes", "1"])
        fits = f"a run that fits: `{command}` (your other options kept; estimated {duration(estimate.fits_seconds)})"
    else:
        fits = "not even --limit 1 --decodes 1 fits an hour on this machine now"
    raise UserError(f"{config.label}: estimated {duration(estimate.seconds)} for {estimate.requests} requests, over an hour; nothing was sent. "
                    f"{fits[0].upper()}{fits[1:]}; or give --yes to run it all")


def _cache_line(results) -> str | None:
    """What the provider's prompt cache saved, from its usage reports (None when it read nothing)."""
    usage = results.usage
    if not usage.cached_prompt_tokens:
        return None
    share = usage.cached_prompt_tokens / usage.prompt_tokens if usage.prompt_tokens else 0.0
    saved = f", saved ${usage.cache_saving_usd:.4f}" if usage.cache_saving_usd is not None else ""
    return f"prompt cache: {usage.cached_prompt_tokens} input tokens ({share:.0%}) read from cache{saved}"


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether an option was given on the command line (it then wins over a suite file)."""
    source = ctx.get_parameter_source(name)  # by name: typer may bring its own copy of click's enum
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _eval_many(ctx: typer.Context, models: list[str], suite_path: Path | None, values: dict, *, out: Path | None,
               overwrite: bool, cache: bool, quiet: bool, dry_run: bool = False, max_failed: float | None = None, yes: bool = False) -> None:
    """Several models (repeated --model, or --suite): one run directory each, one shared connection budget."""
    from werealign.eval import rundir
    from werealign.eval.progress import make_board, print_comparison
    from werealign.eval.runner import ModelJob, run_evals
    from werealign.eval.suite import SuiteModel, load_suite, suite_values

    check_max_failed(max_failed)
    if suite_path is not None and models:
        raise UserError("--suite and --model: give the models in one place (the suite file, or repeated --model)")
    if suite_path is None and not models:
        raise UserError("--model: give a model (repeat --model for several, or use --suite FILE.yaml)")
    if suite_path is not None:
        suite = load_suite(suite_path)
        values = {**values, **{k: v for k, v in suite_values(suite).items() if not _given(ctx, k)}}
        entries = list(suite.models)
    else:
        if len(set(models)) != len(models):
            raise UserError(f"--model: {next(m for m in models if models.count(m) > 1)} is given twice")
        entries = [SuiteModel(model=m) for m in models]
    jobs = []
    for entry in entries:
        own = {k: getattr(entry, k) for k in _PER_MODEL if getattr(entry, k) is not None and not _given(ctx, k)}
        v = {**values, **own}
        execution = _execution(entry.model, v["api_base"], v["max_connections"], v["timeout"], v["max_attempts"])
        config = _config(entry.model, v["dataset"], v["tasks"], v["variant"], v["protocol"], v["decodes"], v["permute"], v["seed"],
                         v["limit"], v["temperature"], v["max_tokens"], v["va_mode"], v["oi_mode"], v["solver"], v["modes"],
                         split=v["split"], context_budget=v.get("context_budget"))
        # One directory per model, and per solver when a suite runs one model with several.
        named = entry.model if config.solver == DEFAULT_SOLVER else f"{entry.model}-{config.solver}"
        run_dir = rundir.default_run_dir(config) if out is None else out / rundir.model_slug(named)
        jobs.append(ModelJob(config, execution, run_dir))
    if dry_run:
        from werealign.eval.dry_run import estimate_run

        for job in jobs:
            print(estimate_run(job.config).line(job.label))
    for job in jobs:
        _check_wall_time(job.config, job.execution, job.run_dir, yes=yes, dry_run=dry_run, overwrite=overwrite)
    if dry_run:
        return
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
    try:
        outcomes = run_evals(jobs, max_connections=values["max_connections"], overwrite=overwrite, board=make_board(quiet), cache=cache)
    except KeyboardInterrupt:
        print("interrupted: the responses received so far are stored; rerun the same command to resume every model", file=sys.stderr)
        raise typer.Exit(130) from None
    for o in outcomes:
        s = o.summary
        for warning in s.warnings if s is not None else ():
            print(f"warning: {o.job.label}: {warning}", file=sys.stderr)
        if s is not None and s.from_cache:
            print(f"{o.job.label}: {s.from_cache} reply(ies) reused from the shared response cache (not paid again)", file=sys.stderr)
        if s is not None and (line := _cache_line(s.results)) is not None:
            print(f"{o.job.label}: {line}", file=sys.stderr)
        if o.ok and s is not None and s.request_errors:
            print(f"warning: {o.job.label}: {s.request_errors} request(s) failed and count as wrong (first: {s.first_error or s.first_over_budget}); "
                  "rerun the same command to retry them", file=sys.stderr)
    if not quiet:
        print_comparison(outcomes)
    for o in outcomes:
        t = o.summary.results.totals if o.ok and o.summary is not None else None
        if t is not None and max_failed is not None and (why := failed_too_often(t.request_errors, t.samples, max_failed)):
            o.error = f"{why.replace('requests', 'samples')}; its results are written"
    failed = [o for o in outcomes if not o.ok]
    for o in failed:
        print(f"error: {o.job.label}: {o.error}", file=sys.stderr)
    for o in outcomes:
        if o.ok and o.summary is not None:
            print(o.summary.run_dir / "results.json")
    if failed:
        others = "the others' results are written; " if len(failed) < len(outcomes) else ""
        raise UserError(f"{len(failed)} of {len(outcomes)} models failed ({', '.join(o.job.label for o in failed)}); "
                        f"{others}fix the cause and rerun the same command to resume")


def score_command(
    run: Path = typer.Argument(..., help="A run directory written by `werealign eval`."),
    dataset: Path | None = typer.Option(None, "--dataset", help="The run's dataset, when it has moved since the run."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary table."),
) -> None:
    """Re-score a run from its stored responses, with no model call."""
    from werealign.eval.progress import print_summary
    from werealign.eval.runner import score_run

    summary = score_run(run, dataset=dataset)
    for warning in summary.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if (line := _cache_line(summary.results)) is not None:
        print(line, file=sys.stderr)
    if not quiet:
        print_summary(summary.results, run_dir=str(summary.run_dir), sent=0, cached=summary.cached)
    missing = summary.results.totals.missing
    if missing:
        print(f"warning: {missing} planned request(s) have no stored response; run `werealign eval` again to fetch them", file=sys.stderr)
    if summary.request_errors:
        print(f"warning: {summary.request_errors} stored request(s) are errors and count as wrong in the headline scores (answered-only scores beside them)", file=sys.stderr)
    print(run / "results.json")
