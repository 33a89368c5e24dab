"""Plan and execute an evaluation run; re-score a run from its stored responses.

    plan:     dataset + config -> one Planned request per item x variant x decode (prompt rendered,
              option order drawn, request key computed). Everything here is deterministic.
    execute:  send the requests not yet stored (asyncio, `max_connections` workers), store each outcome
              the moment it arrives (responses.sqlite), report progress.
    score:    stored responses + plan -> samples.jsonl and results.json (written atomically).

Rerunning the same command resumes: stored successes are never asked again, stored errors are.
When nothing is missing, litellm is not even imported (a cached rerun is fast).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import re
import typing
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from werealign import __version__
from werealign.dataset import Dataset, bundled_sample_path, load_dataset
from werealign.errors import UserError
from werealign.eval.client import Outcome, RetryPolicy, call_with_retries
from werealign.eval.scoring import OBSERVER_ROLE, TASKS, is_correct, score_samples
from werealign.eval.store import STORE_NAME, Store, StoredResponse
from werealign.files import make_parent, read_json, sha256_file, write_json, write_jsonl
from werealign.schema.models import GameLog

VARIANTS: tuple[str, ...] = ("base", "rr", "osr")
PROTOCOLS: tuple[str, ...] = ("paired", "randomized")
# Which tasks a variant can be asked on: only speech items carry a rule reminder.
VARIANT_TASKS: dict[str, tuple[str, ...]] = {"base": TASKS, "rr": ("speech",), "osr": TASKS}
RUN_JSON = "run.json"
SAMPLES = "samples.jsonl"
RESULTS = "results.json"
RUN_FORMAT = "werealign-run/1"


@dataclass(frozen=True)
class EvalConfig:
    """Everything that decides which requests are sent and how they are scored (run.json `config`)."""

    model: str
    dataset: str | None = None  # as the user gave it; None = the bundled sample
    tasks: tuple[str, ...] = TASKS
    variants: tuple[str, ...] = ("base",)
    protocol: str = "paired"
    decodes: int = 5
    permute: bool = True
    seed: int = 0
    limit: int | None = None
    temperature: float = 0.7
    max_tokens: int = 1024


@dataclass(frozen=True)
class Execution:
    """How requests are sent; does not change results, so a resumed run may change it."""

    api_base: str | None = None
    max_connections: int = 16
    timeout: float = 120.0
    max_attempts: int = 6
    backoff_base: float = 1.0
    backoff_max: float = 60.0


@dataclass(frozen=True)
class Planned:
    model: str
    task: str
    item: Any
    game: GameLog
    variant: str
    decode: int
    option_order: list[int] | None
    messages: list[dict[str, str]]
    params: dict[str, Any]
    key: str


@dataclass
class RunSummary:
    run_dir: Path
    planned: int
    unique_requests: int
    cached: int
    sent: int
    request_errors: int
    results: dict[str, Any]
    first_error: str | None = None
    all_failed: bool = False
    warnings: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- helpers


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def request_key(model: str, params: dict[str, Any], messages: list[dict[str, str]], decode: int) -> str:
    """sha256 of (model, sampling params, messages, decode index): the identity of a paid request."""
    blob = canonical_json({"model": model, "params": params, "messages": messages, "decode": decode})
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def derived_int(*parts: object) -> int:
    """A 63-bit integer from sha256 of the parts: stable across processes, platforms and Python versions."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def option_order_for(seed: int, item_id: str, decode: int, n: int = 9) -> list[int]:
    order = list(range(n))
    random.Random(derived_int("options", seed, item_id, decode)).shuffle(order)
    return order


def assign_variant(seed: int, task: str, item_id: str, variants: Sequence[str]) -> str:
    """The paper's randomized protocol: one variant per base item, drawn with a seed."""
    return random.Random(derived_int("variant", seed, task, item_id)).choice(list(variants))


def public_api_base(api_base: str | None) -> str | None:
    """The endpoint as recorded in run.json: scheme, host, port and path; never userinfo or a query."""
    if not api_base:
        return None
    parts = urlsplit(api_base)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def default_run_dir(config: EvalConfig) -> Path:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", config.model).strip("_") or "model"
    return Path("runs") / f"{slug}-{hashlib.sha256(canonical_json(asdict(config)).encode()).hexdigest()[:10]}"


def _items(ds: Dataset, task: str) -> list[Any]:
    return list(getattr(ds, task))


