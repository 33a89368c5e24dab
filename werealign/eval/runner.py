"""Entry points of an evaluation: run (plan, send what is missing, score) and re-score from stored responses.

The jobs live in their own modules: config (what to run), plan (requests, seeding), rundir (run.json,
resume, lock, outputs), execute (sending), samples and scoring. Rerunning the same command resumes:
stored successes are never asked again, stored errors are. When nothing is missing, litellm is not even
imported (a cached rerun is fast).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werealign.dataset import Dataset, load_dataset
from werealign.dataset.refs import dataset_path, is_release_ref
from werealign.errors import UserError
from werealign.eval import rundir
from werealign.eval.config import EvalConfig, Execution  # noqa: F401 - the entry points' vocabulary
from werealign.eval.execute import ProgressHooks, send
from werealign.eval.floors_ahead import floors_ahead
from werealign.eval.plan import Planned, plan_run
from werealign.files import make_parent, write_json
from werealign.llm.builtin_models import answers_in_process
from werealign.llm.cache import ResponseCache, cache_enabled, worth_caching
from werealign.llm.client import Outcome
from werealign.llm.credentials import check_credentials
from werealign.llm.prompt_cache import prefix_of
from werealign.llm.store import STORE_NAME, Paid, Store, StoredResponse
from werealign.render.prompt_templates import fallback_notices
from werealign.schema.runs import Results, RunConfig, RunExecution, RunRecord
from werealign.solvers import Solver, get_solver
from werealign.solvers.replay import replay


@dataclass
class RunSummary:
    run_dir: Path
    planned: int
    unique_requests: int
    cached: int  # planned requests not sent: already in the run's store, or copied from the shared cache
    sent: int
    request_errors: int
    results: Results
    first_error: str | None = None
    all_failed: bool = False
    warnings: list[str] = field(default_factory=list)
    from_cache: int = 0  # of `cached`: replies copied from the shared cache into this run
    paid: Paid | None = None  # a resumed run: the replies its store already held, and their cost
    first_over_budget: str | None = None  # why the first sample over the context budget was not sent
    first_parse_error: str | None = None  # the first unparsable reply's parse error

    @property
    def failure(self) -> str | None:
        """Why the run measured nothing, in one line; None otherwise: every request failed, no sample could be sent (each
        prompt over the context budget) or no reply could be read. The command then exits non-zero, even with --quiet."""
        if self.all_failed:
            return (f"every request failed ({self.sent}); the first failed with {self.first_error}. "
                    "Nothing was scored; fix the cause and rerun the same command")
        totals = self.results.totals
        if totals.samples and totals.over_budget == totals.samples:
            return (f"no sample could be sent: all {totals.samples} prompts are over the context budget even with every turn cut "
                    f"(first: {self.first_over_budget}); use a model with a longer context or a larger --context-budget")
        if totals.answered and totals.parse_failures == totals.answered and totals.truncated_replies == totals.answered:
            return (f"no reply could be read: all {totals.answered} replies were cut at --max-tokens before their answer line; "
                    "a larger --max-tokens lets them reach it")
        if totals.answered and totals.parse_failures == totals.answered:
            return (f"no reply could be read: all {totals.answered} replies are unparsable (first: {self.first_parse_error}; "
                    f"each sample's parse_error is in {self.run_dir / 'samples.jsonl'}); the model does not follow the answer format")
        return None


def run_eval(
    config: RunConfig,
    execution: RunExecution,
    *,
    out: Path | None = None,
    overwrite: bool = False,
    progress_factory: Callable[[int, int], ProgressHooks] | None = None,
    acompletion: Callable[..., Any] | None = None,
    cache: bool = True,
) -> RunSummary:
    """Evaluate `config.model`, resuming `out` if it holds this run.

    `cache`: use the response cache shared across runs (werealign.llm.cache; also off with
    WEREALIGN_CACHE=off). `acompletion` replaces litellm.acompletion (tests inject a fake here).
    """
    run_dir = out if out is not None else rundir.default_run_dir(config)
    with ExitStack() as stack:
        if acompletion is None and not answers_in_process(config.model):  # the split and floors computed beside the requests
            stack.enter_context(floors_ahead(config))
        long_lived = stack.enter_context(_long_lived())
        with long_lived():
            ds = load_dataset(dataset_path(config.dataset))
        with long_lived():  # the plan, and litellm's modules when a fresh run imports them
            p = open_run(stack, ds, config, execution, run_dir, overwrite=overwrite, acompletion=acompletion, cache=cache)
        progress = progress_factory(p.unique, p.unique - len(p.todo)) if progress_factory else None
        _announce_resume(p, progress)
        outcomes: list[Outcome] = []
        if p.todo:
            if acompletion is None:
                check_credentials(config.model, execution.api_base)
            outcomes = send(p.todo, p.store, config, execution, progress, acompletion, cache=p.shared, solver=p.solver, known=p.known,
                            cache_hits=p.cache_hits)
        return finish_run(p, outcomes)


@dataclass
class OpenRun:
    """A run between opening (locked, store open, cache copied in) and scoring: what is left to send."""

    config: RunConfig
    execution: RunExecution
    run_dir: Path
    record: RunRecord
    plan: list[Planned]
    store: Store
    shared: ResponseCache | None
    ok: set[str]
    todo: list[Planned]
    unique: int
    from_cache: int
    warnings: list[str]
    paid: Paid | None  # what the run's store held before this command: a resumed run
    solver: Solver
    known: dict[str, StoredResponse] | None = None  # stored successes a multi-step solver replays
    cache_hits: list[str] = field(default_factory=list)  # a multi-step solver's steps served by the shared cache


def open_run(
    stack: ExitStack,
    ds: Dataset,
    config: RunConfig,
    execution: RunExecution,
    run_dir: Path,
    *,
    overwrite: bool = False,
    acompletion: Callable[..., Any] | None = None,
    cache: bool = True,
) -> OpenRun:
    """Check, lock and open `run_dir` for `config` (the lock, store and cache stay open until `stack` closes)."""
    if acompletion is None and (overwrite or not (run_dir / STORE_NAME).exists()):
        # A fresh run sends everything (so litellm is imported anyway): refuse a model litellm cannot route
        # before a run directory is made, or emptied, for it. A resumed run already passed this check. Before
        # planning: meanwhile the floors' child (floors_ahead) judges the split the plan then reads from its cache.
        from werealign.llm.builtin_models import check_model_name

        check_model_name(config.model, execution.api_base)
        check_credentials(config.model, execution.api_base)
    notices: list[str] = []
    plan = plan_run(ds, config, notices)
    solver = get_solver(config.solver)
    record = rundir.run_record(ds, config, execution)
    if run_dir.exists() and not run_dir.is_dir():
        raise UserError(f"{run_dir}: --out exists and is not a directory")
    make_parent(run_dir / rundir.RUN_JSON)
    # Everything that reads or changes the directory happens under the lock: --overwrite must not empty
    # a directory another eval is still writing to.
    stack.enter_context(rundir.exclusive(run_dir))
    if overwrite:
        rundir.clear(run_dir)
    warnings = (rundir.check_resumable(run_dir, record) + fallback_notices(p.game.language for p in plan) + ds.unknown_kind_notices()
                + notices)
    warnings += budget_notices(plan, config)
    write_json(run_dir / rundir.RUN_JSON, record)
    store = stack.enter_context(Store(run_dir / STORE_NAME))
    shared = stack.enter_context(_shared_cache(config, execution, cache))
    paid = store.paid()
    ok = store.ok_keys()
    known = None
    sendable = [p for p in plan if p.over_budget is None]  # a prompt over the context budget is never sent
    if solver.planned:
        todo = _missing(sendable, ok)
    else:  # later steps' keys depend on earlier replies: replay what is stored to find what is missing
        known = store.ok_rows(ok)
        solved = replay(solver, config.model, [p.state() for p in sendable], known)
        todo = _missing([p for p, s in zip(sendable, solved, strict=True) if s.missing], set())
    unique = len({p.key for p in plan})
    from_cache = 0
    if todo and shared is not None and solver.planned:  # other solvers look each step up as they go
        hits = shared.lookup(p.key for p in todo)
        for row in hits.values():  # the run's own store stays complete without the cache
            store.put(row)
        todo = [p for p in todo if p.key not in hits]
        from_cache = len(hits)
    todo = by_prefix(todo)
    return OpenRun(config, execution, run_dir, record, plan, store, shared, ok, todo, unique, from_cache, warnings,
                   paid if paid.requests else None, solver, known)


def budget_notices(plan: list[Planned], config: RunConfig) -> list[str]:
    """What the context budget did: turns cut (per sample in samples.jsonl) and samples never sent."""
    from werealign.eval.context_budget import over_budget_line, run_budget

    cut = [p for p in plan if p.turns_cut and p.over_budget is None]
    over = [p for p in plan if p.over_budget is not None]
    if not cut and not over:
        return []
    budget = run_budget(config)
    tokens = budget.tokens if budget is not None else None
    notices = []
    if cut:
        notices.append(f"{len(cut)} of {len(plan)} sample(s) had their oldest turns cut to fit the context budget ({tokens} tokens; "
                       f"{sum(p.turns_cut for p in cut)} turns in all, per sample in samples.jsonl `turns_cut`)")
    if over:
        notices.append(over_budget_line(len(over), len(plan), tokens, over[0].over_budget))
    return notices


def finish_run(p: OpenRun, outcomes: list[Outcome]) -> RunSummary:
    """Score what the store holds and write samples.jsonl and results.json (call before the lock is released)."""
    results = rundir.write_outputs(p.run_dir, p.record, p.plan, p.store.load())
    errors = [o for o in outcomes if not o.ok]
    first = f"{errors[0].error_class}: {errors[0].error_message}" if errors else None
    over = len({q.key for q in p.plan if q.over_budget is not None})
    if p.solver.planned:
        sent, cached, from_cache = len(p.todo), p.unique - len(p.todo) - over, p.from_cache
    else:  # counted in model calls, as sent: every stored reply not sent by this command was reused
        sent, from_cache = len(outcomes), len(p.cache_hits)
        cached = len(p.store.ok_keys()) - sum(1 for o in outcomes if o.ok)
    return RunSummary(
        run_dir=p.run_dir,
        planned=len(p.plan),
        unique_requests=p.unique,
        cached=cached,
        from_cache=from_cache,
        sent=sent,
        request_errors=results.totals.request_errors,
        results=results,
        first_error=first,
        all_failed=bool(outcomes) and len(errors) == len(outcomes) and len(p.ok) == 0,
        warnings=p.warnings,
        paid=p.paid,
        first_over_budget=next((q.over_budget for q in p.plan if q.over_budget is not None), None),
        first_parse_error=_first_parse_error(p.run_dir, results),
    )


def _first_parse_error(run_dir: Path, results: Results) -> str | None:
    """The first parse error samples.jsonl records, read only when no reply could be read (RunSummary.failure names it)."""
    totals = results.totals
    if not totals.answered or totals.parse_failures != totals.answered:
        return None
    from werealign.files import read_jsonl

    return next((row["parse_error"] for _, row in read_jsonl(run_dir / rundir.SAMPLES) if row.get("parse_error")), None)


@contextmanager
def _long_lived() -> Iterator[Callable[[], AbstractContextManager[None]]]:
    """Yields a context manager for building what lives until the run is scored (the dataset, the plan,
    litellm's modules): the garbage collector is paused while it is built (a collection then only walks
    objects that are all still in use) and it is frozen afterwards (gc.freeze: later full collections, which
    the requests' allocations trigger, skip it). ~0.5 s of a 1000-request run on the release. Everything is
    handed back to the collector (gc.unfreeze) when the run ends, so a long-lived caller (tests, a notebook)
    frees it as usual; nothing is frozen when something else had already frozen objects."""
    owned = gc.get_freeze_count() == 0

    @contextmanager
    def building() -> Iterator[None]:
        enabled = gc.isenabled()
        gc.disable()
        try:
            yield
        finally:
            if owned:
                gc.freeze()
            if enabled:
                gc.enable()

    try:
        yield building
    finally:
        if owned:
            gc.unfreeze()


def _announce_resume(p: OpenRun, progress: ProgressHooks | None) -> None:
    """Tell the progress display that this run resumes, and what it already holds (nothing is paid twice)."""
    if progress is not None and p.paid is not None and hasattr(progress, "resuming"):
        progress.resuming(p.paid, missing=len(p.todo), from_cache=p.from_cache)


@contextmanager
def _shared_cache(config: RunConfig, execution: RunExecution, wanted: bool) -> Iterator[ResponseCache | None]:
    """The shared response cache, unless turned off or the model's replies are not worth keeping (llm.cache)."""
    if not wanted or not cache_enabled() or not worth_caching(config.model):
        yield None
        return
    with ResponseCache(rundir.public_api_base(execution.api_base)) as shared:
        yield shared


def by_prefix(todo: list[Planned]) -> list[Planned]:
    """The requests grouped by the prompt prefix they share (game, viewpoint, cut-off), groups in plan order:
    sent close together, a provider's prompt cache still holds the prefix when the next one arrives."""
    groups: dict[tuple[str, ...], list[Planned]] = {}
    for p in todo:
        groups.setdefault(prefix_of(p.messages), []).append(p)
    return [p for group in groups.values() for p in group]


def _missing(plan: list[Planned], ok: set[str]) -> list[Planned]:
    """The planned requests with no stored success, each key once (decodes with equal prompts share none)."""
    todo: list[Planned] = []
    seen: set[str] = set()
    for p in plan:
        if p.key not in ok and p.key not in seen:
            seen.add(p.key)
            todo.append(p)
    return todo


def score_run(run_dir: Path, *, dataset: Path | None = None) -> RunSummary:
    """Recompute samples.jsonl and results.json from run.json + responses.sqlite; no model is called."""
    record = rundir.read_record(run_dir)
    config = record.config
    where = run_dir / rundir.RUN_JSON
    ds_path = dataset if dataset is not None else (Path(config.dataset) if config.dataset else None)
    if dataset is None and ds_path is not None and not ds_path.is_dir() and not is_release_ref(ds_path):
        # run.json keeps --dataset as it was given (no machine path in outputs), so a relative path only
        # resolves from the directory eval ran in.
        raise UserError(
            f"{where}: config.dataset {config.dataset!r} (as given to eval) is not a directory from here; "
            "pass the run's dataset with --dataset"
        )
    ds = load_dataset(dataset_path(ds_path))
    got = rundir.dataset_record(ds, config)
    for field_name in ("manifest_sha256", "content_sha256"):
        if getattr(got, field_name) != getattr(record.dataset, field_name):
            raise UserError(
                f"{where}: dataset.{field_name} does not match the dataset at "
                f"{ds_path or 'the bundled sample'}; pass the run's dataset with --dataset"
            )
    warnings = []
    installed = rundir.versions_record(rundir.asked_kinds(ds, config), config.solver)
    changed = [f for f in ("templates_sha256", "solver_templates_sha256") if getattr(installed, f) != getattr(record.versions, f)]
    if changed:
        # Not fatal: prompts are matched by request key, so a prompt whose text did not change still finds
        # its response, and one that did change is reported as missing rather than scored against new text.
        warnings.append(
            f"{where}: versions.{changed[0]} differs from the installed prompt templates; "
            "responses are matched by request key, prompts whose text changed count as missing"
        )
    plan = plan_run(ds, config)
    warnings += fallback_notices(p.game.language for p in plan)
    if not (run_dir / STORE_NAME).is_file():
        raise UserError(f"{run_dir}: no {STORE_NAME}")
    with Store(run_dir / STORE_NAME) as store:  # read-write so a WAL left by a killed run is recovered
        stored = store.load()
    results = rundir.write_outputs(run_dir, record, plan, stored)
    keys = {p.key for p in plan}
    return RunSummary(
        run_dir=run_dir,
        planned=len(plan),
        unique_requests=len(keys),
        cached=sum(1 for k in keys if k in stored and stored[k].ok),
        sent=0,
        request_errors=results.totals.request_errors,
        results=results,
        warnings=warnings,
    )


# --------------------------------------------------------------------------- several models at once


@dataclass
class ModelJob:
    """One model of a several-model eval: its config, how it is sent, and its own run directory."""

    config: RunConfig
    execution: RunExecution
    run_dir: Path

    @property
    def label(self) -> str:
        """The model, and its solver unless the default: how the progress and the comparison name the job."""
        return self.config.label


@dataclass
class ModelOutcome:
    job: ModelJob
    summary: RunSummary | None = None  # None when the model never got as far as scoring
    error: str | None = None  # why this model failed; the others are unaffected

    @property
    def ok(self) -> bool:
        return self.error is None


def run_evals(
    jobs: list[ModelJob],
    *,
    max_connections: int,
    overwrite: bool = False,
    board: Any = None,
    acompletion: Callable[..., Any] | None = None,
    cache: bool = True,
) -> list[ModelOutcome]:
    """Evaluate several models at once, each in its own run directory, resumable like one.

    Every config, model name and run directory is checked before any directory is touched (a usage
    error stops everything); every model's credentials are checked before anything is sent. Then the
    models' requests go out in one event loop with at most `max_connections` in flight in all. A model
    that cannot run (no key, a directory holding another run, every request failing) is reported in its
    outcome while the others run and keep their results. `board` (werealign.eval.progress.Board) shows
    the progress of every model.
    """
    from werealign.eval.config import validate_config
    from werealign.eval.execute import Job, send_all
    from werealign.llm.credentials import missing_api_keys

    if not jobs:
        raise UserError("no model to evaluate")
    dirs: dict[Path, str] = {}
    for job in jobs:
        validate_config(job.config)
        if acompletion is None:
            from werealign.llm.builtin_models import check_model_name

            check_model_name(job.config.model, job.execution.api_base)
        if job.run_dir in dirs:
            raise UserError(f"{job.label} and {dirs[job.run_dir]} would share the run directory {job.run_dir}; give them distinct ones")
        dirs[job.run_dir] = job.label
    datasets: dict[str | None, Dataset] = {}
    for job in jobs:
        if job.config.dataset not in datasets:
            datasets[job.config.dataset] = load_dataset(dataset_path(job.config.dataset))
    outcomes = [ModelOutcome(job) for job in jobs]
    if acompletion is None:
        for outcome in outcomes:
            if missing := missing_api_keys(outcome.job.config.model, outcome.job.execution.api_base):
                outcome.error = f"{' or '.join(missing)} is not set (litellm reads the provider's key from the environment); nothing was sent"
    with ExitStack() as stack:
        opened: list[tuple[ModelOutcome, OpenRun, ProgressHooks | None]] = []
        for outcome in outcomes:
            if not outcome.ok:
                continue
            job = outcome.job
            try:
                with ExitStack() as own:
                    p = open_run(own, datasets[job.config.dataset], job.config, job.execution, job.run_dir,
                                 overwrite=overwrite, acompletion=acompletion, cache=cache)
                    stack.enter_context(own.pop_all())  # kept open (locked) until every model is scored
            except UserError as e:
                outcome.error = str(e)
                continue
            progress = board.add(job.label, p.unique, p.unique - len(p.todo)) if board is not None else None
            _announce_resume(p, progress)
            opened.append((outcome, p, progress))
        sending = [(o, p, progress) for o, p, progress in opened if p.todo]
        sent = send_all(
            [Job(p.todo, p.store, p.config, p.execution, p.solver, progress, p.shared, p.known, p.cache_hits) for _, p, progress in sending],
            acompletion=acompletion,
            max_connections=max_connections,
            display=board if sending else None,
        ) if sending else []
        results: dict[int, list[Outcome] | BaseException] = {id(o): r for (o, _, _), r in zip(sending, sent, strict=True)}
        for outcome, p, _ in opened:
            got = results.get(id(outcome), [])
            try:
                outcome.summary = finish_run(p, got if isinstance(got, list) else [])
            except UserError as e:
                outcome.error = str(e)
                continue
            if isinstance(got, BaseException):
                outcome.error = str(got) if isinstance(got, UserError) else f"{type(got).__name__}: {got}"
            elif outcome.summary.failure is not None:
                outcome.error = outcome.summary.failure
    return outcomes
