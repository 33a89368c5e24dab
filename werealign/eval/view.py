"""`werealign view`: one run as one self-contained HTML page, like `inspect view`.

Every sample with its prompt, each step of its solver (the messages come from responses.sqlite by the
step's request key), the reply, the parsed answer and the score; filters by task, dimension and outcome.
Reads the run files only through the run-output models, so runs of every format version open.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from werealign.errors import UserError
from werealign.eval import rundir
from werealign.files import atomic_write_text, describe_validation_error, read_json, read_jsonl
from werealign.llm.store import STORE_NAME, Store, StoredResponse
from werealign.schema.runs import SampleRow, read_results, read_sample_row
from werealign.tasks import results_shapes

TEMPLATE = Path(__file__).with_name("templates") / "view.html.j2"


OUTCOMES = ("correct", "wrong", "unparsable", "error")


def outcome_of(row: SampleRow) -> str:
    """A reply that could not be read is its own outcome: it scores as wrong, but says nothing about the choice."""
    if row.request_error:
        return "error"
    if row.parse_error:
        return "unparsable"
    return "correct" if row.correct else "wrong"


def _by_item(samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The samples grouped by item and variant (its decodes together), in the order they come."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for s in samples:
        r = s["row"]
        group = groups.setdefault((r.task, r.item_id, r.variant), {"row": r, "samples": [], "outcomes": Counter()})
        group["samples"].append(s)
        group["outcomes"][s["outcome"]] += 1
    for group in groups.values():
        scores = [s["row"].score for s in group["samples"] if s["row"].score is not None]
        group["score"] = 100 * sum(scores) / len(scores) if scores else None
    return list(groups.values())


def _answer(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _steps(row: SampleRow, requests: dict[str, StoredResponse]) -> list[dict[str, Any]]:
    """The row's steps with their messages; a row written before solvers is one step under its key."""
    steps = [s.model_dump() for s in row.steps] if row.steps is not None else [
        {"name": "answer", "kind": "model", "key": row.key, "output": row.reply, "error": row.request_error,
         "prompt_tokens": row.prompt_tokens, "completion_tokens": row.completion_tokens, "cost": row.cost}]
    for step in steps:
        stored = requests.get(step["key"]) if step.get("key") else None
        step["messages"] = stored.request.get("messages") if stored is not None else None
    return steps


def view_page(run_dir: Path) -> str:
    """The page's HTML."""
    from jinja2 import Environment, select_autoescape

    record = rundir.read_record(run_dir)
    path = run_dir / rundir.SAMPLES
    if not path.is_file():
        raise UserError(f"{run_dir}: no {rundir.SAMPLES}; `werealign score {run_dir}` writes it from the stored replies")
    rows: list[SampleRow] = []
    for lineno, data in read_jsonl(path):
        try:
            rows.append(read_sample_row(data))
        except ValidationError as e:
            raise UserError(f"{path}:{lineno}: {describe_validation_error(e)}") from None
    requests: dict[str, StoredResponse] = {}
    if (run_dir / STORE_NAME).is_file():
        with Store(run_dir / STORE_NAME, readonly=True) as store:
            requests = store.load(with_request=True)
    samples = [
        {"row": r, "outcome": outcome_of(r), "steps": _steps(r, requests), "gold": _answer(r.gold), "answer": _answer(r.answer)}
        for r in rows
    ]
    headline = []
    if (run_dir / rundir.RESULTS).is_file():
        try:
            results = read_results(read_json(run_dir / rundir.RESULTS), results_shapes())
        except ValidationError as e:
            raise UserError(f"{run_dir / rundir.RESULTS}: {describe_validation_error(e)}") from None
        headline = [(variant, task, scores.metric, scores.primary)
                    for variant, tasks in results.variants.items() for task, scores in tasks.items()]
    env = Environment(autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(TEMPLATE.read_text(encoding="utf-8"))
    return template.render(
        record=record,
        samples=samples,
        items=_by_item(samples),
        outcome_names=OUTCOMES,
        tasks=sorted({r.task for r in rows}),
        dimensions=sorted({r.dimension for r in rows if r.dimension}),
        outcomes=Counter(s["outcome"] for s in samples),
        run_name=run_dir.resolve().name,
        headline=headline,
    )


def write_view(run_dir: Path, out: Path | None = None) -> Path:
    """Write the page (default RUN/view.html) atomically and return its path."""
    target = out if out is not None else run_dir / "view.html"
    atomic_write_text(target, view_page(run_dir))
    return target
