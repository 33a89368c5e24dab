"""Generation's prompts: versioned jinja templates (werealign/render/generation_templates/<stage>.v<N>.j2,
shipped in the wheel) and the game context as generation shows it.

One place for all wording: evaluation's templates are beside these (render/templates/), and what the
context says comes from the ONE context builder (werealign.game.visibility), as in evaluation. These
templates are not part of evaluation's `templates_hash` (they never reach an evaluated model).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import jinja2

from werealign.render.lines import event_line, phase_label, rules_for_prompt, seat_label, side, speaker_label
from werealign.render.phrases import role_name, terms
from werealign.schema import GameLog
from werealign.schema.roles import catalogue_for

if TYPE_CHECKING:  # the type only: render sits below the context builder
    from werealign.game import visibility

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


def templates_root():
    return resources.files("werealign.render") / "generation_templates"


@cache
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_root())), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=False, autoescape=False)


def render(stage: str, *, language: str, game: GameLog, **variables: Any) -> tuple[str, list[dict[str, str]]]:
    """(template id, chat messages) for one stage of `game`: the templates are English, so they name the game
    in its family's English word ("Mafia"; werealign.render.phrases: families), whatever the game's language."""
    env = _env()
    name = terms(game, "en")["game"]
    system = env.get_template(f"{TEMPLATES['system']}.j2").render(language_name=LANGUAGE_NAMES.get(language, language), game_name=name).strip()
    user = env.get_template(f"{TEMPLATES[stage]}.j2").render(task=stage, game_name=name, **variables).strip()
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

    lines = [f"Rules: {rules_for_prompt(game)}"]
    if ctx.viewpoint_seat is not None:
        # Declared roles (a game's own) are named as the game declares them, as in evaluation's prompts.
        role = role_name(ctx.own_role or "", lang, catalogue_for(game.rules.declared_roles))
        lines.append(f"You are {seat_label(ctx.viewpoint_seat, lang)}, role: {role} "
                     f"({side(ctx.own_faction or '', lang, game)}).")
        if ctx.allies:
            lines.append("Your known teammates: " + ", ".join(seat_label(s, lang) for s in ctx.allies))
    for ev in ctx.private_events:
        lines.append(f"[{plabel(ev.phase)}] (private) {event_line(ev, ctx.viewpoint_seat, lang, terms(game, lang))}")
    for ev in ctx.public_events:
        lines.append(f"[{plabel(ev.phase)}] {event_line(ev, ctx.viewpoint_seat, lang, terms(game, lang))}")
    lines.append("Transcript so far:")
    for u in ctx.utterances:
        cut = " …" if u.partial else ""
        lines.append(f"[{plabel(u.phase)}] {speaker_label(u.speaker, ctx.viewpoint_seat, lang)}: {u.text}{cut}")
    lines.append(f"Now: {plabel(ctx.current_phase)}")
    return "\n".join(lines)