def _viewpoint_role(game: GameLog, seat: int | None) -> str | None:
    if seat is None:  # observer speech item: asked from no seat, so there is no role to break down by
        return OBSERVER_ROLE
    for s in game.seats:
        if s.seat == seat:
            return s.role
    return None


# --------------------------------------------------------------------------- plan


def validate_config(config: EvalConfig) -> None:
    bad = [t for t in config.tasks if t not in TASKS]
    if bad or not config.tasks:
        raise UserError(f"--tasks: unknown task {', '.join(bad) or '(none)'}; choose from {','.join(TASKS)}")
    bad = [v for v in config.variants if v not in VARIANTS]
    if bad or not config.variants:
        raise UserError(f"--variant: unknown variant {', '.join(bad) or '(none)'}; choose from {','.join(VARIANTS)}")
    if config.protocol not in PROTOCOLS:
        raise UserError(f"--ablation-protocol: '{config.protocol}' is not one of {', '.join(PROTOCOLS)}")
    if config.decodes < 1:
        raise UserError("--decodes: must be at least 1")
    if config.limit is not None and config.limit < 1:
        raise UserError("--limit: must be at least 1")
    if not 0.0 <= config.temperature <= 2.0:
        raise UserError("--temperature: must be between 0 and 2")
    if config.max_tokens < 1:
        raise UserError("--max-tokens: must be at least 1")
    for task in config.tasks:
        if not any(task in VARIANT_TASKS[v] for v in config.variants):
            raise UserError(
                f"--variant {','.join(config.variants)}: no chosen variant applies to {task} items "
                f"(rr needs a rule reminder, which only speech items have); add base or osr, or drop {task} from --tasks"
            )


def plan_run(ds: Dataset, config: EvalConfig) -> list[Planned]:
    """Every request of the run, rendered and keyed. Raises UserError up front for missing variant data."""
    from werealign.eval.prompts import render_messages

    validate_config(config)
    plan: list[Planned] = []
    for task in config.tasks:
        items = _items(ds, task)
        if config.limit is not None:
            items = items[: config.limit]
        applicable = [v for v in config.variants if task in VARIANT_TASKS[v]]
        for item in items:
            game = ds.games.get(item.game_id)
            if game is None:
                raise UserError(f"{task} item {item.item_id}: game_id '{item.game_id}' is not in the dataset")
            if config.protocol == "randomized":
                variants = [assign_variant(config.seed, task, item.item_id, applicable)]
            else:
                variants = applicable
            for variant in variants:
                osr = ds.osr.get(item.game_id) if variant == "osr" else None
                if variant == "osr" and not osr:
                    missing = sorted({i.game_id for i in items if not ds.osr.get(i.game_id)})
                    raise UserError(
                        f"variant osr: {len(missing)} game(s) have no objective rewrites "
                        f"(variants/osr/<game_id>.jsonl), first {item.game_id} needed by {task} item {item.item_id}"
                    )
                if variant == "rr" and not getattr(item, "rule_reminder", None):
                    missing = [i.item_id for i in items if not getattr(i, "rule_reminder", None)]
                    raise UserError(
                        f"variant rr: {len(missing)} of {len(items)} speech items have no rule_reminder, "
                        f"first {item.item_id}"
                    )
                unpermuted: list[dict[str, str]] | None = None
                for decode in range(config.decodes):
                    order = None
                    if task == "speech" and config.permute:
                        order = option_order_for(config.seed, item.item_id, decode, len(item.options))
                    if order is None and unpermuted is not None:
                        messages = unpermuted  # same prompt for every decode: render once
                    else:
                        messages = render_messages(game, item, variant=variant, osr=osr, option_order=order)
                        if order is None:
                            unpermuted = messages
                    params = {
                        "temperature": config.temperature,
                        "max_tokens": config.max_tokens,
                        "seed": derived_int("decode", config.seed, task, item.item_id, decode) % (2**31),
                    }
                    key = request_key(config.model, params, messages, decode)
                    plan.append(Planned(config.model, task, item, game, variant, decode, order, messages, params, key))
    if not plan:
        raise UserError(f"nothing to evaluate: the dataset has no {'/'.join(config.tasks)} items")
    return plan


# --------------------------------------------------------------------------- run.json


