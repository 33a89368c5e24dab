"""`mg`: MetaGPT's werewolf agent ("Implementing Werewolf Game in MetaGPT"), as its revised method has it.

1. `reflect`: the model reflects on the game state in a structured form (one JSON object: its role, every
   seat's status and believed role, the game state, its conclusion);
2. reflection (python): the object read back (or noted unreadable; the text is used either way);
3. experience (python): from the experience store of other games (werealign.solvers.experience), the
   `experiences` experiences whose situation is most like the reflection (at least `threshold` similar;
   the query is the reflection with the latest turns it reflects on), each with its outcome: wins and
   losses alike, both when both are similar enough (a loss tells the agent to act otherwise);
4. `answer`: the task's prompt with the reflection and those experiences, each as MetaGPT shows one:
   the situation, when, what the player did, the reality (that game's true roles) and the outcome; asked, as
   MetaGPT's prompt inserts it, for a step-by-step thought process before the response, which alone is the reply.
"""

from __future__ import annotations

import json
from typing import Any

from werealign.solvers.base import State, Steps
from werealign.solvers.experience import recall
from werealign.solvers.prompting import UNREADABLE, extended, instruction, think_then_answer, transcript_lines, without_thinking

KEYS = ("ROLE", "PLAYERS", "GAME_STATE", "REFLECTION")
LATEST = 3  # turns of the prompt added to the reflection as the retrieval query


def read_reflection(reply: str) -> dict[str, Any] | None:
    """The reflection's JSON object (the first `{` to the last `}`), or None when there is none."""
    text = without_thinking(reply)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        found = json.loads(text[start:end + 1])
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


async def solve(state: State, steps: Steps, *, experiences: int = 3, threshold: float = 0.05) -> str:
    from werealign.render.lines import seat_label

    reply = await steps.ask("reflect", extended(state, instruction(state, "mg_reflect")))
    reflection = without_thinking(reply)
    parsed = read_reflection(reply)
    steps.note("reflection", json.dumps({"structured": parsed is not None, "keys": sorted(parsed) if parsed else [],
                                         "missing": [k for k in KEYS if not parsed or k not in parsed]}, ensure_ascii=False))
    if parsed is None:
        steps.note(UNREADABLE, json.dumps({"step": "reflect", "why": "no JSON object in the reply", "used": "the reply as text"}))
    query = "\n".join([reflection, *transcript_lines(state)[-LATEST:]])
    recalled = recall(state, query, experiences, threshold)
    steps.note("experience", json.dumps([{"game": e.game_id, "seat": e.seat, "phase": e.phase, "won": e.won, "score": e.score,
                                          "similarity": e.similarity, "text": e.text,
                                          **({"reflection": e.reflection, "instruction": e.instruction} if e.reflection else {})}
                                         for e in recalled], ensure_ascii=False))
    shown = [{**e.__dict__, "seat_label": seat_label(e.seat, state.game.language)} for e in recalled]
    told = instruction(state, "mg_experience", experiences=shown) if shown else ""
    return await think_then_answer(state, steps, [("reflection", reflection), ("experience", told)])
