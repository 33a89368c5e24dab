"""`xu`: Xu et al., "Exploring Large Language Models for Communication Games: An Empirical Study on Werewolf".

One sample, as the paper builds one response (its Fig. 2 and Table 4), every model call a stored step:

1. memory (python): the recent-message window (the last `window` turns the prompt shows: freshness) and
   the informative messages (`informative` lines of the prompt ranked by the paper's rules, A.1:
   the viewpoint learning its role 5, an elimination or death 4, a turn naming a role (a claim or a
   guess) 3, a skill used (the paper's potions) 2, anything else 1);
2. `select`: the model chooses `questions` questions from the role-specific set (the shared questions
   plus its role's, A.2; a role the set does not name takes its side's: wolves the werewolf questions,
   everyone else the villager ones) and, 3. `ask`, asks `own` questions of its own;
4. `question-N`: each question answered from the `excerpts` lines of the prompt most similar to it
   (TF-IDF, werealign.solvers.retrieval; the paper uses a Sentence-BERT model);
5. `reflect`: the reflection, from the recent window, the informative messages and the answers;
6. experience (python): other games' experiences whose situation is at least `threshold` similar to the
   reflection (werealign.solvers.experience); the lowest-scored is the bad one, the `experiences`
   nearest the median the good ones; 7. `suggestion` from them (skipped when none is similar enough);
8. `answer`: the task's prompt with the reflection and the suggestion, asked for the paper's chain of thought (its
   "step-by-step thought process", then the concise response, which alone is the reply: A.5, Table 4).
A reply the solver cannot read (fewer questions picked than asked, no response marker) is noted as an
`unreadable` step, which the arena counts beside unreadable moves.

Every step prompt names the seat, the role and the phase, as the paper's do; what it quotes of the game
are lines of the task's prompt (werealign.solvers.prompting).

Defaults: five chosen questions and two of its own (the paper's prompts say both). The paper's window
size, experience cap and threshold are numbers our reference copy of it lost; the window (15) and the cap
(experience.CANDIDATES, 50) are the published paper's as we recall them, not verified here, and the
threshold is on TF-IDF's scale (not Sentence-BERT's), set from the release: with the latest turns as
query the most similar experience scores a median 0.11, and at 0.05 all but one of 30 samples find some.
"""

from __future__ import annotations

import json
import re
from typing import Any

from werealign.solvers.base import State, Steps
from werealign.solvers.experience import Experience, bad_and_good
from werealign.solvers.prompting import (
    Viewpoint,
    UNREADABLE,
    clipped,
    instruction,
    on_its_own,
    retrieve,
    shown_lines,
    think_then_answer,
    transcript_lines,
    viewpoint,
    without_thinking,
)
from werealign.solvers.retrieval import fitted

# The paper's question classes (Table 2) besides the shared one; any other role asks its side's.
QUESTION_CLASSES = ("werewolf", "villager", "seer", "witch", "guard")
OWN_ROLE, ELIMINATION, ROLE_NAMED, SKILL_USED, OTHER = 5, 4, 3, 2, 1
_NUMBERING = re.compile(r"^\s*(?:[-*•]|\(?\d{1,2}[.)、:：]?\)?)\s*")


def question_class(role: str | None, faction: str | None) -> str:
    if role in QUESTION_CLASSES:
        return role
    return "werewolf" if faction == "wolf" else "villager"


def question_set(state: State, me: Viewpoint) -> list[str]:
    text = instruction(state, "xu_question_set", kind=question_class(me.role, me.faction))
    return [q.strip() for q in text.splitlines() if q.strip()]


def informative_scores(state: State, me: Viewpoint, lines: list[str]) -> list[tuple[int, str]]:
    """(score, line) for every line of the prompt, by the paper's rules (A.1). Events are recognised by their
    kind, rendered as the prompt renders them, and only on the prompt's event lines: a line scores only for
    what it shows."""
    from werealign.render.lines import event_line
    from werealign.render.phrases import role_name
    from werealign.schema.roles import catalogue_for

    lang = state.game.language
    rendered = [(ev.kind, event_line(ev, me.seat, lang)) for ev in state.game.events]
    deaths = {t for k, t in rendered if k in ("elimination", "night_outcome", "self_destruct")}
    skills = {t for k, t in rendered if k == "skill_use"}
    cat = catalogue_for(state.game.rules.declared_roles)
    names = {n.lower() for r, role in cat.roles.items() for n in (role_name(r, lang, cat), *role.names.get(lang, ())) if len(n) >= 2}
    own_given = False
    scored = []
    for line in lines:
        low = line.lower()
        event = line.startswith("- ")  # the prompt's event lines (a turn starts with its speaker)
        if not own_given and me.role_name and me.label in line and me.role_name.lower() in low:
            score, own_given = OWN_ROLE, True
        elif event and any(t and t in line for t in deaths):
            score = ELIMINATION
        elif any(n in low for n in names):
            score = ROLE_NAMED
        elif event and any(t and t in line for t in skills):
            score = SKILL_USED
        else:
            score = OTHER
        scored.append((score, line))
    return scored