def dataset_record(ds: Dataset, config: EvalConfig) -> dict[str, Any]:
    root = ds.root or bundled_sample_path()
    return {
        "path": config.dataset,  # as given; null = the bundled sample
        "name": ds.manifest.name,
        "version": ds.manifest.version,
        "manifest_sha256": sha256_file(root / "dataset.json"),
        "content_sha256": content_sha256(root),
    }


def content_sha256(root: Path) -> str:
    """sha256 over the files eval reads (games, items, rewrites), by relative path.

    The manifest's hash alone identifies the data only while the manifest tells the truth; an item edited
    by hand afterwards must not be scored, or a run resumed, under the old identity.
    """
    h = hashlib.sha256()
    for path in sorted([*root.glob("games/*.json"), *root.glob("items/*.jsonl"), *root.glob("variants/osr/*.jsonl")]):
        h.update(f"{path.relative_to(root).as_posix()}\0{sha256_file(path)}\0".encode())
    return h.hexdigest()


def versions_record() -> dict[str, Any]:
    from werealign.eval.prompts import PROMPT_VERSION, templates_hash

    try:
        litellm_version = metadata.version("litellm")
    except metadata.PackageNotFoundError:
        litellm_version = None
    return {
        "werealign": __version__,
        "litellm": litellm_version,
        "prompt_version": PROMPT_VERSION,
        "templates_sha256": templates_hash(),
    }


def run_record(ds: Dataset, config: EvalConfig, execution: Execution) -> dict[str, Any]:
    cfg = asdict(config)
    cfg["tasks"] = list(config.tasks)
    cfg["variants"] = list(config.variants)
    ex = asdict(execution)
    ex["api_base"] = public_api_base(execution.api_base)
    return {
        "format": RUN_FORMAT,
        "config": cfg,
        "execution": ex,
        "dataset": dataset_record(ds, config),
        "versions": versions_record(),
    }


def config_from_record(record: dict[str, Any], where: str) -> EvalConfig:
    """The EvalConfig a run.json holds, type-checked field by field (the file may have been edited by hand)."""
    from pydantic import TypeAdapter, ValidationError

    cfg = record.get("config") if isinstance(record, dict) else None
    if not isinstance(cfg, dict):
        raise UserError(f"{where}: not a werealign run.json (no config object)")
    hints = typing.get_type_hints(EvalConfig)
    unknown = sorted(set(cfg) - set(hints))
    if unknown:
        raise UserError(f"{where}: config.{unknown[0]}: not a setting of this werealign version")
    values: dict[str, Any] = {}
    for name, value in cfg.items():
        try:
            # strict: "3" is not 3 and "speech" is not a list of tasks; JSON arrays stand for the tuples.
            values[name] = TypeAdapter(hints[name]).validate_python(tuple(value) if isinstance(value, list) else value, strict=True)
        except ValidationError as e:
            raise UserError(f"{where}: config.{name}: {e.errors()[0]['msg']} (got {value!r})") from None
    try:
        config = EvalConfig(**values)
    except TypeError as e:  # a required setting is missing
        raise UserError(f"{where}: not a werealign run.json (config: {e})") from None
    try:
        validate_config(config)
    except UserError as e:
        raise UserError(f"{where}: config: {e}") from None
    return config


def check_resumable(run_dir: Path, record: dict[str, Any]) -> list[str]:
    """A run directory may only be resumed by the run that made it (same config and dataset).

    Other package or prompt versions are fine to resume with (a warning is returned): requests are keyed by
    their messages, so a prompt whose text changed is simply asked again and its old reply is not scored,
    while every unchanged prompt keeps the reply already paid for.
    """
    path = run_dir / RUN_JSON
    if not path.exists():
        if (run_dir / STORE_NAME).exists():
            raise UserError(f"{run_dir}: has {STORE_NAME} but no {RUN_JSON}; use another --out")
        if run_dir.is_dir() and any(run_dir.iterdir()):
            raise UserError(f"{run_dir}: --out is a non-empty directory that is not a werealign run; use another --out")
        return []
    old = read_json(path)
    for part in ("config", "dataset"):
        if not isinstance(old, dict) or old.get(part) != record[part]:
            diff = _first_difference(old.get(part) if isinstance(old, dict) else None, record[part])
            raise UserError(
                f"{path}: this directory holds a different run ({part}{diff} differs); "
                "use another --out, or --overwrite to start it afresh"
            )
    if old.get("versions") != record["versions"]:
        diff = _first_difference(old.get("versions"), record["versions"])
        return [
            f"{path}: versions{diff} differs from the installed werealign; resuming with the installed one "
            "(prompts whose text changed are asked again, every other stored reply is reused)"
        ]
    return []


