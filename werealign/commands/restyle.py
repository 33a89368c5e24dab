"""`werealign restyle DATASET --model X --out DIR`: speech options in one register (werealign/generation/restyle.py)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import typer

from werealign.commands.generate import _csv
from werealign.errors import UserError


def restyle_command(
    dataset: Path = typer.Argument(..., help="Dataset directory whose speech items are restyled."),
    model: str = typer.Option(..., "--model", help="Any litellm model string, or a built-in."),
    out: Path = typer.Option(..., "--out", help="Output directory; rerunning resumes it and pays only for what is missing."),
    games: str | None = typer.Option(None, "--games", help="Comma-separated game ids (default: every game)."),
    max_redrafts: int = typer.Option(2, "--max-redrafts", help="Redrafts of an item whose key the options-only attack still finds."),
    limit: int | None = typer.Option(None, "--limit", help="At most N items."),
    seed: int = typer.Option(0, "--seed", help="Seed recorded in provenance and sent to the model."),
    max_tokens: int = typer.Option(2048, "--max-tokens", help="Maximum completion tokens per request."),
    api_base: str | None = typer.Option(None, "--api-base", help="Any OpenAI-compatible endpoint."),
    max_connections: int = typer.Option(4, "--max-connections", help="Requests in flight at once."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the request count and cost; send nothing."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
) -> None:
    """Rewrite all nine options of every speech item into one neutral register.

    Items are written unreviewed to DIR/dataset; `werealign review DIR` shows before/after."""
    from werealign.generation.restyle import RestyleConfig, estimate, run_restyle

    if max_redrafts < 0 or max_connections < 1 or max_tokens < 1:
        raise UserError("--max-redrafts, --max-connections, --max-tokens: too small")
    if limit is not None and limit < 1:
        raise UserError("--limit: must be at least 1")
    config = RestyleConfig(model=model, dataset=str(dataset), games=_csv(games), seed=seed, max_redrafts=max_redrafts, limit=limit)
    if dry_run:
        est = estimate(config, out, max_tokens=max_tokens)
        cost = "unknown (no litellm price)" if est.cost is None else f"${est.cost:.4f}"
        print(f"{est.items} items to restyle: {est.requests} requests ({est.stored} stored),")
        print(f"at most {est.most} with every redraft; ~{est.prompt_tokens} prompt")
        print(f"+ ~{est.completion_tokens} completion tokens; estimated cost {cost}")
        print("(first drafts; each redraft round adds at most that much again)")
        return
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
    try:
        items, notes, session = run_restyle(config, out, api_base=api_base, max_connections=max_connections, max_tokens=max_tokens, quiet=quiet)
    except KeyboardInterrupt:
        print("interrupted: replies so far are stored; rerun to resume", file=sys.stderr)
        raise typer.Exit(130) from None
    flagged = sum(bool(n["flags"]) for n in notes)
    done = sum("restyled_from" in it.provenance.source_ref for it in items)
    print(f"{len(items)} items: {done} restyled, {flagged} flagged; {session.spend.sent} requests sent,")
    print(f"{session.spend.stored} reused, spend {session.cost_text()}")
    print(f"wrote {out / 'dataset'}")
    print(f"next: werealign review {out}")
