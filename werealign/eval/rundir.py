"""The run directory: run.json (what the run is), resuming only the same run, the lock, and the outputs.

    <run>/run.json          RunRecord (werealign.schema.runs)
    <run>/responses.sqlite  the per-run store: the source of truth of what this run was answered
    <run>/samples.jsonl     SampleRow per planned request with a stored outcome
    <run>/results.json      Results
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import ValidationError

from werealign.version import __version__
from werealign.dataset import Dataset, bundled_sample_path, content_sha256  # noqa: F401 - content_sha256: its callers here
from werealign.errors import UserError
from werealign.eval.config import validate_config
from werealign.eval.plan import Planned, canonical_json
from werealign.eval.samples import build_samples
from werealign.eval.floors_cache import cached_floors
from werealign.eval.scoring import score_samples
from werealign.files import describe_validation_error, read_json, sha256_file, write_json, write_jsonl
from werealign.llm.store import STORE_NAME, StoredResponse
from werealign.schema.runs import DEFAULT_SOLVER, DatasetRecord, Results, RunConfig, RunExecution, RunRecord, Versions, read_run_record

RUN_JSON = "run.json"
SAMPLES = "samples.jsonl"
RESULTS = "results.json"
RUN_FILES = (RUN_JSON, STORE_NAME, f"{STORE_NAME}-wal", f"{STORE_NAME}-shm", SAMPLES, RESULTS)


def public_api_base(api_base: str | None) -> str | None:
    """The endpoint as recorded in run.json: scheme, host, port and path; never userinfo or a query."""
    if not api_base:
        return None
    parts = urlsplit(api_base)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def model_slug(model: str) -> str:
    """A model string as a directory name (openai/gpt-4o-mini -> openai_gpt-4o-mini)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("_") or "model"


def default_run_dir(config: RunConfig) -> Path:
    return Path("runs") / f"{model_slug(config.model)}-{hashlib.sha256(canonical_json(config.model_dump()).encode()).hexdigest()[:10]}"


def dataset_record(ds: Dataset, config: RunConfig) -> DatasetRecord:
    root = ds.root or bundled_sample_path()
    return DatasetRecord(
        path=config.dataset,  # as given; null = the bundled sample
        name=ds.manifest.name,
        version=ds.manifest.version,
        manifest_sha256=sha256_file(root / "dataset.json"),
        content_sha256=content_sha256(root),
    )


def asked_kinds(ds: Dataset, config: RunConfig) -> tuple[str, ...]:
    """The evaluated kinds the dataset has items of: whose templates a run's prompts come from."""
    return tuple(t for t in config.tasks if ds.items_of(t))


def versions_record(tasks: tuple[str, ...] = (), solver: str = DEFAULT_SOLVER) -> Versions:
    """The versions a run records; `tasks`: the evaluated kinds, whose own templates (another package's
    kind) count in the templates hash; `solver`: a solver other than the default adds its step templates' hash."""
    from werealign.render.prompt_templates import PROMPT_VERSION, solver_templates_hash, templates_hash
    from werealign.tasks import TASKS

    try:
        litellm_version = metadata.version("litellm")
    except metadata.PackageNotFoundError:
        litellm_version = None
    return Versions(werealign=__version__, litellm=litellm_version, prompt_version=PROMPT_VERSION, templates_sha256=templates_hash(
        TASKS[t].templates for t in tasks if t in TASKS and TASKS[t].templates is not None),
        solver_templates_sha256=None if solver == DEFAULT_SOLVER else solver_templates_hash())


def run_record(ds: Dataset, config: RunConfig, execution: RunExecution) -> RunRecord:
    return RunRecord(
        config=RunConfig(**dict(config)),
        execution=execution.model_copy(update={"api_base": public_api_base(execution.api_base)}),
        dataset=dataset_record(ds, config),
        versions=versions_record(asked_kinds(ds, config), config.solver),
    )


def read_record(run_dir: Path) -> RunRecord:
    """run.json of any format version, type-checked field by field (the file may have been edited by hand)."""
    path = run_dir / RUN_JSON
    if not path.is_file():
        raise UserError(f"{run_dir}: not a run directory (no {RUN_JSON})")
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        raise UserError(f"{path}: not a werealign run.json (no config object)")
    try:
        record = read_run_record(data)
    except ValidationError as e:
        raise UserError(f"{path}: {describe_validation_error(e)}") from None
    try:
        validate_config(record.config)
    except UserError as e:
        raise UserError(f"{path}: config: {e}") from None
    return record


def check_resumable(run_dir: Path, record: RunRecord) -> list[str]:
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
    new = record.model_dump(mode="json")
    for part in ("config", "dataset"):
        if not isinstance(old, dict) or old.get(part) != new[part]:
            diff = _first_difference(old.get(part) if isinstance(old, dict) else None, new[part])
            raise UserError(
                f"{path}: this directory holds a different run ({part}{diff} differs); "
                "use another --out, or --overwrite to start it afresh"
            )
    if old.get("versions") != new["versions"]:
        diff = _first_difference(old.get("versions"), new["versions"])
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


def clear(run_dir: Path) -> None:
    """--overwrite: remove what a run wrote (and nothing else). Call under `exclusive`."""
    for name in RUN_FILES:
        (run_dir / name).unlink(missing_ok=True)


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


def write_outputs(run_dir: Path, record: RunRecord, plan: Sequence[Planned], stored: dict[str, StoredResponse]) -> Results:
    """samples.jsonl and results.json from the plan and the stored responses (both written atomically)."""
    samples, _missing = build_samples(plan, stored, record.config.solver)
    rows = [s.model_dump(mode="json") for s in samples]
    results = Results(
        model=record.config.model,
        dataset=record.dataset,
        versions=record.versions,
        **score_samples(rows, planned=len(plan), modes=record.config.modes, floors=cached_floors(plan, record.config.modes, record.dataset.content_sha256)),
    )
    write_jsonl(run_dir / SAMPLES, rows)
    write_json(run_dir / RESULTS, results)
    return results
