"""What the built-in agent solvers share: their step prompts (versioned templates in
render/templates/<lang>/solvers/), the task prompt they build on, and retrieval over what it shows.

Every step starts from the task's own prompt (`State.messages`), which the context builder already cut
to what the viewpoint could know at the cut-off. A step adds only its instruction, the model's earlier
replies, lines of that same prompt (retrieval) or turns of *other* games (experience): nothing of the
item's game reaches a model that the task's prompt does not already show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from werealign.render.prompt_templates import render_template, template_language
from werealign.solvers.base import State
from werealign.text_similarity import TfidfIndex


def language(state: State) -> str:
    return template_language(getattr(state.game, "language", "en") or "en")


def instruction(state: State, name: str, **kw: Any) -> str:
    """A step's instruction in the game's language (templates/<lang>/solvers/<name>.v1.j2)."""
    return render_template(language(state), f"solvers/{name}", **kw)


def extended(state: State, *notes: str) -> list[dict[str, str]]:
    """The task's prompt with text appended to its last (user) message."""
    *head, last = state.messages
    return [*head, {**last, "content": "\n\n".join([last["content"], *[n for n in notes if n]])}]


def shown_lines(state: State) -> list[str]:
    """The lines of the task's prompt that carry the game (turns, events): what retrieval may return."""
    text = state.messages[-1]["content"]
    return [ln.strip() for ln in text.splitlines() if len(ln.strip()) > 12]


def retrieve(query: str, lines: Sequence[str], k: int, *, index: TfidfIndex | None = None) -> list[str]:
    """The k lines most similar to `query` (TF-IDF over character n-grams, any language), in their order.
    `index`: the lines already fitted (a solver asking several questions of one prompt fits it once)."""
    if not lines or k < 1:
        return []
    scores = (index or TfidfIndex(lines)).cosines(query)
    best = sorted(range(len(lines)), key=lambda i: (-scores[i], i))[:k]
    return [lines[i] for i in sorted(best) if scores[i] > 0]
