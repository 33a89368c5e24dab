"""The vocabulary of a move: what the moderator asks (Decision), what an agent answers (Action), the Agent
protocol, and the helpers every agent shares (a per-decision random generator, a legal fallback move,
reading claims and verdicts off a turn). Rule and LLM agents build on it (werealign.arena.agents)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Protocol

from werealign.game.visibility import Context

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
