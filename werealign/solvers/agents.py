"""The published Werewolf agent designs as solvers: each a composition of stored steps over the task's prompt.

- `cot`: reason, then answer (two calls).
- `self-consistency`: `samples` solutions, the majority answer (the first is the plain prompt's request).
- `sa` (Strategy Adaptation, Nakamori et al.): every other seat's role on the paper's 5-point scale,
  then a Support/Attack strategy with its reason, then the answer; the estimates are scored against
  the truth (a python step `estimation`; results.json `estimation`: the paper's Est accuracy).
- `xu` (Xu et al., "Exploring LLMs for Communication Games"): a fixed question set answered from the
  viewpoint's visible history by retrieval (one call per question); the answers are the reflection
  that retrieves, from an experience pool of other games scored as in the paper, one likely bad and
  a few likely good experiences, from which one call draws a suggestion; then the answer.
- `mg` (MetaGPT's werewolf): reflect on the situation, retrieve experience like it from other games,
  then act.

Each step's wording is a template (render/templates/<lang>/solvers/). See prompting.py for why no
step can show a model more of the item's game than the task's prompt does.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from werealign.solvers.base import Solver, State, Steps
from werealign.solvers.experience import bad_and_good, winners_like
from werealign.solvers.prompting import extended, instruction, retrieve, shown_lines
from werealign.text_similarity import TfidfIndex


async def _final(state: State, steps: Steps, notes: list[tuple[str, str]]) -> str:
    return await steps.ask("answer", extended(state, instruction(state, "final", notes=notes)))


# --------------------------------------------------------------------------- cot, self-consistency


async def _cot(state: State, steps: Steps) -> str:
    thought = await steps.ask("reason", extended(state, instruction(state, "cot_reason")))
    return await _final(state, steps, [("reasoning", thought)])


async def _self_consistency(state: State, steps: Steps, *, samples: int = 5, temperature: float = 0.7) -> str:
    from werealign.llm.keys import derived_int
    from werealign.tasks import parse_reply

    replies = []
    for i in range(samples):
        # The first is the task's own request (a plain run's reply is reused); the others are sampled.
        params = None if i == 0 else {"temperature": temperature, "seed": derived_int("self-consistency", state.key, i) % 2**31}
        replies.append(await steps.ask(f"sample-{i + 1}", state.messages, params=params))
    answers = [parse_reply(r, state.item, state.option_order, game=state.game, mode=state.mode).answer for r in replies]
    keys = [None if a is None else json.dumps(a, sort_keys=True, default=str) for a in answers]
    votes = Counter(k for k in keys if k is not None)
    if not votes:
        steps.note("vote", f"no readable answer in {samples} samples")
        return replies[0]
    best = max(votes, key=lambda k: (votes[k], -keys.index(k)))  # ties: the earliest answer
    steps.note("vote", f"{votes[best]} of {samples} samples: {best}")
    return replies[keys.index(best)]


# --------------------------------------------------------------------------- sa


_SCORE = re.compile(r"([^\s,;:：，；=]+(?:\s[^\s,;:：，；=\d]+)*)\s*[=:：]?\s*([1-5])\b")
_SEAT_LINE = re.compile(r"^\W*(?:seat|player)?\s*(\d{1,2})\s*(?:号|號)?\s*[:：\-]\s*(.+)$", re.I)


def _roles_shown(state: State) -> list[tuple[str, str]]:
    """(role id, name in the game's language) of the board's cards: public in Werewolf (the rules deal them)."""
    from werealign.render.phrases import role_name
    from werealign.schema.roles import catalogue_for
    from werealign.solvers.prompting import language

    catalogue = catalogue_for(state.game.rules.declared_roles)
    ids = sorted({s.role for s in state.game.seats if s.role})
    return [(r, role_name(r, language(state), catalogue)) for r in ids]


def read_estimates(reply: str, roles: list[tuple[str, str]], seats: set[int]) -> dict[int, str]:
    """Seat -> the role rated highest on its line (a tie: no guess), from lines like 'Seat 3: werewolf 5, seer 1'."""
    by_name = {name.lower(): rid for rid, name in roles} | {rid.lower(): rid for rid, _ in roles}
    guesses: dict[int, str] = {}
    for line in reply.splitlines():
        m = _SEAT_LINE.match(line.strip().strip("*-• "))
        if not m or int(m.group(1)) not in seats:
            continue
        scores: dict[str, int] = {}
        for name, score in _SCORE.findall(m.group(2)):
            rid = by_name.get(name.strip().lower())
            if rid is not None:
                scores[rid] = max(scores.get(rid, 0), int(score))
        if scores:
            top = max(scores.values())
            best = [r for r, v in scores.items() if v == top]
            if len(best) == 1:
                guesses[int(m.group(1))] = best[0]
    return guesses


async def _sa(state: State, steps: Steps) -> str:
    me = getattr(state.item, "viewpoint_seat", None)
    others = [s.seat for s in state.game.seats if s.seat != me]
    roles = _roles_shown(state)
    estimates = await steps.ask("estimate", extended(state, instruction(state, "sa_estimate", seats=others, roles=[n for _, n in roles])))
    guesses = read_estimates(estimates, roles, set(others))
    truth = {s.seat: s.role for s in state.game.seats}
    # Scored here, against the truth, and recorded as a python step: the truth never enters a prompt.
    correct = sum(1 for seat in others if guesses.get(seat) == truth.get(seat))
    steps.note("estimation", json.dumps({"correct": correct, "total": len(others), "guesses": {str(k): v for k, v in sorted(guesses.items())}},
                                        ensure_ascii=False, sort_keys=True))
    strategy = await steps.ask("strategy", extended(state, instruction(state, "sa_strategy", estimates=estimates)))
    return await _final(state, steps, [("estimates", estimates), ("strategy", strategy)])


# --------------------------------------------------------------------------- xu, mg


async def _xu(state: State, steps: Steps, *, questions: int = 4, excerpts: int = 6, experiences: int = 3) -> str:
    asked = [q for q in instruction(state, "xu_questions").splitlines() if q.strip()][:questions]
    lines = shown_lines(state)
    index = TfidfIndex(lines) if lines else None
    answers = []
    for i, question in enumerate(asked):
        found = retrieve(question, lines, excerpts, index=index)
        reply = await steps.ask(f"question-{i + 1}", [state.messages[0], {"role": "user", "content": instruction(
            state, "xu_question", question=question, excerpts=found)}])
        answers.append((question, reply))
    reflection = "\n".join(f"Q: {q}\nA: {a}" for q, a in answers)
    bad, good = bad_and_good(state, reflection, experiences)
    steps.note("experience", json.dumps({"bad": bad and _shown(bad), "good": [_shown(e) for e in good]}, ensure_ascii=False))
    suggestion = ""
    if good:
        situation = "\n".join(lines[-excerpts:])
        suggestion = await steps.ask("suggestion", [state.messages[0], {"role": "user", "content": instruction(
            state, "xu_experience", situation=situation, bad=bad.text if bad else None, good=[e.text for e in good])}])
    return await _final(state, steps, [("reflection", reflection), ("suggestion", suggestion)])


def _shown(e) -> dict[str, Any]:
    return {"game": e.game_id, "score": e.score, "text": e.text}


async def _mg(state: State, steps: Steps, *, experiences: int = 3) -> str:
    reflection = await steps.ask("reflect", extended(state, instruction(state, "mg_reflect")))
    recalled = winners_like(state, reflection, experiences)
    steps.note("experience", json.dumps([_shown(e) for e in recalled], ensure_ascii=False))
    return await _final(state, steps, [("reflection", reflection), ("experience", "\n".join(f"- {e.text}" for e in recalled))])


def _calls(fixed: int, per: str | None = None):
    """Model calls per sample: `fixed`, plus the option `per` (at most; xu skips its suggestion without experience)."""
    def count(options: Mapping[str, Any]) -> int:
        return fixed + (int(options[per]) if per else 0)
    return count


AGENTS = (
    Solver("cot", _cot, "reason, then answer (2 calls)", calls=_calls(2)),
    Solver("self-consistency", _self_consistency, "N sampled solutions, the majority answer",
           options={"samples": 5, "temperature": 0.7}, calls=_calls(0, "samples")),
    Solver("sa", _sa, "Strategy Adaptation: rate roles, Support/Attack, answer", calls=_calls(3)),
    Solver("xu", _xu, "Xu et al.: questions by retrieval, experience, answer",
           options={"questions": 4, "excerpts": 6, "experiences": 3}, calls=_calls(2, "questions")),
    Solver("mg", _mg, "MetaGPT: reflect, recall others' experience, act (2 calls)",
           options={"experiences": 3}, calls=_calls(2)),
)
