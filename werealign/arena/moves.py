"""The vocabulary of a move: what the moderator asks (Decision), what an agent answers (Action), the Agent
protocol, and the helpers every agent shares (a per-decision random generator, a legal fallback move,
reading claims and verdicts off a turn). Rule and LLM agents build on it (werealign.arena.agents)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Protocol

from werealign.game.visibility import Context
from werealign.schema.roles import RoleCatalogue
from werealign.text.seat_mentions import mentions as seat_mentions

TEXT_KINDS = ("wolf_chat", "speak", "last_words", "campaign")
BID_LEVELS = (0, 1, 2, 3, 4)  # Werewolf Arena's four-plus-one levels of wanting the floor


@dataclass(frozen=True)
class Decision:
    """One thing the moderator asks of a seat. `candidates` are the legal choices; `none_ok`: may pass."""

    # wolf_chat, kill, check, protect, save, poison, shoot, bid, speak, vote, last_words; with a sheriff: run,
    # campaign, withdraw, sheriff_vote, order (the neighbour who speaks first), badge; take (white wolf king)
    kind: str
    seat: int
    day: int
    candidates: tuple[int, ...] = ()
    none_ok: bool = False
    about: int | None = None  # the seat a decision is about (the witch's save: tonight's victim)
    mentioned: bool = False  # bid: the last speaker named this seat
    may_destruct: bool = False  # speak: a wolf may end the day by self-destructing


@dataclass
class Action:
    choice: int | None = None
    text: str = ""
    estimates: dict[int, str] = field(default_factory=dict)  # seat -> "wolf"/"good", when the agent guesses roles
    ratings: dict[int, dict[str, int]] = field(default_factory=dict)  # seat -> {role: 0-4}, when the agent rates roles (sa)
    destruct: bool = False  # speak: self-destructs after the turn
    failed: bool = False  # the reply could not be read; a fallback was played
    unreadable_steps: int = 0  # a solver's intermediate replies it could not read (xu's question pick, ...), went on without
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
        return Action(text="")  # the moderator puts its "nothing to add" line in the board's language
    options = list(decision.candidates) + ([None] if decision.none_ok else [])
    return Action(choice=rng.choice(options) if options else None)


# --------------------------------------------------------------------------- reading the table
# Both languages the moderator speaks (werealign.arena.lines): "Seat 3" / "3号", "I am the seer" / "我是预言家",
# "Seat 3 is a werewolf" / "3号是狼人" (a seer's 查杀 = checked wolf, 金水 = checked good).

CLAIM_RE = re.compile(r"\bI(?:'m| am) (?:the |a )?([a-z][a-z ]{1,24}?)\b(?=[.,;!]|$| and )|我是(?:一?个|一名)?([\u4e00-\u9fff]{1,5}?)(?=[，,。.；;！!]|$)", re.I | re.M)
VERDICT_RE = re.compile(r"\bseat\s*(\d{1,2})\b[^.]*?\b(?:is|was)\s+(?:a |an )?(werewolf|wolf|good|innocent|villager)\b"
                        r"|(\d{1,2})\s*号[^。，,；;]*?(?:是|为)?(狼人|狼|查杀|好人|金水)", re.I)
WOLF_WORDS = ("wolf", "狼", "查杀")


def claims(text: str, catalogue: RoleCatalogue) -> list[str]:
    """The role ids a turn claims ("I am the seer", "我是预言家"), read through the names of the game's role catalogue
    (`catalogue_for(view.rules.declared_roles)`: a role the board declares is claimed by its own names)."""
    out = []
    for m in CLAIM_RE.finditer(text):
        role = catalogue.canonical((m.group(1) or m.group(2) or "").strip())
        if role is not None:
            out.append(role)
    return out


def verdicts(text: str) -> list[tuple[int, str]]:
    """(seat, 'wolf'|'good') a turn states about seats, e.g. 'Seat 3 is a werewolf', '3号是狼人'."""
    out = []
    for m in VERDICT_RE.finditer(text):
        seat, word = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        out.append((int(seat), "wolf" if any(w in word.lower() for w in WOLF_WORDS) else "good"))
    return out


def mentions(text: str) -> set[int]:
    """The seats a turn names, in any form (werealign.text.seat_mentions: "3号", "３号", "三号", "player 3"): the bid's
    "named by the last speaker", as analyze reads a turn."""
    return {m.seat for m in seat_mentions(text)}