def _first_difference(old: Any, new: Any) -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new)):
            if old.get(k) != new.get(k):
                return f".{k}"
    return ""


@contextmanager
def exclusive(run_dir: Path) -> Iterator[None]:
    """One `werealign eval` at a time per run directory: a second one would send, and pay for, the same
    missing requests. An advisory lock on the directory itself (no lock file to leave behind; the OS
    releases it when the process dies, so it is never stale)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock; the store still keeps one answer per request
        yield
        return
    fd = os.open(run_dir, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise UserError(
                f"{run_dir}: another `werealign eval` is running on this run directory; wait for it to finish "
                "(it resumes the same way) or use another --out"
            ) from None
        yield
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- execute


ProgressHooks = Any  # werealign.eval.progress.Progress (duck-typed to keep this module display-free)


async def execute(
    todo: Sequence[Planned],
    store: Store,
    *,
    acompletion: Callable[..., Any],
    model: str,
    kwargs: dict[str, Any],
    execution: Execution,
    cost_of: Callable[[Any], float | None],
    progress: ProgressHooks | None = None,
    seed: int = 0,
) -> list[Outcome]:
    """Send every planned request with at most `max_connections` in flight; store each on arrival."""
    policy = RetryPolicy(
        max_attempts=execution.max_attempts,
        timeout=execution.timeout,
        backoff_base=execution.backoff_base,
        backoff_max=execution.backoff_max,
    )
    queue: Iterator[Planned] = iter(todo)
    outcomes: list[Outcome] = []
    on_event = progress.event if progress is not None else (lambda event: None)
    loop = asyncio.get_running_loop()
    # One writer thread: a worker waits until its response is committed before taking the next request
    # (durable on arrival), while the event loop keeps serving the other connections during the commit.
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="werealign-store")

    async def worker(index: int) -> None:
        rng = random.Random(derived_int("jitter", seed, index))  # jitter only; never affects results
        for p in queue:  # a shared iterator: each planned request is taken by exactly one worker
            outcome = await call_with_retries(
                acompletion,
                model=model,
                messages=p.messages,
                kwargs={**kwargs, **p.params},
                policy=policy,
                rng=rng,
                cost_of=cost_of,
                on_event=on_event,
            )
            await loop.run_in_executor(writer, store.put, stored_row(p, outcome))
            outcomes.append(outcome)
            if progress is not None:
                progress.done(outcome)

    n_workers = max(1, min(execution.max_connections, len(todo)))
    try:
        await asyncio.gather(*(worker(i) for i in range(n_workers)))
    finally:
        writer.shutdown(wait=True)  # every response handed to the writer is committed before we return
    return outcomes


def stored_row(p: Planned, outcome: Outcome) -> StoredResponse:
    # The request as sent, minus transport settings (api_base, api_key never get here).
    request = {"model": p.model, "params": p.params, "messages": p.messages, "decode": p.decode}
    return StoredResponse(
        key=p.key,
        request=request,
        status="ok" if outcome.ok else "error",
        response=outcome.text,
        usage=outcome.usage,
        cost=outcome.cost,
        latency=outcome.latency,
        error_class=outcome.error_class,
        error_message=outcome.error_message,
        attempts=outcome.attempts,
        finish_reason=outcome.finish_reason,
    )


def litellm_cost(resp: Any) -> float | None:
    """litellm's price for a response, or None when it has no price for the model (never guessed)."""
    hidden = getattr(resp, "_hidden_params", None) or {}
    if "response_cost" in hidden:
        cost = hidden.get("response_cost")
        return float(cost) if isinstance(cost, int | float) else None
    from werealign.eval.llm import import_litellm

    try:
        return float(import_litellm().completion_cost(completion_response=resp))
    except Exception:  # noqa: BLE001 - unknown model or provider: cost is unknown, not zero
        return None


# --------------------------------------------------------------------------- samples


