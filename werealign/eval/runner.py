"""Entry points of an evaluation: run (plan, send what is missing, score) and re-score from stored responses.

The jobs live in their own modules: config (what to run), plan (requests, seeding), rundir (run.json,
resume, lock, outputs), execute (sending), samples and scoring. Rerunning the same command resumes:
stored successes are never asked again, stored errors are. When nothing is missing, litellm is not even
imported (a cached rerun is fast).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werealign.dataset import load_dataset
from werealign.errors import UserError
from werealign.eval import rundir
from werealign.eval.config import EvalConfig, Execution  # noqa: F401 - the entry points' vocabulary
from werealign.eval.execute import ProgressHooks, send
from werealign.eval.plan import Planned, plan_run
from werealign.files import make_parent, write_json
from werealign.llm.cache import ResponseCache, cache_enabled
from werealign.llm.client import Outcome
from werealign.llm.credentials import check_credentials
from werealign.llm.store import STORE_NAME, Store
from werealign.render.prompt_templates import fallback_notices
from werealign.schema.runs import Results, RunConfig, RunExecution


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
    ds = load_dataset(Path(config.dataset) if config.dataset else None)
    plan = plan_run(ds, config)
    record = rundir.run_record(ds, config, execution)
    run_dir = out if out is not None else rundir.default_run_dir(config)
    if run_dir.exists() and not run_dir.is_dir():
        raise UserError(f"{run_dir}: --out exists and is not a directory")
    if acompletion is None and (overwrite or not (run_dir / STORE_NAME).exists()):
        # A fresh run sends everything (so litellm is imported anyway): refuse a model litellm cannot route
        # before a run directory is made, or emptied, for it. A resumed run already passed this check.
        from werealign.llm.builtin_models import check_model_name

        check_model_name(config.model, execution.api_base)
        check_credentials(config.model, execution.api_base)
    make_parent(run_dir / rundir.RUN_JSON)
    # Everything that reads or changes the directory happens under the lock: --overwrite must not empty
    # a directory another eval is still writing to.
    with rundir.exclusive(run_dir):
        if overwrite:
            rundir.clear(run_dir)
        warnings = rundir.check_resumable(run_dir, record) + fallback_notices(p.game.language for p in plan)
        write_json(run_dir / rundir.RUN_JSON, record)
        with Store(run_dir / STORE_NAME) as store, _shared_cache(config, execution, cache) as shared:
            ok = store.ok_keys()
            todo = _missing(plan, ok)
            unique = len({p.key for p in plan})
            from_cache = 0
            if todo and shared is not None:
                hits = shared.lookup(p.key for p in todo)
                for row in hits.values():  # the run's own store stays complete without the cache
                    store.put(row)
                todo = [p for p in todo if p.key not in hits]
                from_cache = len(hits)
            outcomes: list[Outcome] = []
            if todo:
                if acompletion is None:
                    check_credentials(config.model, execution.api_base)
                progress = progress_factory(unique, unique - len(todo)) if progress_factory else None
                outcomes = send(todo, store, config, execution, progress, acompletion, cache=shared)
            stored = store.load()
        results = rundir.write_outputs(run_dir, record, plan, stored)
    errors = [o for o in outcomes if not o.ok]
    first = f"{errors[0].error_class}: {errors[0].error_message}" if errors else None
    return RunSummary(
        run_dir=run_dir,
        planned=len(plan),
        unique_requests=unique,
        cached=unique - len(todo),
        from_cache=from_cache,
        sent=len(todo),
        request_errors=results.totals.request_errors,
        results=results,
        first_error=first,
        all_failed=bool(todo) and len(errors) == len(todo) and len(ok) == 0,
        warnings=warnings,
    )


@contextmanager
def _shared_cache(config: RunConfig, execution: RunExecution, wanted: bool) -> Iterator[ResponseCache | None]:
    """The shared response cache, unless turned off. The free baselines are not worth a cache entry."""
    from werealign.llm.builtin_models import PROVIDER

    if not wanted or not cache_enabled() or config.model.startswith(f"{PROVIDER}/"):
        yield None
        return
    with ResponseCache(rundir.public_api_base(execution.api_base)) as shared:
        yield shared


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
    if dataset is None and ds_path is not None and not ds_path.is_dir():
        # run.json keeps --dataset as it was given (no machine path in outputs), so a relative path only
        # resolves from the directory eval ran in.
        raise UserError(
            f"{where}: config.dataset {config.dataset!r} (as given to eval) is not a directory from here; "
            "pass the run's dataset with --dataset"
        )
    ds = load_dataset(ds_path)
    got = rundir.dataset_record(ds, config)
    for field_name in ("manifest_sha256", "content_sha256"):
        if getattr(got, field_name) != getattr(record.dataset, field_name):
            raise UserError(
                f"{where}: dataset.{field_name} does not match the dataset at "
                f"{ds_path or 'the bundled sample'}; pass the run's dataset with --dataset"
            )
    warnings = []
    if rundir.versions_record().templates_sha256 != record.versions.templates_sha256:
        # Not fatal: prompts are matched by request key, so a prompt whose text did not change still finds
        # its response, and one that did change is reported as missing rather than scored against new text.
        warnings.append(
            f"{where}: versions.templates_sha256 differs from the installed prompt templates; "
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
