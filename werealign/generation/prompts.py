"""Generation prompts: versioned jinja templates shipped in the wheel (werealign/generation/templates/
<stage>.v<N>.j2), the game context as text, and the annotators' example-question bank.

What the context says comes from the ONE context builder (werealign.game.visibility), as in evaluation.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from werealign.game import visibility
from werealign.render.lines import event_line, phase_label, seat_label, speaker_label
from werealign.render.phrases import faction_name, role_name
from werealign.schema import GameLog
from werealign.schema.models import DIMENSION_NAMES

# The template version each stage uses; bump the number (and add the file) to change a prompt:
# the content-keyed store then asks again only the requests whose prompt changed.
# v2: every prompt of a unit opens with the same text (system message, then the context; the stage's
# "Task:" line comes after), so a server's prompt cache reuses it from stage to stage: llama.cpp
# then processes only each prompt's tail (a local/smollm2 request fell from ~50 s to ~9 s on a busy
# CPU), and hosted providers' prefix caching applies too.
TEMPLATES = {
    "question": "question.v2",
    "negatives_m1": "negatives_m1.v2",
    "negatives_m2": "negatives_m2.v2",
    "restyle": "restyle.v2",
    "explain": "explain.v2",
    "judge": "judge.v2",
    "osr": "osr.v2",
    "neutral": "neutral.v1",
    "repair": "repair.v1",
    "system": "system.v2",
}
LANGUAGE_NAMES = {"en": "English", "zh": "Chinese (简体中文)"}
DIMENSION_GOALS = {
    "RI": "what the evidence so far says about who holds which role",
    "SJ": "the best move for the viewpoint's side right now",
    "DR": "seeing through (or carrying out) deception in what was said",
    "PS": "what to say to persuade the table",
    "CT": "weighing an alternative move against what was done, and its consequences",
}
BANK = "example_questions.md"


@cache
def _env() -> jinja2.Environment:
    root = resources.files("werealign.generation") / "templates"
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(root)), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=False, autoescape=False)


def render(stage: str, *, language: str, **variables: Any) -> tuple[str, list[dict[str, str]]]:
    """(template id, chat messages) for one stage."""
    env = _env()
    system = env.get_template(f"{TEMPLATES['system']}.j2").render(language_name=LANGUAGE_NAMES.get(language, language)).strip()
    user = env.get_template(f"{TEMPLATES[stage]}.j2").render(task=stage, **variables).strip()
    return TEMPLATES[stage], [{"role": "system", "content": system}, {"role": "user", "content": user}]


def repair_message(error: str) -> dict[str, str]:
    return {"role": "user", "content": _env().get_template(f"{TEMPLATES['repair']}.j2").render(error=error).strip()}


def prompt_version() -> str:
    """What an item's provenance.prompt_version says: every template a generated item went through."""
    return "gen:" + ",".join(TEMPLATES[s] for s in ("question", "negatives_m1", "negatives_m2", "restyle", "explain"))


def context_text(game: GameLog, ctx: visibility.Context) -> str:
    """The context as plain text: rules, own role and knowledge, public events, the transcript so far."""
    lang = game.language
    phases = {p.id: p for p in game.phases}

    def plabel(pid: str | None) -> str:
        return phase_label(phases.get(pid) if pid else None, lang)

    lines = [f"Rules: {ctx.rules_text}"]
    if ctx.viewpoint_seat is not None:
        lines.append(f"You are {seat_label(ctx.viewpoint_seat, lang)}, role: {role_name(ctx.own_role or '', lang)} "
                     f"({faction_name(ctx.own_faction or '', lang)}).")
        if ctx.allies:
            lines.append("Your known teammates: " + ", ".join(seat_label(s, lang) for s in ctx.allies))
    for ev in ctx.private_events:
        lines.append(f"[{plabel(ev.phase)}] (private) {event_line(ev, ctx.viewpoint_seat, lang)}")
    for ev in ctx.public_events:
        lines.append(f"[{plabel(ev.phase)}] {event_line(ev, ctx.viewpoint_seat, lang)}")
    lines.append("Transcript so far:")
    for u in ctx.utterances:
        cut = " …" if u.partial else ""
        lines.append(f"[{plabel(u.phase)}] {speaker_label(u.speaker, ctx.viewpoint_seat, lang)}: {u.text}{cut}")
    lines.append(f"Now: {plabel(ctx.current_phase)}")
    return "\n".join(lines)


def viewpoint_name(seat: int | None, language: str) -> str:
    return seat_label(seat, language) if seat is not None else ("an observer" if language != "zh" else "旁观者")


def dimension_vars(dimension: str) -> dict[str, str]:
    return {"dimension": dimension, "dimension_name": DIMENSION_NAMES.get(dimension, dimension),
            "dimension_goal": DIMENSION_GOALS.get(dimension, ""), "examples": example_questions(dimension)}


def _bank_text() -> str:
    """The bank ships in the wheel (force-included by pyproject.toml); in a source checkout it is read
    from annotation/, its one home."""
    packaged = resources.files("werealign.generation") / "examples" / BANK
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "annotation" / BANK
    return source.read_text(encoding="utf-8") if source.is_file() else ""


def example_questions(dimension: str) -> str:
    """The bank's section for a dimension ('## RI — ...' up to the next '## '), or a note when absent."""
    match = re.search(rf"^## {re.escape(dimension)}\b.*?$(.*?)(?=^## |\Z)", _bank_text(), flags=re.M | re.S)
    return match.group(1).strip() if match else "(no examples for this dimension)"
