"""What an agent is: it observes its seat's view and acts on one decision at a time.

An agent is a model plus a solver. `resolve_agent(model, solver, ...)` is the ONE place names become
agents: `rule/random` and `rule/heuristic` are the built-in rule players (offline, no model call); any
other name is a litellm model string played by the LLM agent through `solver` (today `single`: one
stored request per decision; the name is kept so it can point at the solver registry later).

The view is the context builder's (werealign.game.visibility.build_context) at the last segment of the
game so far, from the agent's seat: an agent never receives the game log itself.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Protocol

from werealign.errors import UserError
from werealign.game.visibility import Context

RULE_AGENTS = ("rule/random", "rule/heuristic")
SOLVERS = ("single",)
TEXT_KINDS = ("wolf_chat", "speak", "last_words")
BID_LEVELS = (0, 1, 2, 3, 4)  # Werewolf Arena's four-plus-one levels of wanting the floor


@dataclass(frozen=True)
class Decision:
    """One thing the moderator asks of a seat. `candidates` are the legal choices; `none_ok`: may pass."""

    kind: str  # wolf_chat, kill, check, protect, save, poison, shoot, bid, speak, vote, last_words
    seat: int
    day: int
    candidates: tuple[int, ...] = ()
    none_ok: bool = False
    about: int | None = None  # the seat a decision is about (the witch's save: tonight's victim)
    mentioned: bool = False  # bid: the last speaker named this seat


@dataclass
class Action:
    choice: int | None = None
    text: str = ""
    estimates: dict[int, str] = field(default_factory=dict)  # seat -> "wolf"/"good", when the agent guesses roles
    failed: bool = False  # the reply could not be read; a fallback was played
    key: str | None = None  # the stored request behind it, if any


class Agent(Protocol):
    name: str

    def act(self, view: Context, decision: Decision) -> Action: ...


def check_agents(models: list[str], solver: str) -> None:
    """Refuse an unknown solver or rule agent before anything is written."""
    if solver not in SOLVERS:
        raise UserError(f"--solver {solver}: unknown solver (choose from {', '.join(SOLVERS)})")
    for model in models:
        if model.startswith("rule/") and model not in RULE_AGENTS:
            raise UserError(f"--model {model}: unknown rule agent (choose from {', '.join(RULE_AGENTS)})")


def resolve_agent(model: str, solver: str, seed: int, caller=None, declared=(), max_tokens: int | None = None) -> Agent:
    """The agent for `model` played with `solver` (see the module docstring)."""
    check_agents([model], solver)
    if model == "rule/random":
        return RandomAgent(seed)
    if model == "rule/heuristic":
        from werealign.arena.heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    if caller is None:
        raise UserError(f"--model {model}: an LLM agent needs a model connection")
    from werealign.arena.llm_agent import LlmAgent

    return LlmAgent(model, caller, list(declared), *([max_tokens] if max_tokens else []))


def decision_rng(seed: int, view: Context, decision: Decision) -> random.Random:
    """A fresh generator per decision: the same game state and seed give the same move, whatever came before."""
    return random.Random(f"{seed}|{view.game_id}|{decision.seat}|{decision.kind}|{decision.day}|{view.cutoff_segment}")


def fallback(decision: Decision, rng: random.Random) -> Action:
    """A legal move made without judgement: a random candidate (or a pass), a zero bid, a plain line."""
    if decision.kind == "bid":
        return Action(choice=rng.choice(BID_LEVELS))
    if decision.kind in TEXT_KINDS:
        return Action(text="I have nothing to add.")
    options = list(decision.candidates) + ([None] if decision.none_ok else [])
    return Action(choice=rng.choice(options) if options else None)


class RandomAgent:
    """Uniformly random legal moves: the floor any player should beat."""

    name = "rule/random"

    def __init__(self, seed: int):
        self.seed = seed

    def act(self, view: Context, decision: Decision) -> Action:
        rng = decision_rng(self.seed, view, decision)
        if decision.kind in TEXT_KINDS:
            target = rng.choice([s for s in view.seats if s != decision.seat])
            return Action(text=f"I am not sure yet. Seat {target} seems suspicious to me.")
        if decision.kind == "save":
            return Action(choice=rng.choice([decision.about, None]))
        return fallback(decision, rng)


# --------------------------------------------------------------------------- reading the table

SEAT_RE = re.compile(r"\b(?:seat|player)\s*(\d{1,2})\b", re.I)
CLAIM_RE = re.compile(r"\bI(?:'m| am) (?:the |a )?(seer|doctor|guard|witch|hunter|villager)\b", re.I)
VERDICT_RE = re.compile(r"\bseat\s*(\d{1,2})\b[^.]*?\b(?:is|was)\s+(?:a |an )?(werewolf|wolf|good|innocent|villager)\b", re.I)


def claims(text: str) -> list[str]:
    return [m.group(1).lower() for m in CLAIM_RE.finditer(text)]


def verdicts(text: str) -> list[tuple[int, str]]:
    """(seat, 'wolf'|'good') a turn states about seats, e.g. 'Seat 3 is a werewolf'."""
    return [(int(m.group(1)), "wolf" if "wolf" in m.group(2).lower() else "good") for m in VERDICT_RE.finditer(text)]


def mentions(text: str) -> set[int]:
    return {int(m.group(1)) for m in SEAT_RE.finditer(text)}
