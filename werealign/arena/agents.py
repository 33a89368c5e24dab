"""What an agent is: it observes its seat's view and acts on one decision at a time.

An agent is a model plus a solver. `resolve_agent(model, solver, ...)` is the ONE place names become
agents: `rule/random` and `rule/heuristic` are the built-in rule players (offline, no model call); any
other name is a litellm model string played by the LLM agent through `solver`, any solver of the
registry (werealign.solvers: single, cot, xu, sa, mg, plug-ins; `NAME:key=value,...`).

The view is the context builder's (werealign.game.visibility.build_context) at the last segment of the
game so far, from the agent's seat: an agent never receives the game log itself.
"""

from __future__ import annotations

from werealign.arena.moves import (  # noqa: F401 - the vocabulary, re-exported for the moderator loop and the tests
    BID_LEVELS,
    TEXT_KINDS,
    Action,
    Agent,
    Decision,
    claims,
    decision_rng,
    fallback,
    mentions,
    verdicts,
)
from werealign.errors import UserError
from werealign.game.visibility import Context

RULE_AGENTS = ("rule/random", "rule/heuristic")


def check_agents(models: list[str], solver: str) -> None:
    """Refuse an unknown solver (or options) or rule agent before anything is written."""
    from werealign.llm.builtin_models import answers_in_process
    from werealign.solvers import SOLVERS, get_solver, parse_spec, solver_names

    name, _ = parse_spec(solver)
    if name not in SOLVERS:
        raise UserError(f"--solver {solver}: unknown solver (choose from {', '.join(solver_names())})")
    get_solver(solver)
    for model in models:
        if model.startswith("rule/") and model not in RULE_AGENTS:
            raise UserError(f"--model {model}: unknown rule agent (choose from {', '.join(RULE_AGENTS)})")
        if answers_in_process(model):
            raise UserError(f"--model {model}: a built-in baseline answers benchmark items only, not a live game; "
                            f"use a rule agent ({', '.join(RULE_AGENTS)}) or a model")


def resolve_agent(model: str, solver: str, seed: int, caller=None, declared=(), max_tokens: int | None = None,
                  takes: bool = False, game=None, others=tuple, memory: str = "transcript", usage=None, pool=tuple) -> Agent:
    """The agent for `model` played with `solver` (see the module docstring); rule agents play by their rules."""
    check_agents([model], solver)
    if model == "rule/random":
        return RandomAgent(seed)
    if model == "rule/heuristic":
        from werealign.arena.heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    if caller is None:
        raise UserError(f"--model {model}: an LLM agent needs a model connection")
    from werealign.arena.llm_agent import DEFAULT_MAX_TOKENS, LlmAgent
    from werealign.solvers import get_solver

    return LlmAgent(model, caller, get_solver(solver), list(declared), max_tokens or DEFAULT_MAX_TOKENS, takes=takes, game=game, others=others,
                    memory=memory, usage=usage, pool=pool)


class RandomAgent:
    """Uniformly random legal moves: the floor any player should beat."""

    name = "rule/random"

    def __init__(self, seed: int):
        self.seed = seed

    def act(self, view: Context, decision: Decision) -> Action:
        rng = decision_rng(self.seed, view, decision)
        if decision.kind in TEXT_KINDS:
            target = rng.choice([s for s in view.seats if s != decision.seat])
            text = f"我还不确定，{target}号比较可疑。" if view.language == "zh" else f"I am not sure yet. Seat {target} seems suspicious to me."
            return Action(text=text, destruct=decision.may_destruct and rng.random() < 0.1)
        if decision.kind == "save":
            return Action(choice=rng.choice([decision.about, None]))
        return fallback(decision, rng)