def memory(state: State, me: Viewpoint, window: int, count: int) -> tuple[list[str], list[str]]:
    """The recent window and the top `count` informative lines outside it (ties: the later line first)."""
    turns = transcript_lines(state)
    recent = turns[-window:] if window else []
    seen = set(recent)
    scored = [(s, i, ln) for i, (s, ln) in enumerate(informative_scores(state, me, shown_lines(state))) if ln not in seen]
    best = sorted((x for x in scored if x[0] > OTHER), key=lambda x: (-x[0], -x[1]))[:count]
    return [clipped(ln) for ln in recent], [clipped(ln) for _, _, ln in sorted(best, key=lambda x: x[1])]


def pieces(reply: str) -> list[str]:
    """A reply's items: split at '#' (the paper's separator) and line ends, numbering and bullets dropped."""
    parts = re.split(r"[#\n]", without_thinking(reply))
    return [p for p in (_NUMBERING.sub("", x).strip() for x in parts) if p]


def chosen_questions(reply: str, candidates: list[str], n: int) -> tuple[list[str], int]:
    """The candidates the reply names (by number or by wording), in its order, then the first unchosen ones
    up to n when it named fewer (returned with how many were filled in)."""
    index = fitted(candidates)
    chosen: list[str] = []
    for part in re.split(r"[#\n]", without_thinking(reply)):
        part = part.strip()
        number = re.fullmatch(r"\D{0,12}?(\d{1,2})\W*", part)
        if number and 1 <= int(number.group(1)) <= len(candidates):
            pick = candidates[int(number.group(1)) - 1]
        else:
            body = _NUMBERING.sub("", part)
            scores = index.cosines(body) if body else []
            best = max(range(len(candidates)), key=lambda i: (scores[i], -i)) if scores else None
            pick = candidates[best] if best is not None and scores[best] >= 0.5 else None
        if pick is not None and pick not in chosen:
            chosen.append(pick)
    chosen = chosen[:n]
    filled = [q for q in candidates if q not in chosen][: n - len(chosen)]
    return chosen + filled, len(filled)


async def solve(state: State, steps: Steps, *, questions: int = 5, own: int = 2, excerpts: int = 5, window: int = 15,
                informative: int = 5, experiences: int = 3, threshold: float = 0.05) -> str:
    me = viewpoint(state)
    recent, picked = memory(state, me, window, informative)
    steps.note("memory", json.dumps({"recent": recent, "informative": picked}, ensure_ascii=False))
    who = {"now": me.now, "me": me.label, "role": me.role_name}
    candidates = question_set(state, me)
    reply = await steps.ask("select", on_its_own(state, instruction(
        state, "xu_select", **who, recent=recent, informative=picked, questions=candidates, n=min(questions, len(candidates)))))
    selected, filled = chosen_questions(reply, candidates, min(questions, len(candidates)))
    reply = await steps.ask("ask", on_its_own(state, instruction(state, "xu_ask", **who, recent=recent, informative=picked,
                                                                 selected=selected, n=own)))
    asked = [q for q in pieces(reply) if q not in selected][:own]
    steps.note("questions", json.dumps({"selected": selected, "filled_in": filled, "own": asked}, ensure_ascii=False))
    if filled:  # counted (werealign.arena's trace and summary), not silently the first questions of the set
        steps.note(UNREADABLE, json.dumps({"step": "select", "why": f"{filled} of {len(selected)} questions not read from the reply",
                                           "used": "the first unchosen questions of the set"}))
    lines = shown_lines(state)
    index = fitted(lines) if lines else None
    answers = []
    for i, question in enumerate([*selected, *asked]):
        found = [clipped(ln) for ln in retrieve(question, lines, excerpts, index=index)]
        answer = await steps.ask(f"question-{i + 1}", on_its_own(state, instruction(state, "xu_answer", **who, question=question, excerpts=found)))
        answers.append((question, without_thinking(answer)))
    reflection = without_thinking(await steps.ask("reflect", on_its_own(state, instruction(
        state, "xu_reflect", **who, recent=recent, informative=picked, answers=answers))))
    bad, good = bad_and_good(state, reflection, experiences, threshold)
    steps.note("experience", json.dumps({"threshold": threshold, "bad": bad and shown(bad), "good": [shown(e) for e in good]}, ensure_ascii=False))
    suggestion = ""
    if bad is not None and good:
        suggestion = without_thinking(await steps.ask("suggestion", on_its_own(state, instruction(
            state, "xu_experience", **who, reflection=reflection, bad=bad, good=good))))
    return await think_then_answer(state, steps, [("reflection", reflection), ("suggestion", suggestion)])


def shown(e: Experience) -> dict[str, Any]:
    return {"game": e.game_id, "seat": e.seat, "phase": e.phase, "score": e.score, "won": e.won, "similarity": e.similarity, "text": e.text,
            **({"reflection": e.reflection, "instruction": e.instruction} if e.reflection else {})}


def calls(options: dict[str, Any]) -> int:
    """At most: select, ask, every question, reflect, suggestion, answer."""
    return int(options["questions"]) + int(options["own"]) + 5
