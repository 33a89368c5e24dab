"""`werealign arena`: schedule the tournament, connect each model once, play every game, write DIR."""

from __future__ import annotations

import asyncio
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werealign.arena.agents import check_agents, resolve_agent
from werealign.arena.board import load_board
from werealign.arena.llm_agent import Caller, Usage
from werealign.arena.tournament import Match, flagged, moves_by_model, play_all, schedule, summary
from werealign.arena.writer import write_arena
from werealign.llm import builtin_models
from werealign.llm.client import RetryPolicy, litellm_cost
from werealign.llm.call_engine import Engine
from werealign.llm.store import STORE_NAME, Store
from werealign.files.output_dir import claim_directory


@dataclass
class ArenaResult:
    out: Path
    summary: dict
    vote_items: int
    opponent_items: int
    seconds: dict[str, float] = field(default_factory=dict)  # game id -> wall time (not written: not reproducible)
    sent: int = 0

    def unreadable(self, max_failed: float | None) -> list[str]:
        """One line per model whose unreadable moves exceed `max_failed` (None: only a model none of whose moves
        could be read): the run is then a failure, whatever its games say."""
        out = []
        for name, row in self.summary["models"].items():
            n, bad = row.get("decisions", 0), row.get("unreadable", 0)
            if n and (bad == n if max_failed is None else bad > max_failed * n):
                limit = "every move" if max_failed is None else f"over --max-failed {max_failed:g}"
                out.append(f"{name}: {bad} of {n} moves unreadable ({bad / n:.0%}, {limit}); its games measure the fallback, not the model")
        return out


def run_arena(models: list[str], *, games: int, seed: int, out: Path, board: str = "arena8", solver: str = "single",
              debate: str | None = None, self_play: bool = False, memory: str = "transcript", poll_votes: bool = False, max_tokens: int | None = None, api_base: str | None = None, acompletion: Any = None, use_cache: bool = True,
              on_game=lambda line: None) -> ArenaResult:
    """Play the tournament into `out`. `acompletion` replaces litellm's (tests pass a fake one)."""
    b = load_board(board)
    update = {k: v for k, v in (("debate", debate), ("poll_votes", poll_votes or None)) if v is not None}
    if update:
        b = type(b)(name=b.name, spec=b.spec.model_copy(update=update), catalogue=b.catalogue, abilities=b.abilities)
    matches = schedule(models, games, seed, b, self_play)
    llms = [m for m in dict.fromkeys(models) if not m.startswith("rule/")]
    check_agents(models, solver)
    for m in llms:
        builtin_models.check_model_name(m, api_base)
    # DIR is new, empty, or an earlier arena run's (resumed from its store): never someone else's files.
    claim_directory(out, command="arena")
    loop = asyncio.new_event_loop()
    with ExitStack() as stack:
        store = stack.enter_context(Store(out / STORE_NAME)) if llms else None  # rule agents call no model
        callers = {m: _connect(stack, m, store, loop, api_base, acompletion, use_cache) for m in llms}

        finished: list = []  # the games played so far: a solver's experience pool (State.others), as in eval

        def agent_for(model: str, match: Match, role: str):
            takes = (a := b.ability(role)) is not None and a.action == "take"
            return resolve_agent(model, solver, match.seed, callers.get(model), b.spec.declared_roles, max_tokens,
                                 takes=takes, others=lambda: tuple(finished), memory=memory)

        results, traces, seconds = [], {}, {}
        before = {m: _copy(c.usage) for m, c in callers.items()}
        started = time.perf_counter()
        for match, played in play_all(b, matches, agent_for):
            used = {m: _minus(c.usage, before[m]) for m, c in callers.items()}
            before = {m: _copy(c.usage) for m, c in callers.items()}
            usage = {"requests": sum(u.requests for u in used.values()), "tokens": sum(u.tokens for u in used.values())}
            results.append((match, played, usage))
            finished.append(played.game)
            traces[played.game.game_id] = played.trace
            seconds[played.game.game_id] = round(time.perf_counter() - started, 2)
            started = time.perf_counter()
            sent = sum(u.sent for u in used.values())
            on_game(f"{played.game.game_id}: {played.game.winner or 'no'} side won, {usage['requests']} requests "
                    f"({sent} new), {seconds[played.game.game_id]:.1f}s")
            for model, counts in moves_by_model(played.trace).items():
                if counts["unreadable"]:
                    on_game(f"  {model}: {counts['unreadable']} of {counts['decisions']} moves unreadable, played at random"
                            + (" (flagged)" if flagged(counts) else ""))
        loop.close()
    table = summary(b, results)
    vote, opponent = write_arena(out, [p.game for _, p, _ in results], traces, table, name=f"arena-{b.name}-s{seed}")
    return ArenaResult(out, table, vote, opponent, seconds, sum(c.usage.sent for c in callers.values()))


def _connect(stack: ExitStack, model: str, store: Store, loop, api_base, acompletion, use_cache: bool) -> Caller:
    from werealign.llm.cache import ResponseCache, cache_enabled

    if acompletion is None:
        from werealign.llm.loader import import_litellm

        routed, extra = stack.enter_context(builtin_models.resolve_model(model, api_base))
        fn, extra = import_litellm().acompletion, {"drop_params": True, **extra}
    else:
        fn, routed, extra = acompletion, model, {}
    cache = stack.enter_context(ResponseCache(api_base)) if use_cache and cache_enabled() else None
    engine = Engine(store, acompletion=fn, model=routed, kwargs=extra, policy=RetryPolicy(), cost_of=litellm_cost, cache=cache,
                    priced=not builtin_models.is_builtin(model)).start()
    stack.callback(engine.stop)  # before the store closes: the stack unwinds in reverse
    return Caller(model=model, engine=engine, loop=loop)


def _copy(u: Usage) -> Usage:
    return Usage(u.requests, u.sent, u.tokens, u.cost)


def _minus(a: Usage, b: Usage) -> Usage:
    return Usage(a.requests - b.requests, a.sent - b.sent, a.tokens - b.tokens, None)
