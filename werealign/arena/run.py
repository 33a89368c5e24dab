"""`werealign arena`: schedule the tournament, connect each model once, play every game, write DIR."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werealign.schema.runs import DEFAULT_SOLVER
from werealign.arena.agents import check_agents, resolve_agent
from werealign.arena.board import load_board
from werealign.arena.llm_agent import Caller, Usage
from werealign.arena.moderator import Played
from werealign.arena.tournament import FALLBACK_FLAG, Match, flagged, moves_by_model, play_match, schedule, summary
from werealign.arena.writer import write_arena
from werealign.llm import builtin_models
from werealign.llm.client import RetryPolicy, litellm_cost
from werealign.llm.call_engine import Engine
from werealign.llm.connect import connect
from werealign.llm.store import STORE_NAME, Store
from werealign.solvers.experience import recorded
from werealign.errors import UserError
from werealign.files.output_dir import claim_directory


DEFAULT_CONNECTIONS = 16  # requests in flight at once, every game and model together (eval's default)
POOL_EVERY = 10  # games that share one experience pool (MetaGPT's protocol); games of a pool may play side by side
PROGRESS_EVERY = 30.0  # seconds between the lines about the games in play
MAX_FAILED = FALLBACK_FLAG  # default bound on a model's unreadable moves: the share above which a game is flagged


@dataclass
class ArenaResult:
    out: Path
    summary: dict
    vote_items: int
    opponent_items: int
    seconds: dict[str, float] = field(default_factory=dict)  # game id -> wall time (not written: not reproducible)
    sent: int = 0
    cost: float | None = 0.0  # what the games' requests cost (stored ones included); None when a model has no price
    spent: float | None = 0.0  # of it, the requests sent in this run

    def unreadable(self, max_failed: float | None = None) -> list[str]:
        """One line per model whose unreadable moves exceed `max_failed` (default MAX_FAILED): the run is then a
        failure, whatever its games say."""
        max_failed = MAX_FAILED if max_failed is None else max_failed
        out = []
        for name, row in self.summary["models"].items():
            n, bad = row.get("decisions", 0), row.get("unreadable", 0)
            if n and bad > max_failed * n:
                limit = "every move" if bad == n else f"over --max-failed {max_failed:g}"
                out.append(f"{name}: {bad} of {n} moves unreadable ({bad / n:.0%}, {limit}); its games measure the fallback, "
                           f"not the model (its replies: {self.out / STORE_NAME}; --max-failed 1 accepts the run)")
        return out


def run_arena(models: list[str], *, games: int, seed: int, out: Path, board: str = "arena8", solver: str = DEFAULT_SOLVER,
              debate: str | None = None, self_play: bool = False, memory: str = "transcript", poll_votes: bool = False, max_tokens: int | None = None, api_base: str | None = None, acompletion: Any = None, use_cache: bool = True,
              parallel: int = 1, max_connections: int = DEFAULT_CONNECTIONS, pool_every: int = POOL_EVERY,
              max_failed: float | None = None, on_game=lambda line: None, progress_every: float = PROGRESS_EVERY) -> ArenaResult:
    """Play the tournament into `out`, up to `parallel` games at once sharing `max_connections` requests in flight.
    `acompletion` replaces litellm's (tests pass a fake one). `on_game` gets a line per finished game, and every
    `progress_every` seconds one for the games in play. With `max_failed`, a run whose finished games already hold
    more than that share of a model's moves unreadable stops before paying for the rest (a UserError; the replies
    stay stored, so a rerun replays them)."""
    if parallel < 1 or max_connections < 1 or pool_every < 1:
        raise UserError("--parallel, --max-connections and --pool-every must be at least 1")
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
    budget = asyncio.Semaphore(max_connections)  # every model's requests in flight, all games together
    with ExitStack() as stack:
        stack.callback(_stop, loop, _serve(loop))  # the last to unwind: after every engine has stopped
        store = stack.enter_context(Store(out / STORE_NAME)) if llms else None  # rule agents call no model
        callers = {m: _connect(stack, m, store, loop, api_base, acompletion, use_cache, budget) for m in llms}
        progress = _Progress(len(matches), callers, on_game)

        def play_one(match: Match, games: tuple, lived: tuple) -> tuple[Played, dict[str, Usage], float, list]:
            usage = {m: Usage() for m in llms}
            progress.begin(match.game_id, usage)
            seated = []

            def agent_for(model: str, match: Match, role: str):
                takes = (a := b.ability(role)) is not None and a.action == "take"
                seated.append(resolve_agent(model, solver, match.seed, callers.get(model), b.spec.declared_roles, max_tokens, takes=takes,
                                            others=lambda: games, memory=memory, usage=usage.get(model), pool=lambda: lived))
                return seated[-1]
            started = time.perf_counter()
            played = play_match(b, match, agent_for)
            kept = recorded(played.game, [r for agent in seated for r in getattr(agent, "records", ())])
            return played, usage, round(time.perf_counter() - started, 2), kept

        played_by: dict[str, tuple[Played, dict[str, Usage], float, list]] = {}
        finished: list = []  # games of earlier pools: a solver's experience (State.others), as in eval
        lived: list = []  # and what their reflecting agents recorded (State.pool: reflection, decision, action, outcome)
        games_pool = stack.enter_context(ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="werealign-game"))
        stack.enter_context(progress.ticking(progress_every))
        try:
            # Games share the experience of the games before their group of `pool_every` (MetaGPT's protocol: the pool
            # grows every 10 games), never of a game played beside them: the same games whatever --parallel is.
            for start in range(0, len(matches), pool_every):
                group = matches[start:start + pool_every]
                pool, experience = tuple(finished), tuple(lived)
                futures = {games_pool.submit(play_one, m, pool, experience): m for m in group}
                for future in as_completed(futures):
                    played_by[futures[future].game_id] = future.result()
                    progress.done(*played_by[futures[future].game_id][:3])
                    _stop_early(played_by, len(matches), max_failed)
                finished += [played_by[m.game_id][0].game for m in group]
                lived += [e for m in group for e in played_by[m.game_id][3]]
        except BaseException:
            for c in callers.values():  # the games still in play stop at their next decision
                c.abort.set()
            raise
    results, traces, seconds = [], {}, {}
    for match in matches:
        played, usage, secs, _ = played_by[match.game_id]
        results.append((match, played, {"requests": sum(u.requests for u in usage.values()), "tokens": sum(u.tokens for u in usage.values())}))
        traces[played.game.game_id] = played.trace
        seconds[played.game.game_id] = secs
    table = summary(b, results)
    vote, opponent = write_arena(out, [p.game for _, p, _ in results], traces, table, name=f"arena-{b.name}-s{seed}")
    return ArenaResult(out, table, vote, opponent, seconds, sum(c.usage.sent for c in callers.values()),
                       _total_cost(callers.values()), _total_cost(callers.values(), "spent"))


def _stop_early(played_by: dict, total: int, max_failed: float | None) -> None:
    """Refuse to pay for more games once the finished ones measure the fallback more than `max_failed` allows."""
    if max_failed is None or len(played_by) >= total:
        return  # the last game: the run's own check (ArenaResult.unreadable) says it, with every game written
    counts: dict[str, list[int]] = {}
    for played, *_ in played_by.values():
        for model, c in moves_by_model(played.trace).items():
            both = counts.setdefault(model, [0, 0])
            both[0] += c["unreadable"]
            both[1] += c["decisions"]
    for model, (bad, n) in sorted(counts.items()):
        if n and bad > max_failed * n:
            raise UserError(f"{model}: {bad} of {n} moves unreadable ({bad / n:.0%}, over --max-failed {max_failed:g}) in the "
                            f"{len(played_by)} games finished of {total}: stopped before paying for the rest (their replies "
                            "are stored; --max-failed 1 plays every game)")


def _serve(loop: asyncio.AbstractEventLoop) -> threading.Thread:
    """The loop every model request runs on, in its own thread: game threads hand it their solvers."""
    thread = threading.Thread(target=loop.run_forever, name="werealign-arena-loop", daemon=True)
    thread.start()
    return thread


def _stop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()


def _total_cost(callers, what: str = "cost") -> float | None:
    costs = [getattr(c.usage, what) for c in callers]
    return None if None in costs else sum(costs)


def _money(cost: float | None) -> str:
    return "unknown (no price)" if cost is None else f"${cost:.4f}"


class _Progress:
    """The lines a user watches: one per finished game (its requests, unreadable moves and cost, and the run's cost so
    far), and every few seconds one for the games in play."""

    def __init__(self, total: int, callers: dict, say) -> None:
        self.total, self.callers, self.say = total, callers, say
        self.count = 0
        self.playing: dict[str, tuple[dict[str, Usage], float]] = {}
        self.lock = threading.Lock()

    def begin(self, game_id: str, usage: dict[str, Usage]) -> None:
        with self.lock:
            self.playing[game_id] = (usage, time.perf_counter())

    def done(self, played: Played, usage: dict[str, Usage], secs: float) -> None:
        g = played.game
        with self.lock:
            self.playing.pop(g.game_id, None)
            self.count += 1
        moves = moves_by_model(played.trace)
        requests, sent = sum(u.requests for u in usage.values()), sum(u.sent for u in usage.values())
        bad, n = sum(c["unreadable"] for c in moves.values()), sum(c["decisions"] for c in moves.values())
        steps = sum(c["unreadable_steps"] for c in moves.values())
        cost = None if any(u.cost is None for u in usage.values()) else sum(u.cost or 0.0 for u in usage.values())
        spent = None if any(u.spent is None for u in usage.values()) else sum(u.spent or 0.0 for u in usage.values())
        self.say(f"[{self.count}/{self.total}] {g.game_id}: {g.winner or 'no'} side won, {secs:.1f}s")
        self.say(f"  {requests} requests ({sent} new), {bad} of {n} moves unreadable"
                 + (f", {steps} solver steps unreadable" if steps else ""))
        if self.callers:
            if cost is None:
                self.say("  cost unknown (no price for the model)")
            else:
                self.say(f"  cost {_money(cost)} ({_money(spent)} new); spent so far {_money(_total_cost(self.callers.values(), 'spent'))}")
        for model, counts in moves.items():
            if counts["unreadable"]:
                self.say(f"  {model}: {counts['unreadable']} of {counts['decisions']} moves unreadable, played at random"
                         + (" (flagged)" if flagged(counts) else ""))

    def tick(self) -> None:
        with self.lock:
            playing = sorted(self.playing.items())
        if not playing:
            return
        now = time.perf_counter()
        for gid, (us, t0) in playing:
            self.say(f"  in play: {gid}, {now - t0:.0f}s, {sum(u.requests for u in us.values())} requests, "
                     f"{sum(u.unreadable for u in us.values())} of {sum(u.moves for u in us.values())} moves unreadable")
        if self.callers and (spent := _total_cost(self.callers.values(), "spent")) is not None:
            self.say(f"  spent so far: {_money(spent)}")

    @contextmanager
    def ticking(self, every: float) -> Iterator[None]:
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(every):
                self.tick()
        thread = threading.Thread(target=run, name="werealign-arena-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()


def _connect(stack: ExitStack, model: str, store: Store, loop, api_base, acompletion, use_cache: bool, budget) -> Caller:
    from werealign.llm.cache import ResponseCache, cache_enabled

    conn = stack.enter_context(connect(model, api_base, acompletion=acompletion, check=False))  # checked before DIR was claimed
    cache = stack.enter_context(ResponseCache(api_base)) if use_cache and cache_enabled() else None
    engine = Engine(store, conn, policy=RetryPolicy(), cost_of=litellm_cost, cache=cache, budget=budget).start()
    stack.callback(engine.stop)  # before the store closes: the stack unwinds in reverse
    return Caller(model=model, engine=engine, loop=loop)

