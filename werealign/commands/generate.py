"""`werealign generate DATASET --model X --out DIR`: draft unreviewed speech items (see werealign/generation/pipeline.py)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import typer

from werealign.errors import UserError
from werealign.llm.failures import check_max_failed, failed_too_often


def _csv(value: str | None) -> tuple[str, ...]:
    return tuple(p.strip() for p in (value or "").split(",") if p.strip())


def generate_command(
    dataset: Path = typer.Argument(None, help="Dataset directory whose games (and, with --redraft, items) are used (default: the bundled sample)."),
    model: str | None = typer.Option(None, "--model", help="Any litellm model string, or local/smollm2 (offline)."),
    out: Path = typer.Option(..., "--out", help="Generation directory; rerunning the same command resumes it and pays only for what is missing."),
    games: str | None = typer.Option(None, "--games", help="Comma-separated game ids (default: every game)."),
    negatives: str = typer.Option("model", "--negatives", help="model: drafted by --model; human: real utterances (the key the move the viewpoint's next turn makes, distractors from the same day, then other games of the same source); minimal: that key with its move changed (seat swapped, claim or check flipped); keys: the dataset's own items, every dimension, with the keys of other games' items as distractors; no model for these three."),
    dimensions: str = typer.Option("RI,SJ,DR,PS,CT", "--dimensions", help="Comma-separated dimensions."),
    redraft: bool = typer.Option(False, "--redraft", help="Rewrite the distractors of the dataset's existing items (question and key kept); writes the audit before and after."),
    extras_only: bool = typer.Option(False, "--extras-only", help="Keep the dataset's items as they are; fill in only what they lack: explanation, RR rule reminder, OSR rewrites."),
    osr: bool = typer.Option(True, "--osr/--no-osr", help="Also write an objective rewrite of every turn (the OSR variant)."),
    judges: int = typer.Option(3, "--judges", help="Independent answers of the self-consistency judge per item (0: no judge)."),
    limit: int | None = typer.Option(None, "--limit", help="At most N items (moments x dimensions, or items when re-drafting)."),
    seed: int = typer.Option(0, "--seed", help="Seed of option orders (recorded in every item's provenance)."),
    max_tokens: int = typer.Option(1024, "--max-tokens", help="Maximum completion tokens per request."),
    api_base: str | None = typer.Option(None, "--api-base", help="Any OpenAI-compatible endpoint, with --model openai/NAME."),
    max_connections: int = typer.Option(4, "--max-connections", help="Requests in flight at once."),
    timeout: float | None = typer.Option(None, "--timeout", help="Seconds per attempt (default: the model's own, e.g. 900 for local/smollm2; else 120)."),
    max_attempts: int | None = typer.Option(None, "--max-attempts", help="Attempts per request (429, 5xx, timeouts, connection errors; default: the model's own, else 6)."),
    max_failed: float | None = typer.Option(None, "--max-failed", help="Exit 1 when more than this fraction of the requests sent failed (0 to 1; default: only when every one failed). What was drafted is still written."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the request count and estimated cost; send nothing."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
) -> None:
    """Draft nine-way speech items at the MVP's highlighted moments (or re-draft existing ones).

    Items are written unreviewed to DIR/dataset; review them with `werealign review DIR`."""
    from werealign.audit import audit_items
    from werealign.generation.model import RetryPolicy
    from werealign.generation.pipeline import GenConfig, estimate, run_generation
    from werealign.llm.builtin_models import answers_in_process
    from werealign.schema.models import DIMENSIONS

    if negatives not in ("model", "human", "minimal", "keys"):
        raise UserError(f"--negatives: {negatives!r} is not one of model, human, minimal, keys")
    if negatives in ("human", "minimal", "keys"):
        if redraft or extras_only or dry_run:
            raise UserError(f"--negatives {negatives}: --redraft, --extras-only and --dry-run need a model; leave them out")
        if negatives == "keys":
            _keys(dataset, out, model, games, limit, seed)
        else:
            _human(dataset, out, model, games, limit, seed, minimal=negatives == "minimal")
        return
    if model is None:
        raise UserError("--model: required (or --negatives human, which needs no model)")
    if answers_in_process(model):  # before a request is sent or a dry run prices one
        raise UserError(f"--model {model}: a built-in baseline only picks among given options and cannot "
                        "draft items; use an LLM (a litellm model, or local/smollm2)")
    dims = _csv(dimensions)
    if not dims or (bad := [d for d in dims if d not in DIMENSIONS]):
        raise UserError(f"--dimensions: unknown dimension {bad[0] if dims else dimensions!r}; use some of {', '.join(DIMENSIONS)}")
    for name, value in (("--judges", judges), ("--max-connections", max_connections - 1), ("--max-tokens", max_tokens - 1)):
        if value < 0:
            raise UserError(f"{name}: too small")
    if redraft and extras_only:
        raise UserError("--redraft and --extras-only: choose one")
    if limit is not None and limit < 1:
        raise UserError("--limit: must be at least 1")
    check_max_failed(max_failed)
    from werealign.llm.model_limits import default_max_attempts, default_timeout

    timeout = default_timeout(model) if timeout is None else timeout
    max_attempts = default_max_attempts(model) if max_attempts is None else max_attempts
    if timeout <= 0 or max_attempts < 1:
        raise UserError("--timeout must be positive and --max-attempts at least 1")
    config = GenConfig(model=model, dataset=str(dataset) if dataset is not None else None, games=_csv(games), dimensions=dims, seed=seed, judges=judges,
                       osr=osr, redraft=redraft, extras_only=extras_only, limit=limit)
    if dry_run:
        est = estimate(config, out, max_tokens=max_tokens)
        cost = "unknown (litellm has no price for this model)" if est.cost is None else f"${est.cost:.4f}"
        print(f"{est.units} items to draft; at most {est.requests} requests ({est.stored} question replies already stored); "
              f"~{est.prompt_tokens} prompt + ~{est.completion_tokens} completion tokens; estimated cost {cost}")
        for line in est.skipped:
            print(f"skipped: {line}")
        return
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
    try:
        outcome, session = run_generation(config, out, api_base=api_base, max_connections=max_connections, max_tokens=max_tokens, quiet=quiet,
                                          policy=RetryPolicy(max_attempts=max_attempts, timeout=timeout), audit=audit_items)
    except KeyboardInterrupt:
        print("interrupted: the replies received so far are stored; rerun the same command to resume", file=sys.stderr)
        raise typer.Exit(130) from None
    flagged = sum(bool(n["flags"]) for n in outcome.notes)
    spend = session.spend
    print(f"{len(outcome.items)} items drafted ({flagged} flagged for the reviewer), {len(outcome.dropped)} dropped; "
          f"{spend.sent} requests sent ({spend.failed} failed), {spend.unparsable} unparsable replies, {spend.stored} replies reused, "
          f"spend {session.cost_text()}")
    too_many = failed_too_often(spend.failed, spend.sent, max_failed)
    print(f"wrote {out / 'dataset'}" + ("" if too_many else f"; next: werealign review {out}"))
    if too_many:
        raise UserError(f"{too_many} (first: {spend.first_error}); fix the cause and rerun the same command to resume")


def _keys(dataset: Path, out: Path, model: str | None, games: str | None, limit: int | None, seed: int) -> None:
    from werealign.generation.keyswap import dimension_counts, run_keyswap

    if model is not None:
        raise UserError("--negatives keys: takes no --model (every option is one of the dataset's keys)")
    if limit is not None and limit < 1:
        raise UserError("--limit: must be at least 1")
    items, dropped = run_keyswap(str(dataset) if dataset is not None else None, out, games=_csv(games), seed=seed, limit=limit)
    print(f"{len(items)} items with other games' keys as distractors {dimension_counts(items)}; {len(dropped)} items gave none")
    print(f"reasons: {out / 'dropped.jsonl'}")
    print(f"wrote {out / 'dataset'}")


def _human(dataset: Path, out: Path, model: str | None, games: str | None, limit: int | None, seed: int, *, minimal: bool = False) -> None:
    from werealign.generation.human import HumanConfig, run_human

    if model is not None:
        raise UserError(f"--negatives {'minimal' if minimal else 'human'}: takes no --model (every option is a real utterance)")
    if limit is not None and limit < 1:
        raise UserError("--limit: must be at least 1")
    outcome = run_human(HumanConfig(dataset=str(dataset) if dataset is not None else None, games=_csv(games), seed=seed, limit=limit,
                                    minimal=minimal), out)
    print(f"{len(outcome.items)} {'minimal-pair' if minimal else 'human-voiced'} items; {len(outcome.dropped)} moments gave none")
    print(f"reasons: {out / 'dropped.jsonl'}")
    print(f"wrote {out / 'dataset'}")
    print(f"next: werealign review {out}")
