"""What the built-in agent solvers share: their step prompts (versioned templates in
render/templates/<lang>/solvers/), the task prompt they build on, and what they read from it.

Every step starts from the task's own prompt (`State.messages`), which the context builder already cut
to what the viewpoint could know at the cut-off. A step adds only its instruction, the model's earlier
replies, lines of that same prompt (the recent window, rule-picked informative lines, retrieval) or turns
of *other* games (experience): nothing of the item's game reaches a model that the task's prompt does not
already show. The viewpoint's seat and role come from the item and the game, and the prompt states both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from werealign.render.phrases import terms
from werealign.render.prompt_templates import render_template, template_language
from werealign.solvers.base import State
from werealign.solvers.retrieval import Index, top

CLIP = 400  # characters of one prompt line quoted in a step (a human turn can run to thousands)
_HEADER = "### "  # a phase header of the prompt's transcript (render/templates/<lang>/context.v1.j2)
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)


def language(state: State) -> str:
    return template_language(getattr(state.game, "language", "en") or "en")


def instruction(state: State, name: str, **kw: Any) -> str:
    """A step's instruction in the game's language (templates/<lang>/solvers/<name>.v1.j2)."""
    if "terms" not in kw and getattr(state.game, "rules", None) is not None:  # the game family's words (issue 45)
        kw["terms"] = terms(state.game, language(state))
    return render_template(language(state), f"solvers/{name}", **kw)


def extended(state: State, *notes: str) -> list[dict[str, str]]:
    """The task's prompt with text appended to its last (user) message."""
    *head, last = state.messages
    return [*head, {**last, "content": "\n\n".join([last["content"], *[n for n in notes if n]])}]


def on_its_own(state: State, text: str) -> list[dict[str, str]]:
    """A step prompt that does not resend the task's prompt: its system message, then `text`."""
    head = [m for m in state.messages[:1] if m.get("role") == "system"]
    return [*head, {"role": "user", "content": text}]


def without_thinking(reply: str) -> str:
    return _THINK.sub("", reply).strip()


@dataclass(frozen=True)
class Viewpoint:
    """Who answers, as the task's prompt tells it: seat label, role and side (None: an observer), and now."""

    seat: int | None
    label: str
    role: str | None
    role_name: str | None
    faction: str | None
    now: str  # the last phase the prompt's transcript shows ("" when it shows none)


def viewpoint(state: State) -> Viewpoint:
    from werealign.render.lines import seat_label
    from werealign.render.phrases import role_name
    from werealign.schema.roles import catalogue_for

    lang = language(state)
    seat_no = getattr(state.item, "viewpoint_seat", None)
    seat = next((s for s in state.game.seats if s.seat == seat_no), None) if seat_no is not None else None
    headers = [ln[len(_HEADER):].strip() for ln in state.messages[-1]["content"].splitlines() if ln.startswith(_HEADER)]
    if seat is None:
        return Viewpoint(None, "观察者" if lang == "zh" else "an observer", None, None, None, headers[-1] if headers else "")
    name = role_name(seat.role, lang, catalogue_for(state.game.rules.declared_roles))
    return Viewpoint(seat.seat, seat_label(seat.seat, lang), seat.role, name, seat.faction, headers[-1] if headers else "")


def _game_part(state: State) -> list[str]:
    """The lines of the task's prompt that tell the game: everything before its last section (`## `), which
    asks the question (a prompt of one section is all game)."""
    lines = state.messages[-1]["content"].splitlines()
    sections = [i for i, ln in enumerate(lines) if ln.startswith("## ")]
    return lines[: sections[-1]] if len(sections) > 1 else lines


def shown_lines(state: State) -> list[str]:
    """The lines of the prompt that carry the game (rules, role, events, turns): the memory retrieval reads."""
    return [ln.strip() for ln in _game_part(state) if len(ln.strip()) > 12 and not ln.startswith("#")]


def transcript_lines(state: State) -> list[str]:
    """The turns of the prompt's transcript (from its first phase header to the next section), in order."""
    lines = _game_part(state)
    start = next((i for i, ln in enumerate(lines) if ln.startswith(_HEADER)), len(lines))
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return [ln.strip() for ln in lines[start:end] if ln.strip() and not ln.startswith("#")]


def clipped(line: str, limit: int = CLIP) -> str:
    return line if len(line) <= limit else line[: limit - 1] + "…"


def retrieve(query: str, lines: Sequence[str], k: int, *, index: Index | None = None) -> list[str]:
    """The k lines most similar to `query` (TF-IDF over character n-grams, any language), in their order."""
    return [lines[i] for i in top(query, lines, k, index=index)]


# The papers' last step (Xu et al. A.5, MetaGPT's prompt insertion): a step-by-step thought process, then the concise
# response, after a marker in the prompt's language (render/templates/<lang>/solvers/final: `think`).
RESPONSE_MARKERS = ("My concise response:", "我的简洁回应：", "我的简洁回应:")
UNREADABLE = "unreadable"  # the note a solver makes when it could not read a step's reply and went on without it


async def think_then_answer(state: State, steps: Any, notes: list[tuple[str, str]]) -> str:
    """The final chain-of-thought step: the task's prompt with `notes`, asked to think step by step and then give its
    response after the marker. Returns the response alone (the thoughts never reach the table or the scorer); a reply
    without the marker is used whole and noted unreadable."""
    reply = await steps.ask("answer", extended(state, instruction(state, "final", notes=notes, think=True)))
    text = without_thinking(reply)
    at = max(((text.rfind(m), m) for m in RESPONSE_MARKERS), key=lambda x: x[0])
    if at[0] < 0:
        steps.note(UNREADABLE, json.dumps({"step": "answer", "why": "no response marker after the thought process", "used": "the whole reply"}))
        return reply
    return text[at[0] + len(at[1]):].strip()
