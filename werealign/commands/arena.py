"""`werealign arena`: models play Werewolf against each other; each game becomes a werealign game log."""

from __future__ import annotations

from pathlib import Path

import typer

from werealign.schema.runs import DEFAULT_SOLVER


def arena_command(
    model: list[str] = typer.Option(..., "--model", help="A model (litellm string) or rule/random, rule/heuristic; repeat for a tournament."),
    games: int = typer.Option(..., "--games", min=1, help="Games per pairing (sides alternate); one model: self-play games."),
    seed: int = typer.Option(0, "--seed", help="Deals the seats and every random move: same seed, same games (default 0, as eval)."),
    out: Path = typer.Option(..., "--out", help="Arena directory: dataset, arena.json, traces/, responses.sqlite."),
    solver: str = typer.Option(DEFAULT_SOLVER, "--solver", help="How a model plays a decision: any solver (single, cot, xu, sa, mg, ...; NAME:key=value)."),
    board: str = typer.Option("arena8", "--board", help="A shipped board (werealign list), a board .json file, or a game log (its rules, sheriff, language)."),
    debate: str | None = typer.Option(None, "--debate", help="bid (Werewolf Arena) or round-robin; default: the board's."),
    memory: str = typer.Option("transcript", "--memory", help="What a model sees of earlier days: transcript (all of it) or summaries "
                               "(its own notes of each day, one request per seat and day: Werewolf Arena's memory)."),
    poll_votes: bool = typer.Option(False, "--poll-votes", help="After every debate turn ask each seat whom it would vote for "
                                    "(Werewolf Arena's voting entropy per turn; one request per seat and turn)."),
    self_play: bool = typer.Option(False, "--self-play", help="Also play each model against itself (--games times)."),
    max_tokens: int | None = typer.Option(None, "--max-tokens", min=8, help="Reply budget of a choice (talk: 4x); default 128."),
    api_base: str | None = typer.Option(None, "--api-base", help="Endpoint of an OpenAI-compatible server."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not use the shared response cache."),
    max_failed: float = typer.Option(0.2, "--max-failed", min=0.0, max=1.0,
                                     help="Exit 1 when a model's unreadable moves (played as a random legal move) exceed this fraction (checked after "
                                     "each game: the rest are not played); 1: never."),
    parallel: int = typer.Option(1, "--parallel", min=1, help="Games played at once (they share --max-connections); the games "
                                 "are the same whatever it is."),
    max_connections: int = typer.Option(16, "--max-connections", min=1, help="Requests in flight at once, every game and model together."),
    pool_every: int = typer.Option(10, "--pool-every", min=1, help="Games that share one experience pool (xu, mg): each group learns "
                                   "from the games of the groups before it (MetaGPT's protocol: 10); at most this many play at once."),
) -> None:
    """Play a tournament; a rerun with the same arguments replays the stored replies."""
    from werealign.arena.run import run_arena
    from werealign.errors import UserError

    if debate not in (None, "bid", "round-robin"):
        raise UserError(f"--debate {debate}: choose bid or round-robin")
    if memory not in ("transcript", "summaries"):
        raise UserError(f"--memory {memory}: choose transcript or summaries")
    r = run_arena(model, games=games, seed=seed, out=out, board=board, solver=solver, debate=debate, self_play=self_play, memory=memory, poll_votes=poll_votes, max_tokens=max_tokens, api_base=api_base,
                  use_cache=not no_cache, parallel=parallel, max_connections=max_connections, pool_every=pool_every, max_failed=max_failed,
                  on_game=lambda line: print(line, flush=True))
    for name, row in r.summary["models"].items():
        g, w = row["good"], row["wolf"]
        print(f"{name}: village won {g['wins']}/{g['games']}, wolves won {w['wins']}/{w['games']}")
        if row.get("unreadable"):
            print(f"  {row['unreadable']} of {row['decisions']} moves unreadable (played at random)")
        if row.get("unreadable_steps"):
            print(f"  {row['unreadable_steps']} solver steps unreadable (the move was made without them)")
        if row.get("flagged_games"):
            share = f"{r.summary['fallback_flag']:.0%}"
            print(f"  flagged: {len(row['flagged_games'])} games with over {share} of its moves unreadable")
    if r.sent or r.summary["games"] and any(g["requests"] for g in r.summary["games"]):
        if r.cost is None:
            print("the games' requests cost: unknown (no price for the model)")
        else:
            print(f"the games' requests cost ${r.cost:.4f}, ${r.spent or 0:.4f} of it sent in this run")
    print(f"wrote {len(r.summary['games'])} games, {r.vote_items} VA and {r.opponent_items} OI items "
          f"({r.sent} new model requests) to:")
    print(f"  {r.out}")
    problems = r.unreadable(max_failed)
    if problems:
        raise UserError(problems[0])