def build_samples(plan: Sequence[Planned], stored: dict[str, StoredResponse]) -> tuple[list[dict[str, Any]], int]:
    """One sample per planned request that has a stored outcome; returns (samples, missing count)."""
    from werealign.eval.answers import parse_reply

    samples = []
    missing = 0
    for p in plan:
        row = stored.get(p.key)
        if row is None:
            missing += 1
            continue
        gold = sorted(p.item.answer) if p.task == "opponent" else p.item.answer
        sample: dict[str, Any] = {
            "task": p.task,
            "item_id": p.item.item_id,
            "game_id": p.item.game_id,
            "dimension": getattr(p.item, "dimension", None),
            "viewpoint_seat": p.item.viewpoint_seat,
            "viewpoint_role": _viewpoint_role(p.game, p.item.viewpoint_seat),
            "variant": p.variant,
            "decode": p.decode,
            "option_order": p.option_order,
            "key": p.key,
            "gold": gold,
            "reply": row.response if row.ok else None,
            "answer": None,
            "correct": None,
            "parse_error": None,
            "request_error": None if row.ok else f"{row.error_class}: {row.error_message}",
            "attempts": row.attempts,
            "finish_reason": row.finish_reason if row.ok else None,
            "prompt_tokens": (row.usage or {}).get("prompt_tokens") if row.ok else None,
            "completion_tokens": (row.usage or {}).get("completion_tokens") if row.ok else None,
            "cost": row.cost if row.ok else None,
            "latency": row.latency,
        }
        if row.ok:
            parsed = parse_reply(row.response, p.item, p.option_order)
            answer = list(parsed.answer) if isinstance(parsed.answer, tuple) else parsed.answer
            sample["answer"] = answer
            sample["parse_error"] = parsed.error
            sample["correct"] = is_correct(p.task, answer, gold)
        samples.append(sample)
    samples.sort(key=lambda s: (TASKS.index(s["task"]), s["item_id"], VARIANTS.index(s["variant"]), s["decode"]))
    return samples, missing


def write_outputs(run_dir: Path, record: dict[str, Any], plan: Sequence[Planned], stored: dict[str, StoredResponse]) -> dict[str, Any]:
    samples, missing = build_samples(plan, stored)
    results = {
        "format": RUN_FORMAT,
        "model": record["config"]["model"],
        "dataset": record["dataset"],
        "versions": record["versions"],
        **score_samples(samples, planned=len(plan)),
    }
    write_jsonl(run_dir / SAMPLES, samples)
    write_json(run_dir / RESULTS, results)
    return results


# --------------------------------------------------------------------------- entry points


def run_eval(
    config: EvalConfig,
    execution: Execution,
    *,
    out: Path | None = None,
    overwrite: bool = False,
    progress_factory: Callable[[int, int], ProgressHooks] | None = None,
) -> RunSummary:
    ds = load_dataset(Path(config.dataset) if config.dataset else None)
    plan = plan_run(ds, config)
    record = run_record(ds, config, execution)
    run_dir = out if out is not None else default_run_dir(config)
    if run_dir.exists() and not run_dir.is_dir():
        raise UserError(f"{run_dir}: --out exists and is not a directory")
    if overwrite or not (run_dir / STORE_NAME).exists():
        # A fresh run sends everything (so litellm is imported anyway): refuse a model litellm cannot route
        # before a run directory is made, or emptied, for it. A resumed run already passed this check.
        from werealign.eval.builtin_models import check_model_name

        check_model_name(config.model, execution.api_base)
    make_parent(run_dir / RUN_JSON)
    # Everything that reads or changes the directory happens under the lock: --overwrite must not empty
    # a directory another eval is still writing to.
    with exclusive(run_dir):
        if overwrite:
            for name in (RUN_JSON, STORE_NAME, f"{STORE_NAME}-wal", f"{STORE_NAME}-shm", SAMPLES, RESULTS):
                (run_dir / name).unlink(missing_ok=True)
        warnings = check_resumable(run_dir, record)
        write_json(run_dir / RUN_JSON, record)

        with Store(run_dir / STORE_NAME) as store:
            ok = store.ok_keys()
            todo: list[Planned] = []
            seen: set[str] = set()
            for p in plan:
                if p.key not in ok and p.key not in seen:
                    seen.add(p.key)
                    todo.append(p)
            unique = len({p.key for p in plan})
            outcomes: list[Outcome] = []
            if todo:
                outcomes = _send(todo, store, config, execution, progress_factory, unique)
            stored = store.load()
        results = write_outputs(run_dir, record, plan, stored)
    errors = [o for o in outcomes if not o.ok]
    first = f"{errors[0].error_class}: {errors[0].error_message}" if errors else None
    return RunSummary(
        run_dir=run_dir,
        planned=len(plan),
        unique_requests=unique,
        cached=unique - len(todo),
        sent=len(todo),
        request_errors=results["totals"]["request_errors"],
        results=results,
        first_error=first,
        all_failed=bool(todo) and len(errors) == len(todo) and len(ok) == 0,
        warnings=warnings,
    )


