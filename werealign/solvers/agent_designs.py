"""The published Werewolf agent designs as solvers: each a composition of stored steps over the task's prompt.

- `cot`: reason, then answer (two calls).
- `self-consistency`: `samples` solutions, the majority answer (the first is the plain prompt's request).
- `sa` (Strategy Adaptation, Nakamori et al.): werealign.solvers.sa.
- `xu` (Xu et al., "Exploring LLMs for Communication Games"): werealign.solvers.xu.
- `mg` (MetaGPT's werewolf): werealign.solvers.mg.

Each step's wording is a template (render/templates/<lang>/solvers/). See prompting.py for why no
step can show a model more of the item's game than the task's prompt does.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from werealign.solvers import mg, sa, xu
from werealign.solvers.base import Solver, State, Steps
from werealign.solvers.prompting import extended, instruction

# The work each solver reproduces, named beside its results (the leaderboard's solver-gain table).
PAPERS = {
    "cot": "Wei et al. (2022), Chain-of-Thought Prompting Elicits Reasoning in Large Language Models",
    "self-consistency": "Wang et al. (2023), Self-Consistency Improves Chain of Thought Reasoning in Language Models",
    "sa": "Nakamori et al. (2025), Strategy Adaptation in Large Language Model Werewolf Agents",
    "xu": "Xu et al. (2023), Exploring Large Language Models for Communication Games: An Empirical Study on Werewolf",
    "mg": "MetaGPT (2023), Implementing Werewolf Game in MetaGPT",
}


async def _final(state: State, steps: Steps, notes: list[tuple[str, str]]) -> str:
    return await steps.ask("answer", extended(state, instruction(state, "final", notes=notes)))


# --------------------------------------------------------------------------- cot, self-consistency


async def _cot(state: State, steps: Steps) -> str:
    thought = await steps.ask("reason", extended(state, instruction(state, "cot_reason")))
    return await _final(state, steps, [("reasoning", thought)])


async def _self_consistency(state: State, steps: Steps, *, samples: int = 5, temperature: float = 0.7) -> str:
    from werealign.llm.keys import derived_int

    if state.read is None:
        raise ValueError("self-consistency compares its samples' answers: the state carries no reader of them (State.read)")
    replies = []
    for i in range(samples):
        # The first is the task's own request (a plain run's reply is reused); the others are sampled.
        params = None if i == 0 else {"temperature": temperature, "seed": derived_int("self-consistency", state.key, i) % 2**31}
        replies.append(await steps.ask(f"sample-{i + 1}", state.messages, params=params))
    answers = [state.read(r) for r in replies]
    keys = [None if a is None else json.dumps(a, sort_keys=True, default=str) for a in answers]
    votes = Counter(k for k in keys if k is not None)
    if not votes:
        steps.note("vote", f"no readable answer in {samples} samples")
        return replies[0]
    best = max(votes, key=lambda k: (votes[k], -keys.index(k)))  # ties: the earliest answer
    steps.note("vote", f"{votes[best]} of {samples} samples: {best}")
    return replies[keys.index(best)]


def _calls(fixed: int, per: str | None = None):
    """Model calls per sample: `fixed`, plus the option `per` (what `--dry-run` falls back on; see werealign.solvers.estimate)."""
    def count(options: Mapping[str, Any]) -> int:
        return fixed + (int(options[per]) if per else 0)
    return count


AGENTS = (
    Solver("cot", _cot, "reason, then answer (2 calls)", calls=_calls(2), paper=PAPERS["cot"]),
    Solver("self-consistency", _self_consistency, "N sampled solutions, the majority answer",
           options={"samples": 5, "temperature": 0.7}, calls=_calls(0, "samples"), paper=PAPERS["self-consistency"]),
    Solver("sa", sa.solve, "Nakamori et al. (2025): evidence, 0-4 role ratings, Support/Attack, answer (3 calls)",
           calls=_calls(3), paper=PAPERS["sa"]),
    Solver("xu", xu.solve, "Xu et al. (2023): questions, retrieval, reflection, experience, answer",
           options={"questions": 5, "own": 2, "excerpts": 5, "window": 15, "informative": 5, "experiences": 3, "threshold": 0.05},
           calls=xu.calls, paper=PAPERS["xu"]),
    Solver("mg", mg.solve, "MetaGPT (2023): structured reflection, experiences won and lost (2 calls)",
           options={"experiences": 3, "threshold": 0.05}, calls=_calls(2), paper=PAPERS["mg"]),
)
