"""`sa`: Strategy Adaptation (Nakamori et al., "Strategy Adaptation in Large Language Model Werewolf Agents").

1. `estimate`: the model states its evidence, then rates every other seat for every role of the board on
   the paper's 0-4 scale (0: certainly not that role ... 4: certainly that role);
2. estimation (python): the ratings read back and scored against the truth as the paper's Acc(i,j): the
   rating of seat j's true role over the sum of its ratings (werealign.eval.estimation aggregates Acc and
   Est(j) into results.json). The truth is read here and never enters a prompt;
3. `strategy`: given its estimates and the paper's criteria for its side (A.2), the model chooses Support
   or Attack; 4. choice (python): the strategy read from the reply and recorded (null when it named none);
5. `answer`: the task's prompt with the estimates, the choice and that strategy's prompt for the
   viewpoint's side (the paper's four: villagers' and werewolves' Support and Attack, A.4).

When to choose (the paper's 3.3): after each night's abilities, after each day's debate and after each day's
vote. In a live game (the arena: State.moment names the latest such point) steps 1-4 run at the seat's first
decision after a point and their result is kept for its later decisions until the next point; a standalone
sample (eval: the item is the moment) runs them every time.

The paper's sides are the villagers and the werewolves: a wolf-faction seat plays the werewolves' prompts,
every other seat (and an observer) the villagers'.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from werealign.solvers.base import State, Steps
from werealign.solvers.prompting import UNREADABLE, extended, instruction, language, viewpoint, without_thinking

SCALE = range(0, 5)
_SCORE = re.compile(r"([^\s,;:：，；=、]+(?:\s[^\s,;:：，；=、\d]+)*)\s*[=:：]?\s*(\d)\b")
_SEAT_LINE = re.compile(r"^\W*(?:seat|player)?\s*(\d{1,2})\s*(?:号|號)?\s*[:：\-]\s*(.+)$", re.I)
# The choice, in the words of the strategy templates of either language.
_CHOICE = re.compile(r"(?:strategy|策略)\s*[:：]\s*\**\s*(support|attack|支援|支持|进攻|攻击)", re.I)
MEMORY = "sa"  # State.memory's key for the strategy kept until the next point of the game
_CHOICES = {"support": "support", "支援": "support", "支持": "support", "attack": "attack", "进攻": "attack", "攻击": "attack"}


def roles_shown(state: State) -> list[tuple[str, str, int]]:
    """(role id, name in the game's language, cards dealt) of the board: public in Werewolf (the rules deal them)."""
    from werealign.render.phrases import role_name
    from werealign.schema.roles import catalogue_for

    catalogue = catalogue_for(state.game.rules.declared_roles)
    rules = state.game.rules.composition  # as the rules tell it; else the seats' cards, which make the same count
    dealt: Counter[str] = Counter()
    for rc in rules:
        dealt[rc.role] += rc.count
    if not rules:
        dealt.update(s.role for s in state.game.seats if s.role)
    return [(r, role_name(r, language(state), catalogue), n) for r, n in sorted(dealt.items())]


def read_ratings(reply: str, roles: list[tuple[str, str]], seats: set[int]) -> dict[int, dict[str, int]]:
    """Seat -> {role id: 0-4} from lines like 'Seat 3: werewolf 4, seer 0' (a role left out is not rated;
    a score off the scale is ignored; the ratings come after the evidence, so a seat's last such line counts)."""
    by_name = {name.lower(): rid for rid, name in roles} | {rid.lower(): rid for rid, _ in roles}
    ratings: dict[int, dict[str, int]] = {}
    for line in without_thinking(reply).splitlines():
        m = _SEAT_LINE.match(line.strip().strip("*-• "))
        if not m or int(m.group(1)) not in seats:
            continue
        scores = {}
        for name, score in _SCORE.findall(m.group(2)):
            rid = by_name.get(name.strip().strip("*").lower())
            if rid is not None and int(score) in SCALE:
                scores.setdefault(rid, int(score))
        if scores:
            ratings[int(m.group(1))] = scores
    return ratings


def acc(scores: dict[str, int], true_role: str | None) -> float | None:
    """The paper's Acc(i,j): the rating of the true role over the sum of the ratings; None when all are 0."""
    total = sum(scores.values())
    return None if total == 0 else scores.get(true_role or "", 0) / total


def read_choice(reply: str) -> str | None:
    found = _CHOICE.findall(without_thinking(reply))
    return _CHOICES[found[-1].lower()] if found else None


async def solve(state: State, steps: Steps) -> str:
    me = viewpoint(state)
    side = "wolf" if me.faction == "wolf" else "village"
    kept = (state.memory or {}).get(MEMORY)
    if state.moment is not None and kept is not None and kept["moment"] == state.moment:
        # No new point of the game since the last choice: the paper adapts its strategy only at its points.
        estimates, reply, choice = kept["estimates"], kept["strategy"], kept["choice"]
        steps.note("choice", json.dumps({"strategy": choice, "side": side, "kept_since": state.moment}, ensure_ascii=False))
    else:
        estimates, reply, choice = await _choose(state, steps, me, side)
        if state.memory is not None and state.moment is not None:
            state.memory[MEMORY] = {"moment": state.moment, "estimates": estimates, "strategy": reply, "choice": choice}
    prompt = instruction(state, "sa_strategy_prompt", side=side, strategy=choice) if choice else ""
    return await steps.ask("answer", extended(state, instruction(state, "final", notes=[
        ("estimates", without_thinking(estimates)), ("strategy", without_thinking(reply)), ("strategy_prompt", prompt)])))


async def _choose(state: State, steps: Steps, me, side: str) -> tuple[str, str, str | None]:
    """Estimate every other seat's role (0-4), then choose Support or Attack: (estimates, strategy reply, choice)."""
    others = [s.seat for s in state.game.seats if s.seat != me.seat]
    board = roles_shown(state)
    estimates = await steps.ask("estimate", extended(state, instruction(
        state, "sa_estimate", seats=others, roles=[n for _, n, _ in board], dealt=[(n, k) for _, n, k in board])))
    ratings = read_ratings(estimates, [(r, n) for r, n, _ in board], set(others))
    truth = {s.seat: s.role for s in state.game.seats}
    # Scored here, against the truth, and recorded as a python step: the truth never enters a prompt.
    scored = {str(seat): {"role": truth.get(seat), "ratings": ratings[seat], "acc": acc(ratings[seat], truth.get(seat))}
              for seat in others if seat in ratings}
    steps.note("estimation", json.dumps({"scale": "0-4", "rated": len(scored), "seats": len(others), "by_seat": scored},
                                        ensure_ascii=False, sort_keys=True))
    if not ratings:
        steps.note(UNREADABLE, json.dumps({"step": "estimate", "why": "no rating line read", "used": "the reply as text"}))
    reply = await steps.ask("strategy", extended(state, instruction(state, "sa_strategy", side=side, estimates=without_thinking(estimates))))
    choice = read_choice(reply)
    steps.note("choice", json.dumps({"strategy": choice, "side": side}))
    if choice is None:
        steps.note(UNREADABLE, json.dumps({"step": "strategy", "why": "no Support or Attack read", "used": "no strategy prompt"}))
    return estimates, reply, choice