def _send(
    todo: list[Planned],
    store: Store,
    config: EvalConfig,
    execution: Execution,
    progress_factory: Callable[[int, int], ProgressHooks] | None,
    unique: int,
) -> list[Outcome]:
    from werealign.eval.builtin_models import max_connections_hint, resolve_model
    from werealign.eval.llm import import_litellm

    hint = max_connections_hint(config.model)
    if hint is not None and execution.max_connections > hint:
        # A CPU-bound local server answers one request at a time; more would only queue and time out.
        execution = replace(execution, max_connections=hint)
    litellm = import_litellm()
    with resolve_model(config.model, execution.api_base) as (model, extra):
        kwargs = {"drop_params": True, **extra}
        progress = progress_factory(unique, unique - len(todo)) if progress_factory else None
        try:
            if progress is not None:
                progress.start()
            return asyncio.run(
                execute(
                    todo,
                    store,
                    acompletion=litellm.acompletion,
                    model=model,
                    kwargs=kwargs,
                    execution=execution,
                    cost_of=litellm_cost,
                    progress=progress,
                    seed=config.seed,
                )
            )
        finally:
            if progress is not None:
                progress.stop()


def score_run(run_dir: Path, *, dataset: Path | None = None) -> RunSummary:
    """Recompute samples.jsonl and results.json from run.json + responses.sqlite; no model is called."""
    if not (run_dir / RUN_JSON).is_file():
        raise UserError(f"{run_dir}: not a run directory (no {RUN_JSON})")
    record = read_json(run_dir / RUN_JSON)
    if not isinstance(record, dict) or record.get("format") != RUN_FORMAT:
        raise UserError(f"{run_dir / RUN_JSON}: not a werealign run.json (format must be {RUN_FORMAT})")
    config = config_from_record(record, str(run_dir / RUN_JSON))
    ds_path = dataset if dataset is not None else (Path(config.dataset) if config.dataset else None)
    if dataset is None and ds_path is not None and not ds_path.is_dir():
        # run.json keeps --dataset as it was given (no machine path in outputs), so a relative path only
        # resolves from the directory eval ran in.
        raise UserError(
            f"{run_dir / RUN_JSON}: config.dataset {config.dataset!r} (as given to eval) is not a directory from here; "
            "pass the run's dataset with --dataset"
        )
    ds = load_dataset(ds_path)
    got = dataset_record(ds, config)
    want = record.get("dataset", {})
    for field_name in ("manifest_sha256", "content_sha256"):
        if got[field_name] != want.get(field_name):
            raise UserError(
                f"{run_dir / RUN_JSON}: dataset.{field_name} does not match the dataset at "
                f"{ds_path or 'the bundled sample'}; pass the run's dataset with --dataset"
            )
    warnings = []
    if versions_record()["templates_sha256"] != record.get("versions", {}).get("templates_sha256"):
        # Not fatal: prompts are matched by request key, so a prompt whose text did not change still finds
        # its response, and one that did change is reported as missing rather than scored against new text.
        warnings.append(
            f"{run_dir / RUN_JSON}: versions.templates_sha256 differs from the installed prompt templates; "
            "responses are matched by request key, prompts whose text changed count as missing"
        )
    plan = plan_run(ds, config)
    if not (run_dir / STORE_NAME).is_file():
        raise UserError(f"{run_dir}: no {STORE_NAME}")
    with Store(run_dir / STORE_NAME) as store:  # read-write so a WAL left by a killed run is recovered
        stored = store.load()
    results = write_outputs(run_dir, record, plan, stored)
    unique = len({p.key for p in plan})
    return RunSummary(
        run_dir=run_dir,
        planned=len(plan),
        unique_requests=unique,
        cached=sum(1 for k in {p.key for p in plan} if k in stored and stored[k].ok),
        sent=0,
        request_errors=results["totals"]["request_errors"],
        results=results,
        warnings=warnings,
    )
